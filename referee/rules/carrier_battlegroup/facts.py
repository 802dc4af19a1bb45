"""The position facts of Carrier Battlegroup: every key its rules keep in ``state.data``,
with its type (``docs/rulesets.md``, "Position facts").

``new_game`` (setup.py) writes most of them; the comments say which rule case each one
follows. The player's view (view.py) shows what is hidden as counts: each pool, an SBG's ``units``,
the coastal defense's ``units`` and an incident's ``generated`` are lists of unit ids in the
full position and numbers in the view (an SBG's or the coastal units' while unrevealed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict

from referee.engine.facts import Facts

if TYPE_CHECKING:
    from referee.engine.core import GameState


class Cvbg(TypedDict):
    """The task force [4.0 step 9]: its space and the ships in it (the carrier first)."""

    space: str
    ships: list[str]


class Sbg(TypedDict):
    """A Soviet Battle Group [17.0]: its marker, space and units (a count while unrevealed,
    in a view)."""

    space: str
    units: list[str] | int
    revealed: bool
    marker: str


class Coastal(TypedDict):
    """The coastal defense units at the Objective [4.0 step 9c] (a count in a view until
    revealed); ``space`` is null before set-up places them."""

    space: str | None
    units: list[str] | int
    revealed: bool


class Mission(TypedDict):
    """The Orders marker drawn [4.0] and its row of the Orders table."""

    order: str
    objective: str
    line: str
    turns: int
    coastal: int
    landing: bool
    kill: str
    lanes: list[str]


class Condition(TypedDict):
    """A ship's Damaged or Crippled marker [22.2], [22.5]."""

    damage: int
    crippled: bool


class Loss(TypedDict):
    """A USN unit lost, for the VP [22.8], [24.1]."""

    unit: str
    what: str
    turn: int
    rule: str


class Incident(TypedDict):
    """This turn's Incident Phase [16.0]: where, what it generated (a count in a view), whether
    a Contact chit came up, the chits drawn, the backs of the generated units (public)."""

    space: str
    generated: list[str] | int
    contact: bool
    drawn: list[str]
    backs: NotRequired[list[str]]


class Landing(TypedDict):
    """A landed Marine or SEAL unit [23.2]: where and on which turn."""

    space: str
    turn: int


@dataclass(frozen=True)
class CbgFacts(Facts):
    """What Carrier Battlegroup keeps beyond units and stacks."""

    ruleset = "carrier_battlegroup"

    kind: str  # "mission", or the Red Oktober scenario [25.0]
    # the hidden pools and the chit cup [16.2], by name (in a view: how many each holds)
    pools: dict[str, list[str] | int]
    chit_order: list[str] = field(default_factory=list)  # the cup as committed (not in views)
    alert: int = 0  # the Alert level [6.0]
    lp: int = 0  # Logistics Points left [8.0]
    vp: int = 0  # Victory Points [24.1]
    fuel: int = 0  # [12.2]
    ammo: int = 0  # [15.0]
    carrier: dict[str, int] = field(default_factory=dict)  # the carrier's systems [22.2]
    carrier_start: dict[str, int] = field(default_factory=dict)  # as set up [4.0 step 6]
    escort_classes: dict[str, int] = field(default_factory=dict)  # [4.0 step 8]
    sbgs: dict[str, Sbg] = field(default_factory=dict)
    coastal: Coastal | None = None
    revealed: list[str] = field(default_factory=list)  # Soviet units face up [19.0]
    cvbg: Cvbg | None = None
    air: dict[str, str] = field(default_factory=dict)  # aircraft -> "hangar" or its base
    missiles: dict[str, str] = field(default_factory=dict)  # cruise missile -> its ship
    crews: list[str] = field(default_factory=list)  # special crews aboard [3.5]
    conditions: dict[str, Condition] = field(default_factory=dict)
    sunk: list[str] = field(default_factory=list)
    damaged_box: list[str] = field(default_factory=list)
    crippled_box: list[str] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)
    result: str | None = None  # "victory: ..." or "defeat: ..." with its case [24.0]
    flags: dict[str, bool] = field(default_factory=dict)  # readings.Readings
    mission: Mission | None = None
    entered: str | None = None  # the space the CVBG entered this turn [16.1]
    out_of_lane: bool = False  # [12.5]
    incident: Incident | None = None
    scored: dict[str, str] = field(default_factory=dict)  # lost unit -> how its VP scored
    landed: list[str] = field(default_factory=list)  # landed this turn [23.2]
    landed_at: dict[str, Landing] = field(default_factory=dict)  # [23.2]


def facts_of(state: GameState) -> CbgFacts:
    """The position facts of a Carrier Battlegroup ``state`` (a GameState)."""
    return CbgFacts.of(state)
