"""Westpac's reinforcement track and variable air box in its VASSAL module [DTP 11.506,
11.507] (issue 26 §5): two display windows whose boxes hold the units still to arrive, in
every position the referee writes (the set-up saves in the module are such positions; real
VASSAL reads them in ``test_dtp_westpac_vassal.py``). Other DTP modules have neither."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.engine.core import UnitState
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_dtp.track_displays import AIR, AIR_BOX, TRACK, TRACK_BOX
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.module.module_writer import plan_build
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_placements

ROOT = Path(__file__).resolve().parents[2]


def _module(name: str) -> Module:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


def _where(module: Module, state) -> dict[str, tuple[str, str]]:  # type: ignore[no-untyped-def]
    table = table_for(module)
    zones = {d.decl.name: [(b.zone, b.rect) for b in d.layout.boxes] for d in table.plan.displays}
    out = {}
    for stack in position_placements(table, state):
        for p in stack:
            boxes = zones.get(p.map, [])
            inside = (z for z, (x0, y0, x1, y1) in boxes if x0 <= p.x < x1 and y0 <= p.y < y1)
            box = next(inside, "")
            out[p.piece_id] = (p.map, box)
    return out


def test_only_westpac_has_the_track_and_the_air_box() -> None:
    names = [d.decl.name for d in plan_build(_module("dtp_westpac")).displays]
    assert names[-2:] == [TRACK, AIR_BOX]
    assert TRACK not in [d.decl.name for d in plan_build(_module("dtp_denmark_strait")).displays]


def test_a_new_game_shows_what_arrives_when_and_the_variable_air() -> None:
    module = _module("dtp_westpac")
    state = get_ruleset(module.ruleset).new_game(module, "westpac", "t")
    where = _where(module, state)
    scenario = module.scenarios["westpac"]
    for r in scenario.reinforcements:  # [DTP 11.506]: each in the box of its Game-Turn
        for u in r.units:
            assert where[u] == (TRACK, TRACK_BOX.format(r.after_turn + 1)), u
    listed = {"SO-M23V.1", "SO-M23V.2", "SO-T16V.1", "SO-T16V.2", "SO-S24V"}
    assert {u for u, w in where.items() if w == (AIR_BOX, AIR)} == listed
    assert listed.isdisjoint(state.units)  # not yet in the game [DTP 11.5052]
    # once a variable air unit has come (its roll's turn recorded), it leaves the box for
    # the track's box of that turn while it waits to be placed [DTP 11.507]
    came = "SO-S24V"
    arrived = replace(
        state,
        units={**state.units, came: UnitState(came, "EastBlock", None, "reinforcements")},
        data={**state.data, "variable_air": {"rolls": {"4": 6}, "arrived": {came: 4}}},
    )
    where = _where(module, arrived)
    assert where[came] == (TRACK, TRACK_BOX.format(4))
    assert {u for u, w in where.items() if w == (AIR_BOX, AIR)} == listed - {came}


def test_a_unit_placed_leaves_the_track() -> None:
    module = _module("dtp_westpac")
    state = get_ruleset(module.ruleset).new_game(module, "westpac", "t")
    first = module.scenarios["westpac"].reinforcements[0].units[0]
    st = state.units[first]
    placed = replace(state, units={**state.units, first: replace(st, location="3033", box=None)})
    assert _where(module, placed)[first][0] == "Main Map"
