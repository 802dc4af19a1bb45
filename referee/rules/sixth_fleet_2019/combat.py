"""Attacks: the provisional combat procedure (9.0 is not in the seed) and the air mission's
range and return to base, which the seed does give [8.3.1], [8.3.2].

Provisional, not from the rulebook (docs/interpretations.md, 9.0): a force attacks units of
ONE kind (ground, air, surface, submarine) or the base in one zone. Its total of the factor the
module's ``target_factors`` table names for that kind [2.2.1] is looked up, with one d6, on the
module's ``strike`` table; each hit eliminates one listed target, in the order written (every
unit has one step [2.8.3]) and puts it in the Refit Box; a hit on a base destroys it. There is
no return fire. Everything a designer would change is in those two tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_2019.basing import land_elsewhere_8_3_2
from referee.rules.sixth_fleet_2019.control import base_owner, functional, may_base
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import (
    HOLDING,
    NEUTRAL,
    PROVISIONAL,
    REFIT,
    Game,
    aboard,
    other,
    zone_of,
)
from referee.rules.sixth_fleet_2019.movement import (
    air_distance,
    entry_problem,
    force_kind,
    force_problems,
    naval_distance,
    resolve_zone,
    slowest,
    target_hint,
)

BASE = "base"


@dataclass(frozen=True)
class Attack:
    units: tuple[str, ...]
    start: str
    zone: str
    kind: str  # the target kind: ground, air, surface, submarine or base
    targets: tuple[str, ...]
    factor: int
    factor_key: str


def target_kind(game: Game, target: str) -> str:
    return BASE if target == BASE else game.category(target)


def check_attack(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Attack | None]:
    """An attack [9.0]: the force [8.1], the zone it attacks within its reach ([8.3.1], [8.4];
    ground units in their own zone), the targets there [9.0], [2.11], one kind of target and a
    factor against it. The first problem found, as a list, or the attack to carry out."""
    out = force_problems(game, state, side, order)
    if out:
        return out, None
    kind = force_kind(game, order.units)
    if kind is None:
        return [
            Violation(
                "8.1",
                "an attacking force is all air, all naval or all ground units (provisional: "
                "not from the rulebook)",
            ).at(order)
        ], None
    start = zone_of(game, state, order.units[0])
    assert start is not None
    written = order.locations[0]
    zone, bad = resolve_zone(game, order, written)
    if bad:
        return [bad], None
    assert zone is not None
    bad = _reach_problem(game, state, side, order, kind, start, zone) or _targets_problem(
        game, state, side, order, zone
    )
    if bad:
        return [bad], None
    kinds = {target_kind(game, t) for t in order.targets}
    if len(kinds) != 1:
        return [
            Violation("9.0", f"one attack is against one kind of target ({PROVISIONAL})").at(order)
        ], None
    tkind = kinds.pop()
    key = str(game.module.tables["target_factors"].lookup(row=tkind, col="factor").value)
    total = sum(game.unit(u).values[key] for u in order.units)
    if total <= 0:
        return [
            Violation(
                "9.0", f"the force has no {key} factor against {tkind} targets ({PROVISIONAL})"
            ).at(order)
        ], None
    return [], Attack(tuple(order.units), start, zone, tkind, tuple(order.targets), total, key)


def _reach_problem(
    game: Game, state: GameState, side: str, order: Order, kind: str, start: str, zone: str
) -> Violation | None:
    """The attacked zone within reach: each air unit's range [8.3.1], a naval force's way by
    sea [8.4], a ground force's own zone; never a No Entry area [2.1.2]."""
    written = order.locations[0]
    if kind == "air":
        for uid in order.units:
            rng = game.ma(uid)
            d = air_distance(game, start, zone)
            if d is None or (rng is not None and d > rng):
                return Violation(
                    "8.3.1",
                    f"{uid} has range {rng}; {zone} is {d} zones away",
                    word=written,
                    unit=uid,
                    hint="count each zone entered on the way, not the starting zone (8.3.1)",
                ).at(order)
    elif kind == "naval":
        bad = _naval_reach_problem(game, state, side, order, start, zone)
        if bad:
            return bad
    elif zone != start:
        return Violation(
            "9.0", f"ground units attack in their own zone ({start}) ({PROVISIONAL})", word=written
        ).at(order)
    if game.zone_type(zone) in ("no_entry", "box"):
        return Violation(
            "2.1.2", f"{zone} cannot be entered by units of either side", word=written
        ).at(order)
    return None


def _naval_reach_problem(
    game: Game, state: GameState, side: str, order: Order, start: str, zone: str
) -> Violation | None:
    """A naval force reaches ``zone`` by sea within its slowest unit's rate [8.4]."""
    if zone == start:
        return None
    written = order.locations[0]
    d = naval_distance(game, state, side, start, zone)
    rate = slowest(game, order.units)
    if d is not None and (rate is None or d <= rate):
        return None
    bad_entry = entry_problem(game, state, side, "naval", zone, last=True)
    if bad_entry:
        return Violation(bad_entry[0], bad_entry[1], word=written).at(order)
    return Violation(
        "8.4",
        f"the force cannot reach {zone} by sea within its range ({rate})",
        word=written,
        hint="naval units move through sea zones only; the Turkish Straits "
        "only while their side controls Istanbul (3.3.1)",
    ).at(order)


def _targets_problem(
    game: Game, state: GameState, side: str, order: Order, zone: str
) -> Violation | None:
    """Named targets [9.0]: a functional enemy base in the zone, or enemy units there (not
    neutral [2.11], not friendly; units aboard a ship are attacked with it)."""
    if not order.targets:
        return Violation("9.0", "name the targets (units, or `base`)").at(order)
    for t in order.targets:
        if t == BASE:
            owner = base_owner(game, state, zone)
            if owner != other(side) or not functional(game, state, zone):
                return Violation(
                    "9.0",
                    f"{zone} has no functional enemy base to attack",
                    word=t,
                    hint="name enemy units in the zone as targets instead",
                ).at(order)
            continue
        if t not in state.units:
            return Violation(
                "9.0", f"no unit {t!r} in this game", word=t, hint=target_hint(state, t)
            ).at(order)
        tu = state.units[t]
        if tu.side == NEUTRAL:
            return Violation(
                "2.11",
                f"{t} is neutral: neutral units are controlled by neither side and "
                "cannot be attacked",
                word=t,
                unit=t,
            ).at(order)
        if tu.side == side:
            return Violation("9.0", f"{t} is a friendly unit", word=t, unit=t).at(order)
        if tu.location != zone:
            return Violation(
                "9.0",
                f"{t} is not in {zone} (units aboard a ship are attacked with it)",
                word=t,
                unit=t,
            ).at(order)
    return None


def carry_out_attack(
    game: Game, state: GameState, side: str, atk: Attack, dice: Dice, events: list[Event]
) -> GameState:
    roll = dice.roll(6, f"attack on {atk.zone} ({PROVISIONAL})", "9.0")
    found = game.module.tables["strike"].lookup(row=atk.factor, col=roll)
    hits = int(found.value)
    events.append(
        Event(
            "attack",
            "9.0",
            f"{', '.join(atk.units)} attack {atk.kind} targets in {atk.zone}: "
            f"{atk.factor_key} {atk.factor}, die {roll}, {hits} hit(s) ({PROVISIONAL}; "
            f"{_without_rule(found.how, '9.0')})",
            {
                "zone": atk.zone,
                "factor": atk.factor,
                "roll": roll,
                "hits": hits,
                "provisional": True,
            },
        )
    )
    if game.kind(atk.units[0]) == "naval" and atk.zone != atk.start:
        for uid in atk.units:
            u = state.units[uid]
            state = state.with_unit(UnitState(uid, u.side, atk.zone, None, u.status))
    for t in atk.targets[:hits]:
        if t == BASE:
            state = SixthFleet2019Facts.put(
                state, destroyed_bases=sorted({*facts_of(state).destroyed_bases, atk.zone})
            )
            events.append(
                Event(
                    "base_destroyed",
                    "9.0",
                    f"the base at {atk.zone} is destroyed ({PROVISIONAL})",
                    {"zone": atk.zone},
                )
            )
        else:
            state = eliminate(
                game,
                state,
                t,
                "9.0",
                events,
                f"{t} is eliminated to the Refit Box (one step, 2.8.3; {PROVISIONAL})",
            )
    if game.kind(atk.units[0]) == "air":
        state = return_to_base_8_3_2(game, state, side, atk.units, atk.zone, events)
    return state


def _without_rule(how: str, rule: str) -> str:
    """The table reading without its trailing ``[rule]`` when that is the event's own rule:
    the report already cites it once before the event's text [9.0]."""
    tail = f" [{rule}]"
    return how[: -len(tail)] if how.endswith(tail) else how


def eliminate(
    game: Game, state: GameState, uid: str, rule: str, events: list[Event], text: str
) -> GameState:
    """A unit to the Refit Box; what it carried lands elsewhere or is lost [8.3.2]."""
    u = state.units[uid]
    zone = zone_of(game, state, uid)
    carried = aboard(state, uid)
    state = state.with_unit(UnitState(uid, u.side, REFIT, None, frozenset()))
    events.append(Event("eliminated", rule, text, {"unit": uid, "zone": zone}))
    for c in carried:
        if game.category(c) == "air" and zone is not None:
            state = land_elsewhere_8_3_2(game, state, c, zone, events)
        else:
            cu = state.units[c]
            state = state.with_unit(UnitState(c, cu.side, REFIT, None, frozenset()))
            events.append(
                Event(
                    "eliminated",
                    "7.1.2",
                    f"{c} was aboard {uid}: eliminated to the Refit Box",
                    {"unit": c},
                )
            )
    return state


def return_to_base_8_3_2(
    game: Game,
    state: GameState,
    side: str,
    units: tuple[str, ...],
    target: str,
    events: list[Event],
) -> GameState:
    """After the attack each air unit flies back to the base or carrier it launched from, up to
    its full range again, the target zone not counted [8.3.1], [8.3.2]."""
    for uid in units:
        home = state.units[uid].location
        assert home is not None
        home_zone = zone_of(game, state, uid)
        ok = False
        if home_zone is not None:
            d = air_distance(game, target, home_zone)
            rng = game.ma(uid)
            in_range = d is not None and (rng is None or d <= rng)
            usable = home.startswith(HOLDING) or may_base(game, state, home, side)
            ok = in_range and usable
        if ok:
            events.append(
                Event("returned", "8.3.2", f"{uid} returns to {home}", {"unit": uid, "to": home})
            )
        else:
            state = land_elsewhere_8_3_2(game, state, uid, target, events)
    return state
