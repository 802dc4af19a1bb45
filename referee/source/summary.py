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
    if m.art is not None:  # a map picture: where the anchors put the grid on it
        out["map_picture"] = picture_summary(module)
    return out


def picture_summary(module: Module) -> dict[str, Any]:
    """The map picture and, on a hex map, the fitted grid with every anchor's residual."""
    art = module.map.art
    assert art is not None
    pic = art.picture
    out: dict[str, Any] = {"image": pic.name, "pixels": [pic.width, pic.height]}
    if art.fit is not None and module.map.grid is not None:
        out["hex_px"] = round(art.fit.px_per_hex, 2)
        out["rotation_deg"] = round(art.fit.rotation_deg, 3)
        out["dpi"] = round(art.fit.px_per_hex / module.map.grid.hex_width, 1)
        out["anchors"] = [
            {"hex": a.hex, "x": a.x, "y": a.y, "residual": a.residual} for a in art.fit.anchors
        ]
    return out


def picture_lines(module: Module) -> list[str]:
    """The map picture's fit as ``check`` prints it: one line, then one per anchor."""
    if module.map.art is None:
        return []
    s = picture_summary(module)
    if "anchors" not in s:
        w, h = s["pixels"]
        return [f"map picture {s['image']} ({w} x {h} px) spans the board"]
    out = [
        f"map picture {s['image']}: one hex = {s['hex_px']:g} px ({s['dpi']:g} dpi printed), "
        f"turned {s['rotation_deg']:+.2f} degrees, {len(s['anchors'])} anchors"
    ]
    out += ["  hex   x       y       residual (hexes)"]
    out += [f"  {a['hex']}  {a['x']:<7g} {a['y']:<7g} {a['residual']:.3f}" for a in s["anchors"]]
    return out
