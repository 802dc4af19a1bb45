"""[9.62 kept; DTP 9.27, 8.55, 11.3 rule 1] carrier air in the DTP air movement phases.

DTP keeps SPI's carrier options [9.61, 9.62] ("still in force from SPI", digest §6) and adds
what damage does to them. In an air movement phase, in the order written:

* ``cap UNIT CV`` launches a unit from its carrier's holding box onto CAP over it, or is a
  claim, checked at the end of the file, that the unit ends over the carrier [9.62A];
* ``box UNIT CV`` lands a unit that is in the carrier's hex below decks [9.62B];
* a carrier at D2 conducts no air operations: nothing launches from it or lands on it, and its
  air below decks is stuck aboard [DTP 8.55, 9.27] (``air.grounded_problem`` refuses their
  moves); a sunk carrier takes them with it (``combat_phase``);
* a holding box holds six air units [9.62B], or as many as the scenario puts below decks at
  the start where that is more: Nimitz carries 7 [DTP 11.3 rule 1].

The facts (what is in a box, which carrier a unit may use) are SPI's (``sixth_fleet_1975.air``),
reused, not copied.
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.air import HOLDING_BOX_LIMIT, box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece, to_box
from referee.rules.sixth_fleet_dtp import air
from referee.rules.sixth_fleet_dtp.decks import capacity_9_62, is_deck
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.rules.sixth_fleet_dtp.landing import recycling_against
from referee.source.boxes import carrier_of

VERBS = ("cap", "box")


def check_carrier_order(game: Game, state: GameState, side: str, o: Order) -> list[Violation]:
    """The problems of one ``cap``/``box`` order on the position the orders above it leave
    [9.11, 9.62, DTP 9.27, 11.3 rule 1]."""
    u, cv = o.units[0], o.carrier or ""
    if u not in state.units or state.units[u].side != side:
        return [Violation("9.62", f"{u} is not one of your units", code="not-own", word=u, unit=u)]
    ud = game.unit(u)
    if not (ud.category == "air" and ud.has("carrier")):
        return [
            Violation(
                "9.11",
                f"{u} is not a carrier-based air unit",
                code="not-carrier-air",
                word=u,
                unit=u,
            )
        ]
    if (
        cv not in state.units
        or not is_deck(game, cv)
        or game.unit(cv).nationality != (ud.nationality)
    ):
        return [
            Violation(
                "9.62",
                f"{cv} is not a carrier of {u}'s nationality",
                code="not-its-carrier",
                word=cv,
                unit=u,
            )
        ]
    if state.units[cv].location is None:
        return [
            Violation("9.62", f"{cv} is not on the map", code="carrier-off-map", word=cv, unit=u)
        ]
    level = int(facts_of(state).damage.get(cv, 0))
    if air.carrier_air_9_27(level) != "aboard":
        return [
            Violation(
                "DTP 9.27",
                f"{cv} is at D{level}: a D2 carrier conducts no air operations, nothing "
                "launches from it or lands on it [DTP 8.55]",
                code="carrier-d2",
                word=cv,
                unit=u,
                hint="land on an airbase of its nationality in phase 6, or the unit recycles",
            )
        ]
    here = carrier_of(state.units[u].box)
    if o.verb == "cap" or here == cv:
        return []
    if state.units[u].location != state.units[cv].location:
        return [
            Violation(
                "9.62B",
                f"{u} must be in the hex of {cv} to go below decks",
                code="not-in-carrier-hex",
                word=u,
                unit=u,
            )
        ]
    limit = capacity_9_62(game, cv)
    track = recycling_against(game, state, cv)
    on_track = f", {len(track)} of its air recycling on the turn track [DTP 9.26]" if track else ""
    if len(box_contents(state, cv)) + len(track) >= limit:
        return [
            Violation(
                "DTP 9.26" if track else "9.62B" if limit == HOLDING_BOX_LIMIT else "DTP 11.3",
                f"the holding box of {cv} is full ({limit}{on_track})",
                code="holding-box-full",
                word=cv,
                unit=u,
            )
        ]
    return []


def cap_claim_problem_9_62A(state: GameState, o: Order) -> Violation | None:
    """At the end of the file a unit claimed on CAP is over its carrier [9.62A]."""
    u, cv = o.units[0], o.carrier or ""
    loc = state.units[u].location
    if loc is not None and loc == state.units[cv].location:
        return None
    return Violation(
        "9.62",
        f"{u} must end in the hex of {cv} to fly CAP over it",
        code="cap-not-over-carrier",
        word=u,
        unit=u,
    )


def carry_out_carrier_order(
    game: Game, state: GameState, o: Order, events: list[Event]
) -> GameState:
    """A checked ``cap`` launches from the box (a claim changes nothing); a checked ``box``
    lands below decks [9.62A, 9.62B]."""
    u, cv = o.units[0], o.carrier or ""
    here = carrier_of(state.units[u].box)
    if o.verb == "cap":
        if here != cv:
            return state
        loc = state.units[cv].location or ""
        events.append(Event("cap", "9.62", f"{u} launched on CAP over {cv}", {"unit": u}))
        return move_piece(game, state, u, loc)
    if here == cv:
        return state
    events.append(Event("box", "9.62", f"{u} lands below decks on {cv}", {"unit": u}))
    return to_box(state, u, cv)
