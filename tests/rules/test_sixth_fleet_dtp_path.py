"""Moving under DTP on the Med map, and the detection moments a move opens [DTP 5.25, 6.2,
8.55]: no zones of control, through enemy hexes by type, half MA at D2, and each step that
brings enemy units within one hex is a moment for both players."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.path import check_path_5_0, detection_moments_6_2
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def position() -> tuple[Game, GameState]:
    """A row of open sea: the US CV in 0812, a Soviet CG in 0817, a Soviet SS in 0819."""
    m = module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "short", 1, "ship_movement_b", "NATO", {}, {})
    for pid, side, hex_id in (
        ("US-CV-1", "NATO", "0812"),
        ("US-SN-1", "NATO", "0814"),
        ("SO-CG-2", "Soviet", "0817"),
        ("SO-SS-1", "Soviet", "0819"),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None))
    return Game.of(m, state), state


def test_no_zone_of_control_stops_a_ship_next_to_the_enemy() -> None:
    game, state = position()
    assert check_path_5_0(game, state, "US-CV-1", ["0813", "0814", "0815", "0816"]) == []


def test_a_d2_ship_moves_half_its_allowance() -> None:
    game, state = position()
    probs = check_path_5_0(game, state, "US-CV-1", ["0813", "0814", "0815"], damage=2)
    assert [(p.rule, p.code, p.word) for p in probs] == [("5.23", "allowance", "0815")]
    assert "[DTP 8.55]" in probs[0].message


def test_surface_ships_do_not_pass_enemy_surface_ships_but_subs_do() -> None:
    game, state = position()
    probs = check_path_5_0(game, state, "US-SN-1", ["0815", "0816", "0817", "0818"])
    assert probs == []  # a sub passes under the CG [DTP 5.25]
    state = state.with_unit(UnitState("US-CV-1", "NATO", "0815", None))
    probs = check_path_5_0(game, state, "US-CV-1", ["0816", "0817", "0818"])
    assert [(p.rule, p.code) for p in probs] == [("DTP 5.25", "through-enemy-surface")]
    probs = check_path_5_0(game, state, "US-SN-1", ["0815", "0816", "0817"])
    assert [(p.rule, p.code) for p in probs] == [("DTP 5.25", "ends-in-enemy-hex")]


def test_each_step_bringing_enemies_within_one_hex_is_a_moment() -> None:
    game, state = position()
    moments = detection_moments_6_2(
        game, state, "US-SN-1", ["0814", "0815", "0816", "0817", "0818"]
    )
    got = [(m.step, m.at, m.their_hex, m.enemies) for m in moments]
    # the CG (0817) comes within one hex at 0816; the SS (0819) at 0818 [DTP 6.2a/b]
    assert got == [(2, "0816", "0817", ("SO-CG-2",)), (4, "0818", "0819", ("SO-SS-1",))]
