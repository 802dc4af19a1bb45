"""The game a naval-module state belongs to: the module, its boards, and the position helpers
every step shares (where a unit is, which hex a location stands on, what is in range)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from referee.engine.board import HexBoard
from referee.engine.core import Event, GameState, UnitState
from referee.engine.vocabulary import match_name
from referee.numerals import is_digits
from referee.rules.naval_module.facts import NavalFacts, facts_of
from referee.rules.naval_module.ships import Ship, is_ship, ship, ship_facts
from referee.source.memo import per_module
from referee.source.model import Module, UnitDef

ABOARD = "aboard:"


@dataclass
class Game:
    module: Module

    @staticmethod
    def of(module: Module) -> Game:
        """One Game per loaded module: its boards are built once (a hex board of 2 232 hexes
        is the costliest thing a step would otherwise do)."""
        return per_module(module, "naval_module.game", lambda: Game(module))

    @cached_property
    def hexes(self) -> HexBoard:
        return HexBoard(self.module.map)

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.module.sides)

    @cached_property
    def zones(self) -> dict[str, Any]:
        z = self.module.map.zones
        return dict(z.zones) if z is not None else {}

    @cached_property
    def ports(self) -> dict[str, Any]:
        s = self.module.map.spaces
        return dict(s.spaces) if s is not None else {}

    @cached_property
    def zone_of_hex(self) -> dict[str, str]:
        return {h: name for name, z in self.zones.items() for h in z.hexes}

    @cached_property
    def pieces(self) -> dict[str, Any]:
        return self.module.pieces()

    def unit(self, pid: str) -> UnitDef:
        return self.pieces[pid].unit

    def is_ship(self, pid: str) -> bool:
        return pid in self.pieces and is_ship(self.unit(pid))

    def ship(self, state: GameState, pid: str) -> Ship:
        return ship(self.module, facts_of(state).ships, pid)

    # ---- locations ------------------------------------------------------------------------
    def name_of(self, written: str) -> tuple[str | None, str | None]:
        """A zone or port as written (any case), or the "did you mean" hint."""
        if is_digits(written):
            return (written, None) if written in self.module.map.hexes else (None, None)
        return match_name(written, [*self.zones, *self.ports])

    def hex_of(self, location: str | None) -> str | None:
        """The hex a location stands on: a port's hex, a hex itself; a zone has none."""
        if location is None:
            return None
        if location in self.ports:
            return self.ports[location].hex
        if location in self.module.map.hexes:
            return location
        return None

    def zone_of(self, location: str) -> str | None:
        """The sea zone of a location: the zone itself, an at-sea hex's zone; a port has none
        (ports are not part of any zone [26.11])."""
        if location in self.zones:
            return location
        if location in self.ports:
            return None
        return self.zone_of_hex.get(location)

    def terrain(self, hex_id: str) -> str:
        return self.module.map.hexes[hex_id].terrain

    # ---- units ----------------------------------------------------------------------------
    def ground_at(self, state: GameState, hex_id: str, side: str | None = None) -> list[str]:
        """Ground units on a hex, or in the port that stands on it."""
        here = self._ground_by_hex(state).get(hex_id, ())
        return sorted(uid for uid, owner in here if side is None or owner == side)

    def _ground_by_hex(self, state: GameState) -> dict[str | None, list[tuple[str, str]]]:
        """The ground units of ``state`` (id, side) by the hex each stands on, listed once a
        position: a port's capacity asks :meth:`ground_at` of each hex next to each port
        [26.27c], every unit scanned each time before (the VASSAL save's port markers, 22
        ports, paid 0.7 s a step). Kept for the last ``units`` mapping, by identity (a
        state's units are never changed in place: :class:`GameState`)."""
        units = state.units
        last = self.__dict__.get("_ground_last")
        if last is not None and last[0] is units:
            return last[1]  # type: ignore[no-any-return]
        index: dict[str | None, list[tuple[str, str]]] = {}
        for u in units.values():
            if self.is_ship(u.id) or u.location is None:
                continue
            if self.unit(u.id).category != "ground":
                continue
            index.setdefault(self.hex_of(u.location), []).append((u.id, u.side))
        self.__dict__["_ground_last"] = (units, index)
        return index

    def cargo(self, state: GameState, ship_id: str) -> list[str]:
        return list(ship_facts(facts_of(state).ships, ship_id)["cargo"])

    def in_range(self, state: GameState, side: str, hex_id: str, types: tuple[str, ...]) -> list:
        """Units of ``side`` of these types whose Range reaches ``hex_id``: (piece, points, hex)."""
        out: list[tuple[str, int, str]] = []
        for u in sorted(state.units.values(), key=lambda x: x.id):
            if u.side != side or u.location is None:
                continue
            d = self.unit(u.id)
            if d.category != "ground" or d.type not in types:
                continue
            at = self.hex_of(u.location)
            if at is None:
                continue
            if self.hexes.distance(at, hex_id) <= d.values.get("RNG", 0):
                out.append((u.id, d.values.get("ART", 0), at))
        return out


def set_ship(state: GameState, pid: str, **facts: Any) -> GameState:
    """Change a ship's facts; a Sailed ship also shows its back face (the unit status
    ``back``, which the VASSAL position save turns into the counter's Back layer) [25.31]."""
    ships: dict[str, Any] = {k: dict(v) for k, v in facts_of(state).ships.items()}
    f = ship_facts(ships, pid)
    f.update(facts)
    ships[pid] = f
    state = NavalFacts.put(state, ships=ships)
    if "status" in facts:
        u = state.units[pid]
        status = u.status | {"back"} if f["status"] == "sailed" else u.status - {"back"}
        if status != u.status:
            units = dict(state.units)  # same place, same stack order
            units[pid] = UnitState(u.id, u.side, u.location, u.box, status)
            state = state.evolve(units=units)
    return state


def place(state: GameState, pid: str, location: str | None, box: str | None = None) -> GameState:
    u = state.units[pid]
    return state.with_unit(UnitState(u.id, u.side, location, box, u.status))


def event(kind: str, rule: str, text: str, **data: Any) -> Event:
    return Event(kind, rule, text, data)


def enemy_of(game: Game, side: str) -> str:
    return next(s for s in game.sides if s != side)


def aboard(ship_id: str) -> str:
    return ABOARD + ship_id
