"""Carriers and their air units [9.6x]: the ``cap`` and ``box`` orders, checked and carried out.

A carrier-based air unit [9.11] of a carrier's nationality is on CAP over it when it is in the
carrier's hex [9.62A], or in its holding box, off the map, at most six [9.62B]. In a Movement
Phase ``cap UNIT CV`` launches a unit from the holding box onto CAP, or is a claim checked at
the end of the phase that the unit ends over the carrier [9.62A]; ``box UNIT CV`` lands a unit
that is in the carrier's hex into the box [9.62B]. In the Reinforcement Interphase ``place
UNIT cap|box CV`` puts arriving carrier air on a carrier already placed [12.22][9.62]. (Set-up
placements are checked with the rest of the set-up, :mod:`setup`; the facts -- who may use
which carrier, what is in a box -- are in :mod:`air`.)
"""

from __future__ import annotations

from referee.engine.core import Event, Violation
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.air import HOLDING_BOX_LIMIT, box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece, to_box
from referee.source.boxes import carrier_of


def carrier_order_9_62(game: Game, carry: Carry, o: Order, claims: list[Order]) -> None:
    """``cap UNIT CV`` [9.62A] and ``box UNIT CV`` [9.62B] in a Movement Phase, in the order
    written. A ``cap`` for a unit not in the box is a claim about the end of the phase: it
    is added to ``claims`` for :func:`check_cap_claim_9_62A`."""
    st = carry.state
    u, cv = o.units[0], o.carrier or ""
    if u not in st.units or cv not in st.units:
        return
    ud, cd = game.unit(u), game.unit(cv)
    if not (ud.category == "air" and ud.has("carrier")):
        carry.refuse(
            Violation(
                "9.11",
                f"{u} is not a carrier-based air unit",
                code="not-carrier-air",
                word=u,
                unit=u,
            ),
            o,
        )
        return
    if cd.type != "CV" or cd.nationality != ud.nationality:
        carry.refuse(
            Violation(
                "9.62",
                f"{cv} is not a carrier of {u}'s nationality",
                code="not-its-carrier",
                word=cv,
                unit=u,
            ),
            o,
        )
        return
    if st.units[cv].location is None:
        carry.refuse(
            Violation("9.62", f"{cv} is not on the map", code="carrier-off-map", word=cv, unit=u), o
        )
        return
    if o.verb == "cap":
        if carrier_of(st.units[u].box) == cv:
            loc = st.units[cv].location
            assert loc is not None
            carry.state = move_piece(game, st, u, loc)
            carry.events.append(Event("cap", "9.62", f"{u} launched on CAP over {cv}", {"unit": u}))
        else:
            claims.append(o)
        return
    if carrier_of(st.units[u].box) == cv:
        return
    if st.units[u].location != st.units[cv].location:
        carry.refuse(
            Violation(
                "9.62B",
                f"{u} must be in the hex of {cv} to go into its holding box",
                code="not-in-carrier-hex",
                word=u,
                unit=u,
            ),
            o,
        )
        return
    if len(box_contents(st, cv)) >= HOLDING_BOX_LIMIT:
        carry.refuse(
            Violation(
                "9.62B",
                f"the holding box of {cv} is full ({HOLDING_BOX_LIMIT})",
                code="holding-box-full",
                word=cv,
                unit=u,
            ),
            o,
        )
        return
    carry.state = to_box(st, u, cv)
    carry.events.append(Event("box", "9.62", f"{u} lands in the holding box of {cv}", {"unit": u}))


def check_cap_claim_9_62A(carry: Carry, o: Order) -> None:
    """At the end of the Movement Phase a unit claimed on CAP is in its carrier's hex
    [9.62A]."""
    st = carry.state
    u, cv = o.units[0], o.carrier or ""
    if st.units[u].location is None or st.units[u].location != st.units[cv].location:
        carry.refuse(
            Violation(
                "9.62",
                f"{u} must end in the hex of {cv} to fly CAP over it",
                code="cap-not-over-carrier",
                word=u,
                unit=u,
            ),
            o,
        )


def place_on_carrier_9_62(game: Game, carry: Carry, o: Order, u: str) -> None:
    """``place UNIT cap|box CV`` for an arriving reinforcement: a carrier already placed, of
    the unit's nationality, carrier-based air only [12.22][9.62]; the holding box holds six
    [9.62B]."""
    st = carry.state
    cv = o.carrier or ""
    ud = game.unit(u)
    if (
        cv not in st.units
        or st.units[cv].location is None
        or game.unit(cv).type != "CV"
        or game.unit(cv).nationality != ud.nationality
        or not ud.has("carrier")
    ):
        carry.refuse(
            Violation(
                "9.62",
                f"{u} cannot go to {cv}: place the carrier first, same "
                "nationality, carrier-based air only",
                code="no-carrier",
                word=cv,
                unit=u,
            ),
            o,
        )
        return
    if o.mode == "box":
        if len(box_contents(st, cv)) >= HOLDING_BOX_LIMIT:
            carry.refuse(
                Violation(
                    "9.62B",
                    f"the holding box of {cv} is full",
                    code="holding-box-full",
                    word=cv,
                    unit=u,
                ),
                o,
            )
            return
        carry.state = to_box(st, u, cv)
    else:
        loc = st.units[cv].location
        assert loc is not None
        carry.state = move_piece(game, st, u, loc)
