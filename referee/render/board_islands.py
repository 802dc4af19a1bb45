"""Islands on the board: the land of island hexes, and the declared small islands.

Two kinds of island are drawn, both as land marks inside sea or coastal hexes:

- an **island hex**: a coastal hex ("part land and part sea" [10.0]) of a group of coastal
  hexes that touches no land hex; its land must be somewhere in it, so a small island is
  drawn at its centre, unless a declared island already lies in that hex;
- a **declared island** (``[[island]]`` in ``map.toml``, :class:`~referee.source.model.Island`):
  decoration at the place and size the map gives, read by no rule, so Lesbos can be seen in a
  Restricted Water hex that the rules still treat as water.

The outlines are irregular but fixed: each depends only on the island's name or hex id, so
the same map gives the same pixels.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from referee.source.model import Island, Module

if TYPE_CHECKING:
    from referee.render.board_geometry import BoardLayout

Polygon = list[tuple[float, float]]


def island_hexes(module: Module) -> list[str]:
    """Coastal hexes of a group of coastal hexes that touches no land hex: islands (Crete,
    Rhodes, the Cyclades on the Sixth Fleet map). Terrain is read by name: a terrain id
    containing ``coast`` is coastal, one containing ``land`` land."""
    m = module.map
    coast = {h for h, d in m.hexes.items() if "coast" in d.terrain}
    land = {h for h, d in m.hexes.items() if "land" in d.terrain and "coast" not in d.terrain}
    out: list[str] = []
    seen: set[str] = set()
    for start in sorted(coast):
        if start in seen:
            continue
        group, todo = [start], [start]
        seen.add(start)
        while todo:
            for n in m.grid.neighbours(todo.pop()):
                if n in coast and n not in seen:
                    seen.add(n)
                    group.append(n)
                    todo.append(n)
        if not any(n in land for h in group for n in m.grid.neighbours(h)):
            out.extend(group)
    return sorted(out)


def _seed(text: str) -> int:
    return sum(ord(c) * (i + 1) for i, c in enumerate(text))


def _blob(
    seed: int, cx: float, cy: float, half_len: float, half_breadth: float, angle: float
) -> Polygon:
    """An irregular oval round ``(cx, cy)``, its length turned ``angle`` degrees
    anticlockwise from east (image y grows down)."""
    n = 36 if half_len > 2.5 * half_breadth else 18
    t = math.radians(angle)
    cos_t, sin_t = math.cos(t), math.sin(t)
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n
        r = 1.0 + 0.16 * math.sin(3 * a + seed % 7) + 0.08 * math.cos(5 * a + seed % 5)
        x, y = math.cos(a) * half_len * r, math.sin(a) * half_breadth * r
        pts.append((cx + x * cos_t + y * sin_t, cy - x * sin_t + y * cos_t))
    return pts


def hex_island_outline(hid: str, cx: float, cy: float, hw: float) -> Polygon:
    """The small island drawn at the centre of an island hex."""
    return _blob(_seed(hid), cx, cy, hw * 0.3, hw * 0.17, 0.0)


def island_centre(island: Island, lay: BoardLayout) -> tuple[float, float]:
    """The image pixel of a declared island's centre."""
    cx, cy = lay.pixel_centre(island.hex)
    hw = lay.grid.hex_width
    return cx + island.at[0] * hw, cy - island.at[1] * hw


def island_outline(island: Island, lay: BoardLayout) -> Polygon:
    """A declared island's outline in image pixels."""
    hw = lay.grid.hex_width
    cx, cy = island_centre(island, lay)
    length, breadth = island.size
    return _blob(_seed(island.name), cx, cy, hw * length / 2, hw * breadth / 2, island.angle)


def island_shapes(module: Module, lay: BoardLayout) -> list[Polygon]:
    """Every island outline the board draws: the declared islands, then a small island in
    each island hex that none of them reaches."""
    declared = [island_outline(i, lay) for i in module.map.islands if i.hex in module.map.hexes]
    reached = {lay.hex_at(x, y) for pts in declared for x, y in pts}
    reached |= {lay.hex_at(*_mean(pts)) for pts in declared}
    hw = lay.grid.hex_width
    own = [
        hex_island_outline(hid, *lay.pixel_centre(hid), hw)
        for hid in island_hexes(module)
        if hid not in reached
    ]
    return declared + own


def _mean(pts: Polygon) -> tuple[float, float]:
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
