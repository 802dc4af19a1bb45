"""Random draws from a committed hidden pool (a cup of markers, a face-down group).

A pool is a list of plain ids in the canonical order a ruleset's ``hidden_pools`` commits to at
set-up (``docs/rulesets.md``); a draw takes the roll-th id with a die of as many sides as the
pool holds, so ``verify`` can replay every draw from the committed pool and the committed
dice once ``referee reveal`` has released them. The roll is hidden from the sides named in
``hidden_from`` (``Roll.hidden_from``); drawing from a pool of one needs no roll.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Dice


def draw(
    pool: Sequence[str],
    dice: Dice,
    purpose: str,
    rule: str,
    hidden_from: tuple[str, ...] = (),
) -> tuple[str, list[str]]:
    """One id drawn at random; returns (id, the pool without it, order kept)."""
    if not pool:
        raise ValueError(f"the pool is empty ({purpose})")
    if len(pool) == 1:
        return pool[0], []  # one possibility: nothing to roll
    i = dice.roll(len(pool), purpose, rule, hidden_from=hidden_from)
    rest = list(pool)
    got = rest.pop(i - 1)
    return got, rest
