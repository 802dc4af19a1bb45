"""One way to say what is wrong with an order: a Violation at the order's position."""

from __future__ import annotations

from referee.engine.core import Violation
from referee.engine.orders import Order


def at(
    order: Order | None, rule: str, message: str, hint: str | None = None, unit: str | None = None
) -> Violation:
    return Violation(rule, message, order.pos if order is not None else None, unit, hint)
