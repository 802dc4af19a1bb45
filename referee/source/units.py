"""The unit roster CSV (``[files] units``): one row per counter design.

Checks each row against the sides, nationalities, value columns and unit types declared in
``module.toml`` and against the ruleset's schema (categories, flags).
"""

from __future__ import annotations

import re

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
    vkeys = [v.key for v in values]
    got = read_csv(ctx, name, what="unit roster", line=line, required=UNIT_COLUMNS + vkeys)
    if got is None:
        return ()
    rows, header = got
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
    schema = ctx.schema
    out: list[UnitDef] = []
    seen: dict[str, int] = {}
    total = 0
    for lineno, r in rows:
        uid = r.get("id", "")
        d = ctx.diags
        if not ID_RE.match(uid or "?!"):
            d.error(
                name,
                lineno,
                f"unit id {uid!r} must be letters, digits, '-', '_' or '.'",
                col=col_of(header, "id"),
            )
        if uid in seen:
            d.error(
                name,
                lineno,
                f"duplicate unit id {uid!r} (first on line {seen[uid]})",
                col=col_of(header, "id"),
            )
        seen[uid] = lineno
        side, nat, cat, typ = (
            r.get("side", ""),
            r.get("nationality", ""),
            r.get("category", ""),
            r.get("type", ""),
        )
        if side not in sides:
            d.error(
                name,
                lineno,
                f"unknown side {side!r}",
                col=col_of(header, "side"),
                hint=did_you_mean(side, sides),
            )
        if nat not in nats:
            d.error(
                name,
                lineno,
                f"unknown nationality {nat!r}",
                col=col_of(header, "nationality"),
                hint=did_you_mean(nat, list(nats)),
            )
        elif side in sides and nats[nat].side != side:
            d.error(
                name,
                lineno,
                f"nationality {nat!r} belongs to side {nats[nat].side!r}, not {side!r}",
                col=col_of(header, "side"),
            )
        if schema and cat not in schema.categories:
            d.error(
                name,
                lineno,
                f"unknown unit category {cat!r}",
                col=col_of(header, "category"),
                hint=did_you_mean(cat, schema.categories)
                or "categories: " + ", ".join(schema.categories),
            )
        if typ not in unit_types:
            d.error(
                name,
                lineno,
                f"unknown unit type {typ!r}",
                col=col_of(header, "type"),
                hint=did_you_mean(typ, list(unit_types))
                or "declare it with a [[unit_type]] in module.toml",
            )
        elif unit_types[typ].get("category") != cat:
            d.error(
                name,
                lineno,
                f"unit type {typ!r} is a {unit_types[typ].get('category')} "
                f"type, but the row says category {cat!r}",
                col=col_of(header, "type"),
            )
        vals: dict[str, int] = {}
        for k in vkeys:
            raw = r.get(k, "")
            n = read_whole(raw, signed=True)
            if n is None:
                d.error(
                    name,
                    lineno,
                    f"value {k} must be a whole number, got {shown(raw)}{why_not(raw)}",
                    col=col_of(header, k),
                    hint=HINT,
                )
                continue
            if not 0 <= n <= 999:
                d.error(
                    name,
                    lineno,
                    f"value {k} = {n} is out of range (0..999)",
                    col=col_of(header, k),
                )
            vals[k] = n
        count_raw = r.get("count", "")
        count = 1
        n_count = read_whole(count_raw, lo=1, hi=500)
        if n_count is None:
            d.error(
                name,
                lineno,
                f"count must be a whole number from 1 to 500, got {count_raw!r}",
                col=col_of(header, "count"),
            )
        else:
            count = n_count
        total += count
        flags = frozenset(x for x in re.split(r"[\s;|]+", r.get("flags", "")) if x)
        if schema:
            for fl in sorted(flags):
                if fl not in schema.flags:
                    d.error(
                        name,
                        lineno,
                        f"unknown flag {fl!r}",
                        col=col_of(header, "flags"),
                        hint=did_you_mean(fl, schema.flags) or "flags: " + ", ".join(schema.flags),
                    )
        image = r.get("image") or None
        if image:
            try:
                resolve_inside(ctx.root, image, what="image")
            except UnsafeInput as exc:
                d.error(name, lineno, exc.message, col=col_of(header, "image"), hint=exc.hint)
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
                flags=flags,
                fleet=r.get("fleet", ""),
                count=count,
                image=image,
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


def _face_images(row: dict[str, str]) -> tuple[str, ...]:
    """The row's own face pictures, ``(front_image, back_image)``, or ``()`` (read and
    checked with the counter sheets: :mod:`referee.source.load_sheets`)."""
    front, back = row.get("front_image") or "", row.get("back_image") or ""
    return (front, back) if front or back else ()
