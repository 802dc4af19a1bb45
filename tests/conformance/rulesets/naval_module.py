"""Naval module (Kerch-Feodosia) positions for the conformance harness, the expectations only
this ruleset can check (a ship's facts), and its probe ``call``: one pure function of
``referee/rules/naval_module`` with arguments.

A position::

    {"turn": 1, "phasing": "Soviet", "first": "Soviet", "phase": "movement",
     "units": [["SU-CL-KK", "Sevastopol"], ["SU-INF-1330", "aboard:SU-T-GPA"]],
     "ships": {"SU-CL-KK": {"status": "ready", "damage": 0}},
     "control": {"Evpatoria": "Axis"}, "data": {"interdiction": {"Soviet": 1}}}

A unit ``aboard:SHIP`` is that ship's cargo; ``eliminated``, ``cadre`` and ``unplaced`` are
boxes; anything else is a space. Control is the map's, with ``control`` laid over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, UnitState
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets import Adapter, call_probe

SOURCES = Path(__file__).resolve().parents[3] / "module_src"
BOXES = ("eliminated", "cadre", "unplaced")
SECTION = {  # the section an empty file of a phase is written in
    "host_confirm": "host",
    "aircombat_confirm": "aircombat",
    "reaction_air": "shipping",
    "reaction_air_confirm": "shipping",
    "combat_air": "shipping",
    "combat_air_confirm": "shipping",
}


@cache
def naval_module() -> Module:
    """The naval module of ``module_src``."""
    module, diags = load_module(SOURCES / "naval_module")
    assert module is not None, [str(d) for d in diags.items]
    return module


def _units(module: Module, case: Mapping[str, Any]) -> tuple[dict, dict, dict]:
    """The listed units (in spaces, in boxes, aboard ships) and the ships' facts."""
    units: dict[str, UnitState] = {}
    stacks: dict[str, list[str]] = {}
    pieces = module.pieces()
    ships: dict[str, dict[str, Any]] = {}
    for uid, where in case.get("units", []):
        side = pieces[uid].unit.side
        if where.startswith("aboard:") or where in BOXES:
            units[uid] = UnitState(uid, side, None, where)
            if where.startswith("aboard:"):
                ships.setdefault(where[7:], {"cargo": []})["cargo"].append(uid)
        else:
            units[uid] = UnitState(uid, side, where, None)
            stacks.setdefault(where, []).append(uid)
    for sid, facts in case.get("ships", {}).items():
        ships.setdefault(sid, {"cargo": []}).update(facts)
    return units, {k: tuple(v) for k, v in stacks.items()}, ships


def build_state(module: Module, case: Mapping[str, Any]) -> GameState:
    """The position ``case`` describes (see the module docstring)."""
    units, stacks, ships = _units(module, case)
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
    return GameState(
        game_id="case",
        module_id=module.id,
        ruleset="naval_module",
        scenario="kerch_feodosia",
        turn=int(case.get("turn", 1)),
        phase=case.get("phase", "movement"),
        active_side=case.get("phasing", "Soviet"),
        units=units,
        stacks=stacks,
        data=data,
    )


def look_ships(module: Module, state: GameState, want: Any) -> list[str]:
    """``ships``: ship -> a subset of its facts (an unrecorded ship is ready, undamaged)."""
    out: list[str] = []
    for sid, facts in want.items():
        have = (state.data.get("ships") or {}).get(sid, {})
        for k, v in facts.items():
            if have.get(k, {"status": "ready", "damage": 0}.get(k)) != v:
                out.append(f"{sid}.{k} is {have.get(k)!r}, expected {v!r}")
    return out


def probe_call(step: Mapping[str, Any]) -> dict[str, Any]:
    """``call``: one function of the ruleset (see ``call_probe``); ``result_text`` passes a
    loss-table entry as written (A, D1, AD2) as the argument ``result``."""
    if "result_text" in step:
        from referee.rules.naval_module.losses import parse_result

        args = {**step.get("args", {}), "result": parse_result(step["result_text"])}
        step = {**step, "args": args}
    return CALL(step)


CALL = call_probe("referee.rules.naval_module", naval_module)


def at_moment(state: GameState, want: Mapping[str, Any]) -> bool:
    """``pass_until`` here also knows ``phasing``, the side whose turn half it is."""
    return all(
        (state.data.get(k) if k == "phasing" else getattr(state, k)) == v for k, v in want.items()
    )


ADAPTER = Adapter(
    module=lambda position: naval_module(),
    build=build_state,
    looks={"ships": look_ships},
    probes={"call": probe_call},
    at_moment=at_moment,
    empty_orders=lambda st: f"[{SECTION.get(st.phase, st.phase)}]",
)
