"""The sequence of play [4.0] and the special first Game-Turn [12.1].

Set-up in the scenario's order [11.0]; Game-Turn 1 is only the second player's Movement Phase
[12.1]; every later Game-Turn is the first player's Combat and Movement Phases, then the
second player's, then the automatic Game-Turn Indication Phase [4.0]. The Reinforcement
Interphase follows the Game-Turn Indication of every turn after which reinforcements arrive
[12.2]. After the scenario's last Game-Turn the game is over [13.0].

``state.phase`` is one of ``setup``, ``combat``, ``movement``, ``reinforcement``,
``game-over``; ``state.active_side`` is the side whose step it is.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.sequence import Phase, SequenceOfPlay
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import facts_of

SETUP = "setup"
COMBAT = "combat"
MOVEMENT = "movement"
REINFORCEMENT = "reinforcement"
INDICATION = "indication"
GAME_OVER = "game-over"

SEQUENCE: SequenceOfPlay[None] = SequenceOfPlay(
    (
        Phase(SETUP, "set-up", "11.0", "side", sections=("setup",), once=True),
        Phase(COMBAT, "Combat Phase", "8.0", "side", sections=("combat",)),
        Phase(MOVEMENT, "Movement Phase", "5.0", "side", sections=("movement",)),
        Phase(
            REINFORCEMENT, "Reinforcement Interphase", "12.2", "side", sections=("reinforcement",)
        ),
        Phase(GAME_OVER, "game over", "13.0", "nobody"),
    ),
    # passed through on its own between the second player's Movement Phase and the next
    # Game-Turn (``next_step_4_0``): never a ``state.phase``, a step of the turn tracker
    extra=(Phase(INDICATION, "Game-Turn Indication", "4.0", "nobody"),),
)
"""Who acts in each step and the orders section it takes [4.0]: the side whose step it is
(``state.active_side``, the phasing player) writes it; the other answers decisions left to
him [8.71] by an answer file or standing orders. :mod:`phases` gives each its check and
carry-out; the order of the steps is :func:`next_step_4_0`."""

PHASE_NAMES = {p.id: f"{p.title} [{p.rule}]" for p in SEQUENCE}


def reinforcing_sides_12_2(game: Game, turn: int) -> list[str]:
    """Sides with reinforcements arriving after Game-Turn ``turn``, in set-up order."""
    sides = {r.side for r in game.scenario.reinforcements if r.after_turn == turn}
    return [s for s in game.scenario.setup_order if s in sides]


def first_step_of_turn_12_1(game: Game, turn: int) -> tuple[int, str, str | None]:
    if turn > game.scenario.turns:
        return turn - 1, GAME_OVER, None
    if turn == 1 and game.flags.special_first_turn:
        return 1, MOVEMENT, game.second_player
    return turn, COMBAT, game.scenario.first_player


def next_step_4_0(game: Game, state: GameState) -> tuple[int, str, str | None]:
    """``(turn, phase, side)`` after the current step."""
    sc = game.scenario
    turn, phase, side = state.turn, state.phase, state.active_side
    if phase == SETUP:
        order = list(sc.setup_order)
        i = order.index(side) if side in order else len(order) - 1
        if i + 1 < len(order):
            return 0, SETUP, order[i + 1]
        return first_step_of_turn_12_1(game, 1)
    if phase == COMBAT:
        return turn, MOVEMENT, side
    if phase == MOVEMENT:
        if side == sc.first_player and not (turn == 1 and game.flags.special_first_turn):
            return turn, COMBAT, game.second_player
        return _after_indication(game, turn)
    if phase == REINFORCEMENT:
        sides = reinforcing_sides_12_2(game, turn)
        i = sides.index(side) if side in sides else len(sides) - 1
        if i + 1 < len(sides):
            return turn, REINFORCEMENT, sides[i + 1]
        if stopped_11_0(game, state):
            return turn, GAME_OVER, None
        return first_step_of_turn_12_1(game, turn + 1)
    return turn, GAME_OVER, None


def stopped_11_0(game: Game, state: GameState) -> bool:
    """Have both players agreed (``stop``) to end the Campaign at this Interphase, after
    Game-Turn 10, and score it [11.0]?"""
    return set(game.sides) <= set(facts_of(state).stop_11_0 or ())


def _after_indication(game: Game, turn: int) -> tuple[int, str, str | None]:
    """The Game-Turn Indication Phase [4.0]: on to the Interphase [12.2] or the next turn."""
    sides = reinforcing_sides_12_2(game, turn)
    if sides and turn < game.scenario.turns:
        return turn, REINFORCEMENT, sides[0]
    return first_step_of_turn_12_1(game, turn + 1)


def describe(state: GameState) -> str:
    name = PHASE_NAMES.get(state.phase, state.phase)
    if state.phase == SETUP:
        return f"{state.active_side} {name}"
    if state.phase == GAME_OVER:
        return name
    return f"Game-Turn {state.turn}, {state.active_side} {name}"
