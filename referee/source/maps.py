"""The map file (``[files] map``, ``map.toml``) and the text picture of the map it names.

Entry point: :func:`load_map`, which returns a :class:`~referee.source.model.MapDef` (or
``None`` after reporting why). The hex grid, the picture's layers (terrain, country, area) and
the hex features (airbases, defended hexes, set-up codes, places, all-land hexsides, map edges)
are read here; each feature reader is its own function so other map kinds can reuse them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from referee.hexgrid import HexGrid, hexside_key
from referee.source.base import Ctx, check_top, get_int, get_num, get_str, list_of_tables
from referee.source.diagnostics import Diagnostics, did_you_mean
from referee.source.load_islands import load_islands
from referee.source.load_layers import MAP_KIND_KEYS, add_layers, map_without_grid
from referee.source.load_mapart import load_canvas_art, load_hex_art
from referee.source.mappicture import AREA_LAYERS, Cell, parse_map_picture
from referee.source.model import (
    Airbase,
    Area,
    Country,
    DefendedHex,
    Edge,
    HexDef,
    MapDef,
    Nationality,
    Origin,
    Place,
    TerrainType,
)
from referee.source.tomlpos import TomlText

MAP_TOP_KEYS: tuple[str, ...] = (
    "map",
    "grid",
    "country",
    "area",
    "setup",
    "airbase",
    "defended",
    "place",
    "island",
    "all_land_hexsides",
    "edge",
    *MAP_KIND_KEYS,  # zones and spaces: referee/source/load_layers.py
)
# the keys each array-of-tables entry may hold (see basics.KNOWN_KEYS)
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "country": ("char", "name", "nationality", "color"),
    "area": ("char", "id", "name", "color"),
    "airbase": ("hex", "nationality", "name"),
    "defended": ("hex", "side", "defense", "ecm", "name"),
    "place": ("hex", "name", "label"),
    "edge": ("id", "name", "side", "from", "to"),
}


def load_map(
    ctx: Ctx,
    name: str,
    line: int | None,
    terrain: dict[str, TerrainType],
    nats: dict[str, Nationality],
    sides: set[str],
) -> MapDef | None:
    """Read ``map.toml`` (named on ``line`` of module.toml) and its picture into a MapDef."""
    got = ctx.toml(name, what="map file", line=line)
    if got is None:
        return None
    data, tt = got
    d = ctx.diags
    check_top(ctx, name, tt, data, MAP_TOP_KEYS)
    if "grid" not in data and any(k in data for k in MAP_KIND_KEYS):
        plain = map_without_grid(name, tt, data, d, terrain, ctx.schema)  # area or point map
        if plain is None or plain.canvas is None:
            return plain
        return replace(plain, art=load_canvas_art(ctx, name, tt, data, plain.canvas))
    grid = load_grid(ctx, name, tt, data)
    if grid is None:
        return None
    picture = _read_picture(ctx, name, tt, data, grid)
    if picture is None:
        return None
    title, picture_name, layers = picture
    countries = _load_countries(ctx, name, tt, data, nats)
    areas = _load_areas(ctx, name, tt, data)
    hexes = _hex_cells(ctx, name, picture_name, layers, grid, terrain, countries, areas)
    check_hex = hex_checker(d, grid, tt)
    airbases = _load_airbases(ctx, name, tt, data, check_hex, hexes, terrain, countries, nats)
    defended = _load_defended(ctx, name, tt, data, check_hex, sides)
    setup_codes, setup_hexes = _load_setup(ctx, name, tt, data, check_hex, nats)
    places, names = _load_places(ctx, name, tt, data, check_hex)
    islands = load_islands(ctx, name, tt, data, check_hex)
    hexsides = _load_hexsides(ctx, name, tt, data, check_hex, grid)
    terrain_of = {hid: h["terrain"] for hid, h in hexes.items()}
    art = load_hex_art(
        ctx, name, tt, data, grid, terrain, terrain_of, layers.get("terrain", {}), picture_name
    )
    edges = _load_edges(ctx, name, tt, data, check_hex, grid)
    scl = tt.table_start("setup")

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
    hex_map = MapDef(
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
        islands=tuple(islands),
        art=art,
    )
    return add_layers(hex_map, name, tt, data, d, ctx.schema)  # zones, spaces over the hexes


def load_grid(ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any]) -> HexGrid | None:
    """The ``[grid]`` table: size, orientation, numbering and hex width."""
    d = ctx.diags
    g = data.get("grid")
    if not isinstance(g, dict):
        d.error(name, None, "missing [grid] table")
        return None
    gl = tt.table_start("grid")
    cols = get_int(
        ctx, name, tt.key_line("columns", start=gl), g, "columns", "[grid]", lo=1, hi=99, default=1
    )
    rows = get_int(
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
    width = get_num(
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
    first_col = get_int(
        ctx, name, None, g, "first_column", "[grid]", default=1, lo=0, hi=99, required=False
    )
    first_row = get_int(
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
    return grid


def _read_picture(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], grid: HexGrid
) -> tuple[str, str, dict[str, dict[str, Cell]]] | None:
    """``[map]``: the title and the text picture's layers (terrain, country, area)."""
    d = ctx.diags
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
    return title, picture_name, layers


def _load_countries(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], nats: dict[str, Nationality]
) -> dict[str, Country]:
    d = ctx.diags
    countries: dict[str, Country] = {}
    cstarts = tt.block_starts("country")
    for i, t in enumerate(list_of_tables(ctx, name, data, "country", tt, KNOWN_KEYS["country"])):
        ln = cstarts[i] if i < len(cstarts) else None
        code = get_str(ctx, name, ln, t, "char", "[[country]]")
        nat = t.get("nationality")
        if nat is not None and (not isinstance(nat, str) or nat not in nats):
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
            get_str(ctx, name, ln, t, "name", "[[country]]"),
            nat if isinstance(nat, str) else None,
            t.get("color"),
        )
    return countries


def _load_areas(ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any]) -> dict[str, Area]:
    d = ctx.diags
    areas: dict[str, Area] = {}
    astarts = tt.block_starts("area")
    for i, t in enumerate(list_of_tables(ctx, name, data, "area", tt, KNOWN_KEYS["area"])):
        ln = astarts[i] if i < len(astarts) else None
        ch = get_str(ctx, name, ln, t, "char", "[[area]]")
        if len(ch) != 1:
            d.error(name, ln, f"area char {ch!r} must be one character")
        areas[ch] = Area(
            ch,
            get_str(ctx, name, ln, t, "id", "[[area]]"),
            get_str(ctx, name, ln, t, "name", "[[area]]"),
            str(t.get("color", "#000000")),
        )

    return areas


def _hex_cells(
    ctx: Ctx,
    name: str,
    picture_name: str,
    layers: dict[str, dict[str, Cell]],
    grid: HexGrid,
    terrain: dict[str, TerrainType],
    countries: dict[str, Country],
    areas: dict[str, Area],
) -> dict[str, dict[str, Any]]:
    """Each pictured hex's terrain id, country char and area ids, checked against the map file."""
    d = ctx.diags
    by_char = {t.char: t for t in terrain.values()}
    tlayer = layers.get("terrain", {})
    clayer = layers.get("country", {})
    alayers = [layers.get(layer, {}) for layer in AREA_LAYERS]  # a hex may lie in two areas
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
        for alayer in alayers:
            ac = alayer.get(hid)
            if ac is None or ac.char in ("-", "."):
                continue
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
    return hexes


HexCheck = Callable[[object, str, int | None, str], str | None]


def hex_checker(d: Diagnostics, grid: HexGrid, tt: TomlText) -> HexCheck:
    """A function that checks one hex id written in the map file (quoted, on the grid)."""

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

    return check_hex


def _load_airbases(
    ctx: Ctx,
    name: str,
    tt: TomlText,
    data: dict[str, Any],
    check_hex: HexCheck,
    hexes: dict[str, dict[str, Any]],
    terrain: dict[str, TerrainType],
    countries: dict[str, Country],
    nats: dict[str, Nationality],
) -> dict[str, Airbase]:
    d = ctx.diags
    airbases: dict[str, Airbase] = {}
    for i, t in enumerate(list_of_tables(ctx, name, data, "airbase", tt, KNOWN_KEYS["airbase"])):
        ln = (tt.block_starts("airbase") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[airbase]]")
        nat = get_str(ctx, name, ln, t, "nationality", "[[airbase]]")
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
    return airbases


def _load_defended(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], check_hex: HexCheck, sides: set[str]
) -> dict[str, DefendedHex]:
    d = ctx.diags
    defended: dict[str, DefendedHex] = {}
    for i, t in enumerate(list_of_tables(ctx, name, data, "defended", tt, KNOWN_KEYS["defended"])):
        ln = (tt.block_starts("defended") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[defended]]")
        side = get_str(ctx, name, ln, t, "side", "[[defended]]")
        if side and side not in sides:
            d.error(
                name,
                tt.key_line("side", start=ln),
                f"defended hex {hid}: unknown side {side!r}",
                hint=did_you_mean(side, sides),
            )
        dv = get_int(
            ctx, name, tt.key_line("defense", start=ln), t, "defense", "[[defended]]", lo=0, hi=99
        )
        ev = get_int(ctx, name, tt.key_line("ecm", start=ln), t, "ecm", "[[defended]]", lo=0, hi=9)
        if hid:
            if hid in defended:
                d.error(name, ln, f"hex {hid} is defended twice")
            defended[hid] = DefendedHex(hid, side, dv, ev, str(t.get("name", "")), Origin(name, ln))
    return defended


def _load_setup(
    ctx: Ctx,
    name: str,
    tt: TomlText,
    data: dict[str, Any],
    check_hex: HexCheck,
    nats: dict[str, Nationality],
) -> tuple[dict[str, str], dict[str, str]]:
    """``[setup]``: set-up code -> nationality, and hex -> set-up code."""
    d = ctx.diags
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
    return setup_codes, setup_hexes


def _load_places(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], check_hex: HexCheck
) -> tuple[list[Place], dict[str, str]]:
    places: list[Place] = []
    names: dict[str, str] = {}
    for i, t in enumerate(list_of_tables(ctx, name, data, "place", tt, KNOWN_KEYS["place"])):
        ln = (tt.block_starts("place") + [None] * (i + 1))[i]
        hid = check_hex(t.get("hex"), name, ln, "[[place]]")
        pname = get_str(ctx, name, ln, t, "name", "[[place]]")
        if hid:
            places.append(Place(hid, pname, bool(t.get("label", True))))
            names.setdefault(hid, pname)
    return places, names


def _load_hexsides(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], check_hex: HexCheck, grid: HexGrid
) -> set[tuple[str, str]]:
    d = ctx.diags
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
    return hexsides


def _load_edges(
    ctx: Ctx, name: str, tt: TomlText, data: dict[str, Any], check_hex: HexCheck, grid: HexGrid
) -> dict[str, Edge]:
    d = ctx.diags
    edges: dict[str, Edge] = {}
    for i, t in enumerate(list_of_tables(ctx, name, data, "edge", tt, KNOWN_KEYS["edge"])):
        ln = (tt.block_starts("edge") + [None] * (i + 1))[i]
        eid = get_str(ctx, name, ln, t, "id", "[[edge]]")
        side = get_str(ctx, name, ln, t, "side", "[[edge]]")
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
            eid, get_str(ctx, name, ln, t, "name", "[[edge]]", default=eid), side, tuple(ids)
        )

    return edges


def _edge_hexes(grid: HexGrid, side: str) -> list[str]:
    if side in ("west", "east"):
        col = grid.first_column if side == "west" else grid.last_column
        return [grid.hex_id(col, r) for r in range(grid.first_row, grid.last_row + 1)]
    north_row = grid.last_row if grid.rows_grow == "north" else grid.first_row
    south_row = grid.first_row if grid.rows_grow == "north" else grid.last_row
    row = north_row if side == "north" else south_row
    return [grid.hex_id(c, row) for c in range(grid.first_column, grid.last_column + 1)]
