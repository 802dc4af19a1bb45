"""The toy_duel position facts: what it keeps beyond units and stacks, typed once."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine.facts import Facts


@dataclass(frozen=True)
class DuelFacts(Facts):
    """The ships sunk so far [D4], which end the game [D2] and decide it [D5]."""

    ruleset = "toy_duel"

    sunk: list[str] = field(default_factory=list)
