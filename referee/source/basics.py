"""``module.toml`` basics: sides, nationalities, value columns, unit types, counter layout and
optional rules.

Each ``load_*`` reads one part of the already-parsed ``module.toml`` and reports problems with
the line they are on; :func:`referee.source.loader.load_module` calls them in order.
"""

from __future__ import annotations

import re
from typing import Any

from referee.source.base import (
    MODULE_FILE,
    Ctx,
    get_color,
    get_int,
    get_num,
    get_str,
    list_of_tables,
)
from referee.source.diagnostics import did_you_mean
from referee.source.model import (
    CounterLayout,
    CounterSpec,
    LayoutBox,
    Nationality,
    OptionalRule,
    Side,
    ValueSpec,
)
from referee.source.tomlpos import TomlText

# the keys each table may hold; anything else is reported (often a key written after an
# array-of-tables header by mistake, which TOML then files under that table)
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "side": ("id", "name", "color"),
    "nationality": ("code", "name", "side", "color", "text_color"),
    "value": ("key", "label", "air_label"),
    "unit_type": ("code", "category", "name", "symbol"),
    "optional_rule": ("id", "name", "text"),
}


def load_sides(ctx: Ctx, data: dict, tt: TomlText) -> list[Side]:
    out: list[Side] = []
    starts = tt.block_starts("side")
    for i, t in enumerate(list_of_tables(ctx, MODULE_FILE, data, "side", tt, KNOWN_KEYS["side"])):
        ln = starts[i] if i < len(starts) else None
        sid = get_str(ctx, MODULE_FILE, ln, t, "id", "[[side]]")
        if any(s.id == sid for s in out):
            ctx.diags.error(MODULE_FILE, ln, f"duplicate side id {sid!r}")
        out.append(
            Side(
                sid,
                get_str(ctx, MODULE_FILE, ln, t, "name", "[[side]]", default=sid),
                get_color(
                    ctx,
                    MODULE_FILE,
                    tt.key_line("color", start=ln),
                    t.get("color"),
                    f"side {sid!r} color",
                ),
            )
        )
    if len(out) < 1:
        ctx.diags.error(MODULE_FILE, None, "no [[side]] tables", hint="a game needs its sides")
    return out


def load_nationalities(
    ctx: Ctx, data: dict, tt: TomlText, sides: set[str]
) -> dict[str, Nationality]:
    out: dict[str, Nationality] = {}
    starts = tt.block_starts("nationality")
    for i, t in enumerate(
        list_of_tables(ctx, MODULE_FILE, data, "nationality", tt, KNOWN_KEYS["nationality"])
    ):
        ln = starts[i] if i < len(starts) else None
        code = get_str(ctx, MODULE_FILE, ln, t, "code", "[[nationality]]")
        side = get_str(ctx, MODULE_FILE, ln, t, "side", "[[nationality]]")
        if side and side not in sides:
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line("side", start=ln),
                f"nationality {code!r}: unknown side {side!r}",
                hint=did_you_mean(side, sides),
            )
        if code in out:
            ctx.diags.error(MODULE_FILE, ln, f"duplicate nationality code {code!r}")
        out[code] = Nationality(
            code,
            get_str(ctx, MODULE_FILE, ln, t, "name", "[[nationality]]", default=code),
            side,
            get_color(
                ctx,
                MODULE_FILE,
                tt.key_line("color", start=ln),
                t.get("color"),
                f"nationality {code!r} color",
            ),
            get_color(
                ctx,
                MODULE_FILE,
                tt.key_line("text_color", start=ln),
                t.get("text_color", "#000000"),
                f"nationality {code!r} text_color",
            ),
        )
    return out


def load_values(ctx: Ctx, data: dict, tt: TomlText) -> list[ValueSpec]:
    out: list[ValueSpec] = []
    starts = tt.block_starts("value")
    for i, t in enumerate(list_of_tables(ctx, MODULE_FILE, data, "value", tt, KNOWN_KEYS["value"])):
        ln = starts[i] if i < len(starts) else None
        key = get_str(ctx, MODULE_FILE, ln, t, "key", "[[value]]")
        if key and not re.match(r"^[A-Za-z][A-Za-z0-9_]*$", key):
            ctx.diags.error(MODULE_FILE, ln, f"value key {key!r} must be a simple name")
        if any(v.key == key for v in out):
            ctx.diags.error(MODULE_FILE, ln, f"duplicate value key {key!r}")
        air = t.get("air_label")
        out.append(
            ValueSpec(
                key,
                get_str(ctx, MODULE_FILE, ln, t, "label", "[[value]]", default=key),
                air if isinstance(air, str) else None,
            )
        )
    if ctx.schema is not None:
        have = [v.key for v in out]
        for need in ctx.schema.values:
            if need not in have:
                ctx.diags.error(
                    MODULE_FILE,
                    None,
                    f"ruleset {ctx.schema.id} needs a value "
                    f"column {need!r}; add a [[value]] with key = {need!r}",
                )
    return out


def load_unit_types(ctx: Ctx, data: dict, tt: TomlText) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    starts = tt.block_starts("unit_type")
    cats = ctx.schema.categories if ctx.schema else ()
    for i, t in enumerate(
        list_of_tables(ctx, MODULE_FILE, data, "unit_type", tt, KNOWN_KEYS["unit_type"])
    ):
        ln = starts[i] if i < len(starts) else None
        code = get_str(ctx, MODULE_FILE, ln, t, "code", "[[unit_type]]")
        cat = get_str(ctx, MODULE_FILE, ln, t, "category", "[[unit_type]]")
        if cats and cat and cat not in cats:
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line("category", start=ln),
                f"unit type {code!r}: unknown category {cat!r}",
                hint=did_you_mean(cat, cats) or "categories: " + ", ".join(cats),
            )
        if code in out:
            ctx.diags.error(MODULE_FILE, ln, f"duplicate unit type {code!r}")
        if ctx.schema and cat in ctx.schema.unit_types:
            allowed = ctx.schema.unit_types[cat]
            if allowed and code not in allowed:
                ctx.diags.error(
                    MODULE_FILE,
                    ln,
                    f"unit type {code!r} is not a {cat} type of ruleset {ctx.schema.id}",
                    hint="allowed: " + ", ".join(allowed),
                )
        out[code] = {k: str(v) for k, v in t.items()}
    return out


LAYOUT_KINDS = ("text", "symbol", "image", "band", "mark")


def load_counter(ctx: Ctx, data: dict, tt: TomlText, values: list[ValueSpec]) -> CounterSpec | None:
    c = data.get("counter")
    f = MODULE_FILE
    cl = tt.table_start("counter")
    if not isinstance(c, dict):
        ctx.diags.error(f, None, "missing [counter] table (counter size and layout)")
        return None
    size = get_num(
        ctx,
        f,
        tt.key_line("size_in", start=cl),
        c,
        "size_in",
        "[counter]",
        default=0.5,
        lo=0.25,
        hi=3.0,
    )
    dpi = get_int(
        ctx,
        f,
        tt.key_line("dpi", start=cl),
        c,
        "dpi",
        "[counter]",
        default=300,
        lo=72,
        hi=1200,
        required=False,
    )
    layouts: dict[str, CounterLayout] = {}
    lstarts = tt.block_starts("counter.layout")
    bstarts = tt.block_starts("counter.layout.box")
    raw_layouts = c.get("layout", [])
    if not isinstance(raw_layouts, list):
        ctx.diags.error(f, cl, "[counter] 'layout' must be an array of tables")
        raw_layouts = []
    fields = {v.key for v in values} | {
        "id",
        "number",
        "name",
        "type",
        "nationality",
        "side",
        "fleet",
        "category",
        "range_or_ma",
    }
    box_i = 0
    for i, lay in enumerate(raw_layouts):
        ln = lstarts[i] if i < len(lstarts) else cl
        lname = get_str(ctx, f, ln, lay, "name", "[[counter.layout]]", default=f"layout{i}")
        boxes = []
        for b in lay.get("box", []):
            bl = bstarts[box_i] if box_i < len(bstarts) else ln
            box_i += 1
            kind = get_str(ctx, f, bl, b, "kind", "[[counter.layout.box]]", default="text")
            if kind not in LAYOUT_KINDS:
                ctx.diags.error(
                    f,
                    tt.key_line("kind", start=bl),
                    f"unknown box kind {kind!r}",
                    hint="kinds: " + ", ".join(LAYOUT_KINDS),
                )
            geo = {}
            for k in ("x", "y", "w", "h"):
                geo[k] = get_num(
                    ctx,
                    f,
                    tt.key_line(k, start=bl),
                    b,
                    k,
                    "[[counter.layout.box]]",
                    default=0.0 if k in "xy" else 1.0,
                    lo=0.0,
                    hi=1.0,
                )
            if geo["x"] + geo["w"] > 1.0001 or geo["y"] + geo["h"] > 1.0001:
                ctx.diags.error(
                    f,
                    bl,
                    "counter layout box runs off the counter "
                    f"(x+w={geo['x'] + geo['w']:.3f}, y+h={geo['y'] + geo['h']:.3f})",
                )
            text = b.get("text", "")
            for fld in re.findall(r"\{([^}:]+)", str(text)):
                if fld not in fields:
                    ctx.diags.error(
                        f,
                        tt.key_line("text", start=bl),
                        f"counter layout names unknown field {{{fld}}}",
                        hint=did_you_mean(fld, fields),
                    )
            boxes.append(
                LayoutBox(
                    kind=kind,
                    x=geo["x"],
                    y=geo["y"],
                    w=geo["w"],
                    h=geo["h"],
                    text=str(text),
                    font=_font(ctx, f, tt.key_line("font", start=bl), b),
                    align=str(b.get("align", "center")),
                    color=b.get("color"),
                    fill=b.get("fill"),
                    when=_when(ctx, f, tt.key_line("when", start=bl), b.get("when")),
                    legend=str(b["legend"]) if b.get("legend") else None,
                )
            )
        bg = lay.get("background")
        layouts[lname] = CounterLayout(lname, tuple(boxes), bg if isinstance(bg, str) else None)
    if not layouts:
        ctx.diags.error(
            f,
            cl,
            "[counter] declares no [[counter.layout]]",
            hint="see the counter layout section of docs/module-source.md",
        )
    cat_layouts = c.get("category_layout", {})
    if not isinstance(cat_layouts, dict):
        cat_layouts = {}
    named: dict[str, str] = {}
    for cat, lname in cat_layouts.items():
        if not isinstance(lname, str):
            ctx.diags.error(
                f,
                tt.key_line(cat, start=tt.table_start("counter.category_layout")),
                f"category {cat!r}: expected the name of a counter layout, "
                f"got {type(lname).__name__} {lname!r}",
                hint=f'e.g. {cat} = "{next(iter(layouts), "naval")}"',
            )
            continue
        named[str(cat)] = lname
        if lname not in layouts:
            ctx.diags.error(
                f,
                tt.key_line(cat, start=tt.table_start("counter.category_layout")),
                f"category {cat!r} uses unknown counter layout {lname!r}",
                hint=did_you_mean(str(lname), list(layouts)),
            )
    return CounterSpec(
        size_in=size,
        dpi=dpi,
        layouts=layouts,
        category_layouts=named,
    )


FONTS = ("regular", "bold", "condensed")


def _font(ctx: Ctx, file: str, line: int | None, box: dict[str, Any]) -> str:
    font = str(box.get("font", "bold"))
    if font not in FONTS:
        ctx.diags.error(file, line, f"unknown font {font!r}", hint="fonts: " + ", ".join(FONTS))
        return "bold"
    return font


def load_optional(ctx: Ctx, data: dict, tt: TomlText) -> dict[str, OptionalRule]:
    out: dict[str, OptionalRule] = {}
    starts = tt.block_starts("optional_rule")
    for i, t in enumerate(
        list_of_tables(ctx, MODULE_FILE, data, "optional_rule", tt, KNOWN_KEYS["optional_rule"])
    ):
        ln = starts[i] if i < len(starts) else None
        oid = get_str(ctx, MODULE_FILE, ln, t, "id", "[[optional_rule]]")
        if oid in out:
            ctx.diags.error(MODULE_FILE, ln, f"duplicate optional rule {oid!r}")
        if ctx.schema and ctx.schema.optional_rules and oid not in ctx.schema.optional_rules:
            ctx.diags.error(
                MODULE_FILE,
                ln,
                f"ruleset {ctx.schema.id} has no optional rule {oid!r}",
                hint="known: " + ", ".join(ctx.schema.optional_rules),
            )
        out[oid] = OptionalRule(
            oid,
            get_str(ctx, MODULE_FILE, ln, t, "name", "[[optional_rule]]"),
            get_str(ctx, MODULE_FILE, ln, t, "text", "", required=False),
        )
    return out


def _when(ctx: Ctx, f: str, line: int | None, when: object) -> str | None:
    """A layout box's ``when``: the flag a unit must have for the box to show (a string)."""
    if when is None or isinstance(when, str):
        return when
    ctx.diags.error(
        f,
        line,
        f"counter layout 'when' must be a flag name, found {when!r}",
        hint='write when = "flag" with a flag of the roster\'s flags column',
    )
    return None
