"""The hex board: the :class:`~referee.engine.core.Board` protocol over a module's map.

Rulesets never do hex maths or read the map's tables themselves; they ask the board: which
locations are adjacent, what terrain a hex has and what entering it costs a unit category,
whether a hexside blocks a kind of movement, which named map edges a hex lies on, which hexes
make up a named area. An area or point-to-point board (the 2019 edition, Carrier Battlegroup)
implements the same questions, so ruleset code does not change with the board.

Everything is computed once per map and kept in plain dicts and frozensets: the engine asks
these questions thousands of times per adjudication, and a 60-order validation must stay fast.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.hexgrid import Cube, cube_distance, hexside_key
from referee.source.model import Airbase, DefendedHex, MapDef, TerrainType

# Hexside kinds a ruleset may ask about. ``all_land`` is the only one the map format records
# now; movement kinds map onto it: naval units may not cross all-land hexsides [10.12] and
# naval ZOC does not extend across them [10.22]; air units ignore hexsides [10.13].
_BLOCKED_BY_ALL_LAND = frozenset({"all_land", "naval", "surface", "submarine", "naval_zoc"})


class HexBoard:
    """A hex map as a board. Construct it once per module (``HexBoard(module.map)``)."""

    def __init__(self, map_def: MapDef) -> None:
        self.map = map_def
        grid = map_def.grid
        if grid is None:
            raise ValueError("HexBoard needs a map with a hex grid (see board_for)")
        self._ids: tuple[str, ...] = tuple(sorted(map_def.hexes))
        self._set = frozenset(self._ids)
        self._nbrs: dict[str, tuple[str, ...]] = {
            h: tuple(n for n in grid.neighbours(h) if n in self._set) for h in self._ids
        }
        self._edge_of: dict[str, tuple[str, ...]] = {}
        for edge in sorted(map_def.edges.values(), key=lambda e: e.id):
            for h in edge.hexes:
                self._edge_of.setdefault(h, ())
                self._edge_of[h] = (*self._edge_of[h], edge.id)
        self._by_kind: dict[str, dict[str, tuple[str, ...]]] = {}
        self._cubes: dict[str, Cube] = {}  # each hex's cube coordinate, once asked
        self._sorted_nbrs: dict[str, tuple[str, ...]] = {}
        self._airbases: tuple[str, ...] | None = None
        self._bases: tuple[str, ...] | None = None
        self._areas: dict[str, tuple[str, ...]] = {}
        for h in self._ids:
            for a in sorted(map_def.hexes[h].areas):
                self._areas.setdefault(a, ())
                self._areas[a] = (*self._areas[a], h)

    # ---- the Board protocol -----------------------------------------------------------------
    def locations(self) -> tuple[str, ...]:
        return self._ids

    def contains(self, location: str) -> bool:
        return location in self._set

    def neighbours(self, location: str, kind: str | None = None) -> list[str]:
        """Adjacent hexes; with ``kind``, only those a ``kind`` move may enter across the
        hexside (see :meth:`path`)."""
        if kind is None:
            return list(self._nbrs.get(location, ()))
        return list(self._table(kind).get(location, ()))

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._nbrs.get(a, ())

    def adjacent_hexes(self, location: str) -> tuple[str, ...]:
        """:meth:`neighbours` without the copy, for the hottest loops of a ruleset (the
        zone-of-control test of every step a move search tries); never to be changed."""
        return self._nbrs.get(location, ())

    def adjacent_sorted(self, location: str) -> tuple[str, ...]:
        """:meth:`adjacent_hexes` in id order, sorted once per hex and board (a legal-move
        search expands its hexes in id order, some thousands a step)."""
        got = self._sorted_nbrs.get(location)
        if got is None:
            got = self._sorted_nbrs[location] = tuple(sorted(self._nbrs.get(location, ())))
        return got

    def distance(self, a: str, b: str) -> int:
        """Hexes between ``a`` and ``b``: the grid's distance, from each hex's cube coordinate
        kept once per board (a legal-move search asks it some thousands of times a step);
        an id not on the board is the grid's to read (or refuse) as ever."""
        cubes = self._cubes
        ca = cubes.get(a)
        if ca is None:
            ca = self.map.grid.to_cube(a)
            if a in self._set:
                cubes[a] = ca
        cb = cubes.get(b)
        if cb is None:
            cb = self.map.grid.to_cube(b)
            if b in self._set:
                cubes[b] = cb
        return cube_distance(ca, cb)

    def terrain(self, location: str) -> str:
        return self.map.hexes[location].terrain

    def is_edge(self, location: str) -> bool:
        return len(self._nbrs.get(location, ())) < 6

    def path(self, a: str, b: str, kind: str | None = None) -> list[str] | None:
        """A shortest path in hexes (ends included) for a ``kind`` move, or ``None``.

        ``kind`` is a movement kind or unit category: hexsides that block it
        (:meth:`hexside_blocked`) and hexes its category may not enter (the Terrain Effects
        Chart's ``-`` [5.12]) are avoided. This is topology only; movement points and zones
        of control are the ruleset's. Ties go to the lowest hex id at each step."""
        if a not in self._set or b not in self._set:
            return None
        if a == b:
            return [a]
        return shortest_path(self._table(kind), a, b)

    def properties(self, location: str) -> dict[str, Any]:
        """A hex's named facts (name, country, airbase, set-up code), for generic code that
        reads any board; rulesets usually ask the specific methods below."""
        h = self.map.hexes[location]
        out: dict[str, Any] = {"terrain": h.terrain}
        if h.name:
            out["name"] = h.name
        if h.country:
            out["country"] = h.country
        if h.airbase is not None:
            out["airbase"] = h.airbase.nationality
        if h.setup_code:
            out["setup_code"] = h.setup_code
        return out

    def _table(self, kind: str) -> dict[str, tuple[str, ...]]:
        table = self._by_kind.get(kind)
        if table is None:
            table = {}
            for h, ns in self._nbrs.items():
                table[h] = tuple(
                    n
                    for n in ns
                    if not self.hexside_blocked(h, n, kind)
                    and not (
                        kind in self.terrain_type(n).costs
                        and self.terrain_type(n).costs[kind] is None
                    )
                )
            self._by_kind[kind] = table
        return table

    # ---- extensions rulesets use --------------------------------------------------------------
    def terrain_type(self, location: str) -> TerrainType:
        return self.map.terrain[self.map.hexes[location].terrain]

    def entry_cost(self, location: str, category: str) -> int | None:
        """Movement points a unit of ``category`` pays to enter, or ``None`` when it may not
        enter at all (read from the Terrain Effects Chart data, never hard-coded) [5.12]."""
        return self.terrain_type(location).costs.get(category)

    def blocks_zoc(self, location: str) -> bool:
        """True when no zone of control extends into this hex (Prohibited hexes [10.21])."""
        return self.terrain_type(location).blocks_zoc

    def defense_multiplier(self, location: str, category: str) -> int:
        """The terrain's multiplier on a unit's printed Defense (Restricted Water ×2 [8.44])."""
        return self.terrain_type(location).defense_multiplier.get(category, 1)

    def hexside_blocked(self, a: str, b: str, kind: str) -> bool:
        """Whether the hexside between ``a`` and ``b`` stops ``kind`` (``naval``, ``surface``,
        ``submarine``, ``naval_zoc`` or ``all_land``): all-land hexsides stop naval movement
        and retreat [10.12] and naval ZOC [10.22]; nothing on a hex map stops air."""
        if kind not in _BLOCKED_BY_ALL_LAND:
            return False
        return hexside_key(a, b) in self.map.all_land_hexsides

    def edge_of(self, location: str) -> tuple[str, ...]:
        """The named map edges (``west``, ``north``...) this hex lies on, sorted."""
        return self._edge_of.get(location, ())

    def edge_hexes(self, edge: str) -> tuple[str, ...]:
        e = self.map.edges.get(edge)
        return e.hexes if e is not None else ()

    def locations_in_area(self, area: str) -> tuple[str, ...]:
        """Every hex of a named area (the Aegean, the Black Sea...), sorted."""
        return self._areas.get(area, ())

    def in_area(self, location: str, area: str) -> bool:
        return area in self.map.hexes[location].areas

    def country(self, location: str) -> str | None:
        return self.map.hexes[location].country

    def airbase(self, location: str) -> Airbase | None:
        return self.map.hexes[location].airbase

    def defended(self, location: str) -> DefendedHex | None:
        return self.map.hexes[location].defended

    def setup_code(self, location: str) -> str | None:
        return self.map.hexes[location].setup_code

    def airbase_hexes(self) -> tuple[str, ...]:
        """The hexes with an airbase, sorted (listed once per board: the rebasing options
        ask for every air unit)."""
        if self._airbases is None:
            self._airbases = tuple(h for h in self._ids if self.map.hexes[h].airbase is not None)
        return self._airbases

    def base_hexes(self) -> tuple[str, ...]:
        """The hexes with an airbase or a Defended hex, sorted: what a strike on a place may
        aim at, listed once per board."""
        if self._bases is None:
            hexes = self.map.hexes
            self._bases = tuple(
                h
                for h in self._ids
                if hexes[h].airbase is not None or hexes[h].defended is not None
            )
        return self._bases

    def within(self, centre: str, radius: int) -> list[str]:
        return [h for h in self.map.grid.within(centre, radius) if h in self._set]

    def valid_id(self, text: str) -> bool:
        return text in self._set

    def suggest_ids(self) -> Iterable[str]:
        return self._ids


def shortest_path(table: Mapping[str, Sequence[str]], a: str, b: str) -> list[str] | None:
    """A shortest path from ``a`` to ``b`` (both ends included, ``a != b``) over a board's
    neighbour ``table`` for one kind of movement, breadth first, or ``None`` when there is
    none. The tables list each location's neighbours sorted, so ties go to the first at
    each step and the answer is the same on every run: the one search of
    :meth:`HexBoard.path` and :meth:`referee.engine.graphboard.GraphBoard.path`."""
    parent = {a: a}
    queue = deque((a,))
    while queue:
        cur = queue.popleft()
        for nxt in table.get(cur, ()):
            if nxt in parent:
                continue
            parent[nxt] = cur
            if nxt == b:
                out = [b]
                while out[-1] != a:
                    out.append(parent[out[-1]])
                return out[::-1]
            queue.append(nxt)
    return None
