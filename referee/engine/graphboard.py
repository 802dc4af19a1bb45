"""Area and point-to-point boards: the :class:`~referee.engine.core.Board` protocol over zones
and spaces.

An area map (the 2019 edition's sea and land zones) and a point-to-point map (Carrier
Battlegroup's navigation lines) are both graphs: locations joined by adjacencies or links,
some of which stop some kinds of movement, on locations whose type may close them to a kind
(a land zone to ships, a no-entry zone to everything). :class:`GraphBoard` answers the board
questions for any such graph; :class:`AreaBoard` adds what only zones have (outlines, the
zone under a point, the hexes of a zone laid over a hex map) and :class:`PointBoard` what only
spaces have (positions, lines). A map that combines zones and spaces (ports on their sea
zones) is one graph: a space that names its zone is linked to it both ways.

Like :class:`~referee.engine.board.HexBoard`, everything is computed once per map into plain
dicts and tuples; neighbour lists per movement kind are built on first use and kept, and
path queries are breadth-first searches over those tuples, so a neighbour or path query costs
what it costs on the hex board (``bench/bench_boards.py``, docs/performance.md).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from referee.engine.board import shortest_path
from referee.engine.core import Board
from referee.source.mapkinds import (
    ANY_KIND,
    Line,
    LocationType,
    Point,
    PropValue,
    Space,
    Zone,
    point_in_polygon,
)
from referee.source.model import MapDef

UNREACHABLE = 1_000_000_000
""":meth:`GraphBoard.distance` between locations with no path: larger than any range, so a
range check fails without a special case."""


def _blocked(kinds: frozenset[str], kind: str | None) -> bool:
    return kind is not None and bool(kinds) and (ANY_KIND in kinds or kind in kinds)


class GraphBoard:
    """The zones and spaces of a map as one graph (see the module docstring)."""

    def __init__(self, map_def: MapDef) -> None:
        self.map = map_def
        types: dict[str, LocationType] = {}
        type_of: dict[str, str] = {}
        props: dict[str, dict[str, PropValue]] = {}
        steps: dict[str, list[str]] = {}
        step_blocks: dict[tuple[str, str], frozenset[str]] = {}

        def step(a: str, b: str, blocks: frozenset[str]) -> None:
            if b not in steps.setdefault(a, []):
                steps[a].append(b)
            step_blocks[(a, b)] = blocks

        zones = map_def.zones
        if zones is not None:
            for z in zones.zones.values():
                types[z.name] = zones.types[z.type]
                type_of[z.name] = z.type
                props[z.name] = z.properties
                steps.setdefault(z.name, [])
            blocked = {frozenset(b.zones): b.blocks for b in zones.boundaries}
            for z in zones.zones.values():
                for other in z.adjacent:
                    step(z.name, other, blocked.get(frozenset((z.name, other)), frozenset()))
        spaces = map_def.spaces
        if spaces is not None:
            for s in spaces.spaces.values():
                types[s.name] = spaces.types[s.type]
                type_of[s.name] = s.type
                props[s.name] = s.properties
                steps.setdefault(s.name, [])
                if s.zone is not None:  # a port on its sea zone
                    step(s.name, s.zone, frozenset())
                    step(s.zone, s.name, frozenset())
            for link in spaces.links:
                step(link.a, link.b, link.blocks)
                if not link.directed:
                    step(link.b, link.a, link.blocks)
        self._ids: tuple[str, ...] = tuple(sorted(steps))
        self._set = frozenset(self._ids)
        self._types = types
        self._type_of = type_of
        self._props = props
        self._out: dict[str, tuple[str, ...]] = {a: tuple(sorted(bs)) for a, bs in steps.items()}
        self._step_blocks = step_blocks
        self._by_kind: dict[str | None, dict[str, tuple[str, ...]]] = {None: self._out}
        self._dist: dict[tuple[str | None, str], dict[str, int]] = {}
        self._in_group: dict[str, tuple[str, ...]] = {}
        for name in self._ids:
            self._in_group.setdefault(type_of[name], ())
            self._in_group[type_of[name]] += (name,)
        if spaces is not None:
            for line in spaces.lines.values():
                self._in_group[line.name] = tuple(sorted(set(line.spaces)))

    # ---- the Board protocol -----------------------------------------------------------------
    def locations(self) -> tuple[str, ...]:
        return self._ids

    def contains(self, location: str) -> bool:
        return location in self._set

    def neighbours(self, location: str, kind: str | None = None) -> list[str]:
        """Locations one step away; with ``kind``, only those a unit moving that way may
        enter across an open boundary or link."""
        if kind is None:
            return list(self._out.get(location, ()))
        return list(self._table(kind).get(location, ()))

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._out.get(a, ())

    def distance(self, a: str, b: str, kind: str | None = None) -> int:
        """Steps on the shortest path, for a ``kind`` move when given (``UNREACHABLE`` when
        there is none). Each starting location's distances are computed once and kept."""
        if a == b:
            return 0
        key = (kind, a)
        d = self._dist.get(key)
        if d is None:
            d = self._dist[key] = self.reachable(a, None, kind)
        return d.get(b, UNREACHABLE)

    def terrain(self, location: str) -> str:
        """The zone or space type (``sea``, ``land``, ``strait``...)."""
        return self._type_of[location]

    def is_edge(self, location: str) -> bool:
        return False  # zones and spaces have no map edge to retreat off

    def entry_cost(self, location: str, category: str) -> int | None:
        """One step, or ``None`` when the location's type is closed to ``category``."""
        return None if self._types[location].closed(category) else 1

    def hexside_blocked(self, a: str, b: str, kind: str) -> bool:
        """Whether the boundary or link from ``a`` to ``b`` stops ``kind`` (the Board
        protocol's name for it; :meth:`boundary_blocked` says the same)."""
        return self.boundary_blocked(a, b, kind)

    def blocks_zoc(self, location: str) -> bool:
        return False

    def edge_of(self, location: str) -> tuple[str, ...]:
        return ()

    def locations_in_area(self, area: str) -> tuple[str, ...]:
        """Every location of type ``area``, or every space on the line named ``area``."""
        return self._in_group.get(area, ())

    # ---- generalised queries (every board) ---------------------------------------------------
    def properties(self, location: str) -> dict[str, PropValue]:
        """The free properties the module gives a zone or space (bases, capacity...)."""
        return self._props.get(location, {})

    def location_type(self, location: str) -> LocationType:
        return self._types[location]

    def boundary_blocked(self, a: str, b: str, kind: str | None) -> bool:
        """Whether a ``kind`` move from ``a`` to ``b`` is stopped: no step from ``a`` to
        ``b`` (a one-way link the other way, or not adjacent), or a boundary or link that
        blocks ``kind``."""
        blocks = self._step_blocks.get((a, b))
        return blocks is None or _blocked(blocks, kind)

    def may_enter(self, location: str, kind: str | None) -> bool:
        return not self._types[location].closed(kind)

    def path(self, a: str, b: str, kind: str | None = None) -> list[str] | None:
        """A shortest path from ``a`` to ``b`` (both ends included) for a ``kind`` move, or
        ``None`` when none exists. Ties go to the alphabetically first location at each step,
        so the answer is the same on every run."""
        if a not in self._set or b not in self._set:
            return None
        if a == b:
            return [a]
        return shortest_path(self._table(kind), a, b)

    def reachable(
        self, start: str, steps: int | None = None, kind: str | None = None
    ) -> dict[str, int]:
        """Every location within ``steps`` steps of ``start`` (all when ``None``) for a
        ``kind`` move, with its distance; ``start`` itself at 0."""
        table = self._table(kind)
        seen = {start: 0}
        queue = deque((start,))
        while queue:
            cur = queue.popleft()
            d = seen[cur]
            if steps is not None and d >= steps:
                continue
            for nxt in table.get(cur, ()):
                if nxt not in seen:
                    seen[nxt] = d + 1
                    queue.append(nxt)
        return seen

    def valid_id(self, text: str) -> bool:
        return text in self._set

    def suggest_ids(self) -> Iterable[str]:
        return self._ids

    # ---- internals ---------------------------------------------------------------------------
    def _table(self, kind: str | None) -> dict[str, tuple[str, ...]]:
        """Neighbour tuples for one movement kind: built once, then a dict lookup."""
        table = self._by_kind.get(kind)
        if table is None:
            table = {
                a: tuple(
                    b
                    for b in bs
                    if not _blocked(self._step_blocks[(a, b)], kind)
                    and not self._types[b].closed(kind)
                )
                for a, bs in self._out.items()
            }
            self._by_kind[kind] = table
        return table


class AreaBoard(GraphBoard):
    """An area map's zones (and any spaces over them) as a board."""

    def __init__(self, map_def: MapDef) -> None:
        if map_def.zones is None:
            raise ValueError("AreaBoard needs a map with zones")
        super().__init__(map_def)
        self._zones = map_def.zones.zones
        self._zone_of_hex = {h: z.name for z in self._zones.values() for h in z.hexes}

    def zone(self, name: str) -> Zone:
        return self._zones[name]

    def zones(self) -> tuple[str, ...]:
        """Zone names in source order."""
        return tuple(self._zones)

    def zone_at(self, p: Point) -> str | None:
        """The zone whose outline holds point ``p`` (inches from the map's top-left)."""
        for z in self._zones.values():
            if point_in_polygon(p, z.outline):
                return z.name
        return None

    def hexes_of(self, zone: str) -> tuple[str, ...]:
        """The hexes of a zone laid over a hex map (``()`` for a zone drawn as an outline)."""
        return self._zones[zone].hexes

    def zone_of_hex(self, hex_id: str) -> str | None:
        return self._zone_of_hex.get(hex_id)


class PointBoard(GraphBoard):
    """A point-to-point map's spaces as a board."""

    def __init__(self, map_def: MapDef) -> None:
        if map_def.spaces is None:
            raise ValueError("PointBoard needs a map with spaces")
        super().__init__(map_def)
        self._spaces = map_def.spaces.spaces
        self._lines = map_def.spaces.lines

    def space(self, name: str) -> Space:
        return self._spaces[name]

    def lines_of(self, space: str) -> tuple[str, ...]:
        """The lines a space lies on, in source order."""
        return self._spaces[space].lines

    def line(self, name: str) -> Line:
        return self._lines[name]

    def position(self, space: str) -> Point:
        return self._spaces[space].at


def board_for(map_def: MapDef) -> Board:
    """The board of a map: a :class:`~referee.engine.board.HexBoard` for a hex map, an
    :class:`AreaBoard` for a map with zones (with or without spaces or a hex grid under
    them), a :class:`PointBoard` for a map of spaces."""
    if map_def.zones is not None:
        return AreaBoard(map_def)
    if map_def.spaces is not None:
        return PointBoard(map_def)
    from referee.engine.board import HexBoard

    return HexBoard(map_def)
