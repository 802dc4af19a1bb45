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

from collections.abc import Iterable

from referee.hexgrid import hexside_key
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

    def neighbours(self, location: str) -> list[str]:
        return list(self._nbrs.get(location, ()))

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._nbrs.get(a, ())

    def distance(self, a: str, b: str) -> int:
        return self.map.grid.distance(a, b)

    def terrain(self, location: str) -> str:
        return self.map.hexes[location].terrain

    def is_edge(self, location: str) -> bool:
        return len(self._nbrs.get(location, ())) < 6

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
        return tuple(h for h in self._ids if self.map.hexes[h].airbase is not None)

    def within(self, centre: str, radius: int) -> list[str]:
        return [h for h in self.map.grid.within(centre, radius) if h in self._set]

    def valid_id(self, text: str) -> bool:
        return text in self._set

    def suggest_ids(self) -> Iterable[str]:
        return self._ids
