"""The hook between the hex map loader and the area and point-to-point loaders.

``map.toml`` without ``[grid]`` is an area or point-to-point map (or both) drawn on a
``[board]``: :func:`map_without_grid` loads it whole. A hex map may add zones and spaces over
its grid (the naval module's sea zones and ports): :func:`add_layers` loads those after the
hex layers. Zone names and space names share one namespace, so a location name means one place.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.source.diagnostics import Diagnostics
from referee.source.load_area import load_zones
from referee.source.load_mapkinds import MAP_KIND_KEYS, MapCtx, load_canvas
from referee.source.load_points import load_spaces
from referee.source.mapkinds import Canvas
from referee.source.model import MapDef, TerrainType
from referee.source.schema import RulesetSchema
from referee.source.tomlpos import TomlText

__all__ = ["MAP_KIND_KEYS", "add_layers", "has_layers", "map_without_grid"]

HEX_PX_PER_INCH = 100.0
"""On a hex map, ``px`` coordinates are pixels of the hex grid drawn at 100 dpi (no margin)."""


def has_layers(data: dict[str, Any]) -> bool:
    return any(k in data for k in MAP_KIND_KEYS if k != "board")


def map_without_grid(
    name: str,
    tt: TomlText,
    data: dict[str, Any],
    diags: Diagnostics,
    terrain: dict[str, TerrainType],
    schema: RulesetSchema | None = None,
) -> MapDef | None:
    """An area and/or point-to-point map on a ``[board]``."""
    meta = data.get("map", {})
    title = meta.get("title", "") if isinstance(meta, dict) else ""
    if not isinstance(title, str):
        diags.error(name, tt.table_start("map"), "[map] title must be a string")
        title = ""
    if isinstance(meta, dict) and "picture" in meta:
        diags.error(
            name,
            tt.key_line("picture", start=tt.table_start("map")),
            "[map] picture (the text hex map) needs a [grid]",
            hint="an area or point-to-point map is drawn from its zones and spaces",
        )
    canvas = load_canvas(data, tt, name, diags)
    if canvas is None:
        return None
    if not has_layers(data):
        diags.error(
            name,
            None,
            "the map declares no hex [grid], no [[zone]] and no [[space]]",
            hint="see docs/module-source.md, Maps",
        )
        return None
    mc = MapCtx(name, tt, diags, canvas)
    zones = load_zones(mc, data)
    spaces = load_spaces(mc, data, tuple(zones.zones) if zones else ())
    out = MapDef(
        title=title,
        grid=None,
        hexes={},
        terrain=terrain,
        countries={},
        areas={},
        all_land_hexsides=frozenset(),
        edges={},
        places=(),
        setup_codes={},
        zones=zones,
        spaces=spaces,
        canvas=canvas,
    )
    _check_ruleset(out, schema, name, diags)
    return out


def add_layers(
    map_def: MapDef,
    name: str,
    tt: TomlText,
    data: dict[str, Any],
    diags: Diagnostics,
    schema: RulesetSchema | None = None,
) -> MapDef:
    """Zones and spaces laid over a hex map; coordinates in pixels of the grid at 100 dpi."""
    if not has_layers(data):
        return map_def
    grid = map_def.grid
    assert grid is not None
    w, h = grid.pixel_size()
    canvas = Canvas(w, h, "px", HEX_PX_PER_INCH)
    mc = MapCtx(name, tt, diags, canvas, grid)
    zones = load_zones(mc, data)
    spaces = load_spaces(mc, data, tuple(zones.zones) if zones else ())
    if spaces is not None:
        _check_space_hexes(mc, spaces, zones)
    out = replace(map_def, zones=zones, spaces=spaces)
    _check_ruleset(out, schema, name, diags)
    return out


def _check_ruleset(
    map_def: MapDef, schema: RulesetSchema | None, name: str, diags: Diagnostics
) -> None:
    """A warning, not an error: the module still builds (VASSAL module, board, play aids),
    but the ruleset cannot referee a game on this kind of map."""
    if schema is not None and map_def.kind not in schema.map_kinds:
        diags.warning(
            name,
            None,
            f"ruleset {schema.id} plays on {', '.join(schema.map_kinds)} maps and this map is "
            f"{map_def.kind}: the module builds, but games on it cannot be refereed",
            hint="the scenario set-ups in the VASSAL module show the [[fixed]] placements only",
        )


def _check_space_hexes(mc: MapCtx, spaces: Any, zones: Any) -> None:
    """On a combined map a space placed by ``at`` must still lie on a hex of the grid."""
    for s in spaces.spaces.values():
        if s.hex is None and mc.grid.hex_at(*s.at) is None:
            mc.error(s.origin.line, f"space {s.name!r} is not on a hex of the map")
