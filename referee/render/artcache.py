"""What each picture of a VASSAL module depends on, for the picture cache (:mod:`referee.cache`).

A rebuild after editing one counter value should draw that counter again and nothing else.
Each picture gets a key that is the digest of exactly its inputs:

- a **counter face**: the unit's row, the module's counter settings (:data:`FACE_READS`: the
  layouts, value columns, nationalities, unit types, sides), the type sizes of the whole mix
  (one size per layout box for every counter, :mod:`referee.render.counters`), the roster
  picture's bytes if it has one, and the dpi;
- the **board**: the parts of the module :data:`BOARD_READS` names, and the dpi;
- a **chart**: the parts of the module :func:`chart_reads` names for it (a set-up card the
  roster without the counter values, :data:`ROSTER`), its name and the dpi;
- the module's **own pictures** (markers, overlays, holding boxes, the set-up area): the
  arguments or the layout they are drawn from;

each together with :func:`referee.cache.code_fingerprint` (the program, its fonts, Pillow).

A declared list of reads could fall behind the renderer, so a board, chart or face missing from the
cache is drawn from a *narrowed* module in which every field the key leaves out is replaced
by a guard that raises :class:`NotDeclared` when touched. Should the renderer read anything
undeclared, the picture is drawn again from the whole module and not stored: the cache may
then save less time, but it can never hand back a picture its key does not describe.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Final

from referee.cache import active, canonical, code_fingerprint, digest, valid_png
from referee.source.memo import per_module
from referee.source.model import Module, UnitDef

__all__ = [
    "BOARD_READS",
    "FACE_DRAW_READS",
    "FACE_READS",
    "ROSTER",
    "NotDeclared",
    "board_key",
    "cached_png",
    "chart_key",
    "chart_reads",
    "face_context",
    "face_key",
    "narrowed",
    "picture_key",
]

BOARD_READS: Final = ("id", "name", "version", "map", "nationalities", "sides")
"""The module fields the board picture is drawn from (:mod:`referee.render.board`)."""

FACE_READS: Final = ("counter", "values", "nationalities", "unit_types", "sides")
"""The module-wide fields a counter face is drawn from, besides its own row and the type
sizes of the whole mix (:mod:`referee.render.counters`)."""

ROSTER: Final = "roster"
"""A pseudo-field for :func:`narrowed` and the keys: the unit roster without the counters'
values and provenance (:data:`ROSTER_FIELDS` of every unit), which is what the set-up cards
list, so editing a counter value does not redraw them."""

ROSTER_FIELDS: Final = ("id", "side", "nationality", "category", "type", "number", "name",
                        "flags", "fleet", "count")  # fmt: skip

CHART_READS: Final = {
    "crt": ("ruleset", "tables"),
    "tec": ("ruleset", "map"),
    "sequence": ("ruleset",),
    "victory": ("map", "ruleset", "scenarios", "sides", "tables"),  # bonuses name map areas
}
"""The module fields each chart of the VASSAL module is laid out from
(:mod:`referee.render.charts`, whose wording comes from the ruleset's chart texts); the
others are :func:`chart_reads`."""


def chart_reads(name: str) -> tuple[str, ...]:
    """What chart ``name`` reads: :data:`CHART_READS`, else by its kind -- a scenario's turn
    track (``turns-<scenario>``), its set-up cards (``setup-<scenario>-<side>``, which list
    units by name, not by value: :data:`ROSTER`), or a declared table's chart. (The charts
    before it in print order are passed over by name, reading ``tables`` on the way.) Should
    a chart read more, :func:`narrowed` finds out and it is drawn uncached."""
    if name in CHART_READS:
        return CHART_READS[name]
    if name.startswith(("turns-", "setup-")):  # units named, set-up hexes counted on the map
        return ("map", "nationalities", "ruleset", "scenarios", "sides", "tables", ROSTER)
    return ("ruleset", "tables")


FACE_DRAW_READS: Final = (*FACE_READS, "units", "root")
"""What a face may read while drawn: also the roster, which reaches its key only through the
type sizes, and the folder, only for the roster picture (whose bytes are in the key)."""


class NotDeclared(Exception):
    """A renderer touched a module field its picture's key does not cover."""


class _Unread:
    """Stands for a module field a picture's key leaves out: any use raises NotDeclared."""

    __slots__ = ("_field",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "_field", name)

    def _refuse(self, *args: object, **kwargs: object) -> object:
        raise NotDeclared(self._field)

    def __getattr__(self, name: str) -> object:
        raise NotDeclared(self._field)

    __iter__ = __len__ = __getitem__ = __contains__ = __bool__ = __call__ = _refuse
    __eq__ = __lt__ = __hash__ = __str__ = __fspath__ = __format__ = _refuse

    def __repr__(self) -> str:
        return f"<module field {self._field} not in the picture's key>"


def narrowed(module: Module, reads: tuple[str, ...]) -> Module:
    """``module`` with every field not in ``reads`` replaced by a guard (see the module
    docstring). The same object for the same module and reads, so per-module caches of the
    renderer (type sizes) stay warm.

    The source folder (``root``) is never guarded: it is only where pictures are read from,
    and every picture read from it is keyed by its bytes (a map picture by the SHA-256 in
    ``map.art``, checked when it is opened; a roster picture by :func:`face_key`), so the
    folder's path would add nothing to a key but misses."""
    return per_module(module, ("narrowed", reads), lambda: _narrow(module, reads))


def _narrow(module: Module, reads: tuple[str, ...]) -> Module:
    guards: dict[str, object] = {
        f.name: _Unread(f.name)
        for f in dataclasses.fields(module)
        if f.name not in reads and f.name != "root"
    }
    if ROSTER in reads and "units" not in reads:
        guards["units"] = _roster(module)
    return dataclasses.replace(module, **guards)  # type: ignore[arg-type]


def _roster(module: Module) -> tuple[UnitDef, ...]:
    """The units with every field but :data:`ROSTER_FIELDS` guarded."""
    return tuple(
        dataclasses.replace(
            u,
            **{  # type: ignore[arg-type]
                f.name: _Unread(f"units.{f.name}")
                for f in dataclasses.fields(u)
                if f.name not in ROSTER_FIELDS
            },
        )
        for u in module.units
    )


def _field_value(module: Module, name: str) -> object:
    if name == ROSTER:
        return [[getattr(u, f) for f in ROSTER_FIELDS] for u in module.units]
    return getattr(module, name)


def read_fields(module: Module, reads: tuple[str, ...]) -> dict[str, str]:
    """The digest of each named field of ``module`` (each worked out once per module: the
    board and the terrain chart both read the 900-hex map)."""
    return {
        name: per_module(
            module, ("field_digest", name), lambda name=name: digest(_field_value(module, name))
        )
        for name in reads
    }


def board_key(module: Module, dpi: int) -> str:
    return digest("board", code_fingerprint(), dpi, read_fields(module, BOARD_READS))


def face_context(module: Module, dpi: int) -> str:
    """The part of every face's key that the whole module shares: its counter settings and
    the type size of every layout box (which one edited value can change for all).

    Working out the type sizes measures every text of the mix in several sizes; with a cache,
    the measurements of earlier builds are reused (:func:`remembered_measures`)."""
    from referee.render.counters import counter_sizings

    with remembered_measures():
        sizings = counter_sizings(module, dpi)
    sizes = {f"{name}#{i}": (s.font, s.size_px) for (name, i), s in sizings.items()}
    return digest("faces", code_fingerprint(), dpi, read_fields(module, FACE_READS), sizes)


MAX_MEASURES: Final = 100_000
"""Most text measurements kept (each a few dozen bytes)."""


@contextlib.contextmanager
def remembered_measures() -> Iterator[None]:
    """While the block runs, the counter renderer's type-size search (the largest size at
    which a text fits a box: a pure function of the text, the font and the box, given the
    shipped fonts and Pillow) answers from the measurements of earlier builds, kept in the
    active cache under the :func:`referee.cache.code_fingerprint`; new ones are added."""
    cache = active()
    if not cache.enabled:
        yield
        return
    from referee.render import counters

    original = counters.max_font_size
    key = digest("type-measures", code_fingerprint())
    known: dict[tuple[str, str, float, float], float] = {}
    read: list[int] = []  # the stored measurements are read on the first question only

    def measured(text: str, font: str, width: float, height: float) -> float:
        if not read:
            known.update(_read_measures(cache.get("measure", key)))
            read.append(len(known))
        k = (text, font, width, height)
        size = known.get(k)
        if size is None:
            size = known[k] = original(text, font, width, height)
        return size

    counters.max_font_size = measured  # type: ignore[assignment]
    try:
        yield
    finally:
        counters.max_font_size = original
    if read and read[0] < len(known) <= MAX_MEASURES:
        rows = sorted([*k, v] for k, v in known.items())
        cache.put("measure", key, json.dumps(rows, ensure_ascii=False).encode("utf-8"))


def _read_measures(data: bytes | None) -> dict[tuple[str, str, float, float], float]:
    """The stored measurements, each checked for shape and type; anything else: none."""
    if data is None:
        return {}
    try:
        rows = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    out: dict[tuple[str, str, float, float], float] = {}
    if not isinstance(rows, list):
        return {}
    for row in rows:
        if not (
            isinstance(row, list)
            and len(row) == 5
            and isinstance(row[0], str)
            and isinstance(row[1], str)
            and all(type(v) in (int, float) for v in row[2:])
        ):
            return {}
        text, font, width, height, size = row
        out[(text, font, float(width), float(height))] = float(size)
    return out


def face_key(module: Module, context: str, unit: UnitDef, back: bool) -> str:
    from referee.render.counter_images import image_path

    picture = ""
    if unit.image:
        try:
            picture = hashlib.sha256(image_path(module, unit).read_bytes()).hexdigest()
        except OSError:
            picture = "unreadable"  # the renderer reports it
    return digest("face", context, canonical(unit), back, picture)


def chart_key(module: Module, name: str, dpi: int) -> str | None:
    """The key of a chart picture: the fields :func:`chart_reads` names for it."""
    reads = chart_reads(name)
    return digest("chart", code_fingerprint(), dpi, name, read_fields(module, reads))


def picture_key(kind: str, *parts: object) -> str:
    """The key of one of the module's own pictures, drawn from ``parts`` alone."""
    return digest(kind, code_fingerprint(), *parts)


def cached_png(kind: str, parts: tuple[object, ...], draw: Callable[[], bytes]) -> bytes:
    """A picture drawn from ``parts`` alone (a marker's text and colours, a layout): from the
    active cache when those parts were drawn before, else ``draw()`` (then stored)."""
    cache = active()
    if not cache.enabled:
        return draw()
    return cache.fetch("png", picture_key(kind, *parts), draw, valid_png)
