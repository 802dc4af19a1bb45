"""The last phases of a turn [5.0 steps 8-10]: Recovery [15.2], Victory [24.1] with the turn's
Alert Level Chart events netted [6.0], [6.1], and the End of Turn: the VP defeat check
[24.3], Red Oktober's end [25.2] and the mission's end [24.0]."""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import alert, pools, soviet, victory
from referee.rules.carrier_battlegroup.damage import hangar_losses_14_1
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.rules.carrier_battlegroup.setup import CARRIER, RED_OKTOBER, SSBN
from referee.source.model import Module, UnitDef
from referee.source.schema import LossScore


def recovery_15_2(
    module: Module, state: GameState, ev: list[Event], lose_first: list[str] | None = None
) -> GameState:
    """[15.2]: every aircraft aloft lands; the carrier holds Hangar + Flight Deck. The
    aircraft over that are lost, the player choosing ("you must select and then eliminate
    air units" [14.1]): those his standing ``lose`` names first, in his order, then the
    last in id order (docs/interpretations.md, CBG 14.1)."""
    air = dict(facts_of(state).air)
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
    sysd = facts_of(state).carrier
    aboard = sorted(p for p, w in air.items() if w == "hangar")
    lost = hangar_losses_14_1(len(aboard), sysd["Hangar"], sysd["Flight Deck"])
    losses = list(facts_of(state).losses)
    chosen = [p for p in (lose_first or []) if p in aboard][:lost]
    rest = [p for p in aboard if p not in chosen]
    more = lost - len(chosen)
    for pid in [*chosen, *(rest[len(rest) - more :] if more else [])]:
        air.pop(pid)
        state = state.with_unit(UnitState(pid, "USN", None, "sunk"))
        losses.append({"unit": pid, "what": "aircraft", "turn": state.turn, "rule": "15.2"})
        how = "chosen by the player (lose)" if pid in chosen else "the last in id order"
        ev.append(Event("lost", "14.1", f"{pid} has no room aboard and is lost, {how} [15.2]"))
    if aloft:
        ev.append(Event("recovery", "15.2", f"{len(aloft)} aircraft recovered"))
    return CbgFacts.put(state, air=air, losses=losses)


def alert_events_6_0(module: Module, state: GameState, ev: list[Event]) -> GameState:
    """[6.0] the Alert Level Chart's events of this turn, netted together [6.1]: each Soviet
    warship sunk, and the CVBG entering a Soviet naval base."""
    t = module.tables["alert_events"]
    changes: list[int] = []
    sunk = [
        x for x in facts_of(state).losses if x["turn"] == state.turn and x["what"] == "soviet_sunk"
    ]
    changes += [int(t.lookup(row="soviet_ship_sunk", col="change").value)] * len(sunk)
    entered = facts_of(state).entered
    if entered and PointBoard(module.map).terrain(entered) == "soviet_base":
        changes.append(int(t.lookup(row="enter_soviet_base", col="change").value))
    if not changes:
        return state
    level = alert.net_alert_6_1(facts_of(state).alert, changes)
    if level != facts_of(state).alert:
        ev.append(
            Event(
                "alert",
                "6.0",
                f"Alert {facts_of(state).alert} -> {level} (changes {changes})",
                {"alert": level},
            )
        )
    return CbgFacts.put(state, alert=level)


# what a loss is [22.8] -> its row of the Victory Point table [24.1]
VP_ROW = {
    "sunk": "usn_ship_sunk",
    "crippled": "usn_ship_crippled",
    "damaged": "usn_ship_damaged",
    "aircraft": "usn_aircraft_lost",
    "soviet_sunk": "soviet_warship_sunk",
    "soviet_damaged": "soviet_warship_damaged",
    "soviet_air": "soviet_air_eliminated",
    "coastal": "coastal_eliminated",
}


def loss_score_24_1(module: Module, unit: UnitDef) -> LossScore | None:
    """What a unit's loss scores on the US player's VP [24.1]: a Soviet warship sunk, a
    Soviet air unit or coastal defense unit eliminated, a US ship sunk, a US aircraft lost
    (the Victory Point table's rows [22.8]); None for markers, missiles (spent, not lost
    [22.3]) and chits. The rules add it up at the turn's Victory Phase [5.0 step 9]; the
    module adds it when the player eliminates the unit, the running total he keeps."""
    soviet = unit.side != "USN"
    what = {
        ("surface", True): "soviet_sunk",
        ("submarine", True): "soviet_sunk",
        ("air", True): "soviet_air",
        ("coastal", True): "coastal",
        ("surface", False): "sunk",
        ("submarine", False): "sunk",
        ("air", False): "aircraft",
    }.get((unit.category, soviet))
    if what is None:
        return None
    vp = int(module.tables["victory_points"].lookup(row=VP_ROW[what], col="vp").value)
    return LossScore("VP", vp, "24.1")


def losses_24_1(module: Module, state: GameState) -> list[dict[str, Any]]:
    """Each unit lost or damaged so far, once, as it stands now (a ship damaged then sunk is
    sunk) [24.1]: what happened, the rule that removed it [22.8], [15.2], and its VP once a
    Victory Phase has scored it (None before). The score's loss rows: the same record the
    events come from."""
    t = module.tables["victory_points"]
    scored = facts_of(state).scored
    out: dict[str, dict[str, Any]] = {}
    for loss in facts_of(state).losses:
        unit = loss["unit"]
        row = scored.get(unit)
        out[unit] = {
            "unit": unit,
            "what": str(loss["what"]).removeprefix("soviet_"),
            "rule": loss.get("rule", "22.8"),
            "vp": int(t.lookup(row=row, col="vp").value) if row is not None else None,
        }
    return list(out.values())


def victory_phase_24_1(module: Module, state: GameState, ev: list[Event]) -> GameState:
    """[24.1]: VP for this turn's losses; a ship damaged then sunk counts only as sunk."""
    t = module.tables["victory_points"]
    key = VP_ROW
    scored = dict(facts_of(state).scored)
    vp = facts_of(state).vp
    for loss in facts_of(state).losses:
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
    if vp != facts_of(state).vp:
        ev.append(Event("vp", "24.1", f"VP {facts_of(state).vp} -> {vp}", {"vp": vp}))
    return CbgFacts.put(state, vp=vp, scored=scored)


def completed_5_0(state: GameState) -> bool:
    """[5.0 step 10] the mission Objective is completed: the CVBG is in the Objective space
    [24.0], no coastal defense unit is left there [23.1], and every unit the Orders name to
    destroy is sunk [24.0 note] (docs/interpretations.md, CBG 5.0 step 10)."""
    d = facts_of(state)
    here = d.cvbg["space"] == d.mission["objective"]
    coastal = d.coastal["units"] and d.coastal["space"] == d.mission["objective"]
    kill = [k for k in str(d.mission.get("kill") or "").split(";") if k.strip()]
    killed = all(k in state.units and state.units[k].box == "sunk" for k in kill)
    return bool(here and not coastal and killed)


def end_of_turn_5_0(
    module: Module, state: GameState, dice: Dice, ev: list[Event]
) -> tuple[GameState, list[Event]]:
    """[5.0 step 10], [24.2], [24.3], [25.2]."""
    d = facts_of(state)
    if d.result is None and d.kind == RED_OKTOBER:
        if state.units[SSBN].box == "sunk":
            state = CbgFacts.put(state, result="victory: Red Oktober is destroyed [25.2]")
        elif soviet.ssbn_at_entry_25_2(state):
            state = CbgFacts.put(
                state, result="defeat: Red Oktober reached the Atlantic Ocean Entry [25.2]"
            )
    elif d.result is None:
        chk = victory.vp_check_24_3(d.vp)
        if chk.needed:
            r = pools.roll_dice(dice, 2, "VP defeat check", "24.3")
            lost = victory.vp_defeat_24_3(d.vp, r)
            ev.append(
                Event(
                    "vp_check",
                    "24.3",
                    f"VP {d.vp}: 2d6 {r} "
                    + ("<=" if lost else ">")
                    + f" {chk.lose_at_most}"
                    + (": defeat" if lost else ""),
                    {"roll": r, "lost": lost},
                )
            )
            if lost:
                state = CbgFacts.put(state, result="defeat: VP too low [24.3]")
    if (
        facts_of(state).result is None
        and facts_of(state).kind != RED_OKTOBER
        and readings_of(state).objective_ends_early
        and state.turn < facts_of(state).mission["turns"]
        and completed_5_0(state)
    ):
        state = CbgFacts.put(
            state, result="victory: the mission Objective is completed [5.0 step 10], [24.0]"
        )
    if facts_of(state).result is None and state.turn >= facts_of(state).mission["turns"]:
        if facts_of(state).kind == RED_OKTOBER:
            state = CbgFacts.put(state, result="defeat: Red Oktober was not destroyed [25.2]")
        else:
            held = facts_of(state).cvbg["space"] == facts_of(state).mission["objective"]
            state = CbgFacts.put(
                state,
                result="victory: the Objective is held [24.0]"
                if held
                else "defeat: the Objective is not held [24.0]",
            )
    if facts_of(state).result is not None:
        ev.append(Event("game_over", "24.0", facts_of(state).result))
        return state.evolve(phase="over", active_side=None), ev
    state = state.evolve(turn=state.turn + 1)
    ev.append(Event("phase", "5.0", f"turn {state.turn} begins"))
    return state, ev
