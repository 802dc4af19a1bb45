"""One problem type for every rule check a ruleset makes, before it knows where the order is.

A rule function (a path check, an attack analysis, a set-up check) finds a :class:`Problem`:
the rule case, the message, a stable ``code`` that callers branch on (never the wording), the
order word to point at and the unit concerned. The phase that owns the order then places it
(:meth:`Problem.at`) and hands it on as a :class:`~referee.engine.core.Violation`, the type
``validate`` returns. ``severity`` lets a check report a consequence as a warning rather than
a refusal (a warning never refuses a file).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from referee.engine.core import SourcePos, Violation
from referee.engine.orders import Order

Severity = Literal["error", "warning"]


class Problem(NamedTuple):
    """A rule the orders break: ``rule`` is the case (``"8.24"``), ``code`` a short stable
    name of the fault (``"defended-hex-occupied"``), ``word`` the order word it is about,
    ``unit`` the unit it concerns (reported with the violation), ``where`` its place in the
    orders file once known. (A named tuple, immutable and cheap: the legal-move searches
    make one for every step they try and refuse.)"""

    rule: str
    message: str
    code: str = ""
    word: str | None = None
    unit: str | None = None
    hint: str | None = None
    where: SourcePos | None = None
    severity: Severity = "error"

    def at(self, order: Order | None, word: str | None = None) -> Problem:
        """This problem placed in ``order``: at ``word`` (default: its own word), else at
        the order's first column; unplaced when there is no order."""
        if order is None:
            return self
        w = word if word is not None else self.word
        return self._replace(where=order.pos_of(w) if w else order.pos)

    def violation(self) -> Violation:
        return Violation(self.rule, self.message, self.where, self.unit, self.hint)


def violations(problems: Iterable[Problem]) -> list[Violation]:
    """The refusals among ``problems`` as the engine reports them."""
    return [p.violation() for p in problems if p.severity == "error"]
