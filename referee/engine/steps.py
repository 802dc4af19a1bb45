"""One step of a game: an orders file checked, then carried out, by one runner.

Every ruleset's :meth:`~referee.engine.ruleset.Ruleset.resolve` is :func:`run_step`: the
orders are validated first, and a file with a violation is refused whole, with no change,
no event and no die rolled (:func:`refused`); a file that passes is carried out by the
ruleset's :meth:`~referee.engine.ruleset.Ruleset.carry_out`. Rulesets whose carry-out queues
small tasks run them with :func:`referee.engine.driver.drive`.

**Validate is the carry-out with the dice withheld.** A ruleset that walks a file order by
order (each order judged on the position the earlier ones leave) runs the same walk for
both: :class:`Carry` with :class:`WithheldDice` keeps the problems, with real dice the state
and events. A rule that needs a die asks :func:`checking` and, while checking, takes no roll
(or, where the walk must go on, the lowest face, which the dice never record): the check never
depends on a die and can never disagree with the carry-out about what the orders are allowed.
(The Diplomacy adjudicators keep an order type's Validate and Execute together the same way.)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from referee.engine.core import Dice, Event, GameState, Outcome, Roll, Violation

if TYPE_CHECKING:
    from referee.engine.orders import Order, OrdersDoc
    from referee.source.model import Module


class WithheldDice:
    """The dice of a check: no roll is recorded, and a roll that is asked for anyway shows
    the lowest face (an attack that scores no hit), so a walk that must go on past a die
    judges the later orders on the position the least fortunate roll leaves."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        return 1


def checking(dice: Dice | None) -> bool:
    """Whether ``dice`` are withheld: the walk is checking the orders, not carrying them
    out."""
    return dice is None or isinstance(dice, WithheldDice)


@dataclass
class Carry:
    """One orders file being carried out order by order: the position as the earlier orders
    left it, the problems found, the events. Checking and carrying out run the same code:
    the validator keeps :attr:`problems`, the resolver :attr:`state` and :attr:`events`, so
    a file that validates is carried out exactly as checked. ``dice`` are
    :class:`WithheldDice` while checking."""

    state: GameState
    problems: list[Violation] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    dice: Dice = field(default_factory=WithheldDice)

    @property
    def checking(self) -> bool:
        """Checking the orders (dice withheld), not carrying them out."""
        return checking(self.dice)

    def refuse(self, problem: Violation, order: Order | None = None) -> None:
        """Record ``problem``, placed in ``order`` (at the problem's own word)."""
        self.problems.append(problem.at(order))


def refused(state: GameState, violations: Iterable[Violation]) -> Outcome:
    """A refused file: the position unchanged, no event, no die rolled."""
    return Outcome(state, (), (), tuple(violations))


class Stepper(Protocol):
    """What the step runner asks of a ruleset (:class:`referee.engine.ruleset.Ruleset`)."""

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]: ...

    def carry_out(
        self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice
    ) -> Outcome: ...


def run_step(
    ruleset: Stepper, module: Module, state: GameState, orders: OrdersDoc, dice: Dice
) -> Outcome:
    """The one step runner: ``orders`` validated, then carried out with ``dice`` when
    nothing is wrong (``Ruleset.resolve``)."""
    violations = ruleset.validate(module, state, orders)
    if violations:
        return refused(state, violations)
    return ruleset.carry_out(module, state, orders, dice)
