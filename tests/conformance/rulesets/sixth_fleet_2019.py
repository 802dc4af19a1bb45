"""Sixth Fleet (2019) positions for the conformance harness, and the expectations only this
ruleset can check (control of a zone [3.2], actions at the start of a phase [6.1], the
victory levels [4.4]).

A position::

    {"turn": 1, "phase": "soviet_actions", "actions": 2,
     "units": [["SO-EM-1.1", "Western Black Sea"], ["TK-MECH-1", "Istanbul"]],
     "status": {"SO-EM-1.1": ["spent"]},
     "data": {"joined": {"SY": "Soviet"}, "destroyed_bases": ["Istanbul"], "patrol": []},
     "standing": {"NATO": "divert US-F14 -> Sicily"}}

Units not listed are not in the game; ``[uid, null]`` is a reinforcement still waiting off
the map (provisional 10.0). A unit's side is its roster side, ``neutral`` for a neutral
nationality that has not joined (``data.joined``). Control is computed from the position as
``new_game`` does. ``standing`` holds a side's earlier standing orders (its [standing] lines).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, UnitState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets import Adapter

SOURCE = Path(__file__).resolve().parents[3] / "module_src" / "sixth_fleet_2019"
NEUTRALS = ("EG", "IS", "LY", "SY", "TN", "YU")


@cache
def module_2019() -> Module:
    """The Sixth Fleet (2019) module of ``module_src``."""
    module, diags = load_module(SOURCE)
    assert module is not None, [str(d) for d in diags.items]
    return module


def _data(case: Mapping[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "joined": {},
        "destroyed_bases": [],
        "patrol": [],
        "event_actions": 0,
        "actions_left": int(case.get("actions", 3)),
    }
    data.update(case.get("data", {}))
    return data


def build_state(module: Module, case: Mapping[str, Any]) -> GameState:
    """The position ``case`` describes (see the module docstring)."""
    from referee.rules.sixth_fleet_2019.control import all_control
    from referee.rules.sixth_fleet_2019.game import Game

    pieces = module.pieces()
    data = _data(case)
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
    state = GameState(
        game_id="t",
        module_id=module.id,
        ruleset=module.ruleset,
        scenario=case.get("scenario", "s1980"),
        turn=int(case.get("turn", 2)),
        phase=phase,
        active_side="NATO" if phase.startswith("nato") else "Soviet",
        units=units,
        stacks={k: tuple(v) for k, v in stacks.items()},
        data=data,
    )
    state = state.with_data(control=all_control(Game.of(module), state))
    return _with_standing(module, state, case.get("standing", {}))


def _with_standing(module: Module, state: GameState, lines: Mapping[str, str]) -> GameState:
    """A side's earlier standing orders (``divert``, ``eliminate``) [8.3.2], [7.2]."""
    rs = get_ruleset(module.ruleset)
    for other, text in lines.items():
        earlier = rs.parse_orders(f"side: {other}\n[standing]\n{text}\n", "earlier.txt")
        standing = dict(state.data.get("standing") or {})
        standing[other] = [o.to_json() for o in earlier.standing]
        state = state.with_data(standing=standing)
    return state


def look_actions_at_start(module: Module, state: GameState, want: Any) -> list[str]:
    """``actions_at_start``: side -> how many actions it starts its phase with [6.1]."""
    from referee.rules.sixth_fleet_2019.actions import actions_at_start_6_1
    from referee.rules.sixth_fleet_2019.game import Game

    out: list[str] = []
    for side, n in want.items():
        got = len(actions_at_start_6_1(Game.of(module), state, side))
        if got != n:
            out.append(f"{side} starts with {got} actions, expected {n}")
    return out


def look_levels(module: Module, state: GameState, want: Any) -> list[str]:
    """``levels``: [[Soviet VP margin, level]] read from the victory levels [4.4]."""
    from referee.rules.sixth_fleet_2019.game import Game
    from referee.rules.sixth_fleet_2019.victory import level_4_4

    out: list[str] = []
    for margin, level in want:
        got = level_4_4(Game.of(module), {"Soviet": {"vp": margin}, "NATO": {"vp": 0}})["level"]
        if got != level:
            out.append(f"margin {margin}: {got}, expected {level}")
    return out


def look_control(module: Module, state: GameState, want: Any) -> list[str]:
    """``control``: zone -> the side controlling it, computed from the position [3.2]."""
    from referee.rules.sixth_fleet_2019.control import control_3_2
    from referee.rules.sixth_fleet_2019.game import Game

    game = Game.of(module)
    return [
        f"{zone}: {control_3_2(game, state, zone)}, expected {side}"
        for zone, side in want.items()
        if control_3_2(game, state, zone) != side
    ]


ADAPTER = Adapter(
    module=lambda position: module_2019(),
    build=build_state,
    looks={
        "actions_at_start": look_actions_at_start,
        "levels": look_levels,
        "control": look_control,
    },
)
