"""The position facts of the naval module: every key its rules keep in ``state.data``, with
its type (``docs/rulesets.md``, "Position facts").

``new_game`` (ruleset.py) writes ``phasing``, ``first``, ``control`` and ``flags``; the
others appear when the rules first write them, and most of them are emptied again at the end
of a phase, a player turn or a Game-Turn (steps.py). Everything on the naval side of the
game is open information, so a side's view holds the same facts as the position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from referee.engine.facts import Facts

if TYPE_CHECKING:
    from referee.engine.core import GameState

OrderJson = dict[str, Any]
"""An order line as :meth:`referee.engine.orders.Order.to_json` writes it."""


class ShipState(TypedDict, total=False):
    """A naval unit's condition [25.31], [27.36], [28.13] and its last move (ships.py):
    absent keys read as Ready, undamaged, empty."""

    status: str  # "ready", "sailed"; "sunk" or "cadre" once gone [25.31], [27.31]
    damage: int  # damage points [27.36]
    cargo: list[str]  # the ground units aboard [28.13]
    departure: str  # where this phase's move began (an Abort returns it there) [27.32b]
    nmp_spent: int  # [26.14b]
    started_at_sea: bool  # [27.32a]
    passed: list[str]  # the sea zones passed [27.22]
    path: list[str]  # a flotilla's hexes [32.11]


class Handoff(TypedDict):
    """What goes to the host game [30.15a] (host.py): its number, its kind and what the host
    needs to resolve it, by kind."""

    id: str
    kind: str  # air_combat, aa, shipping, support, defensive_support, cd_support, assault
    units: NotRequired[list[str]]  # box or mission air units [31.13], [31.23]; assaulters
    fighters: NotRequired[list[str]]  # the naval fighters opposing the box [31.13]
    ship: NotRequired[str]  # the target of AA fire [31.25]
    firer: NotRequired[str | None]  # the ship that fires AA for it, if any [31.25b]
    air: NotRequired[list[str]]  # the air units it fires at [31.25]
    port_aa_max: NotRequired[int]  # [31.25a]
    targets: NotRequired[list[str]]  # a Shipping Attack's target ships [31.23]
    ships: NotRequired[list[str]]  # supporting or carrying ships [29.1], [30.11]
    target: NotRequired[str]  # the hex supported or assaulted [29.1], [30.14c]
    value: NotRequired[int]  # support points [29.1], [30.25]
    at_sea: NotRequired[bool]  # support from the sea [29.11]
    artillery: NotRequired[str]  # the ground artillery unit combined [29.22]
    cd: NotRequired[list[str]]  # the CD units supporting [30.25]
    defenders: NotRequired[list[str]]  # [30.15a]
    flotillas: NotRequired[list[str]]  # [30.16e]


class BoxCombat(TypedDict, total=False):
    """The Naval Movement Interdiction Box handed to the host game's air combat [31.13]
    (empty while none is open)."""

    side: str  # the mission player
    against: str  # whose naval movement it interdicts
    units: list[str]
    handoff: str
    fighters: list[str]


class ShippingStrike(TypedDict):
    """One declared Shipping Attack: its striking air units and target ship [31.24]."""

    air: list[str]
    target: str


class ShippingCombat(TypedDict, total=False):
    """A Shipping Attack mission waiting for the host game's air combat and AA fire
    (NM-43) (empty while none is open)."""

    handoff: str
    units: list[str]
    queue: list[ShippingStrike]


class CdFire(TypedDict):
    """The CD units firing at one ship this Combat Phase and their points [27.31c]."""

    cd: list[str]
    points: int


class LossRoll(TypedDict):
    """A Naval Movement Loss roll due at the end of the phase [27.11]: the ships and the
    order that moved them."""

    ships: list[str]
    order: OrderJson


class DoNotMove(TypedDict):
    """A "Do Not Move" marker on a unit landed after Evacuation [28.24]."""

    n: int  # 2 GTs, then 1 GT
    landed: int  # the Game-Turn it landed
    side: NotRequired[str]  # its owner (the player turn that turns 2 into 1)


@dataclass(frozen=True)
class NavalFacts(Facts):
    """What the naval module keeps beyond units and stacks."""

    ruleset = "naval_module"

    phasing: str  # the phasing player [25.32]
    first: str  # the scenario's first player
    control: dict[str, str] = field(default_factory=dict)  # port -> its side ("" none) [26.28]
    flags: dict[str, bool] = field(default_factory=dict)  # readings.Readings
    last_turn: int | None = None  # a shorter game than the scenario's [25.0]
    ships: dict[str, ShipState] = field(default_factory=dict)
    weather: dict[str, str] = field(default_factory=dict)  # Game-Turn -> storm/clear [27.32a]
    standing: dict[str, list[OrderJson]] = field(default_factory=dict)  # side -> its orders
    # ports
    port_used: dict[str, int] = field(default_factory=dict)  # this player turn [26.25]
    evacuation: dict[str, str] = field(default_factory=dict)  # port -> side [28.22]
    evacuated: list[str] = field(default_factory=list)  # aboard after Evacuation [28.24]
    do_not_move: dict[str, DoNotMove] = field(default_factory=dict)  # [28.24]
    captured: dict[str, int] = field(default_factory=dict)  # port -> Game-Turn [26.28]
    naval_bases: dict[str, int] = field(default_factory=dict)  # port -> Game-Turn [32.22]
    # naval movement [26.1], [27.1]
    moved: list[str] = field(default_factory=list)  # this phase
    moved_motorized: list[str] = field(default_factory=list)  # [26.12a]
    activated: list[str] = field(default_factory=list)  # [28.14a]
    loss_rolls: list[LossRoll] = field(default_factory=list)  # [27.11]
    abort_due: dict[str, str] = field(default_factory=dict)  # ship -> owner [27.32b]
    deferred: list[OrderJson] = field(default_factory=list)  # unloads after the rolls
    sunk: list[str] = field(default_factory=list)  # [27.31]
    # combat [29.0], [30.0]
    handoffs: list[Handoff] = field(default_factory=list)  # open [30.15a]
    handoff_log: list[Handoff] = field(default_factory=list)  # closed
    host_signed: dict[str, str] = field(default_factory=dict)  # hand-off -> result [30.16]
    return_to_port: list[str] = field(default_factory=list)  # [29.13]
    declared_attacks: list[str] = field(default_factory=list)  # Defender hexes [29.25]
    defended: dict[str, str] = field(default_factory=dict)  # unit -> hex supported [29.2]
    assault_hexes: dict[str, str] = field(default_factory=dict)  # sea hex -> unit [30.14a]
    assaulted: list[str] = field(default_factory=list)  # ships this Game-Turn [30.24]
    cd_used: dict[str, str] = field(default_factory=dict)  # CD unit -> fire/support [27.12]
    cd_queue: dict[str, CdFire] = field(default_factory=dict)  # target ship -> [27.31b]
    # air [31.0]
    interdiction: dict[str, int] = field(default_factory=dict)  # side -> Level [31.13]
    interdiction_box: dict[str, list[str]] = field(default_factory=dict)  # owner -> [31.11]
    box_combat: BoxCombat = field(default_factory=dict)
    box_signed: list[str] = field(default_factory=list)  # NM-23
    flown: dict[str, list[str]] = field(default_factory=dict)  # the Flown Box [31.22]
    shipping_flown: list[str] = field(default_factory=list)  # this phase [31.24]
    shipping_queue: list[ShippingStrike] = field(default_factory=list)  # [31.24]
    shipping_combat: ShippingCombat = field(default_factory=dict)
    shipping_signed: list[str] = field(default_factory=list)  # NM-43


def facts_of(state: GameState) -> NavalFacts:
    """The position facts of a naval-module ``state``."""
    return NavalFacts.of(state)
