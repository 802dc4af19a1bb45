"""SPI's Reinforcement Interphase [12.2] in the Med Campaign under DTP.

The kit leaves SPI's scenario rules in force in the Mediterranean ("all other SPI scenario
rules apply" [DTP 11.0], [DTP 101.1]), so the Campaign's reinforcements [12.21]-[12.24] arrive
in SPI's Interphase between Game-Turn 10 and 11 and act from Game-Turn 11 [12.25]. The kit's
sequence [DTP 4.1] has no place for it; it comes after the last phase of the Game-Turn after
which they arrive (the ``after_turn`` of the scenario's reinforcements) and before Player A's
ship and sub movement of the next, each side with reinforcements in set-up order (NATO, then
the Soviet player), as in SPI. SPI's code does the work (``sixth_fleet_1975.reinforcement``):
the Black Sea delay roll [14.4], the forfeits of units with no LOC or no room [12.2], and the
``place`` orders' checks [12.21]-[12.24]. A game plays it only with the rule flag
``reinforcement_interphase_12_2`` (recorded by ``new_game``; games begun before keep their
reading).
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.reinforcement import arrivals_12_2
from referee.rules.sixth_fleet_1975.sequence import reinforcing_sides_12_2
from referee.rules.sixth_fleet_dtp.facts import DtpFacts
from referee.rules.sixth_fleet_dtp.flags import flags_of
from referee.rules.sixth_fleet_dtp.optional import med_11_0
from referee.rules.sixth_fleet_dtp.sequence import INTERPHASE_12_2


def due_after_12_2(game: Game, state: GameState) -> list[str]:
    """The sides whose reinforcements arrive after the Game-Turn ``state`` ends, in set-up
    order [12.2]; none without the flag or outside the Med."""
    if not flags_of(state).reinforcement_interphase_12_2 or not med_11_0(game.module):
        return []
    return reinforcing_sides_12_2(game, state.turn)


def interphase_12_2(
    game: Game, state: GameState, sides: list[str], dice: Dice, events: list[Event]
) -> GameState | None:
    """The Interphase for ``sides`` in order: each side's arrivals begin (the 14.4 roll, the
    forfeits [12.2]); the first side with a unit to place is awaited (phase
    ``reinforcement_12_2``). ``None`` when nobody has anything left to place: the
    Interphase is over."""
    for i, side in enumerate(sides):
        events.append(
            Event(
                "phase",
                INTERPHASE_12_2.rule,
                f"after Game-Turn {state.turn}: {INTERPHASE_12_2.title}, {side}",
                {"phase": INTERPHASE_12_2.id, "side": side},
            )
        )
        state, left = arrivals_12_2(game, state, side, dice, events)
        if left:
            return DtpFacts.put(state, interphase_12_2=sides[i + 1 :]).evolve(
                phase=INTERPHASE_12_2.id, active_side=side
            )
    return None


def end_12_2(state: GameState) -> GameState:
    """The Interphase record removed once every side has placed."""
    return DtpFacts.drop(state, "interphase_12_2")
