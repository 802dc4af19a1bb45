"""A roll request's dice expression: ``2d6``, ``1d10+1``, ``3d6-2``, ``d6`` [G3].

Pure; a bad expression is a :class:`ValueError` whose text says what was expected, which the
ruleset reports at the word's ``file:line:col``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.numerals import DIGIT

MAX_DICE = 20
MAX_SIDES = 100
MAX_MODIFIER = 1000
_EXPR = re.compile(rf"^({DIGIT}{{0,2}})[dD]({DIGIT}{{1,3}})(?:([+-])({DIGIT}{{1,4}}))?$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides, their total plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    @property
    def low(self) -> int:
        return self.count + self.modifier

    @property
    def high(self) -> int:
        return self.count * self.sides + self.modifier


def parse_dice(text: str) -> DiceExpr:
    """``NdS`` with an optional ``+K``/``-K``: 1-20 dice of 2-100 sides, K up to 1000."""
    m = _EXPR.match(text)
    if m is None:
        raise ValueError(
            f"{text!r} is not a dice expression; write NdS with an optional +K or -K "
            "(2d6, 1d10+1, 3d6-2)"
        )
    count = int(m.group(1) or "1")
    sides = int(m.group(2))
    mod = int(m.group(4) or "0") * (-1 if m.group(3) == "-" else 1)
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"{text!r}: roll 1 to {MAX_DICE} dice")
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"{text!r}: a die has 2 to {MAX_SIDES} sides")
    if abs(mod) > MAX_MODIFIER:
        raise ValueError(f"{text!r}: a modifier of at most {MAX_MODIFIER}")
    return DiceExpr(count, sides, mod)
