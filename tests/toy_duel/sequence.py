"""[D2] The toy_duel sequence of play as data: one Action Phase, played by Blue, then by Red
(a player turn each), and what happens between them. The schema reads it without the rules:
the VASSAL turn tracker is made from these records (``tracker_steps``), so it cannot disagree
with the referee."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.engine.sequence import Phase, SequenceOfPlay
from referee.source.model import Module
from tests.toy_duel.facts import DuelFacts

ACTION = "action"

PHASES: SequenceOfPlay[None] = SequenceOfPlay(
    (Phase(ACTION, "Action Phase", "D2", acts="side", sections=(ACTION,)),)
)


def next_player_turn_d2(module: Module, state: GameState, events: list[Event]) -> GameState:
    """[D2] Red after Blue; the next Game-Turn after Red; over after the last or a sinking."""
    sc = module.scenario(state.scenario)
    second = next(s.id for s in module.sides if s.id != sc.first_player)
    turn = state.turn + (state.active_side == second)
    if DuelFacts.of(state).sunk or turn > sc.turns:
        events.append(Event("phase", "D2", "the game is over"))
        return state.evolve(active_side=None)
    side = second if state.active_side == sc.first_player else sc.first_player
    events.append(Event("phase", "D2", f"next: {side}, turn {turn}"))
    return state.evolve(turn=turn, phase=PHASES.first.id, active_side=side)
