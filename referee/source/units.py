"""The unit roster CSV (``[files] units``): one row per counter design.

Checks each row against the sides, nationalities, value columns and unit types declared in
``module.toml`` and against the ruleset's schema (categories, flags).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.numerals import HINT, read_whole, shown, why_not
from referee.safeio import UnsafeInput, resolve_inside
from referee.source.base import ID_RE, Ctx, col_of, read_csv
from referee.source.diagnostics import did_you_mean
from referee.source.model import Nationality, Origin, UnitDef, ValueSpec

MAX_UNITS = 20000
UNIT_COLUMNS = ["id", "side", "nationality", "category", "type", "number", "name", "count"]
UNIT_OPTIONAL = ["fleet", "flags", "image", "back", "source", "front_image", "back_image"]


def load_units(
    ctx: Ctx,
    name: str,
    line: int | None,
    sides: set[str],
    nats: dict[str, Nationality],
    values: list[ValueSpec],
    unit_types: dict[str, dict[str, str]],
) -> tuple[UnitDef, ...]:
    """The roster's rows as unit designs, each checked (every problem reported at its row
    and column); at most :data:`MAX_UNITS` counters in all."""
    vkeys = [v.key for v in values]
    got = read_csv(ctx, name, what="unit roster", line=line, required=UNIT_COLUMNS + vkeys)
    if got is None:
        return ()
    rows, header = got
    _check_header(ctx, name, header, vkeys)
    out: list[UnitDef] = []
    seen: dict[str, int] = {}
    total = 0
    for lineno, r in rows:
        at = _Row(ctx, name, lineno, header)
        uid = r.get("id", "")
        _check_id(at, uid, seen)
        side, nat, cat, typ = (r.get(k, "") for k in ("side", "nationality", "category", "type"))
        _check_side_and_nationality(at, side, nat, sides, nats)
        _check_category_and_type(at, cat, typ, unit_types)
        vals = _values(at, r, vkeys)
        count = _count(at, r.get("count", ""))
        total += count
        image = r.get("image") or None
        out.append(
            UnitDef(
                id=uid,
                side=side,
                nationality=nat,
                category=cat,
                type=typ,
                number=r.get("number", ""),
                name=r.get("name", ""),
                values=vals,
                flags=_flags(at, r.get("flags", "")),
                fleet=r.get("fleet", ""),
                count=count,
                image=_image(at, image),
                back=r.get("back") or None,
                source=r.get("source", ""),
                origin=Origin(name, lineno),
                face_images=_face_images(r),
            )
        )
    if total > MAX_UNITS:
        ctx.diags.error(name, None, f"the roster makes {total} counters; the limit is {MAX_UNITS}")
    if not rows:
        ctx.diags.error(
            name, None, "the unit roster is empty", hint="add one row per counter design"
        )
    return tuple(out)


def _check_header(ctx: Ctx, name: str, header: list[str], vkeys: list[str]) -> None:
    """A column the roster does not know is a typo."""
    known = set(UNIT_COLUMNS) | set(UNIT_OPTIONAL) | set(vkeys)
    for h in header:
        if h not in known:
            ctx.diags.error(
                name,
                1,
                f"unknown column {h!r}",
                col=header.index(h) + 1,
                hint=did_you_mean(h, known)
                or "known columns: " + ", ".join(UNIT_COLUMNS + vkeys + UNIT_OPTIONAL),
            )


@dataclass(frozen=True)
class _Row:
    """Where a row's problem is reported: the loading context, the file, the row's line."""

    ctx: Ctx
    name: str
    lineno: int
    header: list[str]

    def error(self, message: str, column: str, hint: str | None = None) -> None:
        self.ctx.diags.error(
            self.name, self.lineno, message, col=col_of(self.header, column), hint=hint
        )


def _check_id(at: _Row, uid: str, seen: dict[str, int]) -> None:
    """An id of letters, digits, '-', '_' or '.', used by one row only."""
    if not ID_RE.match(uid or "?!"):
        at.error(f"unit id {uid!r} must be letters, digits, '-', '_' or '.'", "id")
    if uid in seen:
        at.error(f"duplicate unit id {uid!r} (first on line {seen[uid]})", "id")
    seen[uid] = at.lineno


def _check_side_and_nationality(
    at: _Row, side: str, nat: str, sides: set[str], nats: dict[str, Nationality]
) -> None:
    """A declared side, and a nationality of that side."""
    if side not in sides:
        at.error(f"unknown side {side!r}", "side", hint=did_you_mean(side, sides))
    if nat not in nats:
        at.error(f"unknown nationality {nat!r}", "nationality", hint=did_you_mean(nat, list(nats)))
    elif side in sides and nats[nat].side != side:
        at.error(f"nationality {nat!r} belongs to side {nats[nat].side!r}, not {side!r}", "side")


def _check_category_and_type(
    at: _Row, cat: str, typ: str, unit_types: dict[str, dict[str, str]]
) -> None:
    """A category of the ruleset's schema, and a declared unit type of that category."""
    schema = at.ctx.schema
    if schema and cat not in schema.categories:
        at.error(
            f"unknown unit category {cat!r}",
            "category",
            hint=did_you_mean(cat, schema.categories)
            or "categories: " + ", ".join(schema.categories),
        )
    if typ not in unit_types:
        at.error(
            f"unknown unit type {typ!r}",
            "type",
            hint=did_you_mean(typ, list(unit_types))
            or "declare it with a [[unit_type]] in module.toml",
        )
    elif unit_types[typ].get("category") != cat:
        at.error(
            f"unit type {typ!r} is a {unit_types[typ].get('category')} "
            f"type, but the row says category {cat!r}",
            "type",
        )


def _values(at: _Row, r: dict[str, str], vkeys: list[str]) -> dict[str, int]:
    """The row's printed values: whole numbers from 0 to 999 (one that is no number is
    left out)."""
    vals: dict[str, int] = {}
    for k in vkeys:
        raw = r.get(k, "")
        n = read_whole(raw, signed=True)
        if n is None:
            at.error(
                f"value {k} must be a whole number, got {shown(raw)}{why_not(raw)}", k, hint=HINT
            )
            continue
        if not 0 <= n <= 999:
            at.error(f"value {k} = {n} is out of range (0..999)", k)
        vals[k] = n
    return vals


def _count(at: _Row, count_raw: str) -> int:
    """How many counters the design makes: 1 to 500 (1 when the cell is wrong)."""
    n_count = read_whole(count_raw, lo=1, hi=500)
    if n_count is None:
        at.error(f"count must be a whole number from 1 to 500, got {count_raw!r}", "count")
        return 1
    return n_count


def _flags(at: _Row, cell: str) -> frozenset[str]:
    """The row's flags (split on spaces, ';' or '|'), each one the schema declares."""
    flags = frozenset(x for x in re.split(r"[\s;|]+", cell) if x)
    schema = at.ctx.schema
    if schema:
        for fl in sorted(flags):
            if fl not in schema.flags:
                at.error(
                    f"unknown flag {fl!r}",
                    "flags",
                    hint=did_you_mean(fl, schema.flags) or "flags: " + ", ".join(schema.flags),
                )
    return flags


def _image(at: _Row, image: str | None) -> str | None:
    """The row's picture, a file inside the module folder (else reported)."""
    if image:
        try:
            resolve_inside(at.ctx.root, image, what="image")
        except UnsafeInput as exc:
            at.ctx.diags.error(
                at.name, at.lineno, exc.message, col=col_of(at.header, "image"), hint=exc.hint
            )
    return image


def _face_images(row: dict[str, str]) -> tuple[str, ...]:
    """The row's own face pictures, ``(front_image, back_image)``, or ``()`` (read and
    checked with the counter sheets: :mod:`referee.source.load_sheets`)."""
    front, back = row.get("front_image") or "", row.get("back_image") or ""
    return (front, back) if front or back else ()
