"""Whole Sixth Fleet (2019) games by the scripted player, with invariants checked after every
step: stacking [7.0], control kept incrementally equals control recomputed from scratch [3.2],
sudden death detected on the step it first holds [4.1], [4.2], actions never negative [6.0],
strike markers conserved and hidden from the other side (provisional 17.0), and every file
the scripted player writes validates. Same seed, same game, byte for byte."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_2019 import strike
from referee.rules.sixth_fleet_2019.control import all_control
from referee.rules.sixth_fleet_2019.game import Game, other
from referee.rules.sixth_fleet_2019.stacking import overstacked_7_2
from referee.rules.sixth_fleet_2019.victory import sudden_death_4_1_4_2
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_2019"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def check_invariants(game: Game, state: GameState) -> list[str]:
    bad = []
    if overstacked_7_2(game, state):
        bad.append(f"over-stacked: {overstacked_7_2(game, state)}")
    if dict(state.data["control"]) != all_control(game, state):
        bad.append("control kept incrementally differs from control recomputed from scratch")
    if sudden_death_4_1_4_2(game, state) and state.phase != "over":
        bad.append("a sudden-death victory holds but the game goes on")
    if int(state.data.get("actions_left", 0)) < 0:
        bad.append("negative actions")
    bad += strike_invariants(game, state)
    if state.phase.endswith("_actions"):
        c2 = "NATO-C2" if state.active_side == "NATO" else "SO-C2"
        want = f"{state.active_side} Actions {state.data['actions_left']}"
        if state.units[c2].location != want:
            bad.append(f"the C2 marker is at {state.units[c2].location}, not {want} [6.0]")
    return bad


def strike_invariants(game: Game, state: GameState) -> list[str]:
    """Every strike marker of the set-up is in exactly one place (a cup, a side's hand, out of
    the game); a side holds only its own cups' markers, at most each cup's ``hold``; the other
    side's view names none of them (provisional 17.0)."""
    bad = []
    data = state.data["strike"]
    start = strike.set_up(game, state.scenario)
    every = sorted(m for ids in start["cups"].values() for m in ids)
    now = [m for ids in data["cups"].values() for m in ids]
    now += [m for ids in data["held"].values() for m in ids] + list(data["spent"])
    if sorted(now) != every:
        bad.append(f"strike markers not conserved: {sorted(now)} != {every}")
    for side, ids in data["held"].items():
        for c in strike.cups(game):
            mine = [m for m in ids if strike.cup_of(game, m) == c]
            if mine and (c.side != side or len(mine) > c.hold):
                bad.append(f"{side} holds {mine} of the {c.name}")
        seen = json.dumps(strike.view_of(game, state, other(side)).data["strike"])
        if any(f'"{m}"' in seen for m in ids):
            bad.append(f"{other(side)}'s view names a marker {side} holds")
    return bad


def play(scenario: str, seed: int) -> tuple[GameState, list[str]]:
    m = module()
    rs = get_ruleset(m.ruleset)
    game = Game.of(m)
    state = rs.new_game(m, scenario, f"g{seed}")
    kinds: list[str] = []
    for k in range(1, 200):
        assert not check_invariants(game, state), (k, check_invariants(game, state))
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        if text is None:
            return state, kinds
        doc = rs.parse_orders(text, f"step-{k}.txt")
        assert not rs.validate(m, state, doc), (k, text)
        out = rs.resolve(m, state, doc, SeededDice(seed * 1000 + k))
        assert out.ok
        kinds += [e.kind for e in out.events]
        state = out.state
    raise AssertionError("the game did not end")


@cache
def played(scenario: str, seed: int) -> tuple[GameState, tuple[str, ...]]:
    """:func:`play`'s game, played once for this file: the invariants of every step are
    checked while it is played, and several tests read what the same game did (seed 1's
    control changes, refits, reinforcements and strike markers). The determinism test plays
    its two games with :func:`play`, each afresh."""
    state, kinds = play(scenario, seed)
    return state, tuple(kinds)


@pytest.mark.parametrize(("scenario", "seed"), [("s1980", 1), ("s1980", 2), ("s1970", 3)])
def test_whole_games_keep_the_invariants(scenario: str, seed: int) -> None:
    state, kinds = played(scenario, seed)
    assert state.phase == "over"
    assert "random_event" in kinds and "actions" in kinds
    assert "result" in state.data


def test_same_seed_same_game() -> None:
    a, _ = play("s1980", 7)
    b, _ = play("s1980", 7)
    assert a.canonical() == b.canonical()


def test_a_control_change_happens() -> None:
    _, kinds = played("s1980", 1)
    assert "control" in kinds


def test_refits_happen_under_the_invariants() -> None:
    """The scripted player refits units from the Refit Box (provisional 11.0), so whole games
    check refit against stacking and control after every step."""
    _, kinds = played("s1980", 1)
    assert kinds.count("refit") >= 1


def test_reinforcements_arrive_under_the_invariants() -> None:
    """The scripted player brings in the scenario's reinforcements when they are due
    (provisional 10.0), so whole games check them against stacking and control; none arrives
    before its Game-Turn."""
    m = module()
    sc = m.scenarios["s1980"]
    first = {u: r.after_turn + 1 for r in sc.reinforcements for u in r.units}
    state = get_ruleset(m.ruleset).new_game(m, "s1980", "g")
    assert {u for u, s in state.units.items() if s.box == "reinforcements"} == set(first)
    end, kinds = played("s1980", 1)
    assert kinds.count("reinforce") >= 2
    assert all(end.units[u].box != "reinforcements" for u in first if first[u] < end.turn)


def test_every_reinforcement_can_arrive_somewhere() -> None:
    """Scenario data (estimates) checked against the provisional 10.0 procedure: each
    reinforcement group of both scenarios names entry zones, each with a base [3.2.1] of the
    kind its units need (naval: a naval or off-map base [8.4.1]; ground: a land zone), and
    arrives before the last turn."""
    m = module()
    game = Game.of(m)
    for sc in m.scenarios.values():
        assert sc.reinforcements, sc.id
        for r in sc.reinforcements:
            assert r.entry == "bases" and r.hexes, (sc.id, r.units)
            assert 0 <= r.after_turn < sc.turns
            for z in r.hexes:
                assert game.has_base(z), (sc.id, z)
                for uid in r.units:
                    if game.kind(uid) == "naval":
                        assert game.prop(z, "base") in ("naval", "off_map"), (uid, z)
                    if game.kind(uid) == "ground":
                        assert game.is_land(z), (uid, z)


def test_strike_markers_are_drawn_and_played_under_the_invariants() -> None:
    """The scripted player plays its EW markers for actions [6.1] and its CM/SOF markers as
    strikes [6.4] (provisional 17.0), so whole games check the cups after every step."""
    _, kinds = played("s1980", 1)
    assert kinds.count("strike_draw") >= 4 and kinds.count("strike_drawn") >= 4
    assert kinds.count("strike_marker") >= 2
