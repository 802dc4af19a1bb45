"""The facts a rule function needs, gathered once per module: pieces, board, scenario, flags.

Rule functions take a :class:`Game` (what never changes during a game) and a
:class:`~referee.engine.core.GameState` (the position) and return values; they never do I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from referee.engine.board import HexBoard
from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.facts import facts_of
from referee.rules.sixth_fleet_1975.flags import DEFAULT_FLAGS, RuleFlags
from referee.source.memo import per_module
from referee.source.model import Module, Scenario, UnitDef

NAVAL = ("surface", "submarine")


def _module_facts(module: Module) -> tuple[HexBoard, dict[str, UnitDef]]:
    """The module's board and pieces, built once per module (``referee/source/memo.py``)."""
    return per_module(
        module,
        "sixth_fleet_1975.facts",
        lambda: (HexBoard(module.map), {pid: p.unit for pid, p in module.pieces().items()}),
    )


@dataclass(frozen=True)
class Game:
    """One module and scenario, with the rule flags in force."""

    module: Module
    scenario: Scenario
    board: HexBoard
    pieces: dict[str, UnitDef]
    flags: RuleFlags

    @staticmethod
    def of(module: Module, state: GameState) -> Game:
        board, pieces = _module_facts(module)
        scenario = module.scenarios[state.scenario]
        flags = DEFAULT_FLAGS.with_overrides(facts_of(state).flags)
        return Game(module, scenario, board, pieces, flags)

    @staticmethod
    def for_scenario(module: Module, scenario: str) -> Game:
        board, pieces = _module_facts(module)
        return Game(module, module.scenarios[scenario], board, pieces, DEFAULT_FLAGS)

    # ---- units ------------------------------------------------------------------------------
    def unit(self, pid: str) -> UnitDef:
        return self.pieces[pid]

    def category(self, pid: str) -> str:
        return self.pieces[pid].category

    def is_air(self, pid: str) -> bool:
        return self.pieces[pid].category == "air"

    def is_naval(self, pid: str) -> bool:
        return self.pieces[pid].category in NAVAL

    def value(self, pid: str, key: str) -> int:
        return int(self.pieces[pid].values.get(key, 0))

    def movement_allowance(self, pid: str) -> int:
        """MA for naval units, Range Allowance for air units: the same printed position [3.3]."""
        return self.value(pid, "MA")

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.module.sides)

    def enemy_of(self, side: str) -> str:
        for s in self.sides:
            if s != side:
                return s
        return side

    @cached_property
    def second_player(self) -> str:
        return self.enemy_of(self.scenario.first_player)

    # ---- position ---------------------------------------------------------------------------
    def units_at(self, state: GameState, hex_id: str, side: str | None = None) -> list[str]:
        """Pieces in a hex, top first, optionally of one side."""
        ids = state.stacks.get(hex_id, ())
        if side is None:
            return list(ids)
        return [u for u in ids if state.units[u].side == side]

    def is_night(self, state: GameState) -> bool:
        turn = max(1, min(state.turn, self.scenario.turns))
        return self.scenario.is_night(turn)

    def destroyed_defended(self, state: GameState) -> frozenset[str]:
        return frozenset(facts_of(state).destroyed_defended or ())

    def enemy_defended(self, state: GameState, hex_id: str, side: str) -> bool:
        """An undestroyed Defended hex of the other side [10.15]."""
        d = self.board.defended(hex_id)
        return d is not None and d.side != side and hex_id not in self.destroyed_defended(state)

    def country_name(self, hex_id: str) -> str | None:
        code = self.board.country(hex_id)
        if code is None:
            return None
        c = self.module.map.countries.get(code)
        return c.name if c is not None else code
