"""Pools and random draws [2.2 "Draw"], [2.4].

A pool is a list of piece ids in the canonical order committed at set-up; a draw takes the
roll-th id with a die of as many sides as the pool holds (the Randomization Procedure
[2.4] with one face per possibility), so ``verify`` can replay every draw from the committed
pool and the committed dice.
"""

from __future__ import annotations

from referee.engine.core import Dice
from referee.engine.pools import draw as draw_from

HIDDEN_FROM_PLAYER = ("USN",)


def draw(
    pool: list[str], dice: Dice, purpose: str, rule: str, *, hidden: bool
) -> tuple[str, list[str]]:
    """One id drawn at random (the core's :func:`referee.engine.pools.draw`, one die face per
    possibility [2.4]); returns (id, the pool without it)."""
    return draw_from(pool, dice, purpose, rule, HIDDEN_FROM_PLAYER if hidden else ())


def roll_dice(dice: Dice, n: int, purpose: str, rule: str, *, hidden: bool = False) -> int:
    """The total of ``n`` d6."""
    hf = HIDDEN_FROM_PLAYER if hidden else ()
    return sum(dice.roll(6, f"{purpose} (die {k + 1} of {n})", rule, hf) for k in range(n))
