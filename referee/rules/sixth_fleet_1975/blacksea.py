"""Areas closed to some units until a Game-Turn: the Black Sea [12.3], and its delay [14.4].

The scenario lists each closure as data (``[[prohibition]] area, categories, until_turn``).
With optional rule 14.4 the Soviet naval units may not enter the gate hex (the Bosporus, 2025)
before the Game-Turn rolled in the Reinforcement Interphase (the ``gate_turn`` fact).
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import facts_of


def closed_area_12_3(game: Game, state: GameState, unit: str, hex_id: str) -> str | None:
    """The rule case that closes ``hex_id`` to ``unit`` now, or ``None`` [12.3][14.4]."""
    cat = game.category(unit)
    for p in game.scenario.prohibitions:
        if cat in p.categories and state.turn < p.until_turn and game.board.in_area(hex_id, p.area):
            return p.rule or "12.3"
    gate_turn = facts_of(state).gate_turn
    if (
        gate_turn is not None
        and hex_id == game.flags.black_sea_gate
        and game.is_naval(unit)
        and state.units[unit].side == game.flags.soviet_side
        and state.turn < int(gate_turn)
    ):
        return "14.4"
    return None
