"""Build Sixth Fleet (2019) positions from a compact description and run one conformance
case (``tests/conformance/sixth_fleet_2019/NNN-<case>-<slug>.json``), in the spirit of
``harness.py``::

    {"id": "014", "cites": ["3.3.1"], "title": "...", "example": "DG19-EX-8.0",
     "turn": 1, "phase": "soviet_actions", "actions": 2,
     "units": [["SO-EM-1.1", "Western Black Sea"], ["TK-MECH-1", "Istanbul"]],
     # [uid, null]: a reinforcement still waiting off the map (provisional 10.0)
     "data": {"joined": {"SY": "Soviet"}, "destroyed_bases": ["Istanbul"], "patrol": []},
     "orders": "move SO-EM-1.1 -> \\"Turkish Straits\\"",   # the [actions] (or [events]) lines
     "standing": "eliminate SO-EM-1.1",   # the file's own [standing] lines
     "standing_of": {"NATO": "divert US-F14 -> Sicily"},  # a side's earlier standing orders
     "book": "the rulebook's words for the ruling the case expects",
     "dice": [4],
     "expect": {"violations": ["3.3.1"], "hint": "did you mean", "events": [{"rule": "3.2.1"}],
                "units": {"SO-EM-1.1": "Turkish Straits"}, "control": {"Istanbul": "Soviet"},
                "strike": {"held": {"NATO": ["NATO-EW.1"]}},  # data.strike, as a subset
                "actions_at_start": {"NATO": 3}, "phase": "nato_events", "turn": 2,
                "winner": "Soviet", "levels": [[36, "Strategic Victory"]],
                "score": {"vp": {"NATO": 6}}}}

Units not listed are not in the game. A unit's side is its roster side, ``neutral`` for a
neutral nationality that has not joined (``data.joined``). Control is computed from the
position as ``new_game`` does.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, ScriptedDice, UnitState
from referee.engine.ruleset import get_ruleset, parse_orders_for
from referee.source.loader import load_module
from referee.source.model import Module

SOURCE = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_2019"
NEUTRALS = ("EG", "IS", "LY", "SY", "TN", "YU")
SECTION = {"events": "events", "actions": "actions"}


@cache
def module_2019() -> Module:
    module, diags = load_module(SOURCE)
    assert module is not None, [str(d) for d in diags.items]
    return module


def build_state(module: Module, case: dict[str, Any]) -> GameState:
    from referee.rules.sixth_fleet_2019.control import all_control
    from referee.rules.sixth_fleet_2019.game import Game

    pieces = module.pieces()
    data: dict[str, Any] = {
        "joined": {},
        "destroyed_bases": [],
        "patrol": [],
        "event_actions": 0,
        "actions_left": int(case.get("actions", 3)),
    }
    data.update(case.get("data", {}))
    units: dict[str, UnitState] = {}
    stacks: dict[str, list[str]] = {}
    for uid, where in case.get("units", []):
        u = pieces[uid].unit
        side = u.side
        if u.nationality in NEUTRALS:
            side = data["joined"].get(u.nationality, "neutral")
        status = frozenset(case.get("status", {}).get(uid, ()))
        if where is None:  # a reinforcement still waiting off the map (provisional 10.0)
            units[uid] = UnitState(uid, side, None, "reinforcements", status)
            continue
        units[uid] = UnitState(uid, side, where, None, status)
        stacks.setdefault(where, []).append(uid)
    phase = str(case.get("phase", "soviet_actions"))
    active = "NATO" if phase.startswith("nato") else "Soviet"
    state = GameState(
        game_id="t",
        module_id=module.id,
        ruleset=module.ruleset,
        scenario=case.get("scenario", "s1980"),
        turn=int(case.get("turn", 2)),
        phase=phase,
        active_side=active,
        units=units,
        stacks={k: tuple(v) for k, v in stacks.items()},
        data=data,
    )
    return state.with_data(control=all_control(Game.of(module), state))


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(
            k in got and _subset(v, got[k]) for k, v in want.items()
        )
    return want == got if isinstance(want, list) else str(want) == str(got)


def run_case(case: dict[str, Any]) -> list[str]:
    """Every way the engine disagrees with the case (empty: it agrees)."""
    from referee.rules.sixth_fleet_2019.actions import actions_at_start_6_1
    from referee.rules.sixth_fleet_2019.control import control_3_2
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.rules.sixth_fleet_2019.victory import level_4_4

    module = module_2019()
    game = Game.of(module)
    rs = get_ruleset(module.ruleset)
    state = build_state(module, case)
    exp = case.get("expect", {})
    problems: list[str] = []
    for side, n in exp.get("actions_at_start", {}).items():
        got = len(actions_at_start_6_1(game, state, side))
        if got != n:
            problems.append(f"{side} starts with {got} actions, expected {n}")
    for margin, level in exp.get("levels", []):
        got = level_4_4(game, {"Soviet": {"vp": margin}, "NATO": {"vp": 0}})["level"]
        if got != level:
            problems.append(f"margin {margin}: {got}, expected {level}")
    if "orders" not in case:
        for zone, want in exp.get("control", {}).items():
            if control_3_2(game, state, zone) != want:
                problems.append(f"{zone}: {control_3_2(game, state, zone)}, expected {want}")
        if "score" in exp and not _subset(exp["score"], dict(rs.score(module, state))):
            problems.append(f"score {dict(rs.score(module, state))} lacks {exp['score']}")
        return problems
    section = "events" if state.phase.endswith("_events") else "actions"
    side = case.get("orders_side", state.active_side)
    turn = case.get("orders_turn", state.turn)
    text = f"game: t\nturn: {turn}\nside: {side}\n[{section}]\n{case['orders']}\n"
    if "standing" in case:  # the file's own [standing] lines
        text += f"[standing]\n{case['standing']}\n"
    for other, lines in case.get("standing_of", {}).items():  # a side's earlier standing orders
        earlier = parse_orders_for(rs, f"side: {other}\n[standing]\n{lines}\n", "earlier.txt")
        standing = dict(state.data.get("standing") or {})
        standing[other] = [o.to_json() for o in earlier.standing]
        state = state.with_data(standing=standing)
    doc = parse_orders_for(rs, text, "orders.txt")
    bad = rs.validate(module, state, doc)
    got = sorted(v.rule for v in bad)
    if "violations" in exp and sorted(exp["violations"]) != got:
        problems.append(
            f"violations {got}, expected {sorted(exp['violations'])}: {[str(v) for v in bad]}"
        )
    if "hint" in exp and not any(exp["hint"] in (v.hint or "") for v in bad):
        problems.append(f"no hint with {exp['hint']!r}: {[str(v) for v in bad]}")
    if bad or "dice" not in case:
        return problems
    dice = ScriptedDice(case["dice"])
    out = rs.resolve(module, state, doc, dice)
    if out.violations:
        return [*problems, f"resolve refused: {[str(v) for v in out.violations]}"]
    evs = [e.to_json() for e in out.events]
    for want in exp.get("events", []):
        if not any(_subset(want, e) for e in evs):
            problems.append(f"no event like {want}; got {[(e['rule'], e['text']) for e in evs]}")
    for bad_ev in exp.get("no_events", []):
        if any(_subset(bad_ev, e) for e in evs):
            problems.append(f"unexpected event like {bad_ev}")
    st = out.state
    for uid, where in exp.get("units", {}).items():
        if st.units[uid].location != where:
            problems.append(f"{uid} is in {st.units[uid].location}, expected {where}")
    for zone, want in exp.get("control", {}).items():
        if st.data["control"].get(zone) != want:
            problems.append(f"{zone}: {st.data['control'].get(zone)}, expected {want}")
    if "phase" in exp and st.phase != exp["phase"]:
        problems.append(f"phase {st.phase}, expected {exp['phase']}")
    if "turn" in exp and st.turn != exp["turn"]:
        problems.append(f"turn {st.turn}, expected {exp['turn']}")
    if "actions_left" in exp and st.data.get("actions_left") != exp["actions_left"]:
        problems.append(
            f"actions left {st.data.get('actions_left')}, expected {exp['actions_left']}"
        )
    if "strike" in exp and not _subset(exp["strike"], st.data.get("strike")):
        problems.append(f"strike markers {st.data.get('strike')} lack {exp['strike']}")
    if "winner" in exp and st.data.get("result", {}).get("winner") != exp["winner"]:
        problems.append(f"result {st.data.get('result')}, expected winner {exp['winner']}")
    if "score" in exp and not _subset(exp["score"], dict(rs.score(module, st))):
        problems.append(f"score {dict(rs.score(module, st))} lacks {exp['score']}")
    if len(dice.rolls) != len(case["dice"]):
        problems.append(f"used {len(dice.rolls)} dice of {len(case['dice'])} scripted")
    if GameState.from_json(json.loads(st.canonical())).canonical() != st.canonical():
        problems.append("state does not survive a JSON round trip")
    return problems
