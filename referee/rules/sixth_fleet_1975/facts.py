"""The position facts of SPI Sixth Fleet: every key its rules keep in ``state.data``, with its
type (``docs/rulesets.md``, "Position facts").

DTP plays on these rules and keeps its own facts beside them; a DTP state read through
:class:`SixthFleetFacts` shows only these (every one of them optional).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from referee.engine.driver import DriverFacts

if TYPE_CHECKING:
    from referee.engine.core import GameState


class Loss(TypedDict):
    """A piece removed for good [13.0] (``scores``: false for a [9.15] grounding)."""

    unit: str
    side: str
    turn: int
    rule: str
    scores: bool


class PhaseOrders(TypedDict):
    """The combat file's retreat, advance and displacement orders, kept for the decisions
    that come after the dice [8.7]."""

    side: str
    orders: list[dict[str, Any]]


class Force(TypedDict):
    """A 14.3 force: its country, name, side and pieces."""

    country: str
    name: str
    side: str
    units: list[str]


class MiddleEast(TypedDict):
    """Optional rule [14.3]: who rolls, the roll, the forces in play, what each roll adds."""

    roller: str | None
    roll: int | None
    forces: list[Force]
    table: dict[str, list[Force]]


@dataclass(frozen=True)
class SixthFleetFacts(DriverFacts):
    """What SPI Sixth Fleet keeps beyond units and stacks; it runs on the phase driver, whose
    ``queue`` (the phase's remaining tasks) it declares by subclassing :class:`DriverFacts`."""

    ruleset = "sixth_fleet_1975"

    entered: bool | None = None  # the current phase has started (its automatic step ran)
    # this Combat Phase's record [8.13], [8.24], [8.5]: attacked, used, retreated_824,
    # advanced, attacked_from, advanced_824, followup_824 (unit or hex ids)
    combat: dict[str, list[str]] | None = None
    phase_orders: PhaseOrders | None = None
    standing: dict[str, list[dict[str, Any]]] | None = None  # each side's standing orders
    losses: list[Loss] | None = None
    destroyed_defended: list[str] | None = None  # Defended hexes destroyed [8.6]
    destroyed_bases: list[str] | None = None  # bases destroyed (DTP's base attacks)
    assigned: dict[str, str] | None = None  # carrier air -> its CV [14.1]
    neutral_airspace: bool | None = None  # [14.2] overflown
    gate_turn: int | None = None  # the Black Sea Fleet's first Game-Turn at the gate [14.4]
    first_strike_done: bool | None = None  # [14.1]
    next_decision: int | None = None  # the id of the next pending decision
    stop_11_0: list[str] | None = None  # the sides that voted to end set-up [11.0]
    middle_east_14_3: MiddleEast | None = None
    flags: dict[str, Any] | None = None  # flags.RuleFlags overrides


def facts_of(state: GameState) -> SixthFleetFacts:
    """The position facts of a Sixth Fleet ``state`` (a GameState)."""
    return SixthFleetFacts.of(state)
