"""One game turn [5.0]: the player's orders checked, then every phase carried out.

The player's file holds the orders of phases 1-3, 5 and 7 (intelligence, logistics,
movement, launch, objective) and standing orders for his battle decisions (break-off,
deployment). ``check_turn`` is the whole of ``validate``; ``carry_out_turn`` runs phases
1-10 in order with the dice [5.0]. Each phase is a module of its own: ``intelligence``
[11.0], Logistics here [8.0]-[10.0] (``cargo``, ``logistics``), ``movement_phase`` [12.0],
``soviet`` (incidents [16.0]), ``launch`` [19.0], ``combat_phase`` [18.0], [20.0],
``objective`` [23.0], ``end_of_turn`` (recovery, victory, end of turn).
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order, OrdersDoc
from referee.rules.carrier_battlegroup import (
    cargo,
    combat_phase,
    end_of_turn,
    intelligence,
    launch,
    movement_phase,
    objective,
    soviet,
)
from referee.rules.carrier_battlegroup import logistics as logistics_
from referee.rules.carrier_battlegroup.facts import facts_of
from referee.rules.carrier_battlegroup.named_units import named_units_2_2, standing_units_2_2
from referee.rules.carrier_battlegroup.setup import CVBG, RED_OKTOBER
from referee.source.model import Module


def standing_of(doc: OrdersDoc) -> dict[str, Any]:
    """The player's standing orders for the battles he cannot answer in time: where he
    breaks off [18.2] (``breakoff``: False, "yes" the CVBG, "strikes" or "all"; ``breakoff_to``:
    the spaces he names for the CVBG, in his order), his Outer Zone units [20.2 step 2] and
    the aircraft he gives up first [14.1]."""
    out: dict[str, Any] = {"breakoff": False, "breakoff_to": [], "outer": [], "lose": []}
    for o in doc.standing:
        if o.verb == "lose":
            out["lose"] = [*out["lose"], *(u for u in o.units if u not in out["lose"])]
        elif o.verb == "breakoff":
            out["breakoff"] = False if o.mode == "no" else o.mode
            out["breakoff_to"] = list(o.hexes)
        elif o.verb == "deploy" and o.mode == "outer":
            out["outer"] = sorted({*out["outer"], *o.units})
    return out


def _units_of_2_2(module: Module, o: Order) -> list[Violation]:
    """The units an order names are USN counters of the game [2.2]
    (:func:`~referee.rules.carrier_battlegroup.named_units.named_units_2_2`); the CVBG moves as
    one, by its spaces [7.0], [12.1]."""
    pieces = module.pieces()
    out = named_units_2_2(module, o)
    for written in o.hexes if o.verb == "move" else ():
        if written in pieces and pieces[written].unit.side != "USN":
            out.append(
                Violation(
                    "2.2",
                    f"{written} is a Soviet unit: expected a space, and the game runs the "
                    "Soviet side",
                    hint="move names the spaces the CVBG moves through",
                ).at(o)
            )
        elif written in pieces:
            out.append(
                Violation(
                    "7.0",
                    f"expected a space, found the unit {written}: the CVBG's ships move together",
                    hint="move names the spaces the CVBG moves through",
                ).at(o)
            )
    return out


def check_turn(module: Module, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """Every order of the file against [9.0]-[23.2]; nothing changes."""
    out: list[Violation] = []
    board = PointBoard(module.map)
    by = {
        v: [o for o in doc.orders if o.verb == v]
        for v in (
            "intel",
            "buy",
            "repair",
            "trade",
            "move",
            "strike",
            "bombard",
            "land",
            "embark",
        )
    }
    here = facts_of(state).cvbg["space"]
    ships = facts_of(state).cvbg["ships"]
    for o in doc.orders:
        out += _units_of_2_2(module, o)
    out += standing_units_2_2(module, doc.standing)
    spaces = [
        v
        for o in doc.standing
        if o.verb == "breakoff"
        for v in combat_phase.check_break_off_18_2(board, o)
    ]
    if out:
        return out + spaces
    out += spaces
    out += intelligence.check_intel_11_0(module, state, by["intel"], ships)
    logistics = logistics_.skips_movement(state, by["repair"])
    if by["buy"]:
        cod = logistics_.cod_range_9_3(module, state, board) is not None
        basket, errs = cargo.check_buys(
            module, state, by["buy"], ships, at_base=board.terrain(here) == "nato_base", cod=cod
        )
        out += errs
        logistics = logistics or not cargo.by_cod_only_9_3(module, basket, cod=cod)
    out += logistics_.check_repairs(module, state, by["repair"])
    out += cargo.check_trades(module, state, by["trade"])
    # a trade is a Logistics Phase action: it skips the Movement Phase [5.0 step 2 note]
    logistics = logistics or bool(by["trade"])
    out += movement_phase.check_move_12_0(module, state, board, by["move"], logistics=logistics)
    out += launch.check_launch_19_0(module, state, board, by["strike"])
    out += objective.check_objective_23_0(module, state, by["bombard"], by["land"])
    out += objective.check_embark_23_2(state, by["embark"])
    return out


def carry_out_turn(
    module: Module, state: GameState, doc: OrdersDoc, dice: Dice
) -> tuple[GameState, list[Event]]:
    ev: list[Event] = []
    board = PointBoard(module.map)
    by = {
        v: [o for o in doc.orders if o.verb == v]
        for v in (
            "intel",
            "buy",
            "repair",
            "trade",
            "move",
            "strike",
            "bombard",
            "land",
            "embark",
        )
    }
    standing = standing_of(doc)
    if facts_of(state).kind == RED_OKTOBER:
        state = soviet.red_oktober_25_1(module, state, dice, ev)
    # 1 Intelligence [11.0]
    state = intelligence.intelligence_phase_11_0(module, state, board, by["intel"], dice, ev)
    # 2 Logistics [8.0]-[10.0]
    if by["buy"]:
        cod = logistics_.cod_range_9_3(module, state, board) is not None
        b, _ = cargo.check_buys(
            module,
            state,
            by["buy"],
            facts_of(state).cvbg["ships"],
            at_base=board.terrain(facts_of(state).cvbg["space"]) == "nato_base",
            cod=cod,
        )
        state = cargo.carry_out_buys(module, state, b, facts_of(state).cvbg["ships"])
        if cargo.by_cod_only_9_3(module, b, cod=cod):
            ev.append(
                Event(
                    "logistics",
                    "9.3",
                    f"the Cargo aircraft replenishes the CVBG for {b.lp} LP; "
                    f"{facts_of(state).lp} LP left; the Movement Phase is not skipped",
                )
            )
        else:
            ev.append(
                Event(
                    "logistics",
                    "9.1",
                    f"Cargo bought for {b.lp} LP; {facts_of(state).lp} LP left; "
                    "Movement Phase skipped",
                )
            )
    for o in by["repair"]:
        state = logistics_.repair_10_1(module, state, o, dice, ev)
    state = cargo.carry_out_trades(state, by["trade"], ev)
    # 3 Movement [12.0]
    state = movement_phase.movement_phase_12_0(module, state, board, by["move"], ev)
    # 4 Incidents [16.0]
    state = soviet.incident_phase_16_0(module, state, dice, ev)
    # 5 Launch [19.0]
    state, flights = launch.launch_phase_19_0(module, board, state, by["strike"], ev)
    # 6 Combat [18.0], [20.0]
    state = combat_phase.combat_phase(
        module, state, dice, flights.at, standing, ev, onward=flights.onward
    )
    # 7 Objective [23.0]
    state = objective.objective_phase_23_0(module, state, by["bombard"], by["land"], dice, ev)
    state = objective.embark_23_2(state, by["embark"], ev)
    # 8 Recovery [15.2]
    state = end_of_turn.recovery_15_2(module, state, ev, lose_first=standing["lose"])
    # 9 Victory [24.1]; the turn's Alert Level Chart events, netted [6.0], [6.1]
    state = end_of_turn.victory_phase_24_1(module, state, ev)
    state = end_of_turn.alert_events_6_0(module, state, ev)
    # 10 End of turn [5.0], [24.3]
    return end_of_turn.end_of_turn_5_0(module, state, dice, ev)


def outer_units(doc: OrdersDoc) -> list[str]:
    return standing_of(doc)["outer"]


__all__ = ["CVBG", "carry_out_turn", "check_turn", "outer_units"]
