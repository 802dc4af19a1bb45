"""Load a module source folder into a :class:`~referee.source.model.Module`.

The loader is forgiving in one way only: it keeps going after a problem so that one run of
``referee check`` lists every problem. Each problem is a :class:`Diagnostic` with the file and
line it came from. :func:`load_module` returns ``(module_or_None, diagnostics)``; the module is
``None`` whenever there is any error, so later stages never see a half-valid model.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.hexgrid import HexGrid, hexside_key
from referee.safeio import UnsafeInput, read_text, resolve_inside
from referee.source.diagnostics import Diagnostics, did_you_mean
from referee.source.mappicture import parse_map_picture
from referee.source.model import (
    Airbase,
    Area,
    CombatResultsTable,
    CounterLayout,
    CounterSpec,
    Country,
    CrtCell,
    DefendedHex,
    Edge,
    HexDef,
    LayoutBox,
    MapDef,
    Module,
    Nationality,
    OptionalRule,
    Origin,
    Place,
    Side,
    Tables,
    TerrainType,
    UnitDef,
    ValueSpec,
    VictoryLevel,
)
from referee.source.scenario import load_scenarios
from referee.source.schema import RulesetSchema, known_rulesets, ruleset_schema
from referee.source.tomlpos import TomlText, toml_error_position

MODULE_FILE = "module.toml"
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
COLOR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
MAX_UNITS = 20000


@dataclass(slots=True)
class Ctx:
    """What the loading steps share: the root, the diagnostics and the ruleset's schema."""

    root: Path
    diags: Diagnostics
    schema: RulesetSchema | None = None

    def read(
        self, name: str, *, what: str, file: str = MODULE_FILE, line: int | None = None
    ) -> tuple[str, str] | None:
        """Read a file named in the source; refuse escapes, huge and binary files."""
        try:
            path = resolve_inside(self.root, name, what=what)
            return name, read_text(path, display=name)
        except UnsafeInput as exc:
            if exc.path == name and exc.line is not None:
                self.diags.error(name, exc.line, exc.message, col=exc.col, hint=exc.hint)
            elif exc.message == "file not found":
                self.diags.error(
                    file,
                    line,
                    f"{what} {name!r} not found",
                    hint="file names are relative to the source folder",
                )
            else:
                self.diags.error(file, line, exc.message, hint=exc.hint)
            return None

    def toml(
        self, name: str, *, what: str, file: str = MODULE_FILE, line: int | None = None
    ) -> tuple[dict[str, Any], TomlText] | None:
        got = self.read(name, what=what, file=file, line=line)
        if got is None:
            return None
        _, text = got
        try:
            return tomllib.loads(text), TomlText(text)
        except tomllib.TOMLDecodeError as exc:
            ln, col = toml_error_position(str(exc))
            msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
            self.diags.error(
                name,
                ln,
                f"malformed TOML: {msg}",
                col=col,
                hint="check quotes, brackets and '=' signs",
            )
            return None


def _color(ctx: Ctx, file: str, line: int | None, value: object, what: str) -> str:
    if isinstance(value, str) and COLOR_RE.match(value):
        return value.upper()
    ctx.diags.error(file, line, f'{what} must be a colour like "#1F4E9C", got {value!r}')
    return "#808080"


def _str(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    required: bool = True,
    default: str = "",
) -> str:
    value = table.get(key)
    if value is None:
        if required:
            ctx.diags.error(file, line, f"{what}: missing '{key}'")
        return default
    if not isinstance(value, str):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a string, got {value!r}")
        return default
    return value


def _int(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    default: int = 0,
    lo: int | None = None,
    hi: int | None = None,
    required: bool = True,
) -> int:
    value = table.get(key)
    if value is None:
        if required:
            ctx.diags.error(file, line, f"{what}: missing '{key}'")
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a whole number, got {value!r}")
        return default
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        ctx.diags.error(
            file,
            line,
            f"{what}: '{key}' = {value} is out of range "
            f"({lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'})",
        )
        return default
    return value


def _num(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    default: float,
    lo: float,
    hi: float,
) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a number, got {value!r}")
        return default
    if not lo <= float(value) <= hi:
        ctx.diags.error(file, line, f"{what}: '{key}' = {value} is out of range ({lo}..{hi})")
        return default
    return float(value)


# the keys each table may hold; anything else is reported (often a key written after an
# array-of-tables header by mistake, which TOML then files under that table)
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "side": ("id", "name", "color"),
    "nationality": ("code", "name", "side", "color", "text_color"),
    "value": ("key", "label", "air_label"),
    "unit_type": ("code", "category", "name", "symbol"),
    "optional_rule": ("id", "name", "text"),
    "country": ("char", "name", "nationality", "color"),
    "area": ("char", "id", "name", "color"),
    "airbase": ("hex", "nationality", "name"),
    "defended": ("hex", "side", "defense", "ecm", "name"),
    "place": ("hex", "name", "label"),
    "edge": ("id", "name", "side", "from", "to"),
}
TOP_KEYS: dict[str, tuple[str, ...]] = {
    "module": (
        "module",
        "files",
        "side",
        "nationality",
        "value",
        "unit_type",
        "counter",
        "optional_rule",
    ),
    "map": (
        "map",
        "grid",
        "country",
        "area",
        "setup",
        "airbase",
        "defended",
        "place",
        "all_land_hexsides",
        "edge",
    ),
}


def check_top(ctx: Ctx, file: str, tt: TomlText, data: dict[str, Any], kind: str) -> None:
    allowed = TOP_KEYS[kind]
    for key in data:
        if key not in allowed:
            ln = tt.table_start(key) or tt.block_starts(key)[:1] or [tt.key_line(key)]
            line = ln if isinstance(ln, int) else ln[0]
            ctx.diags.error(
                file,
                line,
                f"unknown top-level key or table {key!r}",
                hint=did_you_mean(key, allowed) or "expected: " + ", ".join(allowed),
            )


def check_keys(
    ctx: Ctx,
    file: str,
    tt: TomlText,
    table: dict[str, Any],
    ln: int | None,
    header: str,
    allowed: tuple[str, ...],
) -> None:
    for key in table:
        if key not in allowed:
            ctx.diags.error(
                file,
                tt.key_line(key, start=ln),
                f"unknown key {key!r} in {header}",
                hint=did_you_mean(key, allowed) or "keys: " + ", ".join(allowed),
            )


def _list_of_tables(
    ctx: Ctx, file: str, data: dict[str, Any], key: str, tt: TomlText | None = None
) -> list[dict]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        ctx.diags.error(file, None, f"'{key}' must be an array of tables ([[{key}]])")
        return []
    if tt is not None and key in KNOWN_KEYS:
        starts = tt.block_starts(key)
        for i, t in enumerate(value):
            check_keys(
                ctx,
                file,
                tt,
                t,
                starts[i] if i < len(starts) else None,
                f"[[{key}]]",
                KNOWN_KEYS[key],
            )
    return value


# ---- module.toml ---------------------------------------------------------------------------
def load_module(root: Path | str) -> tuple[Module | None, Diagnostics]:
    """Load and check a module source folder. Never raises for bad input."""
    root = Path(root)
    diags = Diagnostics(root=root)
    if not root.is_dir():
        diags.root = None
        diags.error(
            str(root),
            None,
            "module source folder not found",
            hint="pass the folder that holds module.toml",
        )
        return None, diags
    ctx = Ctx(root=root, diags=diags)
    if not (root / MODULE_FILE).is_file():
        diags.error(
            MODULE_FILE,
            None,
            f"no {MODULE_FILE} in {root}",
            hint="a module source folder holds module.toml; see docs/module-source.md",
        )
        return None, diags
    got = ctx.toml(MODULE_FILE, what="module file", file=MODULE_FILE)
    if got is None:
        return None, diags
    data, tt = got
    f = MODULE_FILE
    check_top(ctx, f, tt, data, "module")

    meta = data.get("module")
    if not isinstance(meta, dict):
        diags.error(f, None, "missing [module] table", hint="see docs/module-source.md")
        return None, diags
    mline = tt.table_start("module")
    mid = _str(ctx, f, tt.key_line("id", start=mline), meta, "id", "[module]")
    if mid and not ID_RE.match(mid):
        diags.error(
            f,
            tt.key_line("id", start=mline),
            f"module id {mid!r} must be letters, digits, '_', '-' or '.'",
        )
    name = _str(ctx, f, tt.key_line("name", start=mline), meta, "name", "[module]")
    version = _str(ctx, f, tt.key_line("version", start=mline), meta, "version", "[module]")
    if version and not re.match(r"^[0-9A-Za-z.\-+]+$", version):
        diags.error(
            f,
            tt.key_line("version", start=mline),
            f"version {version!r} may only use letters, digits, '.', '-' and '+'",
        )
    ruleset = _str(ctx, f, tt.key_line("ruleset", start=mline), meta, "ruleset", "[module]")
    description = _str(ctx, f, None, meta, "description", "[module]", required=False)
    if ruleset:
        ctx.schema = ruleset_schema(ruleset)
        if ctx.schema is None:
            diags.error(
                f,
                tt.key_line("ruleset", start=mline),
                f"unknown ruleset {ruleset!r}",
                hint=did_you_mean(ruleset, known_rulesets())
                or "known: " + ", ".join(known_rulesets()),
            )

    files = data.get("files", {})
    if not isinstance(files, dict):
        diags.error(f, tt.table_start("files"), "[files] must be a table")
        files = {}
    fline = tt.table_start("files")

    sides = _load_sides(ctx, data, tt)
    nats = _load_nationalities(ctx, data, tt, {s.id for s in sides})
    values = _load_values(ctx, data, tt)
    unit_types = _load_unit_types(ctx, data, tt)
    counter = _load_counter(ctx, data, tt, values)
    optional = _load_optional(ctx, data, tt)

    units: tuple[UnitDef, ...] = ()
    if "units" in files:
        units = _load_units(
            ctx,
            str(files["units"]),
            tt.key_line("units", start=fline),
            {s.id for s in sides},
            nats,
            values,
            unit_types,
        )
    else:
        diags.error(f, fline, "[files] has no 'units' (the unit roster CSV)")

    terrain: dict[str, TerrainType] = {}
    if "terrain" in files:
        terrain = _load_terrain(ctx, str(files["terrain"]), tt.key_line("terrain", start=fline))
    else:
        diags.error(f, fline, "[files] has no 'terrain' (the Terrain Effects Chart CSV)")

    map_def: MapDef | None = None
    if "map" in files:
        map_def = _load_map(
            ctx,
            str(files["map"]),
            tt.key_line("map", start=fline),
            terrain,
            nats,
            {s.id for s in sides},
        )
    else:
        diags.error(f, fline, "[files] has no 'map' (map.toml)")

    crt = None
    if "crt" in files:
        crt = _load_crt(ctx, str(files["crt"]), tt.key_line("crt", start=fline))
    elif ctx.schema and "crt" in ctx.schema.tables:
        diags.error(f, fline, "[files] has no 'crt' (the Combat Results Table CSV)")
    victory: tuple[VictoryLevel, ...] = ()
    if "victory" in files:
        victory = _load_victory(ctx, str(files["victory"]), tt.key_line("victory", start=fline))
    elif ctx.schema and "victory" in ctx.schema.tables:
        diags.error(f, fline, "[files] has no 'victory' (the Level of Victory CSV)")
    for key in files:
        if key not in {"units", "terrain", "map", "crt", "victory", "scenarios"}:
            diags.error(
                f,
                tt.key_line(key, start=fline),
                f"unknown [files] entry {key!r}",
                hint=did_you_mean(key, ["units", "terrain", "map", "crt", "victory", "scenarios"]),
            )

    scenarios = {}
    scen_files = files.get("scenarios", [])
    if not isinstance(scen_files, list) or not all(isinstance(x, str) for x in scen_files):
        diags.error(
            f, tt.key_line("scenarios", start=fline), "'scenarios' must be a list of file names"
        )
        scen_files = []
    if map_def is not None and units:
        scenarios = load_scenarios(
            ctx,
            scen_files,
            tt.key_line("scenarios", start=fline),
            units,
            map_def,
            {s.id for s in sides},
            nats,
            optional,
        )

    if counter is not None:
        for u in units:
            if u.back is not None and u.back not in counter.layouts:
                diags.error(
                    u.origin.file,
                    u.origin.line,
                    f"unit {u.id}: back face names unknown counter layout {u.back!r}",
                    hint=did_you_mean(u.back, list(counter.layouts))
                    or "layouts: " + ", ".join(counter.layouts),
                )
    if not units and "units" in files and not diags.errors:
        diags.error(str(files["units"]), None, "the unit roster is empty")

    if diags.errors or map_def is None or counter is None:
        return None, diags
    module = Module(
        id=mid,
        name=name,
        version=version,
        ruleset=ruleset,
        description=description,
        root=root.resolve(),
        sides=tuple(sides),
        nationalities=nats,
        values=tuple(values),
        counter=counter,
        units=units,
        map=map_def,
        tables=Tables(crt=crt, victory=victory),
        scenarios=scenarios,
        optional_rules=optional,
        unit_types=unit_types,
    )
    return module, diags


def _load_sides(ctx: Ctx, data: dict, tt: TomlText) -> list[Side]:
    out: list[Side] = []
    starts = tt.block_starts("side")
    for i, t in enumerate(_list_of_tables(ctx, MODULE_FILE, data, "side", tt)):
        ln = starts[i] if i < len(starts) else None
        sid = _str(ctx, MODULE_FILE, ln, t, "id", "[[side]]")
        if any(s.id == sid for s in out):
            ctx.diags.error(MODULE_FILE, ln, f"duplicate side id {sid!r}")
        out.append(
            Side(
                sid,
                _str(ctx, MODULE_FILE, ln, t, "name", "[[side]]", default=sid),
                _color(
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


def _load_nationalities(
    ctx: Ctx, data: dict, tt: TomlText, sides: set[str]
) -> dict[str, Nationality]:
    out: dict[str, Nationality] = {}
    starts = tt.block_starts("nationality")
    for i, t in enumerate(_list_of_tables(ctx, MODULE_FILE, data, "nationality", tt)):
        ln = starts[i] if i < len(starts) else None
        code = _str(ctx, MODULE_FILE, ln, t, "code", "[[nationality]]")
        side = _str(ctx, MODULE_FILE, ln, t, "side", "[[nationality]]")
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
            _str(ctx, MODULE_FILE, ln, t, "name", "[[nationality]]", default=code),
            side,
            _color(
                ctx,
                MODULE_FILE,
                tt.key_line("color", start=ln),
                t.get("color"),
                f"nationality {code!r} color",
            ),
            _color(
                ctx,
                MODULE_FILE,
                tt.key_line("text_color", start=ln),
                t.get("text_color", "#000000"),
                f"nationality {code!r} text_color",
            ),
        )
    return out


def _load_values(ctx: Ctx, data: dict, tt: TomlText) -> list[ValueSpec]:
    out: list[ValueSpec] = []
    starts = tt.block_starts("value")
    for i, t in enumerate(_list_of_tables(ctx, MODULE_FILE, data, "value", tt)):
        ln = starts[i] if i < len(starts) else None
        key = _str(ctx, MODULE_FILE, ln, t, "key", "[[value]]")
        if key and not re.match(r"^[A-Za-z][A-Za-z0-9_]*$", key):
            ctx.diags.error(MODULE_FILE, ln, f"value key {key!r} must be a simple name")
        if any(v.key == key for v in out):
            ctx.diags.error(MODULE_FILE, ln, f"duplicate value key {key!r}")
        air = t.get("air_label")
        out.append(
            ValueSpec(
                key,
                _str(ctx, MODULE_FILE, ln, t, "label", "[[value]]", default=key),
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


def _load_unit_types(ctx: Ctx, data: dict, tt: TomlText) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    starts = tt.block_starts("unit_type")
    cats = ctx.schema.categories if ctx.schema else ()
    for i, t in enumerate(_list_of_tables(ctx, MODULE_FILE, data, "unit_type", tt)):
        ln = starts[i] if i < len(starts) else None
        code = _str(ctx, MODULE_FILE, ln, t, "code", "[[unit_type]]")
        cat = _str(ctx, MODULE_FILE, ln, t, "category", "[[unit_type]]")
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


def _load_counter(
    ctx: Ctx, data: dict, tt: TomlText, values: list[ValueSpec]
) -> CounterSpec | None:
    c = data.get("counter")
    f = MODULE_FILE
    cl = tt.table_start("counter")
    if not isinstance(c, dict):
        ctx.diags.error(f, None, "missing [counter] table (counter size and layout)")
        return None
    size = _num(
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
    dpi = _int(
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
        lname = _str(ctx, f, ln, lay, "name", "[[counter.layout]]", default=f"layout{i}")
        boxes = []
        for b in lay.get("box", []):
            bl = bstarts[box_i] if box_i < len(bstarts) else ln
            box_i += 1
            kind = _str(ctx, f, bl, b, "kind", "[[counter.layout.box]]", default="text")
            if kind not in LAYOUT_KINDS:
                ctx.diags.error(
                    f,
                    tt.key_line("kind", start=bl),
                    f"unknown box kind {kind!r}",
                    hint="kinds: " + ", ".join(LAYOUT_KINDS),
                )
            geo = {}
            for k in ("x", "y", "w", "h"):
                geo[k] = _num(
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
                    when=b.get("when"),
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
    for cat, lname in cat_layouts.items():
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
        category_layouts={str(k): str(v) for k, v in cat_layouts.items()},
    )


FONTS = ("regular", "bold", "condensed")


def _font(ctx: Ctx, file: str, line: int | None, box: dict[str, Any]) -> str:
    font = str(box.get("font", "bold"))
    if font not in FONTS:
        ctx.diags.error(file, line, f"unknown font {font!r}", hint="fonts: " + ", ".join(FONTS))
        return "bold"
    return font


def _load_optional(ctx: Ctx, data: dict, tt: TomlText) -> dict[str, OptionalRule]:
    out: dict[str, OptionalRule] = {}
    starts = tt.block_starts("optional_rule")
    for i, t in enumerate(_list_of_tables(ctx, MODULE_FILE, data, "optional_rule", tt)):
        ln = starts[i] if i < len(starts) else None
        oid = _str(ctx, MODULE_FILE, ln, t, "id", "[[optional_rule]]")
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
            _str(ctx, MODULE_FILE, ln, t, "name", "[[optional_rule]]"),
            _str(ctx, MODULE_FILE, ln, t, "text", "", required=False),
        )
    return out


# ---- CSV -----------------------------------------------------------------------------------
def read_csv(
    ctx: Ctx, name: str, *, what: str, line: int | None, required: list[str]
) -> tuple[list[tuple[int, dict[str, str]]], list[str]] | None:
    """Rows of a CSV file with their line numbers; blank lines and ``#`` lines are skipped."""
    got = ctx.read(name, what=what, line=line)
    if got is None:
        return None
    _, text = got
    lines = [
        (i + 1, ln)
        for i, ln in enumerate(text.split("\n"))
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        ctx.diags.error(name, None, f"{what} is empty")
        return None
    try:
        header = next(csv.reader(io.StringIO(lines[0][1])))
    except csv.Error as exc:
        ctx.diags.error(name, lines[0][0], f"malformed CSV header: {exc}")
        return None
    header = [h.strip() for h in header]
    for need in required:
        if need not in header:
            ctx.diags.error(
                name,
                lines[0][0],
                f"missing column {need!r}",
                hint=did_you_mean(need, header) or "columns: " + ", ".join(required),
            )
    dup = {h for h in header if header.count(h) > 1}
    for h in sorted(dup):
        ctx.diags.error(name, lines[0][0], f"column {h!r} appears twice")
    rows: list[tuple[int, dict[str, str]]] = []
    for lineno, raw in lines[1:]:
        try:
            cells = next(csv.reader(io.StringIO(raw)))
        except csv.Error as exc:
            ctx.diags.error(name, lineno, f"malformed CSV: {exc}")
            continue
        if len(cells) != len(header):
            ctx.diags.error(
                name,
                lineno,
                f"{len(cells)} cells but the header has {len(header)} columns",
                hint="check for a missing or extra comma",
            )
            continue
        rows.append((lineno, {h: c.strip() for h, c in zip(header, cells, strict=True)}))
    return rows, header


def _col_of(header: list[str], key: str) -> int:
    return header.index(key) + 1 if key in header else 1


UNIT_COLUMNS = ["id", "side", "nationality", "category", "type", "number", "name", "count"]
UNIT_OPTIONAL = ["fleet", "flags", "image", "back", "source"]


def _load_units(
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
                col=_col_of(header, "id"),
            )
        if uid in seen:
            d.error(
                name,
                lineno,
                f"duplicate unit id {uid!r} (first on line {seen[uid]})",
                col=_col_of(header, "id"),
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
                col=_col_of(header, "side"),
                hint=did_you_mean(side, sides),
            )
        if nat not in nats:
            d.error(
                name,
                lineno,
                f"unknown nationality {nat!r}",
                col=_col_of(header, "nationality"),
                hint=did_you_mean(nat, list(nats)),
            )
        elif side in sides and nats[nat].side != side:
            d.error(
                name,
                lineno,
                f"nationality {nat!r} belongs to side {nats[nat].side!r}, not {side!r}",
                col=_col_of(header, "side"),
            )
        if schema and cat not in schema.categories:
            d.error(
                name,
                lineno,
                f"unknown unit category {cat!r}",
                col=_col_of(header, "category"),
                hint=did_you_mean(cat, schema.categories)
                or "categories: " + ", ".join(schema.categories),
            )
        if typ not in unit_types:
            d.error(
                name,
                lineno,
                f"unknown unit type {typ!r}",
                col=_col_of(header, "type"),
                hint=did_you_mean(typ, list(unit_types))
                or "declare it with a [[unit_type]] in module.toml",
            )
        elif unit_types[typ].get("category") != cat:
            d.error(
                name,
                lineno,
                f"unit type {typ!r} is a {unit_types[typ].get('category')} "
                f"type, but the row says category {cat!r}",
                col=_col_of(header, "type"),
            )
        vals: dict[str, int] = {}
        for k in vkeys:
            raw = r.get(k, "")
            if not re.fullmatch(r"-?\d+", raw):
                d.error(
                    name,
                    lineno,
                    f"value {k} must be a whole number, got {raw!r}",
                    col=_col_of(header, k),
                )
                continue
            n = int(raw)
            if not 0 <= n <= 999:
                d.error(
                    name,
                    lineno,
                    f"value {k} = {n} is out of range (0..999)",
                    col=_col_of(header, k),
                )
            vals[k] = n
        count_raw = r.get("count", "")
        count = 1
        if not re.fullmatch(r"\d+", count_raw) or not 1 <= int(count_raw) <= 500:
            d.error(
                name,
                lineno,
                f"count must be a whole number from 1 to 500, got {count_raw!r}",
                col=_col_of(header, "count"),
            )
        else:
            count = int(count_raw)
        total += count
        flags = frozenset(x for x in re.split(r"[\s;|]+", r.get("flags", "")) if x)
        if schema:
            for fl in sorted(flags):
                if fl not in schema.flags:
                    d.error(
                        name,
                        lineno,
                        f"unknown flag {fl!r}",
                        col=_col_of(header, "flags"),
                        hint=did_you_mean(fl, schema.flags) or "flags: " + ", ".join(schema.flags),
                    )
        image = r.get("image") or None
        if image:
            try:
                resolve_inside(ctx.root, image, what="image")
            except UnsafeInput as exc:
                d.error(name, lineno, exc.message, col=_col_of(header, "image"), hint=exc.hint)
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
            )
        )
    if total > MAX_UNITS:
        ctx.diags.error(name, None, f"the roster makes {total} counters; the limit is {MAX_UNITS}")
    if not rows:
        ctx.diags.error(
            name, None, "the unit roster is empty", hint="add one row per counter design"
        )
    return tuple(out)


def _cost(raw: str) -> int | str | None:
    if raw in ("-", "no", "none", ""):
        return None
    if re.fullmatch(r"\d+", raw):
        return int(raw)
    return "bad"


def _load_terrain(ctx: Ctx, name: str, line: int | None) -> dict[str, TerrainType]:
    got = read_csv(
        ctx, name, what="terrain effects chart", line=line, required=["id", "char", "name", "color"]
    )
    if got is None:
        return {}
    rows, header = got
    cats = list(ctx.schema.categories) if ctx.schema else []
    for c in cats:
        if f"cost_{c}" not in header:
            ctx.diags.error(name, 1, f"missing column 'cost_{c}' (movement cost for {c} units)")
    out: dict[str, TerrainType] = {}
    chars: dict[str, str] = {}
    for lineno, r in rows:
        tid, ch = r["id"], r["char"]
        if tid in out:
            ctx.diags.error(name, lineno, f"duplicate terrain id {tid!r}")
        if len(ch) != 1 or ch.isspace() or ch in "|":
            ctx.diags.error(
                name,
                lineno,
                f"terrain char {ch!r} must be one visible character other than '|'",
                col=_col_of(header, "char"),
            )
        elif ch in chars:
            ctx.diags.error(
                name,
                lineno,
                f"terrain char {ch!r} is already used by {chars[ch]!r}",
                col=_col_of(header, "char"),
            )
        chars[ch] = tid
        costs: dict[str, int | None] = {}
        for h in header:
            if h.startswith("cost_"):
                v = _cost(r[h])
                if v == "bad":
                    ctx.diags.error(
                        name,
                        lineno,
                        f"{h} must be a whole number or '-' (no entry), got {r[h]!r}",
                        col=_col_of(header, h),
                    )
                    v = None
                costs[h[5:]] = v  # type: ignore[assignment]
        mult: dict[str, int] = {}
        for h in header:
            if h.startswith("defense_x_"):
                raw = r[h] or "1"
                if not re.fullmatch(r"\d+", raw):
                    ctx.diags.error(
                        name,
                        lineno,
                        f"{h} must be a whole number, got {raw!r}",
                        col=_col_of(header, h),
                    )
                    raw = "1"
                mult[h[len("defense_x_") :]] = int(raw)
        if not COLOR_RE.match(r["color"]):
            ctx.diags.error(
                name,
                lineno,
                f"color must be like #A0C4E8, got {r['color']!r}",
                col=_col_of(header, "color"),
            )
        out[tid] = TerrainType(
            id=tid,
            char=ch,
            name=r["name"],
            color=r["color"].upper(),
            costs=costs,
            blocks_zoc=r.get("blocks_zoc", "").lower() in ("yes", "true", "1"),
            defense_multiplier=mult,
            notes=r.get("notes", ""),
            rule=r.get("rule", ""),
            origin=Origin(name, lineno),
        )
    if ctx.schema:
        for need in ctx.schema.terrain:
            if need not in out:
                ctx.diags.error(name, None, f"ruleset {ctx.schema.id} needs terrain {need!r}")
    return out


CELL_RE = re.compile(r"^(?:\*|(\d)(?:-(\d))?)$")


def parse_crt_cell(raw: str) -> CrtCell | None:
    """``*`` (no effect), ``0``, ``1``, ``1-2``... Returns ``None`` when unparsable."""
    m = CELL_RE.match(raw.strip())
    if not m:
        return None
    if raw.strip() == "*":
        return CrtCell(None, None)
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if m.group(2) is None:
        lo = 1 if hi >= 1 else 0
    if hi > 6 or lo > hi or (m.group(2) and lo != 1):
        return None
    return CrtCell(lo, hi)


def _load_crt(ctx: Ctx, name: str, line: int | None) -> CombatResultsTable | None:
    got = read_csv(ctx, name, what="combat results table", line=line, required=["ECM"])
    if got is None:
        return None
    rows, header = got
    cols: list[int] = []
    for h in header[1:]:
        if h == "source":
            continue
        if not re.fullmatch(r"-?\d+", h):
            ctx.diags.error(
                name,
                1,
                f"column heading {h!r} is not a whole-number differential",
                col=_col_of(header, h),
            )
            return None
        cols.append(int(h))
    if cols != sorted(set(cols)):
        ctx.diags.error(name, 1, "differential columns must increase left to right")
    table: dict[int, tuple[CrtCell, ...]] = {}
    sources: dict[int, str] = {}
    ok = True
    for lineno, r in rows:
        if not re.fullmatch(r"\d+", r["ECM"]):
            ctx.diags.error(
                name, lineno, f"ECM row key must be a whole number, got {r['ECM']!r}", col=1
            )
            ok = False
            continue
        ecm = int(r["ECM"])
        if ecm in table:
            ctx.diags.error(name, lineno, f"ECM row {ecm} appears twice")
        cells = []
        for c in cols:
            raw = r[str(c)]
            cell = parse_crt_cell(raw)
            if cell is None:
                ctx.diags.error(
                    name,
                    lineno,
                    f"unparsable CRT cell {raw!r} (differential {c}, ECM {ecm})",
                    col=_col_of(header, str(c)),
                    hint="write '*' for no effect, or a die range like 1 or 1-2",
                )
                ok = False
                cell = CrtCell(None, None)
            cells.append(cell)
        table[ecm] = tuple(cells)
        sources[ecm] = r.get("source", "")
    if table:
        expected = list(range(min(table), max(table) + 1))
        missing = [e for e in expected if e not in table]
        if missing:
            ctx.diags.error(
                name,
                None,
                "CRT is missing ECM rows " + ", ".join(map(str, missing)),
                hint="every ECM value from the lowest to the highest needs a row",
            )
            ok = False
    else:
        ctx.diags.error(name, None, "CRT has no rows")
        ok = False
    if not ok or not cols:
        return None
    return CombatResultsTable(columns=tuple(cols), rows=table, sources=sources)


def _load_victory(ctx: Ctx, name: str, line: int | None) -> tuple[VictoryLevel, ...]:
    got = read_csv(
        ctx, name, what="level of victory table", line=line, required=["min", "max", "result"]
    )
    if got is None:
        return ()
    rows, header = got
    out: list[VictoryLevel] = []
    for lineno, r in rows:
        bounds: list[int | None] = []
        for k in ("min", "max"):
            raw = r[k]
            if raw == "":
                bounds.append(None)
            elif re.fullmatch(r"[+-]?\d+", raw):
                bounds.append(int(raw))
            else:
                ctx.diags.error(
                    name,
                    lineno,
                    f"'{k}' must be a whole number or empty, got {raw!r}",
                    col=_col_of(header, k),
                )
                bounds.append(None)
        out.append(VictoryLevel(bounds[0], bounds[1], r["result"]))
    # bands must not overlap and must leave no gaps
    ordered = sorted(out, key=lambda v: -(10**9) if v.low is None else v.low)
    for a, b in itertools.pairwise(ordered):
        if a.high is None or b.low is None or b.low != a.high + 1:
            ctx.diags.error(
                name,
                None,
                f"victory bands {a.result!r} and {b.result!r} overlap or leave a gap",
                hint="each band's min must be the previous max + 1",
            )
    return tuple(out)


# ---- map.toml ------------------------------------------------------------------------------
def _load_map(
    ctx: Ctx,
    name: str,
    line: int | None,
    terrain: dict[str, TerrainType],
    nats: dict[str, Nationality],
    sides: set[str],
) -> MapDef | None:
    got = ctx.toml(name, what="map file", line=line)
    if got is None:
        return None
    data, tt = got
    d = ctx.diags
    check_top(ctx, name, tt, data, "map")
    g = data.get("grid")
    if not isinstance(g, dict):
        d.error(name, None, "missing [grid] table")
        return None
    gl = tt.table_start("grid")
    cols = _int(
        ctx, name, tt.key_line("columns", start=gl), g, "columns", "[grid]", lo=1, hi=99, default=1
    )
    rows = _int(
        ctx, name, tt.key_line("rows", start=gl), g, "rows", "[grid]", lo=1, hi=99, default=1
    )
    choices = {
        "orientation": ("pointy", "flat"),
        "shifted": ("odd", "even"),
        "rows_grow": ("north", "south"),
        "id_format": ("RRCC", "CCRR"),
    }
    picked: dict[str, str] = {}
    for k, allowed in choices.items():
        v = g.get(k, allowed[0])
        if v not in allowed:
            d.error(
                name,
                tt.key_line(k, start=gl),
                f"[grid] {k} must be one of "
                + ", ".join(repr(a) for a in allowed)
                + f", got {v!r}",
            )
            v = allowed[0]
        picked[k] = v
    width = _num(
        ctx,
        name,
        tt.key_line("hex_width_in", start=gl),
        g,
        "hex_width_in",
        "[grid]",
        default=1.0,
        lo=0.2,
        hi=4.0,
    )
    first_col = _int(
        ctx, name, None, g, "first_column", "[grid]", default=1, lo=0, hi=99, required=False
    )
    first_row = _int(
        ctx, name, None, g, "first_row", "[grid]", default=1, lo=0, hi=99, required=False
    )
    if first_col + cols - 1 > 99 or first_row + rows - 1 > 99:
        d.error(name, gl, "the grid does not fit two-digit hex ids")
        return None
    grid = HexGrid(
        columns=cols,
        rows=rows,
        orientation=picked["orientation"],  # type: ignore[arg-type]
        shifted=picked["shifted"],
        rows_grow=picked["rows_grow"],  # type: ignore[arg-type]
        id_format=picked["id_format"],
        first_column=first_col,  # type: ignore[arg-type]
        first_row=first_row,
        hex_width=width,
    )

    picture_name = data.get("map", {}).get("picture") if isinstance(data.get("map"), dict) else None
    mapline = tt.table_start("map")
    if not isinstance(picture_name, str):
        d.error(name, mapline, '[map] needs picture = "map.txt" (the text picture of the map)')
        return None
    title = str(data["map"].get("title", ""))
    got_pic = ctx.read(
        picture_name, what="map picture", file=name, line=tt.key_line("picture", start=mapline)
    )
    if got_pic is None:
        return None
    layers = parse_map_picture(got_pic[1], grid, picture_name, d)

    countries: dict[str, Country] = {}
    cstarts = tt.block_starts("country")
    for i, t in enumerate(_list_of_tables(ctx, name, data, "country", tt)):
        ln = cstarts[i] if i < len(cstarts) else None
        code = _str(ctx, name, ln, t, "char", "[[country]]")
        nat = t.get("nationality")
        if nat is not None and nat not in nats:
            d.error(
                name,
                tt.key_line("nationality", start=ln),
                f"country {code!r}: unknown nationality {nat!r}",
                hint=did_you_mean(str(nat), list(nats)),
            )
        if len(code) != 1:
            d.error(name, ln, f"country char {code!r} must be one character")
        countries[code] = Country(
            code,
            _str(ctx, name, ln, t, "name", "[[country]]"),
            nat if isinstance(nat, str) else None,
            t.get("color"),
        )
    areas: dict[str, Area] = {}
    astarts = tt.block_starts("area")
    for i, t in enumerate(_list_of_tables(ctx, name, data, "area", tt)):
        ln = astarts[i] if i < len(astarts) else None
        ch = _str(ctx, name, ln, t, "char", "[[area]]")
        if len(ch) != 1:
            d.error(name, ln, f"area char {ch!r} must be one character")
        areas[ch] = Area(
            ch,
            _str(ctx, name, ln, t, "id", "[[area]]"),
            _str(ctx, name, ln, t, "name", "[[area]]"),
            str(t.get("color", "#000000")),
        )

    by_char = {t.char: t for t in terrain.values()}
    tlayer = layers.get("terrain", {})
    clayer = layers.get("country", {})
    alayer = layers.get("area", {})
    hexes: dict[str, dict[str, Any]] = {}
    for hid in grid.all_ids():
        cell = tlayer.get(hid)
        if cell is None:
            continue
        if by_char and cell.char not in by_char:
            d.error(
                picture_name,
                cell.line,
                f"hex {hid}: unknown terrain {cell.char!r}",
                col=cell.col,
                hint="terrain chars: " + " ".join(sorted(by_char)),
            )
            continue
        country = None
        cc = clayer.get(hid)
        if cc is not None and cc.char not in ("-", "."):
            if cc.char not in countries:
                d.error(
                    picture_name,
                    cc.line,
                    f"hex {hid}: unknown country {cc.char!r}",
                    col=cc.col,
                    hint="declare it with [[country]] in " + name,
                )
            else:
                country = cc.char
        area_set: set[str] = set()
        ac = alayer.get(hid)
        if ac is not None and ac.char not in ("-", "."):
            if ac.char not in areas:
                d.error(
                    picture_name,
                    ac.line,
                    f"hex {hid}: unknown area {ac.char!r}",
                    col=ac.col,
                    hint="declare it with [[area]] in " + name,
                )
            else:
                area_set.add(areas[ac.char].id)
        hexes[hid] = {
            "terrain": by_char[cell.char].id if by_char else cell.char,
            "country": country,
            "areas": area_set,
        }

    def check_hex(hid: object, file: str, ln: int | None, what: str) -> str | None:
        if not isinstance(hid, str):
            d.error(
                file,
                ln,
                f"{what}: hex must be a quoted 4-digit id, got {hid!r}",
                hint='write hex = "1311", with quotes, so leading zeros survive',
            )
            return None
        try:
            grid.parse_id(hid)
        except ValueError as exc:
            lnum, col = tt.value_pos(hid, start=ln)
            d.error(file, lnum, f"{what}: {exc}", col=col)
            return None
        return hid

    airbases: dict[str, Airbase] = {}
    for i, t in enumerate(_list_of_tables(ctx, name, data, "airbase", tt)):
        ln = (tt.block_starts("airbase") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[airbase]]")
        nat = _str(ctx, name, ln, t, "nationality", "[[airbase]]")
        if nat and nat not in nats:
            d.error(
                name,
                tt.key_line("nationality", start=ln),
                f"airbase {hid}: unknown nationality {nat!r}",
                hint=did_you_mean(nat, list(nats)),
            )
        if hid:
            if hid in airbases:
                d.error(name, ln, f"two airbases in hex {hid}")
            if (
                hid in hexes
                and terrain.get(hexes[hid]["terrain"])
                and terrain[hexes[hid]["terrain"]].costs.get("air", 1) is None
            ):
                d.error(name, ln, f"airbase {hid} is on terrain air units cannot enter")
            if countries and hid in hexes and hexes[hid]["country"] is None:
                d.error(
                    name,
                    ln,
                    f"airbase {hid} is at sea: the [country] layer of the map "
                    "picture gives that hex no country",
                    hint="airbases sit on land or coast; check the hex id",
                )
            airbases[hid] = Airbase(hid, nat, str(t.get("name", "")), Origin(name, ln))
    defended: dict[str, DefendedHex] = {}
    for i, t in enumerate(_list_of_tables(ctx, name, data, "defended", tt)):
        ln = (tt.block_starts("defended") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[defended]]")
        side = _str(ctx, name, ln, t, "side", "[[defended]]")
        if side and side not in sides:
            d.error(
                name,
                tt.key_line("side", start=ln),
                f"defended hex {hid}: unknown side {side!r}",
                hint=did_you_mean(side, sides),
            )
        dv = _int(
            ctx, name, tt.key_line("defense", start=ln), t, "defense", "[[defended]]", lo=0, hi=99
        )
        ev = _int(ctx, name, tt.key_line("ecm", start=ln), t, "ecm", "[[defended]]", lo=0, hi=9)
        if hid:
            if hid in defended:
                d.error(name, ln, f"hex {hid} is defended twice")
            defended[hid] = DefendedHex(hid, side, dv, ev, str(t.get("name", "")), Origin(name, ln))
    setup_codes: dict[str, str] = {}
    setup_hexes: dict[str, str] = {}
    sc = data.get("setup", {})
    scl = tt.table_start("setup")
    if not isinstance(sc, dict):
        d.error(name, scl, "[setup] must map set-up codes to lists of hexes")
        sc = {}
    for code, spec in sc.items():
        ln = tt.key_line(code, start=scl)
        if not isinstance(spec, dict) or "hexes" not in spec:
            d.error(name, ln, f'[setup] {code}: expected {{ nationality = "..", hexes = [..] }}')
            continue
        nat = spec.get("nationality")
        if nat not in nats:
            d.error(
                name,
                ln,
                f"set-up code {code!r}: unknown nationality {nat!r}",
                hint=did_you_mean(str(nat), list(nats)),
            )
        setup_codes[code] = str(nat)
        for h in spec.get("hexes", []):
            hid = check_hex(h, name, ln, f"set-up code {code}")
            if hid:
                if hid in setup_hexes:
                    d.error(
                        name, ln, f"hex {hid} has two set-up codes ({setup_hexes[hid]} and {code})"
                    )
                setup_hexes[hid] = code
    places: list[Place] = []
    names: dict[str, str] = {}
    for i, t in enumerate(_list_of_tables(ctx, name, data, "place", tt)):
        ln = (tt.block_starts("place") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[place]]")
        pname = _str(ctx, name, ln, t, "name", "[[place]]")
        if hid:
            places.append(Place(hid, pname, bool(t.get("label", True))))
            names.setdefault(hid, pname)
    hexsides: set[tuple[str, str]] = set()
    raw_sides = data.get("all_land_hexsides", [])
    hl = tt.key_line("all_land_hexsides")
    if not isinstance(raw_sides, list):
        d.error(name, hl, 'all_land_hexsides must be a list like ["1311/1312"]')
        raw_sides = []
    for s in raw_sides:
        parts = str(s).split("/")
        lnum, col = tt.value_pos(str(s))
        if len(parts) != 2:
            d.error(name, lnum, f"hexside {s!r} must be two hex ids joined by '/'", col=col)
            continue
        a = check_hex(parts[0], name, lnum, f"hexside {s}")
        b = check_hex(parts[1], name, lnum, f"hexside {s}")
        if a and b:
            if not grid.adjacent(a, b):
                d.error(name, lnum, f"hexside {s}: hexes {a} and {b} are not adjacent", col=col)
            else:
                hexsides.add(hexside_key(a, b))
    edges: dict[str, Edge] = {}
    for i, t in enumerate(_list_of_tables(ctx, name, data, "edge", tt)):
        ln = (tt.block_starts("edge") + [None] * (i + 1))[i]
        eid = _str(ctx, name, ln, t, "id", "[[edge]]")
        side = _str(ctx, name, ln, t, "side", "[[edge]]")
        if side not in ("north", "south", "east", "west"):
            d.error(
                name,
                tt.key_line("side", start=ln),
                f"edge {eid!r}: side must be north, south, east or west, got {side!r}",
            )
            continue
        ids = _edge_hexes(grid, side)
        lo, hi = t.get("from"), t.get("to")
        if lo is not None or hi is not None:
            a = check_hex(lo, name, ln, f"edge {eid} from")
            b = check_hex(hi, name, ln, f"edge {eid} to")
            if a and b:
                if a not in ids or b not in ids:
                    d.error(name, ln, f"edge {eid!r}: {a} and {b} must both lie on the {side} edge")
                else:
                    i0, i1 = sorted((ids.index(a), ids.index(b)))
                    ids = ids[i0 : i1 + 1]
        edges[eid] = Edge(
            eid, _str(ctx, name, ln, t, "name", "[[edge]]", default=eid), side, tuple(ids)
        )

    hexdefs = {
        hid: HexDef(
            id=hid,
            terrain=h["terrain"],
            country=h["country"],
            areas=frozenset(h["areas"]),
            airbase=airbases.get(hid),
            defended=defended.get(hid),
            setup_code=setup_hexes.get(hid),
            name=names.get(hid),
        )
        for hid, h in hexes.items()
    }
    # cross-checks that need terrain: set-up hexes must take naval units
    for hid, code in setup_hexes.items():
        h = hexdefs.get(hid)
        if (
            h
            and terrain.get(h.terrain)
            and all(
                terrain[h.terrain].costs.get(c) is None
                for c in ("surface", "submarine")
                if c in terrain[h.terrain].costs
            )
        ):
            lnum, col = tt.value_pos(hid, start=scl)
            d.error(
                name,
                lnum,
                f"set-up hex {hid} ({code}) is {terrain[h.terrain].name}, "
                "where naval units cannot be placed",
                col=col,
            )
    return MapDef(
        title=title,
        grid=grid,
        hexes=hexdefs,
        terrain=terrain,
        countries=countries,
        areas={a.id: a for a in areas.values()},
        all_land_hexsides=frozenset(hexsides),
        edges=edges,
        places=tuple(places),
        setup_codes=setup_codes,
    )


def _edge_hexes(grid: HexGrid, side: str) -> list[str]:
    if side in ("west", "east"):
        col = grid.first_column if side == "west" else grid.last_column
        return [grid.hex_id(col, r) for r in range(grid.first_row, grid.last_row + 1)]
    north_row = grid.last_row if grid.rows_grow == "north" else grid.first_row
    south_row = grid.first_row if grid.rows_grow == "north" else grid.last_row
    row = north_row if side == "north" else south_row
    return [grid.hex_id(c, row) for c in range(grid.first_column, grid.last_column + 1)]
