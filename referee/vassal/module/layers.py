"""Zones and spaces in VASSAL: the grids that make a dropped piece report its place's name.

VASSAL names a point of a board by the board's grid (vassal-format.md §3.5, §4.5). For an area
or point-to-point map we use VASSAL's own grid kinds, so the name is VASSAL's, not ours:

* **zones** become ``Zone`` elements of a ``ZonedGrid``, each with its outline as a polygon
  ``path`` in board pixels and ``locationFormat="$name$"``: a piece anywhere inside reports the
  zone's name. A zone drawn as an outline has no grid of its own (pieces stay where dropped);
  a zone on a hex map (made of hexes, or an outline over them) uses the board's hex grid
  (``useParentGrid``), so pieces snap to hex centres and still report the zone;
* **spaces** of a map without zones become ``Region`` elements of a ``RegionGrid`` on the
  board: a piece dropped anywhere snaps to the nearest space and reports its name. On a map
  with zones (or a hex grid) a space becomes a small square ``Zone`` listed before the others
  (VASSAL takes the first zone that holds a point), with a ``RegionGrid`` of that one space
  inside, so a piece dropped on it snaps to its centre and reports its name (a port over its
  sea zone).

:class:`MapLayers` also says where a piece placed in a zone or on a space is stored
(:meth:`MapLayers.point`) and reads a stored point back with VASSAL's own rules
(:meth:`MapLayers.name_at`: ``java.awt.Polygon.contains`` for zones, nearest region for a
region grid), so the save writer and the tests agree with VASSAL on every pixel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from referee.source.mapkinds import point_in_polygon
from referee.source.model import Module

__all__ = ["MapLayers", "VRegion", "VZone", "awt_contains", "map_layers"]

IntPoint = tuple[int, int]


@dataclass(frozen=True, slots=True)
class VZone:
    """One VASSAL ``Zone``: its name, polygon (board pixels), where pieces placed in it are
    stored, whether it uses the board's hex grid, and the one region of a space's zone."""

    name: str
    polygon: tuple[IntPoint, ...]
    place: IntPoint
    parent_grid: bool = False
    region: IntPoint | None = None

    @property
    def path(self) -> str:
        """The ``path`` attribute: ``x,y;x,y;...``."""
        return ";".join(f"{x},{y}" for x, y in self.polygon)


@dataclass(frozen=True, slots=True)
class VRegion:
    """One ``Region`` of a board's ``RegionGrid``: a named snap point."""

    name: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class MapLayers:
    """The zones (in VASSAL's order) and board regions of the main map."""

    zones: tuple[VZone, ...]
    regions: tuple[VRegion, ...]

    def point(self, name: str) -> IntPoint:
        """Where VASSAL stores a piece placed in zone or on space ``name``."""
        for z in self.zones:
            if z.name == name:
                return z.place
        for r in self.regions:
            if r.name == name:
                return r.x, r.y
        raise KeyError(f"{name!r} is no zone or space of the board")

    def names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones) + tuple(r.name for r in self.regions)

    def name_at(self, x: int, y: int) -> str | None:
        """The zone or space VASSAL names board point ``(x, y)``: the first zone whose
        polygon holds it; else, on a board with a region grid, the nearest region (VASSAL
        iterates a hash map there, so equidistant regions are an ambiguity we report as the
        first in source order). ``None``: outside every zone of a zoned board."""
        for z in self.zones:
            if awt_contains(z.polygon, x, y):
                return z.name
        if self.regions:
            best = min(self.regions, key=lambda r: (r.x - x) ** 2 + (r.y - y) ** 2)
            return best.name
        return None


def awt_contains(poly: tuple[IntPoint, ...], x: float, y: float) -> bool:
    """``java.awt.Polygon.contains(x, y)`` transcribed (even-odd; a point on a left or top
    edge is inside, on a right or bottom edge outside), as VASSAL's ``Zone.contains`` uses."""
    n = len(poly)
    if n <= 2:
        return False
    hits = 0
    lastx, lasty = poly[n - 1]
    for curx, cury in poly:
        if cury == lasty:
            lastx, lasty = curx, cury
            continue
        if curx < lastx:
            if x >= lastx:
                lastx, lasty = curx, cury
                continue
            leftx = curx
        else:
            if x >= curx:
                lastx, lasty = curx, cury
                continue
            leftx = lastx
        if cury < lasty:
            if y < cury or y >= lasty:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1, test2 = x - curx, y - cury
        else:
            if y < lasty or y >= cury:
                lastx, lasty = curx, cury
                continue
            if x < leftx:
                hits += 1
                lastx, lasty = curx, cury
                continue
            test1, test2 = x - lastx, y - lasty
        if test1 < test2 / (lasty - cury) * (lastx - curx):
            hits += 1
        lastx, lasty = curx, cury
    return (hits & 1) != 0


def map_layers(
    module: Module,
    px: Callable[[tuple[float, float]], tuple[float, float]],
    counter_px: int,
    hex_centres: Mapping[str, IntPoint] | None = None,
    names: Mapping[str, tuple[float, float, float, float]] | None = None,
) -> MapLayers | None:
    """The VASSAL zones and regions of ``module``'s map, in board pixels (``px`` turns the
    map's inches into board pixels: ``BoardLayout.px``). ``None`` for a plain hex map.

    ``hex_centres`` (a hex map's snapped hex centres, by hex id): on a hex map every zone
    uses the hex grid, so a piece placed in it stands on the hex centre nearest its name.
    ``names`` (the board's name boxes, ``board_layers.name_boxes``): a zone's pieces stand
    where their stack covers none of them."""
    from referee.render.board_layers import zone_label_point

    m = module.map
    if m.zones is None and m.spaces is None:
        return None

    def ip(p: tuple[float, float]) -> IntPoint:
        x, y = px(p)
        return round(x), round(y)

    zones: list[VZone] = []
    regions: list[VRegion] = []
    if m.spaces is not None:
        if m.zones is None and m.grid is None:
            regions = [VRegion(s.name, *ip(s.at)) for s in m.spaces.spaces.values()]
        else:
            half = max(6, counter_px // 2)
            for s in m.spaces.spaces.values():
                x, y = hex_centres[s.hex] if (s.hex and hex_centres) else ip(s.at)
                square = ((x - half, y - half), (x + half, y - half), (x + half, y + half),
                          (x - half, y + half))  # fmt: skip
                zones.append(VZone(s.name, square, (x, y), False, (x, y)))
    if m.zones is not None:
        for z in m.zones.zones.values():
            poly = tuple(ip(p) for p in z.outline)
            inside = []
            if hex_centres:
                hexes = z.hexes or tuple(
                    h for h, c in hex_centres.items() if awt_contains(poly, *c)
                )
                inside = [hex_centres[h] for h in hexes]
            if inside:  # snap to the hex grid; stand on the hex centre nearest the name
                lx, ly = px(zone_label_point(z))
                place = min(inside, key=lambda c: ((c[0] - lx) ** 2 + (c[1] - ly) ** 2, c))
                zones.append(VZone(z.name, poly, place, True))
            else:
                place = _place_in(poly, px, z, counter_px, names or {})
                zones.append(VZone(z.name, poly, place))
    return MapLayers(tuple(zones), tuple(regions))


STACK_GROWTH: Final = (6, 12)
"""How far a stack of four counters reaches right and up beyond its bottom counter: the
StackMetrics every map of ours has (``unexSepX`` 2, ``unexSepY`` 4 per counter)."""
STACK_STEP: Final = (2, 4)
"""How far each counter of a stack is drawn right and up of the one under it."""


def _place_in(
    poly: tuple[IntPoint, ...],
    px: Callable[[tuple[float, float]], tuple[float, float]],
    zone: object,
    counter_px: int,
    names: Mapping[str, tuple[float, float, float, float]],
) -> IntPoint:
    """A point inside the zone for its pieces, nearest its name, where a stack (its bottom
    counter and :data:`STACK_GROWTH`) covers no place name of the board and, if it can,
    stays inside the zone; else a counter's height under its name, else any interior point.
    A stack never hides a place name (issue 27)."""
    from referee.render.board_layers import zone_label_point
    from referee.source.mapkinds import interior_point

    lx, ly = px(zone_label_point(zone))  # type: ignore[arg-type]
    spot = _clear_spot(poly, (lx, ly), counter_px, names) if names else None
    if spot is not None:
        return spot
    for cand in ((lx, ly + counter_px), (lx, ly - counter_px), (lx, ly)):
        x, y = round(cand[0]), round(cand[1])
        if awt_contains(poly, x, y) and point_in_polygon((x, y), poly):
            return x, y
    x, y = interior_point(poly)
    return round(x), round(y)


def _clear_spot(
    poly: tuple[IntPoint, ...],
    label: tuple[float, float],
    counter_px: int,
    names: Mapping[str, tuple[float, float, float, float]],
) -> IntPoint | None:
    """The lattice point (a quarter counter apart) inside ``poly`` whose stack box covers
    the least of the board's name boxes (none, where the zone has room), then lies inside
    the zone, then is nearest ``label``: a small island's stack may overhang its coast, and
    covers as little of a name as it can."""
    half = counter_px / 2
    gx, gy = STACK_GROWTH
    step = max(4, counter_px // 4)
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    # only the name boxes some stack box of the zone's lattice can overlap (the others add
    # 0.0 to every sum, so the sums are the same numbers): a board has a few hundred names,
    # a zone's stacks reach a handful of them
    reach = (x0 - half, y0 - half - gy, x1 + half + gx, y1 + half)
    boxes = [b for b in names.values() if _overlap(reach, b)]
    best: tuple[float, int, float, int, int] | None = None
    for y in range(y0, y1 + 1, step):
        for x in range(x0, x1 + 1, step):
            if not (awt_contains(poly, x, y) and point_in_polygon((x, y), poly)):
                continue
            box = (x - half, y - half - gy, x + half + gx, y + half)
            covered = sum(_overlap(box, b) for b in boxes)
            if best is not None and covered > best[0]:
                continue  # it cannot win, whatever its corners
            corners = ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))
            outside = sum(1 for cx, cy in corners if not awt_contains(poly, round(cx), round(cy)))
            d = (x - label[0]) ** 2 + (y - label[1]) ** 2
            key = (covered, outside, d, y, x)
            if best is None or key < best:
                best = key
    return None if best is None else (best[4], best[3])


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two boxes (x0, y0, x1, y1) share."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0
