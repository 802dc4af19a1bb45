"""Area and point-to-point maps: the model of zones, spaces, links and lines.

A hex map (``MapDef.grid``) is one of three kinds of map a module source may declare; the
other two live here, and a map may combine them (the naval module's sea zones and ports lie
over a hex map):

* **area**: named zones, each with a polygon outline on the board picture (or a group of hexes
  of the map's hex grid), a zone type the module declares (sea, land, strait, no entry...),
  the zones it is adjacent to, boundaries that block some kinds of movement, and free
  properties (bases, capacity, control...);
* **point-to-point**: named spaces at a position, links between them (directed where the game
  says so), the lines or routes they belong to, and free properties.

Like the rest of :mod:`referee.source.model` these are immutable and keep the file and line
each fact came from (:class:`~referee.source.origin.Origin`). Coordinates are in **inches** from
the top-left corner of the map (y down): the loader converts whatever unit the designer wrote
(board pixels at a stated dpi, inches, millimetres), so renderers only multiply by their dpi.
What a property *means* is the ruleset's business; the model only records it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from referee.source.origin import Origin

Point = tuple[float, float]
PropValue = str | int | float | bool | tuple[str, ...]
ANY_KIND = "*"
"""In ``closed_to`` or ``blocks``: every kind of movement."""


def _origin() -> Origin:
    return Origin("")


@dataclass(frozen=True, slots=True)
class Canvas:
    """The drawing surface of a map without a hex grid: its size in inches, and the unit the
    designer wrote coordinates in (``px`` at ``per_inch`` pixels an inch, ``in`` or ``mm``)."""

    width: float
    height: float
    unit: str = "in"
    per_inch: float = 1.0

    def to_source(self, p: Point) -> tuple[float, float]:
        """A point back in the designer's unit (for messages that quote coordinates)."""
        return round(p[0] * self.per_inch, 3), round(p[1] * self.per_inch, 3)


@dataclass(frozen=True, slots=True)
class LocationType:
    """A kind of zone or space the module declares (``sea``, ``land``, ``strait``,
    ``no_entry``, ``port``...): its legend name, its fill colour, and the movement kinds that
    may never enter a location of this type (``"*"``: none may)."""

    id: str
    name: str
    color: str
    closed_to: frozenset[str] = frozenset()
    origin: Origin = field(default_factory=_origin)

    def closed(self, kind: str | None) -> bool:
        if kind is None:
            return False
        return ANY_KIND in self.closed_to or kind in self.closed_to


@dataclass(frozen=True, slots=True)
class Zone:
    """One zone of an area map. ``outline`` is the polygon in inches (at least three corners,
    not closed: the last corner joins the first); for a zone made of hexes it is the traced
    outline of those hexes and ``hexes`` lists them. ``label_at`` is where its name is
    printed (``None``: the renderer chooses a point inside)."""

    name: str
    type: str
    outline: tuple[Point, ...]
    adjacent: tuple[str, ...]
    properties: dict[str, PropValue] = field(default_factory=dict)
    hexes: tuple[str, ...] = ()
    label_at: Point | None = None
    origin: Origin = field(default_factory=_origin)


@dataclass(frozen=True, slots=True)
class Boundary:
    """The boundary between two adjacent zones, blocking the movement kinds in ``blocks``
    (an island that closes a strait to ships, a mountain ridge closed to ground units)."""

    zones: tuple[str, str]
    blocks: frozenset[str]
    name: str = ""
    rule: str = ""
    origin: Origin = field(default_factory=_origin)


@dataclass(frozen=True, slots=True)
class ZoneLayer:
    """Every zone of a map, in source order, with the declared zone types and boundaries."""

    types: dict[str, LocationType]
    zones: dict[str, Zone]
    boundaries: tuple[Boundary, ...] = ()


@dataclass(frozen=True, slots=True)
class Space:
    """One space of a point-to-point map (or a named point over a hex or area map, such as a
    port). ``at`` is its centre in inches; ``hex`` and ``zone`` say which hex or zone it lies
    in on a combined map."""

    name: str
    type: str
    at: Point
    lines: tuple[str, ...] = ()
    properties: dict[str, PropValue] = field(default_factory=dict)
    hex: str | None = None
    zone: str | None = None
    origin: Origin = field(default_factory=_origin)


@dataclass(frozen=True, slots=True)
class Link:
    """A link between two spaces; ``directed`` links run from ``a`` to ``b`` only. ``blocks``
    lists the movement kinds that may not use it; ``line`` names the line it was made for."""

    a: str
    b: str
    directed: bool = False
    blocks: frozenset[str] = frozenset()
    line: str | None = None
    origin: Origin = field(default_factory=_origin)


@dataclass(frozen=True, slots=True)
class Line:
    """A named line or route through spaces, in order (a Carrier Battlegroup navigation line).
    Consecutive spaces are linked; ``directed`` lines run one way."""

    name: str
    spaces: tuple[str, ...]
    color: str = "#1E2328"
    directed: bool = False
    origin: Origin = field(default_factory=_origin)


@dataclass(frozen=True, slots=True)
class SpaceLayer:
    """Every space of a map, in source order, with space types, links and lines."""

    types: dict[str, LocationType]
    spaces: dict[str, Space]
    links: tuple[Link, ...] = ()
    lines: dict[str, Line] = field(default_factory=dict)


def polygon_area(points: tuple[Point, ...] | list[Point]) -> float:
    """Signed area (shoelace); positive when the corners run clockwise on screen (y down)."""
    n = len(points)
    s = 0.0
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return s / 2.0


def point_in_polygon(p: Point, poly: tuple[Point, ...] | list[Point]) -> bool:
    """Even-odd rule, as ``java.awt.Polygon.contains`` (VASSAL's zones) decides."""
    x, y = p
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def centroid(poly: tuple[Point, ...] | list[Point]) -> Point:
    """The area centroid of a simple polygon (the vertex mean when it has no area)."""
    a = polygon_area(poly)
    if abs(a) < 1e-12:
        n = len(poly) or 1
        return sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n
    cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        f = x0 * y1 - x1 * y0
        cx += (x0 + x1) * f
        cy += (y0 + y1) * f
    return cx / (6 * a), cy / (6 * a)


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether segments p-q and r-s cross properly (touching at an end does not count)."""

    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(r, s, p), orient(r, s, q)
    d3, d4 = orient(p, q, r), orient(p, q, s)
    eps = 1e-12
    return ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    )


def self_intersection(poly: tuple[Point, ...] | list[Point]) -> tuple[int, int] | None:
    """The first pair of edges (by index) of ``poly`` that cross, or ``None`` if it is simple."""
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # the two edges that share corner 0
            if _segments_cross(p, q, poly[j], poly[(j + 1) % n]):
                return i, j
    return None


@lru_cache(maxsize=4096)
def polygons_overlap(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    """Whether two simple polygons share interior: an edge of one crosses an edge of the
    other, or one lies inside the other. Shared edges and corners (neighbouring zones drawn
    along one border) do not count.

    Every pair of edges is tried (most of the cost of loading a map of zones), so the answer
    is kept per pair of outlines: a process that loads one source several times (``check``,
    ``new`` and the player of a demo; a test session) asks each pair once."""
    na, nb = len(a), len(b)
    for i in range(na):
        p, q = a[i], a[(i + 1) % na]
        for j in range(nb):
            if _segments_cross(p, q, b[j], b[(j + 1) % nb]):
                return True
    # no proper crossing: one inside the other, disjoint, touching, or overlapping along
    # collinear edges. Points just inside each polygon (by every edge) must not be inside the
    # other, and neither polygon's interior point may be.
    if point_in_polygon(interior_point(a), b) or point_in_polygon(interior_point(b), a):
        return True
    return any(point_in_polygon(p, b) for p in _just_inside(a)) or any(
        point_in_polygon(p, a) for p in _just_inside(b)
    )


def _just_inside(poly: tuple[Point, ...]) -> list[Point]:
    """For each edge, a point a hair inside the polygon from the edge's middle."""
    out = []
    n = len(poly)
    eps = 1e-4
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        if length == 0:
            continue
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        nx, ny = -dy / length * eps, dx / length * eps
        p = (mx + nx, my + ny)
        out.append(p if point_in_polygon(p, poly) else (mx - nx, my - ny))
    return out


def interior_point(poly: tuple[Point, ...] | list[Point]) -> Point:
    """A point strictly inside a simple polygon: the centroid when it is inside, otherwise
    the middle of the widest run of a horizontal line through the polygon's middle height."""
    c = centroid(poly)
    if point_in_polygon(c, poly) and not _on_boundary(c, poly):
        return c
    ys = sorted({p[1] for p in poly})
    best: tuple[float, Point] | None = None
    for k in range(len(ys) - 1):
        y = (ys[k] + ys[k + 1]) / 2
        xs = _crossings(y, poly)
        for m in range(0, len(xs) - 1, 2):
            w = xs[m + 1] - xs[m]
            if best is None or w > best[0]:
                best = (w, ((xs[m] + xs[m + 1]) / 2, y))
    return best[1] if best is not None else c


def _crossings(y: float, poly: tuple[Point, ...] | list[Point]) -> list[float]:
    xs = []
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            xs.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    return sorted(xs)


def _on_boundary(p: Point, poly: tuple[Point, ...] | list[Point]) -> bool:
    n = len(poly)
    for i in range(n):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
        cross = (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)
        if (
            abs(cross) < 1e-9
            and min(x0, x1) - 1e-9 <= p[0] <= max(x0, x1) + 1e-9
            and min(y0, y1) - 1e-9 <= p[1] <= max(y0, y1) + 1e-9
        ):
            return True
    return False
