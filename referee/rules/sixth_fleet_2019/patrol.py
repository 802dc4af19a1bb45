"""Patrol: the provisional procedure (15.0 Interception and Patrol is not in the seed).

What the seed states: air units flying missions may end an action away from a base when on
patrol [8.3]; Patrol Markers show air units on patrol missions [2.10]; naval units must stop
the instant they enter a zone with enemy naval units on patrol, or when intercepted by enemy
air units [8.4]. Provisional (docs/interpretations.md, 15.0): ``patrol FORCE -> ZONE`` is one
action; a naval force patrols the sea zone it is in; an air force flies to a sea zone within
its range [8.3.1] and stays there on patrol. A unit stays on patrol until it acts again; a
naval force entering its zone must stop there (``movement.stoppers_8_4``).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import PROVISIONAL, Game, zone_of
from referee.rules.sixth_fleet_2019.movement import (
    air_distance,
    force_kind,
    force_problems,
    resolve_zone,
)


@dataclass(frozen=True)
class Patrol:
    units: tuple[str, ...]
    zone: str


def check_patrol(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Patrol | None]:
    out = force_problems(game, state, side, order)
    if out:
        return out, None
    kind = force_kind(game, order.units)
    written = order.locations[0]
    zone, bad = resolve_zone(game, order, written)
    if bad:
        return [bad], None
    assert zone is not None
    start = zone_of(game, state, order.units[0])
    if not game.is_sea(zone):
        return [
            Violation(
                "8.3",
                f"a patrol is flown or sailed in a sea zone, not {zone} ({PROVISIONAL})",
                word=written,
            ).at(order)
        ], None
    if kind == "naval":
        if zone != start:
            return [
                Violation(
                    "8.4",
                    f"a naval force patrols the zone it is in ({start}) ({PROVISIONAL})",
                    word=written,
                ).at(order)
            ], None
    elif kind == "air":
        d = air_distance(game, str(start), zone)
        for uid in order.units:
            rng = game.ma(uid)
            if d is None or (rng is not None and d > rng):
                return [
                    Violation(
                        "8.3.1",
                        f"{uid} has range {rng}; {zone} is {d} zones away",
                        word=written,
                        unit=uid,
                    ).at(order)
                ], None
    else:
        return [Violation("8.3", f"only naval or air units patrol ({PROVISIONAL})").at(order)], None
    return [], Patrol(tuple(order.units), zone)


def carry_out_patrol(state: GameState, pt: Patrol) -> GameState:
    for uid in pt.units:
        u = state.units[uid]
        state = state.with_unit(UnitState(uid, u.side, pt.zone, None, u.status))
    return SixthFleet2019Facts.put(state, patrol=sorted({*facts_of(state).patrol, *pt.units}))
