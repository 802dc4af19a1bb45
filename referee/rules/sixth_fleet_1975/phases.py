"""The flow of the game as data: each phase of the sequence of play (:data:`sequence.SEQUENCE`,
the engine's one phase record: who acts, the orders section it takes) with its steps: how its
orders are checked and carried out, and what it does on its own when it begins.

Like boardgame.io's flow declaration, this table is the one place that says what a phase is;
``validate`` and ``carry_out`` (:mod:`ruleset`) look the current phase up here rather than
branching on it. The order of the phases is the sequence of play [4.0] (:mod:`sequence`).
A ruleset derived from this one (DTP) declares its own table, reusing these entries where its
phases keep SPI's and replacing the rest.

The tasks the phase driver runs while resolving (one attack, one retreat...) are declared in
:data:`TASKS`: kind -> handler, each in the module of its rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.driver import Handler, Task
from referee.engine.orders import Order
from referee.engine.sequence import Phase, SequenceOfPlay
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.advance import advance_check, advance_vacated
from referee.rules.sixth_fleet_1975.attack_advanced import after_retreats_8_5_4
from referee.rules.sixth_fleet_1975.combat_phase import (
    attack,
    carry_out_combat,
    check_combat,
    end_combat,
    enter_combat,
)
from referee.rules.sixth_fleet_1975.combat_results import displace, finish_retreat, retreat
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.middle_east import middle_east_roll_14_3, roll_due_14_3
from referee.rules.sixth_fleet_1975.movement_phase import (
    carry_out_movement,
    check_movement,
    end_movement,
    enter_movement,
    overstack,
)
from referee.rules.sixth_fleet_1975.reinforcement import (
    carry_out_reinforcement,
    check_reinforcement,
    enter_reinforcement,
)
from referee.rules.sixth_fleet_1975.setup import carry_out_setup, check_setup
from referee.rules.sixth_fleet_1975.victory import score_13_0

Check = Callable[[Game, GameState, str, tuple[Order, ...]], list[Violation]]
CarryOut = Callable[[Game, GameState, str, tuple[Order, ...], list[Event]], GameState]
Enter = Callable[[Game, GameState, Dice, list[Event]], GameState]


@dataclass(frozen=True)
class PhaseSteps:
    """This ruleset's functions for one phase (the ``steps`` of its engine
    :class:`~referee.engine.sequence.Phase`): ``check`` lists the problems of its orders (no
    dice, no change); ``carry_out`` applies orders that passed the check and queues the
    tasks that finish the phase; ``enter`` is its automatic step when it begins (rolls,
    flags, skipping an empty phase)."""

    check: Check | None
    carry_out: CarryOut | None
    enter: Enter


def enter_setup(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """The Middle East roll as the Soviet set-up begins, with optional rule 14.3 [14.3]."""
    if roll_due_14_3(game, state):
        state = middle_east_roll_14_3(game, state, dice, events)
    return state


def enter_game_over(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """The final score and level of victory [13.2]."""
    sc = score_13_0(game, state)
    events.append(
        Event("victory", "13.2", f"Game over: net {sc['net']} VP, {sc['level']}", {"score": sc})
    )
    return state


STEPS: Mapping[str, PhaseSteps] = {
    seq.SETUP: PhaseSteps(check_setup, carry_out_setup, enter_setup),
    seq.COMBAT: PhaseSteps(check_combat, carry_out_combat, enter_combat),
    seq.MOVEMENT: PhaseSteps(check_movement, carry_out_movement, enter_movement),
    seq.REINFORCEMENT: PhaseSteps(
        check_reinforcement, carry_out_reinforcement, enter_reinforcement
    ),
    seq.GAME_OVER: PhaseSteps(None, None, enter_game_over),
}

PHASES: SequenceOfPlay[PhaseSteps] = SequenceOfPlay(
    tuple(replace(p, steps=STEPS[p.id]) for p in seq.SEQUENCE)
)
"""The sequence of play [4.0] (:data:`sequence.SEQUENCE`), each phase with its steps."""


# ---- the automatic steps --------------------------------------------------------------------


def auto(game: Game, state: GameState) -> list[dict[str, Any]] | None:
    """What the current phase does on its own: enter it once; otherwise wait for orders."""
    if state.phase == seq.GAME_OVER and facts_of(state).entered:
        return None
    if not facts_of(state).entered:
        return [{"t": "enter"}]
    return None


def enter(
    game: Game,
    phases: SequenceOfPlay[PhaseSteps],
    state: GameState,
    task: Task,
    dice: Dice,
    events: list[Event],
) -> GameState:
    """Begin the current step [4.0], then the phase's own automatic step (from ``phases``)."""
    state = SixthFleetFacts.put(state, entered=True)
    events.append(
        Event(
            "phase",
            "4.0",
            f"{seq.describe(state)} begins",
            {"turn": state.turn, "phase": state.phase, "side": state.active_side},
        )
    )
    phase = phases.of(state)
    if phase is None or phase.steps is None:
        return state
    return phase.steps.enter(game, state, dice, events)


def end_phase(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """On to the next step of the sequence of play; the Game-Turn Indication [4.0]."""
    turn, phase, side = seq.next_step_4_0(game, state)
    if turn > state.turn and state.phase != seq.SETUP:
        ev.append(Event("turn", "4.0", f"Game-Turn Indication: Game-Turn {turn}", {"turn": turn}))
    return SixthFleetFacts.put(
        state.evolve(turn=turn, phase=phase, active_side=side),
        entered=False,
        combat=None,
        phase_orders=None,
    )


TaskFn = Callable[[Game, GameState, Task, Dice, list[Event]], GameState]

TASKS: Mapping[str, TaskFn] = {
    "end_phase": end_phase,
    "attack": attack,
    "retreat": retreat,
    "displace": displace,
    "finish_retreat": finish_retreat,
    "advance_check": advance_check,
    "advance_vacated": advance_vacated,
    "end_combat": end_combat,
    "after_824": after_retreats_8_5_4,
    "end_movement": end_movement,
    "overstack": overstack,
}


@dataclass(frozen=True)
class Flow:
    """A ruleset's flow: its phases and the handlers of the tasks its resolution queues.
    ``enter`` (beginning the current phase) is the flow's own task. A ruleset derived from
    this one builds its own ``Flow`` from these phases and tasks, replacing the ones it
    changes."""

    phases: SequenceOfPlay[PhaseSteps]
    tasks: Mapping[str, TaskFn]

    def phase(self, state: GameState) -> Phase[PhaseSteps] | None:
        return self.phases.of(state)

    def steps(self, state: GameState) -> PhaseSteps | None:
        """The current phase's own functions (``None``: no phase of the sequence)."""
        p = self.phases.of(state)
        return p.steps if p is not None else None

    def section_of(self, state: GameState) -> str | None:
        """The orders section the current phase takes."""
        p = self.phase(state)
        return p.section if p is not None else None

    def handlers(self, game: Game) -> dict[str, Handler]:
        """The driver's handlers, bound to ``game``."""

        def bind(fn: TaskFn) -> Handler:
            return lambda s, t, d, e: fn(game, s, t, d, e)

        out = {kind: bind(fn) for kind, fn in self.tasks.items()}
        out["enter"] = lambda s, t, d, e: enter(game, self.phases, s, t, d, e)
        return out


FLOW = Flow(PHASES, TASKS)
"""The Sixth Fleet (1975) flow."""
