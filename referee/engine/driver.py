"""The phase driver: run a ruleset's queued work until a player must act.

Resolution is a queue of small JSON tasks kept in the position fact ``queue`` (resolve an attack,
retreat a unit, end a phase...). The driver pops one task at a time and hands it to the
ruleset's handler for its kind; a handler returns the new state and may push more tasks to the
front of the queue. When a handler reaches a decision that belongs to a player and nothing
covers it, it puts the task back with ``state.pending`` set, and the driver stops: the state
is consistent and complete (the queue *is* the rest of the phase), so it can be saved, sent to
the player, and resumed when the answer arrives. When the queue is empty the ruleset's
``auto`` function says what the current phase does on its own (enter it, skip it, advance the
Game-Turn marker), or ``None`` when the phase waits for a player's orders.

It knows no rules; it is the boardgame.io idea of a flow of phases, with the Diplomacy
adjudicator's habit of never deciding for a player. The queue is the driver's own position
fact, declared here (:class:`DriverFacts`): a ruleset that runs on the driver declares its
facts by subclassing it (SPI Sixth Fleet's ``SixthFleetFacts``, and through it DTP's), so its
states are checked at the edge with the queue's type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine.core import Dice, Event, GameState
from referee.engine.facts import Facts

Task = Mapping[str, Any]
Handler = Callable[[GameState, Task, Dice, list[Event]], GameState]
Auto = Callable[[GameState], Sequence[Task] | None]

MAX_STEPS = 100_000


class DriverError(RuntimeError):
    """A ruleset bug: an unknown task kind, or a loop that never waits for anyone."""


@dataclass(frozen=True)
class DriverFacts(Facts):
    """The driver's position fact: the phase's remaining tasks (absent: none)."""

    queue: list[dict[str, Any]] | None = None


def queue_of(state: GameState) -> list[dict[str, Any]]:
    """The phase's remaining tasks, each a copy."""
    return [dict(t) for t in DriverFacts.of(state).queue or ()]


def _with_queue(state: GameState, tasks: Sequence[Task]) -> GameState:
    return DriverFacts.put(state, queue=[dict(t) for t in tasks])


def push_front(state: GameState, tasks: Sequence[Task]) -> GameState:
    """Put tasks at the front of the queue, in the given order."""
    return _with_queue(state, [*tasks, *queue_of(state)])


def drive(
    state: GameState,
    handlers: Mapping[str, Handler],
    auto: Auto,
    dice: Dice,
    events: list[Event],
) -> GameState:
    """Run tasks until the queue is empty and the phase waits for a player, or a decision is
    pending. ``events`` receives every event, in order."""
    for _ in range(MAX_STEPS):
        if state.pending:
            return state
        queue = queue_of(state)
        if not queue:
            more = auto(state)
            if not more:
                return state
            state = _with_queue(state, more)
            continue
        task, rest = queue[0], queue[1:]
        handler = handlers.get(str(task.get("t")))
        if handler is None:
            raise DriverError(f"no handler for task {task.get('t')!r}")
        state = handler(_with_queue(state, rest), task, dice, events)
    raise DriverError("the phase driver ran 100000 steps without waiting for a player")
