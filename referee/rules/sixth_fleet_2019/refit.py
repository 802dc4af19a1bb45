"""Refit: the provisional procedure (11.0 Refit is not in the seed).

What the seed states: units eliminated by over-stacking go to the Refit Box [7.2]; Refit is a
G4 (Logistics) action [6.4]; "units and bases that were destroyed but refit do not count as
VP", while units in the Refit Box count for the enemy [4.3]; one force per action, of one
nationality [6.6]; a side uses only the bases of the zones it controls [3.2.1].

Provisional (docs/interpretations.md, 11.0): ``refit UNITS -> ZONE`` is one action; the units
are the acting side's, all in the Refit Box, of one nationality [6.6], at most
``refit_units_per_action`` of them (module data, ``tables/parameters.csv``); they return to
``ZONE``, a base the side may use [3.2.1] (naval units: a naval or off-map base [8.4.1];
ground units: a land zone with a base), within its stacking limits [7.1.2], [7.1.3].
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.sixth_fleet_2019.actions import nationality_problem_6_6
from referee.rules.sixth_fleet_2019.control import may_base
from referee.rules.sixth_fleet_2019.game import NEUTRAL, PROVISIONAL, REFIT, Game
from referee.rules.sixth_fleet_2019.movement import resolve_zone
from referee.rules.sixth_fleet_2019.stacking import overstacked_7_2


@dataclass(frozen=True)
class Refit:
    units: tuple[str, ...]
    zone: str


def check_refit(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Refit | None]:
    """Every reason the refit order may not be carried out (none: the :class:`Refit`)."""
    out: list[Violation] = []
    for uid in order.units:
        if uid not in state.units:
            hint = match_name(uid, state.units)[1]
            out.append(
                Violation("11.0", f"no unit {uid!r} in this game", word=uid, hint=hint).at(order)
            )
        elif state.units[uid].side != side:
            who = "neutral" if state.units[uid].side == NEUTRAL else f"not a {side} unit"
            out.append(Violation("2.11", f"{uid} is {who}", word=uid, unit=uid).at(order))
        elif state.units[uid].location != REFIT:
            out.append(
                Violation(
                    "7.2",
                    f"{uid} is not in the Refit Box ({state.units[uid].location}): only "
                    f"eliminated units refit ({PROVISIONAL})",
                    word=uid,
                    unit=uid,
                ).at(order)
            )
    out, zone = force_to_zone(game, state, order, out, "refit_units_per_action", "refit", "Refit")
    if zone is None:
        return out, None
    why = base_problems(game, state, side, order, zone, "refitted units return to one", "refits")
    if why:
        return why, None
    return [], Refit(tuple(order.units), zone)


def force_to_zone(
    game: Game,
    state: GameState,
    order: Order,
    out: list[Violation],
    limit: str,
    noun: str,
    action: str,
) -> tuple[list[Violation], str | None]:
    """The checks a Refit and a Reinforcement action share, after their own ``out``: no unit
    twice, at most the ``limit`` parameter's units in one action [6.4] (provisional), one
    nationality [6.6], and the zone written. Returns the problems, and the zone when there
    are none."""
    if len(set(order.units)) != len(order.units):
        out.append(Violation("6.6", "a unit is listed twice in the force").at(order))
    most = game.param(limit)
    if len(order.units) > most:
        out.append(
            Violation(
                "6.4",
                f"{len(order.units)} units in one {noun}: at most {most} a {action} action "
                f"({PROVISIONAL})",
                word=order.units[most],
            ).at(order)
        )
    if out:
        return out, None
    msg = nationality_problem_6_6(game, state, list(order.units))
    if msg:
        return [Violation("6.6", msg, code="mixed-nationalities").at(order)], None
    zone, bad = resolve_zone(game, order, order.locations[0])
    if bad:
        return [bad], None
    return [], zone


def base_problems(
    game: Game, state: GameState, side: str, order: Order, zone: str, why: str, verb: str
) -> list[Violation]:
    """Whether the order's units may be put at ``zone`` (provisional, shared by refit and
    reinforcement): a functional base the side may use [3.2.1]; naval units only at a naval
    or off-map base [8.4.1], ground units only in a land zone [7.1.2]; within the stacking
    limits once they are there [7.1.2], [7.1.3]. ``why`` completes the base message, ``verb``
    ('refits') says what the unit does."""
    written = order.locations[0]
    if not game.has_base(zone) or not may_base(game, state, zone, side):
        return [
            Violation(
                "3.2.1",
                f"{zone} has no functional base {side} may use: {why} ({PROVISIONAL})",
                word=written,
            ).at(order)
        ]
    for uid in order.units:
        kind = game.kind(uid)
        base = str(game.prop(zone, "base", "none"))
        if kind == "naval" and base not in ("naval", "off_map"):
            return [
                Violation("8.4.1", f"{uid} {verb} only at a naval base", word=written, unit=uid).at(
                    order
                )
            ]
        if kind == "ground" and not game.is_land(zone):
            return [
                Violation("7.1.2", f"{uid} {verb} only in a land zone", word=written, unit=uid).at(
                    order
                )
            ]
    after = place_at_base(state, tuple(order.units), zone)
    before = {(r, loc): len(x) for r, loc, x in overstacked_7_2(game, state)}
    for rule, loc, excess in overstacked_7_2(game, after):
        # any unit over the limit counts, not only the newcomers (7.2 would eliminate the
        # last listed, whoever they are)
        if loc == zone and len(excess) > before.get((rule, loc), 0):
            return [
                Violation(
                    rule, f"{zone} is full: {', '.join(excess)} would be over-stacked", word=written
                ).at(order)
            ]
    return []


def place_at_base(state: GameState, units: tuple[str, ...], zone: str) -> GameState:
    """The units, wherever off the map they wait, are put in ``zone``."""
    for uid in units:
        u = state.units[uid]
        state = state.with_unit(UnitState(uid, u.side, zone, None, frozenset()))
    return state


def carry_out_refit(state: GameState, rf: Refit) -> GameState:
    """The units leave the Refit Box for the base (no VP for them now [4.3])."""
    return place_at_base(state, rf.units, rf.zone)
