"""Run one naval-module conformance case (``tests/conformance/naval_module/NNN-<slug>.json``).

A case is either a position and a list of orders files played in turn through the ruleset::

    {"id": "...", "cites": ["27.2"], "title": "...", "example": "NM-EX-27.2",
     "turn": 1, "phasing": "Soviet", "first": "Soviet", "phase": "movement",
     "units": [["SU-CL-KK", "Sevastopol"], ["SU-INF-1330", "aboard:SU-T-GPA"]],
     "ships": {"SU-CL-KK": {"status": "ready", "damage": 0}},
     "data": {"interdiction": {"Soviet": 1}},
     "steps": [{"side": "Soviet", "orders": "[movement]\\nmove ...", "dice": [4, 6],
                "expect": {...}}]}

or a call of one pure function of the ruleset (``"call": "ports.capacity_26_27"``, ``"args"``,
``"expect"``: attribute paths of the result, ``__self__`` for the result itself). A step's
``expect`` may hold ``violations`` (the rule cases, in any order;
empty when the file must be accepted), ``messages`` (substrings of the violation messages),
``events`` (each ``kind``/``rule``, optional ``text`` substring and ``data`` subset),
``no_events`` (kinds that must not occur), ``units`` (piece -> location or box), ``ships``
(piece -> facts subset), ``pending`` (side, options), ``phase``, ``turn``, ``data`` (subset).
A step ``{"pass_until": {"turn": 61, "phase": "movement", "phasing": "Soviet"}}`` sends empty
files for whatever is awaited until the game gets there.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, ScriptedDice, UnitState
from referee.engine.ruleset import get_ruleset, parse_orders_for
from referee.source.loader import load_module
from referee.source.model import Module

SOURCES = Path(__file__).resolve().parents[2] / "module_src"
SECTION = {
    "host_confirm": "host",
    "aircombat_confirm": "aircombat",
    "reaction_air": "shipping",
    "reaction_air_confirm": "shipping",
    "combat_air": "shipping",
    "combat_air_confirm": "shipping",
}


@cache
def naval_module() -> Module:
    module, diags = load_module(SOURCES / "naval_module")
    assert module is not None, [str(d) for d in diags.items]
    return module


def build_state(module: Module, case: dict[str, Any]) -> GameState:
    units: dict[str, UnitState] = {}
    stacks: dict[str, list[str]] = {}
    pieces = module.pieces()
    ships: dict[str, dict[str, Any]] = {}
    for uid, where in case.get("units", []):
        side = pieces[uid].unit.side
        if where.startswith("aboard:") or where in ("eliminated", "cadre", "unplaced"):
            units[uid] = UnitState(uid, side, None, where)
            if where.startswith("aboard:"):
                ships.setdefault(where[7:], {"cargo": []})["cargo"].append(uid)
        else:
            units[uid] = UnitState(uid, side, where, None)
            stacks.setdefault(where, []).append(uid)
    for sid, facts in case.get("ships", {}).items():
        ships.setdefault(sid, {"cargo": []}).update(facts)
    control = {
        name: str(sp.properties.get("control", ""))
        for name, sp in module.map.spaces.spaces.items()  # type: ignore[union-attr]
    }
    control.update(case.get("control", {}))
    data: dict[str, Any] = {
        "phasing": case.get("phasing", "Soviet"),
        "first": case.get("first", case.get("phasing", "Soviet")),
        "control": control,
        "ships": ships,
    }
    data.update(case.get("data", {}))
    state = GameState(
        game_id="case",
        module_id=module.id,
        ruleset="naval_module",
        scenario="kerch_feodosia",
        turn=int(case.get("turn", 1)),
        phase=case.get("phase", "movement"),
        active_side=case.get("phasing", "Soviet"),
        units=units,
        stacks={k: tuple(v) for k, v in stacks.items()},
        data=data,
    )
    return state


def _doc_text(state: GameState, side: str, body: str) -> str:
    return f"game: case\nturn: {state.turn}\nside: {side}\n{body}\n"


def run_case(case: dict[str, Any]) -> list[str]:
    if "call" in case:
        return _run_call(case)
    module = naval_module()
    rs = get_ruleset("naval_module")
    state = build_state(module, case)
    problems: list[str] = []
    for k, step in enumerate(case["steps"]):
        if "pass_until" in step:
            state = _pass_until(rs, module, state, step["pass_until"])
            continue
        side = step.get("side") or rs.awaiting(module, state)[0]
        doc = parse_orders_for(rs, _doc_text(state, side, step.get("orders", "")), "orders.txt")
        violations = rs.validate(module, state, doc)
        exp = step.get("expect", {})
        events: list[Any] = []
        if not violations:
            outcome = rs.resolve(module, state, doc, ScriptedDice(step.get("dice", [])))
            state, events = outcome.state, list(outcome.events)
        problems += [f"step {k}: {p}" for p in _check(exp, violations, events, state)]
        if "violations" not in exp and violations:
            problems.append(f"step {k}: refused: {[(v.rule, v.message) for v in violations]}")
    return problems


def _pass_until(rs: Any, module: Module, state: GameState, want: dict[str, Any]) -> GameState:
    for _ in range(200):
        if all(
            (state.data.get(k) if k == "phasing" else getattr(state, k)) == v
            for k, v in want.items()
        ):
            return state
        side = rs.awaiting(module, state)[0]
        body = f"[{SECTION.get(state.phase, state.phase)}]"
        doc = parse_orders_for(rs, _doc_text(state, side, body), "pass.txt")
        out = rs.resolve(module, state, doc, ScriptedDice([]))
        assert not out.violations, [(v.rule, v.message) for v in out.violations]
        state = out.state
    raise AssertionError(f"never reached {want}")


def _check(exp: dict[str, Any], violations: list, events: list, state: GameState) -> list[str]:
    out: list[str] = []
    if "violations" in exp:
        got = sorted(v.rule for v in violations)
        if got != sorted(exp["violations"]):
            out.append(
                f"violations {got} != {sorted(exp['violations'])}: "
                f"{[v.message for v in violations]}"
            )
    for text in exp.get("messages", []):
        if not any(text in v.message or text in (v.hint or "") for v in violations):
            out.append(f"no violation says {text!r}: {[v.message for v in violations]}")
    for want in exp.get("events", []):
        if not any(_event_matches(e, want) for e in events):
            out.append(f"no event {want}: {[(e.kind, e.rule, e.text) for e in events]}")
    for kind in exp.get("no_events", []):
        if any(e.kind == kind for e in events):
            out.append(f"unexpected {kind} event")
    for uid, where in exp.get("units", {}).items():
        u = state.units[uid]
        got = u.location if u.location is not None else u.box
        if got != where:
            out.append(f"{uid} is at {got}, expected {where}")
    for sid, facts in exp.get("ships", {}).items():
        have = (state.data.get("ships") or {}).get(sid, {})
        for k, v in facts.items():
            if have.get(k, {"status": "ready", "damage": 0}.get(k)) != v:
                out.append(f"{sid}.{k} is {have.get(k)!r}, expected {v!r}")
    if "pending" in exp:
        want = exp["pending"]
        if not state.pending:
            out.append("no pending decision")
        else:
            pd = state.pending[0]
            if pd.side != want.get("side", pd.side) or list(pd.options) != want.get(
                "options", list(pd.options)
            ):
                out.append(f"pending {pd.side} {pd.options} != {want}")
    for key in ("phase", "turn"):
        if key in exp and getattr(state, key) != exp[key]:
            out.append(f"{key} is {getattr(state, key)!r}, expected {exp[key]!r}")
    for k, v in exp.get("data", {}).items():
        if state.data.get(k) != v:
            out.append(f"data[{k}] is {state.data.get(k)!r}, expected {v!r}")
    return out


def _event_matches(e: Any, want: dict[str, Any]) -> bool:
    if e.kind != want["kind"] or e.rule != want.get("rule", e.rule):
        return False
    if "text" in want and want["text"] not in e.text:
        return False
    return all(e.data.get(k) == v for k, v in want.get("data", {}).items())


def _run_call(case: dict[str, Any]) -> list[str]:
    mod_name, fn_name = case["call"].rsplit(".", 1)
    fn = getattr(importlib.import_module(f"referee.rules.naval_module.{mod_name}"), fn_name)
    args = dict(case.get("args", {}))
    if case.get("with_module"):
        args["module"] = naval_module()
    if "result_text" in case:  # a loss-table entry as written (A, D1, AD2)
        from referee.rules.naval_module.losses import parse_result

        args["result"] = parse_result(case["result_text"])
    result = fn(**args)
    problems: list[str] = []
    for path, want in case["expect"].items():
        got: Any = result
        for part in [] if path == "__self__" else path.split("."):
            got = got[int(part)] if isinstance(got, list | tuple) else getattr(got, part)
        if isinstance(got, tuple):
            got = [list(x) if isinstance(x, tuple) else x for x in got]
        if got != want:
            problems.append(f"{case['call']}: {path} is {got!r}, expected {want!r}")
    return problems
