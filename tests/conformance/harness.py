"""Build positions for rule tests from a compact description, and run one conformance case.

A case (``tests/conformance/sixth_fleet_1975/NNN-<case>-<slug>.json``) holds::

    {"id": "...", "cites": ["8.24"], "title": "...",
     "module": "sf75ex", "scenario": "test", "options": [],
     "turn": 2, "phase": "combat", "side": "Soviet",
     "units": [["SO-SG-1", "1422"], ["US-SN-1", "1423"], ["US-F4.2", "holding:US-CV-1"]],
     "middle_east_roll": 4,   # with "options": ["14.3"]: the Soviet 14.3 roll already made
     "combat": {"attacked": [...]}, "data": {...}, "standing": {"NATO": ["retreat ..."]},
     "orders": "attack SO-SG-1 -> US-SN-1",
     "dice": [1],
     "expect": {"violations": ["8.23"], "events": [{"kind": "attack", "rule": "8.0",
                "data": {"differential": "10"}}], "units": {"US-SN-1": "1424"},
                "pending": {"side": "NATO", "kind": "retreat", "options": [...]},
                "phase": "movement", "reach": {"SO-SG-1": {"1424": 1}},
                "no_reach": {"SO-SG-1": ["1523"]}, "score": {"net": 5},
                "reach_after": {"SO-DE-1": {"1623": 3}}}}

``reach``/``no_reach``/``stop`` are asked on the case's position; ``reach_after`` on the
position the orders leave (movement after a retreat [8.73]).

Units are listed top of stack first; a unit not listed is not in the game. A location that
is not a hex is a box (``holding:CV``, ``eliminated``, ``reinforcements``). ``module`` names a
fixture of ``tests/fixtures/modules`` or, failing that, a data set of ``module_src``
(``sixth_fleet``). With optional rule 14.3 the position is prepared as ``new_game`` does it
(Israeli units unplaced, the 14.3 table kept) [14.3].
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, ScriptedDice, UnitState
from referee.engine.orders import Order
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.vocabulary import parse_orders
from referee.source.loader import load_module
from referee.source.model import Module

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"
SOURCES = Path(__file__).resolve().parents[2] / "module_src"


@cache
def fixture_module(name: str) -> Module:
    """A test fixture module, or (when no fixture has the name) a module of ``module_src``,
    e.g. ``sixth_fleet``, for cases that need the real data set's tables."""
    root = FIXTURES / name
    if not root.is_dir():
        root = SOURCES / name
    module, diags = load_module(root)
    assert module is not None, [str(d) for d in diags.items]
    return module


def build_state(module: Module, case: dict[str, Any]) -> GameState:
    units: dict[str, UnitState] = {}
    stacks: dict[str, list[str]] = {}
    pieces = module.pieces()
    for uid, where in case.get("units", []):
        side = pieces[uid].unit.side
        if len(where) == 4 and where.isdigit():
            units[uid] = UnitState(uid, side, where, None)
            stacks.setdefault(where, []).append(uid)
        else:
            units[uid] = UnitState(uid, side, None, where)
    for uid in case.get("returning", []):
        u = units[uid]
        units[uid] = UnitState(u.id, u.side, u.location, u.box, frozenset({"returning"}))
    data: dict[str, Any] = {"entered": True, "losses": [], "destroyed_defended": []}
    data.update(case.get("data", {}))
    if "combat" in case:
        data["combat"] = case["combat"]
    if "standing" in case:
        standing = {}
        for side, lines in case["standing"].items():
            doc = parse_orders("[standing]\n" + "\n".join(lines) + "\n", "standing.txt")
            standing[side] = [o.to_json() for o in doc.standing]
        data["standing"] = standing
    state = GameState(
        game_id="t",
        module_id=module.id,
        ruleset=module.ruleset,
        scenario=case.get("scenario", "test"),
        turn=int(case.get("turn", 2)),
        phase=str(case.get("phase", "combat")),
        active_side=case.get("side"),
        units=units,
        stacks={h: tuple(v) for h, v in stacks.items()},
        data=data,
        options=tuple(case.get("options", ())),
    )
    if "14.3" in state.options:
        state = _with_middle_east_14_3(module, state, case)
    return state


def _with_middle_east_14_3(module: Module, state: GameState, case: dict[str, Any]) -> GameState:
    """Optional rule 14.3 as ``new_game`` prepares it (the Israeli units unplaced, the table
    kept), then the Soviet roll ``middle_east_roll`` if the case gives one; the 14.3 units the
    case lists keep the place it gives them."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.middle_east import (
        middle_east_roll_14_3,
        prepare_14_3,
        read_table_14_3,
    )

    table = read_table_14_3(module)
    assert table is not None, "a 14.3 case needs a module with the 14.3 table"
    rows = {uid for r in table.rows for uid, _ in r.units}
    pieces = module.pieces()
    listed = {k: v for k, v in state.units.items() if pieces[k].unit.id in rows}
    bare = state.evolve(units={k: v for k, v in state.units.items() if k not in listed})
    game = Game.of(module, bare)
    st = prepare_14_3(game, bare, table)
    if "middle_east_roll" in case:
        facts = st.data["middle_east_14_3"]
        rolled = middle_east_roll_14_3(
            game,
            st.evolve(active_side=facts["roller"]),
            ScriptedDice([int(case["middle_east_roll"])]),
            [],
        )
        st = rolled.evolve(active_side=state.active_side)
    units = dict(st.units)
    units.update(listed)
    return st.evolve(units=units)


def orders_text(state: GameState, case: dict[str, Any]) -> str:
    if case.get("raw_orders") is not None:
        return str(case["raw_orders"])
    section = case.get("section") or {
        "setup": "setup",
        "combat": "combat",
        "movement": "movement",
        "reinforcement": "reinforcement",
    }.get(state.phase, "movement")
    head = f"game: t\nturn: {state.turn}\nside: {case.get('orders_side', state.active_side)}\n"
    body = f"[{section}]\n{case.get('orders', '')}\n"
    if case.get("answer"):
        body = f"[answer]\n{case['answer']}\n"
    if case.get("orders_standing"):
        body += "[standing]\n" + "\n".join(case["orders_standing"]) + "\n"
    return head + body


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(
            k in got and _subset(v, got[k]) for k, v in want.items()
        )
    if isinstance(want, list) and isinstance(got, list):
        return want == got
    return str(want) == str(got)


def run_case(case: dict[str, Any]) -> list[str]:
    """Every way the engine disagrees with the case (empty: it agrees)."""
    module = fixture_module(case.get("module", "sf75ex"))
    rs = get_ruleset(module.ruleset)
    state = build_state(module, case)
    exp = case.get("expect", {})
    problems: list[str] = []
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.movement import reachable

    game = Game.of(module, state)
    for unit, hexes in exp.get("reach", {}).items():
        r = reachable(game, state, unit)
        for h, cost in hexes.items():
            if h not in r:
                problems.append(f"{unit} should reach {h}")
            elif cost is not None and r[h].cost != cost:
                problems.append(f"{unit} reaches {h} at cost {r[h].cost}, expected {cost}")
    for unit, hexes in exp.get("no_reach", {}).items():
        r = reachable(game, state, unit)
        for h in hexes:
            if h in r:
                problems.append(f"{unit} should not reach {h} (path {r[h].path})")
    for unit, h in exp.get("stop", {}).items():
        r = reachable(game, state, unit)
        if h not in r or r[h].stop is None:
            problems.append(f"{unit} should have to stop in {h}")
    problems += _direct_checks(module, state, exp)
    if "orders" not in case and "answer" not in case and "raw_orders" not in case:
        return problems
    from referee.engine.orders import OrdersSyntaxError
    from referee.engine.ruleset import parse_orders_for

    try:
        doc = parse_orders_for(rs, orders_text(state, case), "orders.txt")
    except OrdersSyntaxError as exc:
        if exp.get("syntax_error"):
            return problems
        return [*problems, f"syntax error: {exc}"]
    if exp.get("syntax_error"):
        problems.append("expected a syntax error")
    got = sorted(v.rule for v in rs.validate(module, state, doc))
    want = exp.get("violations")
    if want is not None and sorted(want) != got:
        msgs = [str(v) for v in rs.validate(module, state, doc)]
        problems.append(f"violations {got} expected {sorted(want)}: {msgs}")
    if got or "dice" not in case:
        return problems
    dice = ScriptedDice(case["dice"])
    out = rs.resolve(module, state, doc, dice)
    if out.violations:
        problems.append(f"resolve refused: {[str(v) for v in out.violations]}")
        return problems
    evs = [e.to_json() for e in out.events]
    for want_ev in exp.get("events", []):
        if not any(_subset(want_ev, e) for e in evs):
            problems.append(
                f"no event like {want_ev}; got {[(e['kind'], e['rule'], e['text']) for e in evs]}"
            )
    for bad in exp.get("no_events", []):
        if any(_subset(bad, e) for e in evs):
            problems.append(f"unexpected event like {bad}")
    st = out.state
    for uid, where in exp.get("units", {}).items():
        u = st.units[uid]
        now = u.location or u.box
        if now != where:
            problems.append(f"{uid} is in {now}, expected {where}")
    if "pending" in exp:
        if exp["pending"] is None:
            if st.pending:
                problems.append(f"unexpected pending decision {st.pending[0].to_json()}")
        elif not st.pending:
            problems.append("expected a pending decision")
        elif not _subset(exp["pending"], st.pending[0].to_json()):
            problems.append(f"pending {st.pending[0].to_json()} != {exp['pending']}")
    if "phase" in exp and f"{st.phase}:{st.active_side}" != exp["phase"]:
        problems.append(f"now {st.phase}:{st.active_side}, expected {exp['phase']}")
    problems += _reach_after(module, st, exp)
    if "score" in exp and not _subset(exp["score"], dict(rs.score(module, st))):
        problems.append(f"score {dict(rs.score(module, st))} != {exp['score']}")
    if "data" in exp and not _subset(exp["data"], dict(st.data)):
        problems.append(f"data {dict(st.data)} lacks {exp['data']}")
    if len(dice.rolls) != len(case["dice"]):
        problems.append(f"used {len(dice.rolls)} dice of {len(case['dice'])} scripted")
    # round trip: the state survives JSON
    if GameState.from_json(json.loads(st.canonical())).canonical() != st.canonical():
        problems.append("state does not survive a JSON round trip")
    _ = Order
    return problems


def _reach_after(module: Module, st: GameState, exp: dict[str, Any]) -> list[str]:
    """``reach_after``: what a unit may reach on the position the orders left (e.g. in the
    Movement Phase that follows a retreat [8.73]), hex -> MP cost as ``reach`` does."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.movement import reachable

    out: list[str] = []
    game = Game.of(module, st)
    for unit, hexes in exp.get("reach_after", {}).items():
        r = reachable(game, st, unit)
        for h, cost in hexes.items():
            if h not in r:
                out.append(f"after the orders, {unit} should reach {h}")
            elif cost is not None and r[h].cost != cost:
                out.append(f"after the orders, {unit} reaches {h} at cost {r[h].cost}, not {cost}")
    return out


def _direct_checks(module: Module, state: GameState, exp: dict[str, Any]) -> list[str]:
    """Checks of one rule function with the example's own numbers."""
    from fractions import Fraction

    from referee.engine.core import Event
    from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
    from referee.rules.sixth_fleet_1975.combat import crt_lookup_8_9
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.optional import black_sea_delay_14_4

    out: list[str] = []
    game = Game.of(module, state)
    for c in exp.get("crt", []):
        got = crt_lookup_8_9(game, Fraction(c["differential"]), c["ecm"])
        want = (c["column"], c["ecm"], c["entry"])
        if got is None or (got[0], got[1], str(got[2])) != want:
            out.append(f"CRT {c}: got {got}")
    if "black_sea_delay" in exp:
        c = exp["black_sea_delay"]
        st = state.evolve(turn=c["turn"])
        events: list[Event] = []
        st = black_sea_delay_14_4(game, st, ScriptedDice([c["roll"]]), events)
        if st.data.get("gate_turn") != c["earliest"]:
            out.append(f"14.4: earliest turn {st.data.get('gate_turn')}, expected {c['earliest']}")
        unit, gate = c["unit"], c["gate"]
        before = closed_area_12_3(game, st.evolve(turn=c["earliest"] - 1), unit, gate)
        at = closed_area_12_3(game, st.evolve(turn=c["earliest"]), unit, gate)
        if before != "14.4" or at is not None:
            out.append(f"14.4: gate closed before={before!r} at={at!r}")
    return out
