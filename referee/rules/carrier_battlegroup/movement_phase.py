"""The Movement Phase [12.0]-[12.5]: the CVBG moves along the Navigation Lines up to its
slowest ship's speed [12.0], [12.1] (2 more for 1 Fuel [12.2]; damage halves a ship's speed
[12.3]), stopping where it must [12.4]; Out of Lane is noted for the Incident chits [12.5].
Logistics (buying Cargo or repairing) skips it [5.0], [9.1], [10.1]."""

from __future__ import annotations

import itertools

from referee.engine.core import Event, GameState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import combat_phase, movement
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module


def space_named(board: PointBoard, o: Order, written: str, out: list[Violation]) -> str | None:
    """The space ``written`` names (nearest-name hint when none) [12.1]."""
    got, hint = match_name(written, board.locations())
    if got is None:
        out.append(Violation("12.1", f"no space {written!r}", hint=hint).at(o))
    return got


def allowance(module: Module, state: GameState, *, spend_fuel: bool) -> int:
    """[12.1]-[12.3] the CVBG's allowance. The carrier moves by its Propulsion, at maximum
    speed for free (nuclear [12.2]); once damage has reduced its Propulsion "you can only
    move it up to the speed indicated by the Engine marker" [12.3]: the Propulsion value,
    no maximum-speed bonus, 0 at Propulsion 0 (a system at 0 is out of action [22.2])."""
    ships = []
    cap: int | None = None
    for pid in facts_of(state).cvbg["ships"]:
        u = module.piece(pid).unit
        if pid == CARRIER:
            now = int(facts_of(state).carrier["Propulsion"])
            start = int((facts_of(state).carrier_start or {}).get("Propulsion", now))
            if now < start:
                cap = now
            else:
                ships.append((now, True))
        else:
            c = facts_of(state).conditions.get(pid, {})
            spd = movement.damaged_speed_12_3(
                u.values["SPD"], damaged=bool(c.get("damage")), crippled=bool(c.get("crippled"))
            )
            ships.append((spd, "nuclear" in u.flags))
    others = movement.cvbg_allowance_12_1(ships, spend_fuel=spend_fuel) if ships else None
    if cap is None:
        return others or 0
    return cap if others is None else min(cap, others)


def check_move_12_0(
    module: Module, state: GameState, board: PointBoard, orders: list[Order], *, logistics: bool
) -> list[Violation]:
    """[12.1]-[12.4] the ``move`` orders; ``logistics``: this turn's Logistics skips the
    Movement Phase [5.0]."""
    out: list[Violation] = []
    here = facts_of(state).cvbg["space"]
    ships = facts_of(state).cvbg["ships"]
    if len(orders) > 1:
        out.append(
            Violation(
                "12.1",
                f"expected one move per Movement Phase, found {len(orders)}",
                hint="name every space in one move line",
            ).at(orders[1])
        )
    for o in orders[:1]:
        if logistics:
            out.append(
                Violation(
                    "5.0",
                    "Logistics (buying Cargo or repairing) skips the Movement Phase",
                    hint="see 9.1 and 10.1; a Cargo aircraft [9.3] or an aircraft repair [10.3] "
                    "does not",
                ).at(o)
            )
            continue
        path = [p for p in (space_named(board, o, w, out) for w in o.hexes)]
        if None in path:
            continue
        route = [here, *path] if path and path[0] != here else path
        spend = o.mode == "max"
        needs_fuel = any("nuclear" not in module.piece(p).unit.flags for p in ships)
        if spend and needs_fuel and facts_of(state).fuel < 1:
            out.append(
                Violation(
                    "12.2",
                    "expected 1 Fuel for maximum speed, found no Fuel left",
                    hint="buy Fuel at a NATO base [9.1], or move at cruise speed (no `max`)",
                ).at(o)
            )
        allow = allowance(module, state, spend_fuel=spend)
        if len(route) - 1 > allow:
            out.append(
                Violation(
                    "12.1",
                    f"expected at most {allow} spaces (the CVBG's allowance is {allow}), found "
                    f"{len(route) - 1}",
                    hint="the slowest ship sets it; `max` adds 2 for 1 Fuel [12.2]",
                ).at(o)
            )
        sbg = {g["space"] for g in facts_of(state).sbgs.values()}
        for i, (a, b) in enumerate(itertools.pairwise(route)):
            if not board.adjacent(a, b):
                out.append(
                    Violation(
                        "12.1",
                        f"expected a space next to {a}, found {b}",
                        hint=f"follow a Navigation Line: next to {a}: "
                        + ", ".join(sorted(board.neighbours(a))),
                    ).at(o)
                )
                break
            if i + 2 < len(route) and movement.must_stop_12_4(board.terrain(b), sbg_here=b in sbg):
                out.append(
                    Violation(
                        "12.4",
                        f"expected the move to end on entering {b} "
                        f"({board.terrain(b).replace('_', ' ')}{', an SBG' if b in sbg else ''}),"
                        f" found {len(route) - i - 2} more space(s): the CVBG must stop there",
                        hint="end the move there; it goes on next turn",
                    ).at(o)
                )
                break
    return out


def movement_phase_12_0(
    module: Module, state: GameState, board: PointBoard, orders: list[Order], ev: list[Event]
) -> GameState:
    """[12.1] the CVBG moves; [12.2] 1 Fuel for maximum speed; [12.5] Out of Lane."""
    state = CbgFacts.put(state, entered=None)
    moved = [facts_of(state).cvbg["space"]]
    for o in orders:
        route = [match_name(w, board.locations())[0] for w in o.hexes]
        route = [r for r in route if r and r != facts_of(state).cvbg["space"]]
        if not route:
            continue
        needs = any(
            "nuclear" not in module.piece(p).unit.flags for p in facts_of(state).cvbg["ships"]
        )
        if o.mode == "max" and needs:
            state = CbgFacts.put(state, fuel=facts_of(state).fuel - 1)
            ev.append(
                Event("fuel", "12.2", f"1 Fuel for maximum speed: Fuel {facts_of(state).fuel}")
            )
        start = facts_of(state).cvbg["space"]
        state = combat_phase._move_cvbg(state, route[-1])
        state = CbgFacts.put(state, entered=route[-1])
        ev.append(Event("move", "12.1", "the CVBG moves " + " -> ".join(route), {"path": route}))
        moved = [start, *route]
    state = lane_12_5(board, state, moved, ev)
    return state


def lane_12_5(board: PointBoard, state: GameState, moved: list[str], ev: list[Event]) -> GameState:
    """[12.5]: note whether the CVBG is Out of Lane for this turn's Incident chits."""
    lanes = facts_of(state).mission.get("lanes", [])
    out = movement.out_of_lane_12_5(board, moved, lanes)
    if out:
        ev.append(
            Event(
                "out_of_lane",
                "12.5",
                f"the CVBG at {moved[-1]} is Out of Lane (its Orders' lines: "
                f"{'; '.join(lanes)}): Incident chits may sanction it",
                {"space": moved[-1]},
            )
        )
    return CbgFacts.put(state, out_of_lane=out)
