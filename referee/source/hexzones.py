"""The outline of a group of hexes: a zone laid over a hex map (the naval module's sea zones).

VASSAL names a point by the first Zone whose polygon contains it, and the renderer draws a
zone's border, so a zone made of hexes needs one polygon: the boundary of the union of its
hexes, traced along the hexsides. A hexside shared by two hexes of the group is inside it;
every other hexside is on the boundary, and the boundary sides chain into rings. One ring is
the outline; more than one means the hexes do not touch or enclose a hole, which a single
polygon cannot describe, so the loader reports it.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.hexgrid import HexGrid
from referee.source.mapkinds import Point, polygon_area


class HexOutlineError(ValueError):
    """The hexes do not form one piece without holes."""


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0] * 1e6), round(p[1] * 1e6)


def trace_hex_outline(grid: HexGrid, hexes: Iterable[str]) -> tuple[Point, ...]:
    """The outline of ``hexes`` in the grid's own units (inches for a module's grid),
    clockwise on screen, with collinear corners kept (hex corners only)."""
    count: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}
    where: dict[tuple[int, int], Point] = {}
    directed: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for h in hexes:
        cs = grid.corners(h)
        for i in range(6):
            a, b = cs[i], cs[(i + 1) % 6]
            ka, kb = _key(a), _key(b)
            where[ka], where[kb] = a, b
            und = (min(ka, kb), max(ka, kb))
            count[und] = count.get(und, 0) + 1
            directed.append((ka, kb))
    nxt: dict[tuple[int, int], tuple[int, int]] = {}
    for ka, kb in directed:
        if count[(min(ka, kb), max(ka, kb))] == 1:
            if ka in nxt:
                raise HexOutlineError("the hexes touch only at a corner")
            nxt[ka] = kb
    if not nxt:
        raise HexOutlineError("no hexes")
    start = min(nxt)
    ring = [start]
    cur = nxt[start]
    while cur != start:
        if cur in ring or cur not in nxt:
            raise HexOutlineError("the hexes do not form one piece")
        ring.append(cur)
        cur = nxt[cur]
    if len(ring) != len(nxt):
        raise HexOutlineError("the hexes are not one piece without holes")
    pts = tuple(where[k] for k in ring)
    if polygon_area(pts) < 0:
        pts = tuple(reversed(pts))
    return pts
