"""What each picture of a VASSAL module depends on, for the picture cache (:mod:`referee.cache`).

A rebuild after editing one counter value should draw that counter again and nothing else.
Each picture gets a key that is the digest of exactly its inputs:

- a **counter face**: the unit's row, the module's counter settings (:data:`FACE_READS`: the
  layouts, value columns, nationalities, unit types, sides), the type sizes of the whole mix
  (one size per layout box for every counter, :mod:`referee.render.counters`), the roster
  picture's bytes if it has one, and the dpi;
- the **board**: the parts of the module :data:`BOARD_READS` names, and the dpi;
- a **chart**: its laid-out vector drawing (every line, box and word) and the dpi;
- the module's **own pictures** (markers, overlays, holding boxes, the set-up area): the
  arguments or the layout they are drawn from;

each together with :func:`referee.cache.code_fingerprint` (the program, its fonts, Pillow).

A declared list of reads could fall behind the renderer, so a board or face missing from the
cache is drawn from a *narrowed* module in which every field the key leaves out is replaced
by a guard that raises :class:`NotDeclared` when touched. Should the renderer read anything
undeclared, the picture is drawn again from the whole module and not stored: the cache may
then save less time, but it can never hand back a picture its key does not describe.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from typing import Final

from referee.cache import active, canonical, code_fingerprint, digest
from referee.source.model import Module, UnitDef

__all__ = [
    "BOARD_READS",
    "FACE_DRAW_READS",
    "FACE_READS",
    "NotDeclared",
    "board_key",
    "cached_png",
    "chart_key",
    "face_context",
    "face_key",
    "narrowed",
    "picture_key",
    "valid_png",
]

BOARD_READS: Final = ("id", "name", "version", "map", "nationalities", "sides")
"""The module fields the board picture is drawn from (:mod:`referee.render.board`)."""

FACE_READS: Final = ("counter", "values", "nationalities", "unit_types", "sides")
"""The module-wide fields a counter face is drawn from, besides its own row and the type
sizes of the whole mix (:mod:`referee.render.counters`)."""

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


_NARROWED: dict[tuple[int, tuple[str, ...]], tuple[Module, Module]] = {}


def narrowed(module: Module, reads: tuple[str, ...]) -> Module:
    """``module`` with every field not in ``reads`` replaced by a guard (see the module
    docstring). The same object for the same module and reads, so per-module caches of the
    renderer (type sizes) stay warm."""
    memo_key = (id(module), reads)
    hit = _NARROWED.get(memo_key)
    if hit is not None and hit[0] is module:
        return hit[1]
    guards = {f.name: _Unread(f.name) for f in dataclasses.fields(module) if f.name not in reads}
    out = dataclasses.replace(module, **guards)  # type: ignore[arg-type]
    if len(_NARROWED) > 16:
        _NARROWED.clear()
    _NARROWED[memo_key] = (module, out)
    return out


def _fields(module: Module, reads: tuple[str, ...]) -> dict[str, object]:
    return {name: getattr(module, name) for name in reads}


def board_key(module: Module, dpi: int) -> str:
    return digest("board", code_fingerprint(), dpi, _fields(module, BOARD_READS))


def face_context(module: Module, dpi: int) -> str:
    """The part of every face's key that the whole module shares: its counter settings and
    the type size of every layout box (which one edited value can change for all)."""
    from referee.render.counters import _sizings

    sizes = {f"{name}#{i}": (s.font, s.size_px) for (name, i), s in _sizings(module, dpi).items()}
    return digest("faces", code_fingerprint(), dpi, _fields(module, FACE_READS), sizes)


def face_key(module: Module, context: str, unit: UnitDef, back: bool) -> str:
    picture = ""
    if unit.image:
        from referee.render.counters import _image_path

        try:
            picture = hashlib.sha256(_image_path(module, unit).read_bytes()).hexdigest()
        except OSError:
            picture = "unreadable"  # the renderer reports it
    return digest("face", context, canonical(unit), back, picture)


def chart_key(module: Module, name: str, dpi: int) -> str | None:
    """The key of a chart picture: its laid-out drawing. ``None`` when the drawing holds a
    raster picture (then it is simply drawn)."""
    from referee.render.charts import chart

    try:
        return digest("chart", code_fingerprint(), dpi, chart(module, name).drawing)
    except TypeError:
        return None


def picture_key(kind: str, *parts: object) -> str:
    """The key of one of the module's own pictures, drawn from ``parts`` alone."""
    return digest(kind, code_fingerprint(), *parts)


def valid_png(data: bytes) -> bool:
    """A cached picture must at least be a whole PNG (its bytes were also checked against
    their SHA-256 when read)."""
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


def cached_png(kind: str, parts: tuple[object, ...], draw: Callable[[], bytes]) -> bytes:
    """A picture drawn from ``parts`` alone (a marker's text and colours, a layout): from the
    active cache when those parts were drawn before, else ``draw()`` (then stored)."""
    cache = active()
    if not cache.enabled:
        return draw()
    return cache.fetch("png", picture_key(kind, *parts), draw, valid_png)
