"""The position facts of DG Sixth Fleet (2019): every key its rules keep in ``state.data``,
with its type (``docs/rulesets.md``, "Position facts").

``new_game`` (ruleset.py) writes ``joined``, ``destroyed_bases``, ``patrol``, the action
counts, the strike cups and ``control``; the others appear when the rules first write them.
A view (``strike.view_of``) shows the other side's cups and hand as counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from referee.engine.facts import Facts

if TYPE_CHECKING:
    from referee.engine.core import GameState


class StrikeCups(TypedDict):
    """The strike markers (provisional 17.0, strike.py): each cup's markers, each side's hand
    (counts, in a view, for what the side may not see) and the markers played."""

    cups: dict[str, list[str] | int]
    held: dict[str, list[str] | int]
    spent: list[str]


@dataclass(frozen=True)
class SixthFleet2019Facts(Facts):
    """What DG Sixth Fleet (2019) keeps beyond units and stacks."""

    ruleset = "sixth_fleet_2019"

    joined: dict[str, str] = field(default_factory=dict)  # neutral nation -> its side [5.1]
    destroyed_bases: list[str] = field(default_factory=list)  # zones whose base is gone [9.0]
    patrol: list[str] = field(default_factory=list)  # units on patrol (provisional 15.0)
    actions_left: int = 0  # the phasing side's actions left [6.1]
    actions_total: int = 0  # its actions this phase [6.1]
    event_actions: int = 0  # extra actions an event gave for the next Action Phase [5.1]
    strike: StrikeCups | None = None  # provisional 17.0
    control: dict[str, str | None] = field(default_factory=dict)  # land zone -> side [3.2]
    flags: dict[str, Any] = field(default_factory=dict)  # readings.Readings
    # how the game ended [4.0]-[4.2]: by points (the victory level) or sudden death
    result: dict[str, Any] | None = None
    standing: dict[str, list[Any]] = field(default_factory=dict)  # side -> its standing orders


def facts_of(state: GameState) -> SixthFleet2019Facts:
    """The position facts of a DG Sixth Fleet (2019) ``state``."""
    return SixthFleet2019Facts.of(state)
