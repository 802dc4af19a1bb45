"""One game's fixed facts, read once from the module: the board, the roster, the zone
properties and the module's rule parameters. Pure lookups; no rule is decided here.

Where a unit is: every piece's ``location`` is a zone name. A zone on the map, a carrier's or
amphibian's holding box (``Holding US-CVN-1``: the unit is aboard, and is where its ship is
[8.3.4]), the ``Refit Box`` [7.2] or the ``Permanently Eliminated Box`` [4.3], or a track box
(markers). Units of a neutral country have the side ``neutral`` until it joins a side [2.3].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.engine.core import GameState
from referee.engine.graphboard import AreaBoard, board_for
from referee.source.memo import per_module
from referee.source.model import Module, UnitDef

NATO, SOVIET, NEUTRAL = "NATO", "Soviet", "neutral"
SIDES = (SOVIET, NATO)
NEUTRAL_NATIONS = ("EG", "IS", "LY", "SY", "TN", "YU")  # [2.3]
REFIT = "Refit Box"
ELIMINATED = "Permanently Eliminated Box"
HOLDING = "Holding "
NAVAL = ("surface", "submarine")
CARRIER_TYPES = ("CV", "CVN", "CVH")  # [2.12]
AMPHIBIANS = ("AWG", "SCG")  # [2.12], the SCG's land-unit box [2.0 errata]
KEY_ZONES = ("Istanbul", "Cyprus", "Crete", "Malta")  # [3.2.1]
PROVISIONAL = "provisional: not from the rulebook"


def other(side: str) -> str:
    return NATO if side == SOVIET else SOVIET


@dataclass(frozen=True)
class Game:
    module: Module
    board: AreaBoard
    roster: dict[str, UnitDef]
    params: dict[str, int]

    @staticmethod
    def of(module: Module) -> Game:
        return _game(module)

    # ---- the roster ---------------------------------------------------------------------------
    def unit(self, uid: str) -> UnitDef:
        return self.roster[uid]

    def category(self, uid: str) -> str:
        return self.roster[uid].category

    def is_naval(self, uid: str) -> bool:
        return self.roster[uid].category in NAVAL

    def kind(self, uid: str) -> str:
        """The movement kind of a unit: ``naval``, ``air`` or ``ground`` (strike units and
        markers never move on the map)."""
        cat = self.roster[uid].category
        return "naval" if cat in NAVAL else cat

    def ma(self, uid: str) -> int | None:
        """Movement allowance or range; ``None`` for the B-52's unlimited '*' [8.3.1]."""
        u = self.roster[uid]
        return None if u.has("unlimited_range") else u.values["MA"]

    def is_carrier(self, uid: str) -> bool:
        return self.roster[uid].type in CARRIER_TYPES

    # ---- the map ------------------------------------------------------------------------------
    def prop(self, zone: str, key: str, default: Any = None) -> Any:
        return self.board.properties(zone).get(key, default)

    def zone_type(self, zone: str) -> str:
        return self.board.terrain(zone)

    def is_land(self, zone: str) -> bool:
        return self.zone_type(zone) in ("nato", "soviet_bloc", "neutral", "small_island")

    def is_sea(self, zone: str) -> bool:
        return self.zone_type(zone) == "sea"

    def has_base(self, zone: str) -> bool:
        return self.prop(zone, "base", "none") in ("naval", "air", "off_map")

    def holding_box(self, carrier: str) -> str | None:
        name = HOLDING + carrier
        return name if self.board.contains(name) else None

    def map_zones(self) -> tuple[str, ...]:
        return tuple(z for z in self.board.zones() if self.zone_type(z) != "box")

    def param(self, name: str) -> int:
        return self.params[name]


def _game(module: Module) -> Game:
    """The Game of a module, built once per module object (the module is immutable;
    ``referee/source/memo.py``)."""
    return per_module(module, "sixth_fleet_2019.game", lambda: _build(module))


def _build(module: Module) -> Game:
    board = board_for(module.map)  # type: ignore[arg-type]
    assert isinstance(board, AreaBoard)
    roster = {pid: p.unit for pid, p in module.pieces().items()}
    params: dict[str, int] = {}
    table = module.tables.named.get("parameters")
    if table is not None:
        for i, key in enumerate(table.row_keys):
            params[key.text] = int(table.record(i)["value"])
    return Game(module, board, roster, params)


# ---- where units are ----------------------------------------------------------------------


def zone_of(game: Game, state: GameState, uid: str) -> str | None:
    """The map zone a unit is in: its own zone, or its ship's when it is aboard [8.3.4];
    ``None`` off the map (Refit Box, eliminated, tracks)."""
    loc = state.units[uid].location
    if loc is None:
        return None
    if loc.startswith(HOLDING):
        ship = loc[len(HOLDING) :]
        if ship not in state.units:
            return None
        return zone_of(game, state, ship)
    if game.zone_type(loc) == "box":
        return None
    return loc


def on_map(game: Game, state: GameState, uid: str) -> bool:
    return zone_of(game, state, uid) is not None


def units_in(game: Game, state: GameState, zone: str, side: str | None = None) -> list[str]:
    """Units whose zone is ``zone`` (aboard ships there included), in roster order."""
    return [
        uid
        for uid, u in state.units.items()
        if (side is None or u.side == side) and zone_of(game, state, uid) == zone
    ]


def aboard(state: GameState, ship: str) -> list[str]:
    box = HOLDING + ship
    return [uid for uid, u in state.units.items() if u.location == box]
