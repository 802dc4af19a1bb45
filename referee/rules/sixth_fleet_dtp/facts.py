"""The position facts of the DTP revised rules: every key its rules keep in ``state.data``, with
its type (``docs/rulesets.md``, "Position facts").

DTP plays on SPI's rules [DTP 11.0]: its states hold SPI's facts too (``losses``, ``assigned``,
``flags``, ``standing``...), which the SPI rule functions it calls write and read through
:class:`~referee.rules.sixth_fleet_1975.facts.SixthFleetFacts`; :class:`DtpFacts` declares them
by inheriting that declaration, and adds the kit's own. ``new_game`` (ruleset.py) writes
``damage``, ``recycle``, ``base_damage`` and ``combat``; the others appear when the rules
first write them (a key absent reads as its default: an empty record, or ``None`` where its
absence means something). The game is open: a side's view differs only in ``standing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict

from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts

if TYPE_CHECKING:
    from referee.engine.core import GameState


class AnswerBack(TypedDict):
    """The enemy units damaged in the impulse just before, which may answer in this one
    [DTP 8.21, 8.22] (or, as ``lost_answer``, may not: a first strike [DTP 8.231])."""

    side: str
    units: list[str]


class Impulses(TypedDict):
    """The combat phase's impulse record [DTP 8.2] (``impulses.py``): whose impulse it is
    (``None`` once both have passed), who has passed, the answer-back chance, how many."""

    next: str | None
    passed: list[str]
    answer_back: AnswerBack | None
    count: int
    lost_answer: NotRequired[AnswerBack]


class Strike(TypedDict):
    """A strike that made contact and waits for the defender's bounces [DTP 8.232]."""

    side: str
    defender: str
    units: list[str]
    targets: list[str]
    hex: str


class AnswerHeld(TypedDict):
    """Removals held for their owner's answer [DTP 8.22] (``answer_back.py``): each sunk ship's
    ``[rule, level]``, each aborted air unit's return turn."""

    side: str
    sunk: dict[str, list[str | int]]
    aborted: dict[str, int]


Moment = TypedDict("Moment", {"mover": str, "at": str, "from": str, "units": list[str]})
"""A detection moment kept for the stationary player's decision [DTP 6.2b] (DTP-18): the enemy
mover, the hex it entered, the hex it was seen from, the units that may try."""


class Docked(TypedDict):
    """The convoy docked in Norway [DTP 11.3 rule 7]: the unit, the port, the Game-Turn."""

    unit: str
    port: str
    turn: int


class Watch(TypedDict, total=False):
    """A victory bonus's watched hex [DTP 11.3 victory] (``north_atlantic.py``): the unit that
    entered it and when, or the unit holding it, since when and when it earned the bonus."""

    unit: str
    entered: int
    since: int
    held: int


class Reinforce(TypedDict):
    """The Westpac placements owed [DTP 11.506]: the phase they come before, the sides still
    to place (East Block first)."""

    then: str
    sides: list[str]


class VariableAir(TypedDict):
    """East Block variable air [DTP 11.507]: Game-Turn -> the roll; unit -> the Game-Turn it
    left the box."""

    rolls: dict[str, int]
    arrived: dict[str, int]


class Hostilities(TypedDict, total=False):
    """Westpac's delayed hostilities [DTP 11.5101, 11.51021]: the Game-Turns the war and the
    PRC's entry began (absent: not yet), the last turn announced."""

    war: int
    prc: int
    asked: int


class Unloaded(TypedDict):
    """A convoy, amphibious unit or Z-5 set aside at its destination, with its VP
    [DTP 11.50922, 11.50942, 11.50952]."""

    unit: str
    hex: str
    award: str
    vp: int
    turn: int


class Z5Assault(TypedDict):
    """The Z-5's air assault of this turn [DTP 11.5095]: the hex and the Game-Turn."""

    hex: str
    turn: int


@dataclass(frozen=True)
class DtpFacts(SixthFleetFacts):
    """What the DTP revised rules keep beyond units and stacks (SPI's facts included)."""

    ruleset = "sixth_fleet_dtp"

    # ---- combat [DTP 8.0] --------------------------------------------------------------
    impulses: Impulses | None = None  # this combat phase's impulses [DTP 8.2]
    strike: Strike | None = None  # a strike waiting for bounces [DTP 8.232]
    answer_8_22: AnswerHeld | None = None  # removals held for an answer [DTP 8.22]
    damage: dict[str, int] = field(default_factory=dict)  # ship or sub -> level [DTP 8.54]
    recycle: dict[str, int] = field(default_factory=dict)  # air unit -> its return [DTP 8.51]
    base_damage: dict[str, int] = field(default_factory=dict)  # base hex -> level [DTP 10.4]
    sg_base_attacks: list[str] = field(default_factory=list)  # SGs that fired [DTP 11.3 rule 4]
    # ---- movement [DTP 5.0, 6.0, 9.0] ---------------------------------------------------
    origin: dict[str, str] = field(default_factory=dict)  # flier -> where it began [DTP 8.15]
    moved_air: list[str] = field(default_factory=list)  # air units moved this turn [DTP 9.23]
    detect_tried: list[list[str]] = field(default_factory=list)  # [mover, hex]s tried [DTP 6.22]
    moments: list[Moment] = field(default_factory=list)  # kept for a decision [DTP 6.2b]
    rebased: list[str] = field(default_factory=list)  # sides whose rebasing is in [DTP 9.3]
    home_deck: dict[str, str] = field(default_factory=dict)  # carrier air -> deck [DTP 9.26]
    not_9_26: list[str] = field(default_factory=list)  # recycle outside 9.26 [DTP 9.28a]
    home_9_28b: dict[str, str] = field(default_factory=dict)  # Soviet air -> country [DTP 9.28b]
    # ---- reinforcement, flags [12.2, DTP 11.0] --------------------------------------------
    interphase_12_2: list[str] = field(default_factory=list)  # sides still to place [12.2]
    dtp_flags: dict[str, bool] | None = None  # flags.DtpFlags overrides
    # ---- the North Atlantic [DTP 11.3] ----------------------------------------------------
    occupied: dict[str, int] = field(default_factory=dict)  # place -> turn taken [11.3 rule 5]
    ever_occupied: list[str] = field(default_factory=list)  # places ever taken [11.3 victory]
    recaptured: list[str] = field(default_factory=list)  # bases taken back [11.3 rule 5]
    relocated: list[str] = field(default_factory=list)  # the unit relocated [11.3 rule 5]
    docked: Docked | None = None  # the convoy in port [DTP 11.3 rule 7]
    watched: dict[str, Watch] = field(default_factory=dict)  # bonus id -> its hex's watch
    # ---- Westpac [DTP 11.50] ----------------------------------------------------------------
    setup_step: int = 0  # the set-up step reached [DTP 11.505]
    reinforce: Reinforce | None = None  # placements owed [DTP 11.506]
    delayed: dict[str, int] | None = None  # unit -> the turn delayed [DTP 11.5063]
    over_limit_11_5063: dict[str, list[str]] = field(default_factory=dict)  # side -> hexes
    variable_air: VariableAir | None = None  # [DTP 11.507]
    hostilities: Hostilities = field(default_factory=dict)
    armistice: dict[str, int] = field(default_factory=dict)  # turn -> roll [DTP 11.5132]
    korea_captured: dict[str, int] = field(default_factory=dict)  # hex -> turn [DTP 11.5134]
    unloaded: list[Unloaded] = field(default_factory=list)  # set aside for VP [DTP 11.50922]
    z5_assault: Z5Assault | None = None  # [DTP 11.5095]
    award_turns: dict[str, int] = field(default_factory=dict)  # award -> turns [DTP 11.5124]


def facts_of(state: GameState) -> DtpFacts:
    """The position facts of a DTP ``state`` (a GameState)."""
    return DtpFacts.of(state)
