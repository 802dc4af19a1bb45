"""One game turn [5.0]: the player's orders checked, then every phase carried out.

The player's file holds the orders of phases 1-3, 5 and 7 (intelligence, logistics,
movement, launch, objective) and standing orders for his battle decisions (break-off,
deployment). ``check_turn`` is the whole of ``validate``; ``carry_out_turn`` runs phases
1-10 in order with the dice [5.0].
"""

from __future__ import annotations

import itertools
from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order, OrdersDoc
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import (
    alert,
    cargo,
    combat_phase,
    movement,
    pools,
    rows,
    soviet,
    victory,
    view,
)
from referee.rules.carrier_battlegroup import logistics as logistics_
from referee.rules.carrier_battlegroup.damage import hangar_losses_14_1
from referee.rules.carrier_battlegroup.problems import at
from referee.rules.carrier_battlegroup.setup import CARRIER, CVBG, RED_OKTOBER, SSBN
from referee.source.model import Module

REFUELER = "refueler"


def _space(board: PointBoard, o: Order, written: str, out: list[Violation]) -> str | None:
    got, hint = match_name(written, board.locations())
    if got is None:
        out.append(at(o, "12.1", f"no space {written!r}", hint))
    return got


def strike_target_19_1(state: GameState, dest: str) -> bool | None:
    """Whether ``dest`` holds Soviet units to strike [19.1]: a unit there or an SBG marker.
    The player's view (:func:`view.is_player_view`) leaves face-down units out [2.2], so
    where none shows there the answer is ``None``: the referee's, on the full position
    (``validate`` on the view must not refuse what a hidden unit could allow)."""
    if combat_phase.soviet_here(state, dest) or any(
        g["space"] == dest for g in state.data["sbgs"].values()
    ):
        return True
    return None if view.is_player_view(state) else False


def view_notes_19_1(module: Module, seen: GameState, doc: OrdersDoc) -> list[Violation]:
    """On the player's view: each strike at a space where no Soviet unit shows, whose
    target the hidden face-down units decide [19.1][2.2] (said without telling them)."""
    board = PointBoard(module.map)
    out: list[Violation] = []
    for o in doc.orders:
        if o.verb != "strike" or not o.hexes:
            continue
        dest, _hint = match_name(o.hexes[0], board.locations())
        if dest is not None and strike_target_19_1(seen, dest) is None:
            out.append(
                at(
                    o,
                    "19.1",
                    f"no Soviet unit shows in {dest} in your view, and face-down units are "
                    "hidden from it: the referee accepts the strike only if Soviet units "
                    "are there",
                )
            )
    return out


def standing_of(doc: OrdersDoc) -> dict[str, Any]:
    out: dict[str, Any] = {"breakoff": False, "outer": []}
    for o in doc.standing:
        if o.verb == "breakoff":
            out["breakoff"] = o.mode == "yes"
        elif o.verb == "deploy" and o.mode == "outer":
            out["outer"] = sorted({*out["outer"], *o.units})
    return out


def allowance(module: Module, state: GameState, *, spend_fuel: bool) -> int:
    """[12.1]-[12.3] the CVBG's allowance; the carrier by its Propulsion [12.3]."""
    ships = []
    for pid in state.data["cvbg"]["ships"]:
        u = module.piece(pid).unit
        if pid == CARRIER:
            ships.append((state.data["carrier"]["Propulsion"], True))
        else:
            c = state.data["conditions"].get(pid, {})
            spd = movement.damaged_speed_12_3(
                u.values["SPD"], damaged=bool(c.get("damage")), crippled=bool(c.get("crippled"))
            )
            ships.append((spd, "nuclear" in u.flags))
    return movement.cvbg_allowance_12_1(ships, spend_fuel=spend_fuel)


def check_turn(module: Module, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """Every order of the file against [9.0]-[23.2]; nothing changes."""
    out: list[Violation] = []
    board = PointBoard(module.map)
    by = {
        v: [o for o in doc.orders if o.verb == v]
        for v in ("intel", "buy", "repair", "move", "strike", "bombard", "land")
    }
    here = state.data["cvbg"]["space"]
    ships = state.data["cvbg"]["ships"]
    for o in doc.orders:
        for pid in (*o.units,):
            if pid in state.units and state.units[pid].side != "USN":
                out.append(
                    at(
                        o,
                        "2.2",
                        f"{pid} is a Soviet unit: the game runs the Soviet side",
                        "order only USN units",
                        pid,
                    )
                )
    if out:
        return out
    if len(by["intel"]) > 1:
        out.append(at(by["intel"][1], "11.0", "one Intelligence attempt per turn"))
    for o in by["intel"]:
        if len(o.units) != 1 or o.units[0] not in ships:
            out.append(
                at(o, "11.1", "name one ship of the CVBG", unit=o.units[0] if o.units else None)
            )
    logistics = logistics_.skips_movement(state, by["repair"])
    if by["buy"]:
        cod = logistics_.cod_range_9_3(module, state, board) is not None
        basket, errs = cargo.check_buys(
            module, state, by["buy"], ships, at_base=board.terrain(here) == "nato_base", cod=cod
        )
        out += errs
        logistics = logistics or not cargo.by_cod_only_9_3(module, basket, cod=cod)
    out += logistics_.check_repairs(module, state, by["repair"])
    if len(by["move"]) > 1:
        out.append(at(by["move"][1], "12.1", "the CVBG moves once per Movement Phase"))
    for o in by["move"][:1]:
        if logistics:
            out.append(
                at(
                    o,
                    "5.0",
                    "Logistics (buying Cargo or repairing) skips the Movement Phase",
                    "see 9.1 and 10.1; a Cargo aircraft [9.3] or an aircraft repair [10.3] "
                    "does not",
                )
            )
            continue
        path = [p for p in (_space(board, o, w, out) for w in o.hexes)]
        if None in path:
            continue
        route = [here, *path] if path and path[0] != here else path
        spend = o.mode == "max"
        needs_fuel = any("nuclear" not in module.piece(p).unit.flags for p in ships)
        if spend and needs_fuel and state.data["fuel"] < 1:
            out.append(at(o, "12.2", "no Fuel left for maximum speed"))
        allow = allowance(module, state, spend_fuel=spend)
        if len(route) - 1 > allow:
            out.append(
                at(
                    o,
                    "12.1",
                    f"{len(route) - 1} spaces; the CVBG's allowance is {allow}",
                    "the slowest ship sets it; `max` adds 2 for 1 Fuel [12.2]",
                )
            )
        sbg = {g["space"] for g in state.data["sbgs"].values()}
        for i, (a, b) in enumerate(itertools.pairwise(route)):
            if not board.adjacent(a, b):
                out.append(at(o, "12.1", f"{b} is not next to {a}", "follow a Navigation Line"))
                break
            if i + 2 < len(route) and movement.must_stop_12_4(board.terrain(b), sbg_here=b in sbg):
                out.append(
                    at(
                        o,
                        "12.4",
                        f"the CVBG must stop on entering {b} "
                        f"({board.terrain(b).replace('_', ' ')}{', an SBG' if b in sbg else ''})",
                    )
                )
                break
    launched: list[str] = []
    for o in by["strike"]:
        dest = _space(board, o, o.hexes[0], out)
        if dest is None:
            continue
        air = [p for p in o.units if module.piece(p).unit.category == "air"]
        refuel = any(REFUELER in module.piece(p).unit.flags for p in air)
        for pid in o.units:
            u = module.piece(pid).unit
            if pid in launched:
                out.append(at(o, "19.0", f"{pid} is launched twice", unit=pid))
                continue
            launched.append(pid)
            where = (
                state.data["air"].get(pid)
                if u.category == "air"
                else (here if pid in state.data["missiles"] else None)
            )
            if where is None:
                out.append(
                    at(
                        o,
                        "19.0",
                        f"{pid} is not aboard the carrier, at a base or under a CVBG ship",
                        unit=pid,
                    )
                )
                continue
            start = here if where == "hangar" else where
            rng = u.values["SPD"] * (
                2 if refuel and u.category == "air" and REFUELER not in u.flags else 1
            )
            d = board.distance(start, dest)
            if d > rng:
                out.append(
                    at(
                        o,
                        "19.1",
                        f"{pid}: {dest} is {d} spaces away; range {rng}",
                        "a refueler doubles aircraft range [19.2]",
                        pid,
                    )
                )
        if strike_target_19_1(state, dest) is False:
            out.append(at(o, "19.1", f"{dest} holds no Soviet units to strike"))
    deck = state.data["carrier"]["Flight Deck"] + sum(
        1 for c in state.data["crews"] if c.startswith("US-CREW-FD")
    )
    from_carrier = [p for p in launched if state.data["air"].get(p) == "hangar"]
    if len(from_carrier) > deck:
        out.append(
            at(
                by["strike"][0],
                "15.0",
                f"{len(from_carrier)} aircraft launched from the carrier; "
                f"the Flight Deck allows {deck}",
                "see 19.0",
            )
        )
    for o in by["bombard"]:
        if here != state.data["mission"]["objective"] or not state.data["coastal"]["units"]:
            out.append(at(o, "23.1", "no coastal defense units in the CVBG's space"))
    for o in by["land"]:
        if not state.data["mission"]["landing"]:
            out.append(at(o, "23.2", "these Orders allow no landing"))
        for pid in o.units:
            if pid not in state.data["crews"] or module.piece(pid).unit.id not in (
                "US-MEU",
                "US-SEAL",
            ):
                out.append(at(o, "23.2", f"{pid} is not a Marine or SEAL unit aboard", unit=pid))
    return out


def carry_out_turn(
    module: Module, state: GameState, doc: OrdersDoc, dice: Dice
) -> tuple[GameState, list[Event]]:
    ev: list[Event] = []
    board = PointBoard(module.map)
    by = {
        v: [o for o in doc.orders if o.verb == v]
        for v in ("intel", "buy", "repair", "move", "strike", "bombard", "land")
    }
    standing = standing_of(doc)
    if state.data["kind"] == RED_OKTOBER:
        state = soviet.red_oktober_25_1(module, state, dice, ev)
    # 1 Intelligence [11.0]
    for o in by["intel"]:
        ew = (
            state.data["carrier"]["EW"]
            if o.units[0] == CARRIER
            else module.piece(o.units[0]).unit.values["EW"]
        )
        r = dice.roll(6, "Intelligence", "11.1")
        v, _how = rows.row_record(module.tables["intelligence"], r * ew)
        ev.append(
            Event(
                "intel",
                "11.1",
                f"Intelligence by {o.units[0]}: d6 {r} x {ew} = {r * ew}: {v['result']}",
                {"roll": r, "total": r * ew},
            )
        )
        if int(v["alert"]):
            lvl = alert.net_alert_6_1(state.data["alert"], [int(v["alert"])])
            state = state.with_data(alert=lvl)
            ev.append(Event("alert", "11.2", f"Alert -> {lvl}", {"alert": lvl}))
        if v["reveal"]:
            hidden = sorted(
                (board.distance(state.data["cvbg"]["space"], g["space"]), n)
                for n, g in state.data["sbgs"].items()
                if not g["revealed"]
            )
            if hidden:
                state = soviet.reveal_sbg(state, hidden[0][1], "11.2", ev)
        if int(v["turns"]):
            m = state.data["mission"]
            state = state.with_data(mission={**m, "turns": m["turns"] + int(v["turns"])})
            ev.append(
                Event(
                    "turns",
                    "11.2",
                    f"a turn gained: the mission now ends after turn {m['turns'] + 1}",
                )
            )
    # 2 Logistics [8.0]-[10.0]
    if by["buy"]:
        cod = logistics_.cod_range_9_3(module, state, board) is not None
        b, _ = cargo.check_buys(
            module,
            state,
            by["buy"],
            state.data["cvbg"]["ships"],
            at_base=board.terrain(state.data["cvbg"]["space"]) == "nato_base",
            cod=cod,
        )
        state = cargo.carry_out_buys(module, state, b, state.data["cvbg"]["ships"])
        if cargo.by_cod_only_9_3(module, b, cod=cod):
            ev.append(
                Event(
                    "logistics",
                    "9.3",
                    f"the Cargo aircraft replenishes the CVBG for {b.lp} LP; "
                    f"{state.data['lp']} LP left; the Movement Phase is not skipped",
                )
            )
        else:
            ev.append(
                Event(
                    "logistics",
                    "9.1",
                    f"Cargo bought for {b.lp} LP; {state.data['lp']} LP left; "
                    "Movement Phase skipped",
                )
            )
    for o in by["repair"]:
        state = logistics_.repair_10_1(module, state, o, dice, ev)
    # 3 Movement [12.0]
    state = state.with_data(entered=None)
    moved = [state.data["cvbg"]["space"]]
    for o in by["move"]:
        route = [match_name(w, board.locations())[0] for w in o.hexes]
        route = [r for r in route if r and r != state.data["cvbg"]["space"]]
        if not route:
            continue
        needs = any(
            "nuclear" not in module.piece(p).unit.flags for p in state.data["cvbg"]["ships"]
        )
        if o.mode == "max" and needs:
            state = state.with_data(fuel=state.data["fuel"] - 1)
            ev.append(Event("fuel", "12.2", f"1 Fuel for maximum speed: Fuel {state.data['fuel']}"))
        start = state.data["cvbg"]["space"]
        state = combat_phase._move_cvbg(state, route[-1])
        state = state.with_data(entered=route[-1])
        ev.append(Event("move", "12.1", "the CVBG moves " + " -> ".join(route), {"path": route}))
        moved = [start, *route]
    state = _lane_12_5(board, state, moved, ev)
    # 4 Incidents [16.0]
    state = soviet.incident_phase_16_0(module, state, dice, ev)
    # 5 Launch [19.0]
    strikes: dict[str, list[str]] = {}
    for o in by["strike"]:
        dest = match_name(o.hexes[0], board.locations())[0] or o.hexes[0]
        strikes.setdefault(dest, []).extend(o.units)
        for pid in o.units:
            state = state.with_unit(UnitState(pid, "USN", dest, None))
        ev.append(
            Event(
                "launch",
                "19.1",
                f"{', '.join(o.units)} launched at {dest}",
                {"units": list(o.units), "to": dest},
            )
        )
    # 6 Combat [18.0], [20.0]
    state = combat_phase.combat_phase(module, state, dice, strikes, standing, ev)
    # 7 Objective [23.0]
    for _o in by["bombard"]:
        if (
            state.data["coastal"]["units"]
            and state.data["cvbg"]["space"] == state.data["coastal"]["space"]
        ):
            ev.append(
                Event(
                    "bombard",
                    "23.1",
                    "shore bombardment: the USN attacks the coastal defense units",
                )
            )
            state = combat_phase.bombard_23_1(module, state, dice, ev)
    for o in by["land"]:
        if (
            not state.data["coastal"]["units"]
            and state.data["cvbg"]["space"] == state.data["mission"]["objective"]
        ):
            state = state.with_data(landed=sorted(o.units))
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    f"{', '.join(o.units)} land at {state.data['mission']['objective']}",
                )
            )
        else:
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    "no landing: coastal defense units remain or the CVBG is not at the Objective",
                )
            )
    # 8 Recovery [15.2]
    state = _recovery_15_2(module, state, ev)
    # 9 Victory [24.1]; the turn's Alert Level Chart events, netted [6.0], [6.1]
    state = _victory_phase_24_1(module, state, ev)
    state = _alert_events_6_0(module, state, ev)
    # 10 End of turn [5.0], [24.3]
    return _end_of_turn(module, state, dice, ev)


def _lane_12_5(board: PointBoard, state: GameState, moved: list[str], ev: list[Event]) -> GameState:
    """[12.5]: note whether the CVBG is Out of Lane for this turn's Incident chits."""
    lanes = state.data["mission"].get("lanes", [])
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
    return state.with_data(out_of_lane=out)


def _recovery_15_2(module: Module, state: GameState, ev: list[Event]) -> GameState:
    """[15.2]: every aircraft aloft lands; the carrier holds Hangar + Flight Deck."""
    air = dict(state.data["air"])
    aloft = sorted(
        p
        for p, w in air.items()
        if w == "aloft"
        or (
            state.units[p].location
            and module.piece(p).unit.category == "air"
            and "carrier" in module.piece(p).unit.flags
        )
    )
    for pid in aloft:
        air[pid] = "hangar"
        state = state.with_unit(UnitState(pid, "USN", None, f"hangar:{CARRIER}"))
    for pid, w in list(air.items()):
        u = module.piece(pid).unit
        if "land" in u.flags and state.units[pid].location not in (None, w):
            state = state.with_unit(UnitState(pid, "USN", w, None))
    sysd = state.data["carrier"]
    aboard = sorted(p for p, w in air.items() if w == "hangar")
    lost = hangar_losses_14_1(len(aboard), sysd["Hangar"], sysd["Flight Deck"])
    losses = list(state.data["losses"])
    for pid in aboard[len(aboard) - lost :] if lost else []:
        air.pop(pid)
        state = state.with_unit(UnitState(pid, "USN", None, "sunk"))
        losses.append({"unit": pid, "what": "aircraft", "turn": state.turn})
        ev.append(Event("lost", "15.2", f"{pid} has no room aboard and is lost"))
    if aloft:
        ev.append(Event("recovery", "15.2", f"{len(aloft)} aircraft recovered"))
    return state.with_data(air=air, losses=losses)


def _alert_events_6_0(module: Module, state: GameState, ev: list[Event]) -> GameState:
    """[6.0] the Alert Level Chart's events of this turn, netted together [6.1]: each Soviet
    warship sunk, and the CVBG entering a Soviet naval base."""
    t = module.tables["alert_events"]
    changes: list[int] = []
    sunk = [
        x for x in state.data["losses"] if x["turn"] == state.turn and x["what"] == "soviet_sunk"
    ]
    changes += [int(t.lookup(row="soviet_ship_sunk", col="change").value)] * len(sunk)
    entered = state.data.get("entered")
    if entered and PointBoard(module.map).terrain(entered) == "soviet_base":
        changes.append(int(t.lookup(row="enter_soviet_base", col="change").value))
    if not changes:
        return state
    level = alert.net_alert_6_1(state.data["alert"], changes)
    if level != state.data["alert"]:
        ev.append(
            Event(
                "alert",
                "6.0",
                f"Alert {state.data['alert']} -> {level} (changes {changes})",
                {"alert": level},
            )
        )
    return state.with_data(alert=level)


def _victory_phase_24_1(module: Module, state: GameState, ev: list[Event]) -> GameState:
    """[24.1]: VP for this turn's losses; a ship damaged then sunk counts only as sunk."""
    t = module.tables["victory_points"]
    key = {
        "sunk": "usn_ship_sunk",
        "crippled": "usn_ship_crippled",
        "damaged": "usn_ship_damaged",
        "aircraft": "usn_aircraft_lost",
        "soviet_sunk": "soviet_warship_sunk",
        "soviet_damaged": "soviet_warship_damaged",
        "soviet_air": "soviet_air_eliminated",
        "coastal": "coastal_eliminated",
    }
    scored = dict(state.data.get("scored", {}))
    vp = state.data["vp"]
    for loss in state.data["losses"]:
        if loss["turn"] != state.turn:
            continue
        k = key[loss["what"]]
        prev = scored.get(loss["unit"])
        if prev == k:
            continue
        if prev is not None:
            vp -= int(t.lookup(row=prev, col="vp").value)
        vp += int(t.lookup(row=k, col="vp").value)
        scored[loss["unit"]] = k
    if vp != state.data["vp"]:
        ev.append(Event("vp", "24.1", f"VP {state.data['vp']} -> {vp}", {"vp": vp}))
    return state.with_data(vp=vp, scored=scored)


def _end_of_turn(
    module: Module, state: GameState, dice: Dice, ev: list[Event]
) -> tuple[GameState, list[Event]]:
    """[5.0 step 10], [24.2], [24.3], [25.2]."""
    d = state.data
    if d["result"] is None and d["kind"] == RED_OKTOBER:
        if state.units[SSBN].box == "sunk":
            state = state.with_data(result="victory: Red Oktober is destroyed [25.2]")
        elif soviet.ssbn_at_entry_25_2(state):
            state = state.with_data(
                result="defeat: Red Oktober reached the Atlantic Ocean Entry [25.2]"
            )
    elif d["result"] is None:
        chk = victory.vp_check_24_3(d["vp"])
        if chk.needed:
            r = pools.roll_dice(dice, 2, "VP defeat check", "24.3")
            lost = victory.vp_defeat_24_3(d["vp"], r)
            ev.append(
                Event(
                    "vp_check",
                    "24.3",
                    f"VP {d['vp']}: 2d6 {r} "
                    + ("<=" if lost else ">")
                    + f" {chk.lose_at_most}"
                    + (": defeat" if lost else ""),
                    {"roll": r, "lost": lost},
                )
            )
            if lost:
                state = state.with_data(result="defeat: VP too low [24.3]")
    if state.data["result"] is None and state.turn >= state.data["mission"]["turns"]:
        if state.data["kind"] == RED_OKTOBER:
            state = state.with_data(result="defeat: Red Oktober was not destroyed [25.2]")
        else:
            held = state.data["cvbg"]["space"] == state.data["mission"]["objective"]
            state = state.with_data(
                result="victory: the Objective is held [24.0]"
                if held
                else "defeat: the Objective is not held [24.0]"
            )
    if state.data["result"] is not None:
        ev.append(Event("game_over", "24.0", state.data["result"]))
        return state.evolve(phase="over", active_side=None), ev
    state = state.evolve(turn=state.turn + 1)
    ev.append(Event("phase", "5.0", f"turn {state.turn} begins"))
    return state, ev


def outer_units(doc: OrdersDoc) -> list[str]:
    return standing_of(doc)["outer"]


__all__ = ["CVBG", "allowance", "carry_out_turn", "check_turn", "outer_units"]
