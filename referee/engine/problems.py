"""Transitional: the old spelling of :class:`~referee.engine.core.Violation` while the
rulesets move onto it one at a time (issue 25). Removed once none uses it."""

from __future__ import annotations

from referee.engine.core import Severity, SourcePos, Violation, refusals

violations = refusals


def Problem(
    rule: str,
    message: str,
    code: str = "",
    word: str | None = None,
    unit: str | None = None,
    hint: str | None = None,
    where: SourcePos | None = None,
    severity: Severity = "error",
) -> Violation:
    return Violation(rule, message, where, unit, hint, False, code, word, severity)
