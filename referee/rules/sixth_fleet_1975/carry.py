"""Carrying out an orders file order by order, keeping the position, problems and events.

Orders that need no dice (set-up, movement, reinforcements) are *carried out* on the position
one at a time by the function of their phase; each order is checked against the position
the earlier orders left. The validator keeps the :attr:`Carry.problems`, the resolver keeps
the :attr:`Carry.state` and :attr:`Carry.events`: both run the same code, so a file that
validates is carried out exactly as checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine.core import Event, GameState
from referee.engine.orders import Order
from referee.engine.problems import Problem


@dataclass
class Carry:
    state: GameState
    problems: list[Problem] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    def refuse(self, problem: Problem, order: Order | None = None) -> None:
        """Record ``problem``, placed in ``order`` (at the problem's own word)."""
        self.problems.append(problem.at(order))
