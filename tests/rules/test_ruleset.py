"""The ruleset API the PBEM referee calls: new_game, awaiting, validate, resolve, view, score."""

from __future__ import annotations

import json

import pytest

from referee.engine.core import GameState, NoDice, ScriptedDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
from tests.rules.play import header, setup_orders

RS = get_ruleset("sixth_fleet_1975")


def _doc(state: GameState, side: str, body: str) -> object:
    return parse_orders(header(state, side) + body, "o.txt", VOCABULARY)


def test_new_game_refuses_unknown_scenarios_and_options() -> None:
    m = fixture_module("mini")
    with pytest.raises(UserError, match="no scenario"):
        RS.new_game(m, "skirmsh", "g")
    with pytest.raises(UserError, match="optional rule"):
        RS.new_game(m, "skirmish", "g", ("15.1",))


def test_set_up_sequence_and_the_special_first_turn() -> None:
    """NATO sets up first, the Soviet player second [11.0]; Game-Turn 1 is the Soviet
    Movement Phase only [12.1]; then NATO Combat of Game-Turn 2 [4.0]."""
    m = fixture_module("mini")
    s = RS.new_game(m, "skirmish", "g")
    assert s.units["US-CV-1"].location == "0203"  # fixed [11.1A]
    assert RS.awaiting(m, s) == ("NATO", "NATO set-up [11.0]")
    out = RS.resolve(
        m, s, _doc(s, "NATO", "[setup]\nplace US-DD-1 0202\nplace US-F4.2 box US-CV-1\n"), NoDice()
    )
    assert out.ok and RS.awaiting(m, out.state)[0] == "Soviet"
    s = out.state
    out = RS.resolve(
        m,
        s,
        _doc(s, "Soviet", "[setup]\nplace SO-SG-1 0405\nplace SO-DD-1 0506\nplace SO-T16.1 0608\n"),
        NoDice(),
    )
    assert out.ok
    s = out.state
    assert (s.turn, s.phase, s.active_side) == (1, "movement", "Soviet")
    out = RS.resolve(m, s, _doc(s, "Soviet", "[movement]\n"), NoDice())
    s = out.state
    assert (s.turn, s.active_side) == (2, "NATO")
    assert any(e.kind == "turn" and e.rule == "4.0" for e in out.events)
    # NATO has nothing to attack: the Combat Phase is skipped with an event [8.21]
    assert s.phase == "movement" and any(e.kind == "skip" for e in out.events)


def test_first_strike_14_1() -> None:
    m = fixture_module("sf75ex")
    s = RS.new_game(m, "test", "g", ("14.1",))
    from referee.rules.sixth_fleet_1975.context import Game

    for side in ("NATO", "Soviet"):
        body = "[setup]\n" + "\n".join(setup_orders(Game.of(m, s), s, side)) + "\n"
        dice = ScriptedDice([2] if side == "Soviet" else [])
        out = RS.resolve(m, s, _doc(s, side, body), dice)
        assert out.ok, [str(v) for v in out.violations]
        s = out.state
    assert s.units["US-CV-1"].box == "eliminated"  # roll 2: the first US CV [14.1]
    assert s.units["SO-SN-1"].box == "eliminated"  # the closest SN
    assert any(e.rule == "14.1" and e.kind == "first-strike" for e in out.events)
    assert RS.score(m, s)["vp"] == {"NATO": 4, "Soviet": 6}


def test_bad_orders_leave_the_state_untouched() -> None:
    m = fixture_module("sf75ex")
    s = build_state(
        m,
        {
            "turn": 2,
            "phase": "movement",
            "side": "Soviet",
            "units": [["SO-SG-1", "1422"], ["US-SN-1", "1424"]],
        },
    )
    before = s.canonical()
    bad = (
        "game: other\nturn: 7\nside: Soviet\n[movement]\n"
        "move US-SN-1 1425\nmove SO-SG-1 9999\nmove SO-SG-2 1421\n"
    )
    out = RS.resolve(m, s, parse_orders(bad, "o.txt", VOCABULARY), NoDice())
    rules = sorted(v.rule for v in out.violations)
    assert "orders" in rules and "4.0" in rules and "5.11" in rules and "5.24" in rules
    texts = " ".join(str(v) for v in out.violations)
    assert "did you mean 'SO-SG-1'?" in texts
    assert out.state.canonical() == before and not out.events


def test_pending_decision_and_answer() -> None:
    m = fixture_module("sf75ex")
    s = build_state(
        m,
        {
            "turn": 2,
            "phase": "movement",
            "side": "Soviet",
            "units": [
                ["SO-SG-1", "1322"],
                ["SO-SG-2", "1322"],
                ["SO-DD-1", "1322"],
                ["SO-DD-2", "1321"],
            ],
        },
    )
    out = RS.resolve(m, s, _doc(s, "Soviet", "[movement]\nmove SO-DD-2 1322\n"), NoDice())
    s = out.state
    pd = s.pending[0]
    assert (pd.side, pd.kind, pd.rule) == ("NATO", "overstack", "7.0")
    assert RS.awaiting(m, s)[0] == "NATO"
    # the state with a pending decision survives JSON (the PBEM layer saves it)
    assert GameState.from_json(json.loads(s.canonical())).canonical() == s.canonical()
    wrong = RS.validate(m, s, _doc(s, "NATO", f"[answer]\nanswer {pd.id} SO-XX\n"))
    assert [v.rule for v in wrong] == ["7.0"]
    also = RS.validate(m, s, _doc(s, "Soviet", "[movement]\n"))
    assert {v.rule for v in also} == {"4.0"}
    out = RS.resolve(m, s, _doc(s, "NATO", f"[answer]\nanswer {pd.id} SO-DD-1\n"), NoDice())
    assert out.ok and not out.state.pending
    assert out.state.units["SO-DD-1"].box == "eliminated"
    assert (out.state.phase, out.state.active_side) == ("combat", "NATO") or out.state.turn == 3


def test_view_hides_the_other_sides_standing_orders() -> None:
    m = fixture_module("sf75ex")
    s = build_state(
        m,
        {
            "units": [],
            "standing": {"NATO": ["retreat 1423 prefer 1524"], "Soviet": ["eliminate US-CV-1"]},
        },
    )
    v = RS.view(m, s, "NATO")
    assert list(v.data["standing"]) == ["NATO"]
    assert RS.view(m, s, None) is s


def test_standing_orders_only_file_is_accepted_any_time() -> None:
    m = fixture_module("sf75ex")
    s = build_state(m, {"turn": 2, "phase": "combat", "side": "Soviet", "units": []})
    doc = _doc(s, "NATO", "[standing]\nretreat 1423 prefer 1524\n")
    assert RS.validate(m, s, doc) == []


def test_a_move_written_from_its_own_hex_reports_that_hex_once() -> None:
    """Report line of a path that starts with the unit's hex: "1321 -> 1322", not
    "1321 -> 1321 1322" [5.0]."""
    m = fixture_module("sf75ex")
    s = build_state(
        m,
        {"turn": 2, "phase": "movement", "side": "Soviet", "units": [["SO-DD-2", "1321"]]},
    )
    out = RS.resolve(m, s, _doc(s, "Soviet", "[movement]\nmove SO-DD-2 1321 1322\n"), NoDice())
    moves = [e.text for e in out.events if e.kind == "move"]
    assert moves == ["SO-DD-2 1321 -> 1322"], [str(v) for v in out.violations]
