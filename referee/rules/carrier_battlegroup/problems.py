"""Placing a rule problem in the orders file: the core's one :class:`Problem` type, pointed
at the unit's word when the problem concerns a unit, else at the order."""

from __future__ import annotations

from referee.engine.core import Violation
from referee.engine.orders import Order
from referee.engine.problems import Problem


def at(
    order: Order | None,
    rule: str,
    message: str,
    hint: str | None = None,
    unit: str | None = None,
) -> Violation:
    word = unit if order is not None and unit in (*order.units, *order.targets) else None
    return Problem(rule, message, word=word, unit=unit, hint=hint).at(order).violation()
