"""Sixth Fleet (1975) positions for the conformance harness, and the expectations only this
ruleset can check (what a unit may reach [5.0], the CRT [8.9], the 14.4 delay).

A position::

    {"module": "sf75ex", "scenario": "test", "options": [],
     "turn": 2, "phase": "combat", "side": "Soviet",
     "units": [["SO-SG-1", "1422"], ["US-F4.2", "holding:US-CV-1"]],
     "returning": ["US-F4.2"], "middle_east_roll": 4,
     "combat": {"attacked": [...]}, "data": {...}, "standing": {"NATO": ["retreat ..."]}}

Units are listed top of stack first; a unit not listed is not in the game. A location that
is not a hex is a box (``holding:CV``, ``eliminated``, ``reinforcements``). ``module`` names a
fixture of ``tests/fixtures/modules`` or, failing that, a data set of ``module_src``
(``sixth_fleet``). With optional rule 14.3 the position is prepared as ``new_game`` does it
(Israeli units unplaced, the 14.3 table kept) [14.3], then the Soviet roll
``middle_east_roll`` if given.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets import Adapter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "modules"
SOURCES = Path(__file__).resolve().parents[3] / "module_src"


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


def _units(module: Module, case: Mapping[str, Any]) -> tuple[dict[str, UnitState], dict]:
    """The listed units (top of stack first) at their hexes or in their boxes."""
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
    return units, {h: tuple(v) for h, v in stacks.items()}


def _data(case: Mapping[str, Any]) -> dict[str, Any]:
    """The game's records: the defaults, the case's ``data``, ``combat`` and the sides'
    earlier ``standing`` orders (parsed as a [standing] section)."""
    data: dict[str, Any] = {"entered": True, "losses": [], "destroyed_defended": []}
    data.update(case.get("data", {}))
    if "combat" in case:
        data["combat"] = case["combat"]
    if "standing" in case:
        standing = {}
        for side, lines in case["standing"].items():
            doc = parse_orders("[standing]\n" + "\n".join(lines) + "\n", "standing.txt", VOCABULARY)
            standing[side] = [o.to_json() for o in doc.standing]
        data["standing"] = standing
    return data


def build_state(module: Module, case: Mapping[str, Any]) -> GameState:
    """The position ``case`` describes (see the module docstring)."""
    units, stacks = _units(module, case)
    state = GameState(
        game_id="t",
        module_id=module.id,
        ruleset=module.ruleset,
        scenario=case.get("scenario", "test"),
        turn=int(case.get("turn", 2)),
        phase=str(case.get("phase", "combat")),
        active_side=case.get("side"),
        units=units,
        stacks=stacks,
        data=_data(case),
        options=tuple(case.get("options", ())),
    )
    if "14.3" in state.options:
        state = _with_middle_east_14_3(module, state, case)
    return state


def _with_middle_east_14_3(module: Module, state: GameState, case: Mapping[str, Any]) -> GameState:
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


# ---- looks: expectations of a position ------------------------------------------------------


def _reachable(module: Module, state: GameState, unit: str) -> Mapping[str, Any]:
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.movement import reachable

    return reachable(Game.of(module, state), state, unit)


def look_reach(module: Module, state: GameState, want: Any) -> list[str]:
    """``reach``: unit -> {hex: MP cost, or null for any cost} it may reach [5.0]."""
    out: list[str] = []
    for unit, hexes in want.items():
        r = _reachable(module, state, unit)
        for h, cost in hexes.items():
            if h not in r:
                out.append(f"{unit} should reach {h}")
            elif cost is not None and r[h].cost != cost:
                out.append(f"{unit} reaches {h} at cost {r[h].cost}, expected {cost}")
    return out


def look_no_reach(module: Module, state: GameState, want: Any) -> list[str]:
    """``no_reach``: unit -> hexes it may not reach."""
    out: list[str] = []
    for unit, hexes in want.items():
        r = _reachable(module, state, unit)
        out += [f"{unit} should not reach {h} (path {r[h].path})" for h in hexes if h in r]
    return out


def look_stop(module: Module, state: GameState, want: Any) -> list[str]:
    """``stop``: unit -> the hex where it must stop."""
    out: list[str] = []
    for unit, h in want.items():
        r = _reachable(module, state, unit)
        if h not in r or r[h].stop is None:
            out.append(f"{unit} should have to stop in {h}")
    return out


def look_crt(module: Module, state: GameState, want: Any) -> list[str]:
    """``crt``: [{differential, ecm, column, entry}] read from the CRT [8.9]."""
    from referee.rules.sixth_fleet_1975.combat import crt_lookup_8_9
    from referee.rules.sixth_fleet_1975.context import Game

    game = Game.of(module, state)
    out: list[str] = []
    for c in want:
        got = crt_lookup_8_9(game, Fraction(c["differential"]), c["ecm"])
        if got is None or (got[0], got[1], str(got[2])) != (c["column"], c["ecm"], c["entry"]):
            out.append(f"CRT {c}: got {got}")
    return out


def look_black_sea_delay(module: Module, state: GameState, c: Any) -> list[str]:
    """``black_sea_delay``: the 14.4 roll ``roll`` on ``turn`` sets the earliest turn
    ``earliest``; the gate is closed to ``unit`` before it and open on it [12.3]."""
    from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.optional import black_sea_delay_14_4

    game = Game.of(module, state)
    events: list[Event] = []
    st = black_sea_delay_14_4(game, state.evolve(turn=c["turn"]), ScriptedDice([c["roll"]]), events)
    out: list[str] = []
    if st.data.get("gate_turn") != c["earliest"]:
        out.append(f"14.4: earliest turn {st.data.get('gate_turn')}, expected {c['earliest']}")
    unit, gate = c["unit"], c["gate"]
    before = closed_area_12_3(game, st.evolve(turn=c["earliest"] - 1), unit, gate)
    at = closed_area_12_3(game, st.evolve(turn=c["earliest"]), unit, gate)
    if before != "14.4" or at is not None:
        out.append(f"14.4: gate closed before={before!r} at={at!r}")
    return out


ADAPTER = Adapter(
    module=lambda position: fixture_module(position.get("module", "sf75ex")),
    build=build_state,
    looks={
        "reach": look_reach,
        "no_reach": look_no_reach,
        "stop": look_stop,
        "crt": look_crt,
        "black_sea_delay": look_black_sea_delay,
    },
)
