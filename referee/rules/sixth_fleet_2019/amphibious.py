"""Ground units over the sea: embarking in port and amphibious assault.

The seed says ground units cross sea zones by amphibious movement (8.5.1, not in the seed),
that only two ground units may conduct an amphibious invasion [7.1.2], that every ground unit
but the two Turkish Mech Corps may make one [2.8], and what the AWG and SCG boxes carry [2.0
errata]. The procedure is provisional (docs/interpretations.md, 8.5.1): ``embark`` puts ground
units aboard an amphibian in the same zone (a port); the amphibian carries them as it moves;
``land`` puts up to two of them, from amphibians in one sea zone, into an adjacent land zone
with a base [2.1.2]. Each is one action.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_2019.actions import nationality_problem_6_6
from referee.rules.sixth_fleet_2019.game import HOLDING, PROVISIONAL, Game, aboard, zone_of
from referee.rules.sixth_fleet_2019.movement import (
    entry_problem,
    force_problems,
    resolve_zone,
)
from referee.rules.sixth_fleet_2019.stacking import fits_aboard


@dataclass(frozen=True)
class Landing:
    units: tuple[str, ...]
    zone: str
    box: str | None = None  # embark: the holding box


def check_land(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Landing | None]:
    out = force_problems(game, state, side, order)
    if out:
        return out, None
    for uid in order.units:
        loc = state.units[uid].location or ""
        if game.category(uid) != "ground" or not loc.startswith(HOLDING):
            return [
                Violation(
                    "7.1.2", f"{uid} is not a ground unit aboard an amphibian", word=uid, unit=uid
                ).at(order)
            ], None
        if game.unit(uid).has("no_amphibious"):
            return [
                Violation(
                    "2.8",
                    f"{uid} is a Turkish Mech Corps: it cannot conduct amphibious assaults",
                    word=uid,
                    unit=uid,
                ).at(order)
            ], None
    if len(order.units) > game.param("small_island_ground"):
        return [
            Violation(
                "7.1.2",
                f"only {game.param('small_island_ground')} ground units may conduct an "
                "amphibious invasion",
            ).at(order)
        ], None
    sea = zone_of(game, state, order.units[0])
    assert sea is not None
    zone, bad = resolve_zone(game, order, order.locations[0])
    if bad:
        return [bad], None
    assert zone is not None
    w = order.locations[0]
    if not game.is_sea(sea):
        return [
            Violation(
                "8.5.1", f"the amphibians are in port at {sea}, not at sea ({PROVISIONAL})"
            ).at(order)
        ], None
    if not game.board.adjacent(sea, zone):
        return [Violation("8.0", f"{zone} is not adjacent to {sea}", word=w).at(order)], None
    bad_entry = entry_problem(game, state, side, "ground", zone, last=True)
    if bad_entry and bad_entry[0] != "7.1.2":
        return [Violation(bad_entry[0], bad_entry[1], word=w).at(order)], None
    if not game.is_land(zone):
        return [
            Violation("7.1.2", f"ground units land only in land zones, not {zone}", word=w).at(
                order
            )
        ], None
    if game.zone_type(zone) == "small_island":
        here = [
            u
            for u, s in state.units.items()
            if s.location == zone and s.side == side and game.category(u) == "ground"
        ]
        if len(here) + len(order.units) > game.param("small_island_ground"):
            return [
                Violation(
                    "7.1.2",
                    f"only {game.param('small_island_ground')} {side} ground units may stack "
                    f"on {zone}",
                    word=w,
                ).at(order)
            ], None
    return [], Landing(tuple(order.units), zone)


def check_embark(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Landing | None]:
    out = force_problems(game, state, side, order)
    if out:
        return out, None
    ship = order.carrier or ""
    if ship not in state.units or state.units[ship].side != side or game.holding_box(ship) is None:
        return [
            Violation("8.5.1", f"{ship!r} is not a {side} ship with a holding box", word=ship).at(
                order
            )
        ], None
    zone = zone_of(game, state, order.units[0])
    if zone_of(game, state, ship) != zone or state.units[ship].location != zone:
        return [
            Violation(
                "8.5.1", f"{ship} is not in {zone} with the units ({PROVISIONAL})", word=ship
            ).at(order)
        ], None
    for uid in order.units:
        if game.category(uid) not in ("ground", "air") or (
            state.units[uid].location or ""
        ).startswith(HOLDING):
            return [Violation("8.5.1", f"{uid} cannot embark", word=uid, unit=uid).at(order)], None
        if game.category(uid) == "ground" and game.ma(uid) == 0:
            return [
                Violation(
                    "2.8.2", f"{uid} has a printed movement allowance of 0", word=uid, unit=uid
                ).at(order)
            ], None
    msg = nationality_problem_6_6(game, state, [*order.units, ship])
    if msg:
        return [Violation("6.6", msg).at(order)], None
    if not fits_aboard(game, ship, [*aboard(state, ship), *order.units]):
        return [
            Violation(
                "7.1.2",
                f"{ship}'s holding box has no room for them (2.0 errata: capacity printed in "
                "the box)",
                word=ship,
            ).at(order)
        ], None
    return [], Landing(tuple(order.units), zone or "", HOLDING + ship)


def carry_out_landing(state: GameState, ld: Landing) -> GameState:
    dest = ld.box or ld.zone
    for uid in ld.units:
        u = state.units[uid]
        state = state.with_unit(UnitState(uid, u.side, dest, None, u.status))
    return state
