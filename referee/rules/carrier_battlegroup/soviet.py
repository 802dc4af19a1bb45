"""The Soviet side the referee runs: incidents [16.0]-[16.2], SBG movement [13.0], revealing
[17.0]-[17.1], and the Red Oktober SBGs' run [25.1].

Every choice is the rules' procedure with the game's dice: chits drawn from the committed
pool, units drawn from the committed pools with rolls hidden from the player until the units
are revealed, ties broken at random [2.4].
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import alert, incidents, pools, rows
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.rules.carrier_battlegroup.setup import SSBN
from referee.source.model import Module

ATLANTIC_ENTRY = "Atlantic Ocean Entry"


def usn_spaces(state: GameState) -> set[str]:
    return {u.location for u in state.units.values() if u.side == "USN" and u.location}


def reveal_17_0(state: GameState, ids: list[str], rule: str, events: list[Event]) -> GameState:
    """[17.0] flip face up for good; a Glitch goes back to its pool instead [11.4], [17.1]."""
    revealed = set(facts_of(state).revealed)
    pools_ = {k: list(v) for k, v in facts_of(state).pools.items()}
    sbgs = {k: dict(v) for k, v in facts_of(state).sbgs.items()}
    for pid in ids:
        u = state.units[pid]
        if pid.startswith("SO-GLITCH") or pid.startswith("SO-MASK"):
            state = state.with_unit(UnitState(pid, u.side, None, "pool"))
            pools_["warships"].append(pid)
            for g in sbgs.values():
                if pid in g["units"]:
                    g["units"] = [x for x in g["units"] if x != pid]
            events.append(
                Event("glitch", "17.1", f"{pid} is a Glitch: back to the pool", {"unit": pid})
            )
            continue
        revealed.add(pid)
        state = state.with_unit(UnitState(pid, u.side, u.location, u.box, u.status - {"face_down"}))
    state = CbgFacts.put(state, revealed=sorted(revealed), pools=pools_, sbgs=sbgs)
    if ids:
        events.append(
            Event(
                "reveal",
                rule,
                "revealed: " + ", ".join(p for p in ids if p in revealed),
                {"units": [p for p in ids if p in revealed]},
            )
        )
    return drop_empty_sbgs(state, events)


def drop_empty_sbgs(state: GameState, events: list[Event]) -> GameState:
    """[17.0]: an SBG whose ships are all gone (or all glitches) leaves the map."""
    sbgs = {}
    for name, g in facts_of(state).sbgs.items():
        if g["units"]:
            sbgs[name] = g
        else:
            m = state.units[g["marker"]]
            state = state.with_unit(UnitState(m.id, m.side, None, "pool"))
            events.append(
                Event("sbg_gone", "17.0", f"{name} has no ships left: its marker leaves the map")
            )
    return CbgFacts.put(state, sbgs=sbgs)


def move_sbg_13_0(
    module: Module,
    state: GameState,
    name: str,
    spaces: int,
    toward: str,
    rule: str,
    events: list[Event],
) -> GameState:
    """[13.0]: move the SBG ``spaces`` toward ``toward``; stop on entering a space with a USN
    unit or a Soviet naval base; never enter a NATO base (stop short)."""
    board = PointBoard(module.map)
    g = dict(facts_of(state).sbgs[name])
    route = board.path(g["space"], toward) or [g["space"]]
    here = g["space"]
    usn = usn_spaces(state)
    for nxt in route[1 : 1 + spaces]:
        if board.terrain(nxt) == "nato_base":
            break
        here = nxt
        if nxt in usn or (
            board.terrain(nxt) == "soviet_base" and nxt not in closed_bases_23_2(state)
        ):
            break
    if here == g["space"]:
        return state
    events.append(
        Event(
            "sbg_move",
            rule,
            f"{name} moves {g['space']} -> {here}",
            {"sbg": name, "from": g["space"], "to": here},
        )
    )
    g["space"] = here
    for pid in [*g["units"], g["marker"]]:
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, here, None, u.status))
    return CbgFacts.put(state, sbgs={**facts_of(state).sbgs, name: g})


def closed_bases_23_2(state: GameState) -> set[str]:
    """[23.2] "Soviet bases cannot be used ... if occupied by a Marine or SEAL unit": the
    spaces where landed Marines or SEALs stand, closed to the Soviet side
    (docs/interpretations.md, CBG 23.2)."""
    return {str(v["space"]) for v in (facts_of(state).landed_at or {}).values()}


def red_oktober_25_1(
    module: Module, state: GameState, dice: Dice, events: list[Event]
) -> GameState:
    """[25.1]: each SBG moves the higher of 2d6 toward the Atlantic Ocean Entry; one that
    enters it stops and is revealed there."""
    for name in sorted(facts_of(state).sbgs):
        a = dice.roll(6, f"{name} run, die 1", "25.1")
        b = dice.roll(6, f"{name} run, die 2", "25.1")
        state = move_sbg_13_0(module, state, name, max(a, b), ATLANTIC_ENTRY, "25.1", events)
        g = facts_of(state).sbgs.get(name)
        if g and g["space"] == ATLANTIC_ENTRY and not g["revealed"]:
            state = reveal_sbg(state, name, "25.1", events)
    return state


def reveal_sbg(state: GameState, name: str, rule: str, events: list[Event]) -> GameState:
    g = facts_of(state).sbgs[name]
    sbgs = {**facts_of(state).sbgs, name: {**g, "revealed": True}}
    state = CbgFacts.put(state, sbgs=sbgs)
    return reveal_17_0(state, list(g["units"]), rule, events)


def incident_phase_16_0(
    module: Module, state: GameState, dice: Dice, events: list[Event]
) -> GameState:
    """[16.0]-[16.2]: draw Alert (+ space) chits; unit chits wait for Combat; the rest act
    now; Alert changes net out [6.1]; every chit goes back to the pool."""
    board = PointBoard(module.map)
    space = facts_of(state).cvbg["space"]
    objective = facts_of(state).mission["objective"]
    entered = facts_of(state).entered == space
    n = incidents.chits_to_draw_16_0(
        module,
        facts_of(state).alert,
        board.terrain(space),
        objective=space == objective,
        entered=entered or not readings_of(state).chits_on_entering,
    )
    if n == 0:
        events.append(
            Event("incidents", "16.1", f"the CVBG is at {space}, a NATO base: no Incident chits")
        )
        return state
    events.append(
        Event(
            "incidents",
            "16.0",
            f"Alert {facts_of(state).alert} at {space} ({board.terrain(space)}"
            + ("" if entered else ", not entered this turn: no extra chits [16.1]")
            + f"): {n} chit(s)",
            {"count": n, "entered": entered},
        )
    )
    cup = list(facts_of(state).pools["chits"])
    drawn: list[str] = []
    for k in range(min(n, len(cup))):
        pid, cup = pools.draw(cup, dice, f"Incident chit {k + 1} of {n}", "16.2", hidden=False)
        drawn.append(pid)
    table = module.tables["incidents"]
    by_unit = {str(r["unit"]): {**r, "chit": r["key"]} for r in rows.all_rows(table)}
    changes: list[int] = []
    generated: list[str] = []
    contact = False
    pools_ = {k: list(v) for k, v in facts_of(state).pools.items()}
    for pid in drawn:
        rec = by_unit[pid.split(".")[0]]
        events.append(
            Event(
                "chit",
                "16.2",
                f"Incident chit: {rec['chit']} ({pid})",
                {"chit": pid, "kind": rec["chit"]},
            )
        )
        for pool, count in (("standoff", int(rec["units"])), ("warships", int(rec["warships"]))):
            for k in range(count):
                if not pools_[pool]:
                    break
                got, pools_[pool] = pools.draw(
                    pools_[pool], dice, f"{rec['chit']}: {pool} unit {k + 1}", "16.2", hidden=True
                )
                generated.append(got)
        if int(rec["alert"]):
            changes.append(int(rec["alert"]))
        sanction = int(rec.get("lane_alert") or 0)
        if sanction and facts_of(state).out_of_lane:
            changes.append(sanction)
            events.append(
                Event(
                    "out_of_lane",
                    "12.5",
                    f"{rec['chit']}: the CVBG is Out of Lane, Alert {sanction:+d}",
                    {"chit": pid, "alert": sanction},
                )
            )
        if rec["contact"]:
            contact = True
        if int(rec["sbg_move"]):
            for name in sorted(facts_of(state).sbgs):
                state = move_sbg_13_0(
                    module, state, name, int(rec["sbg_move"]), space, "13.0", events
                )
    state = CbgFacts.put(state, pools=pools_)
    if changes:
        level = alert.net_alert_6_1(facts_of(state).alert, changes)
        events.append(
            Event(
                "alert",
                "6.1",
                f"Alert {facts_of(state).alert} -> {level} (changes {changes} net out)",
                {"alert": level},
            )
        )
        state = CbgFacts.put(state, alert=level)
    for pid in generated:
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, space, None, frozenset({"face_down"})))
    if generated:
        events.append(
            Event(
                "generated",
                "16.2",
                f"{len(generated)} Soviet unit(s) wait for the Combat Phase at {space}",
                {"count": len(generated)},
            )
        )
        events.append(
            Event(
                "generated_ids",
                "16.2",
                "generated: " + ", ".join(generated),
                {"units": generated},
                hidden_from=pools.HIDDEN_FROM_PLAYER,
            )
        )
    # [16.2] all chits picked go back to the pool at the end of the phase
    state = CbgFacts.put(
        state,
        pools={**facts_of(state).pools, "chits": sorted(cup + drawn, key=_chit_order(state))},
        incident={
            "space": space,
            "generated": generated,
            "contact": contact,
            "drawn": drawn,
            # the back each generated unit shows: public, the chits say which pool [16.2]
            "backs": sorted(str(module.piece(p).unit.back) for p in generated),
        },
    )
    return state


def _chit_order(state: GameState) -> Any:
    """The committed order of the cup, so the pool returns to the same listing."""
    order = {pid: i for i, pid in enumerate(facts_of(state).chit_order)}
    return lambda pid: order[pid]


def ssbn_at_entry_25_2(state: GameState) -> bool:
    u = state.units.get(SSBN)
    return bool(u and u.location == ATLANTIC_ENTRY)
