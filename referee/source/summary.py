"""One-paragraph facts about a loaded module, for `check`, `build --json` and the demo."""

from __future__ import annotations

from typing import Any

from referee.source.model import Module


def summarize(module: Module) -> dict[str, Any]:
    tables = len(module.tables.named) or (
        sum(1 for t in (module.tables.crt,) if t is not None)
        + (1 if module.tables.victory else 0)
        + (1 if module.map.terrain else 0)
    )
    out = {
        "id": module.id,
        "name": module.name,
        "version": module.version,
        "ruleset": module.ruleset,
        "units": len(module.units),
        "counters": sum(u.count for u in module.units),
        "hexes": len(module.map.hexes),
        "airbases": len(module.map.airbases()),
        "defended_hexes": len(module.map.defended_hexes()),
        "tables": tables,
        "scenarios": len(module.scenarios),
        "scenario_ids": sorted(module.scenarios),
    }
    m = module.map
    if m.kind != "hex":  # area and point-to-point maps (a hex map's summary is unchanged)
        out["map_kind"] = m.kind
        out["zones"] = len(m.zones.zones) if m.zones else 0
        out["spaces"] = len(m.spaces.spaces) if m.spaces else 0
        out["links"] = len(m.spaces.links) if m.spaces else 0
    return out
