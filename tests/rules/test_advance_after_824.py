"""[8.5] the non-phasing player's advance into a hex emptied by 8.24 retreats "if he wishes":
his standing orders decide when they cover the hex; otherwise it is his decision (a pending
decision), under the flag ``ask_advance_after_824`` that ``new_game`` records. A state without
the flag (a game begun before the ruling) keeps the older reading: no advance."""

from __future__ import annotations

import json
from typing import Any

from referee.engine.core import GameState, NoDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.pbem.verify import matching_start
from referee.rules.sixth_fleet_1975.flags import NEW_GAME_FLAGS
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
from tests.rules.play import header

RS = get_ruleset("sixth_fleet_1975")
RETREATS = "retreat SO-DD-1 -> 1322\nretreat SO-DD-2 -> 1322\nretreat SO-DE-1 -> 1421\n"


def _doc(state: GameState, side: str, body: str) -> object:
    return parse_orders(header(state, side) + body, "o.txt", VOCABULARY)


def _position(flag: bool | None, standing: list[str] | None = None) -> GameState:
    """Case 011's position: three Soviet ships in 1422 that cannot attack US-CV-1 (1423) at
    0 or better, so each retreats [8.24] and 1422 is left empty next to US-CV-1."""
    case: dict[str, Any] = {
        "turn": 2,
        "phase": "combat",
        "side": "Soviet",
        "units": [
            ["SO-DD-1", "1422"],
            ["SO-DD-2", "1422"],
            ["SO-DE-1", "1422"],
            ["US-CV-1", "1423"],
        ],
    }
    if flag is not None:
        case["data"] = {"flags": {"ask_advance_after_824": flag}}
    if standing:
        case["standing"] = {"NATO": standing}
    return build_state(fixture_module("sf75ex"), case)


def _retreat(state: GameState) -> GameState:
    m = fixture_module("sf75ex")
    out = RS.resolve(m, state, _doc(state, "Soviet", "[combat]\n" + RETREATS), NoDice())
    assert out.ok, [str(v) for v in out.violations]
    assert all(
        u.location == "1322" or u.location == "1421"
        for k, u in out.state.units.items()
        if k.startswith("SO-")
    )
    return out.state


def test_a_standing_order_covers_the_advance_and_nothing_is_asked() -> None:
    s = _retreat(_position(True, ["advance US-CV-1 -> 1422 when-vacated"]))
    assert not s.pending
    assert s.units["US-CV-1"].location == "1422"
    assert (s.phase, s.active_side) == ("movement", "Soviet")


def test_with_no_standing_order_the_advance_is_asked_and_answered() -> None:
    m = fixture_module("sf75ex")
    s = _retreat(_position(True))
    pd = s.pending[0]
    assert (pd.side, pd.kind, pd.rule) == ("NATO", "advance", "8.5")
    assert pd.options == ("US-CV-1", "none")
    assert RS.awaiting(m, s)[0] == "NATO"
    assert s.units["US-CV-1"].location == "1423"
    assert GameState.from_json(json.loads(s.canonical())).canonical() == s.canonical()
    wrong = RS.validate(m, s, _doc(s, "NATO", f"[answer]\nanswer {pd.id} SO-DD-1\n"))
    assert [v.rule for v in wrong] == ["8.5"]
    out = RS.resolve(m, s, _doc(s, "NATO", f"[answer]\nanswer {pd.id} US-CV-1\n"), NoDice())
    assert out.ok and not out.state.pending
    assert out.state.units["US-CV-1"].location == "1422"
    assert [(e.kind, e.rule) for e in out.events if e.kind == "advance"] == [("advance", "8.5")]
    assert (out.state.phase, out.state.active_side) == ("movement", "Soviet")


def test_answering_none_declines_the_advance() -> None:
    m = fixture_module("sf75ex")
    s = _retreat(_position(True))
    pd = s.pending[0]
    out = RS.resolve(m, s, _doc(s, "NATO", f"[answer]\nanswer {pd.id} none\n"), NoDice())
    assert out.ok and not out.state.pending
    assert out.state.units["US-CV-1"].location == "1423"
    assert not [e for e in out.events if e.kind == "advance"]
    assert (out.state.phase, out.state.active_side) == ("movement", "Soviet")


def test_a_state_without_the_flag_keeps_the_older_reading() -> None:
    s = _retreat(_position(None))
    assert not s.pending and s.units["US-CV-1"].location == "1423"
    assert (s.phase, s.active_side) == ("movement", "Soviet")
    # ... and standing orders still work there
    s = _retreat(_position(None, ["advance US-CV-1 -> 1422 when-vacated"]))
    assert s.units["US-CV-1"].location == "1422"


def test_new_games_record_the_ruling_and_older_starts_still_verify() -> None:
    m = fixture_module("mini")
    new = RS.new_game(m, "skirmish", "g")
    assert new.data["flags"] == NEW_GAME_FLAGS
    assert NEW_GAME_FLAGS == {"ask_advance_after_824": True, "attack_advanced_8_5_4": True}
    # the newest ruling [8.5.4] dropped first, then the [8.5] one
    between, older = RS.earlier_starts(new)
    assert between.data["flags"] == {"ask_advance_after_824": True}
    assert matching_start(RS, new, between.canonical().encode()) == between
    assert "flags" not in older.data
    assert {k: v for k, v in new.data.items() if k != "flags"} == dict(older.data)
    # verify's start: today's when recorded so, the older one for an older archive, and
    # nothing else is accepted in its place
    assert matching_start(RS, new, new.canonical().encode()) is new
    assert matching_start(RS, new, older.canonical().encode()) == older
    other = older.with_data(flags={"ask_advance_after_824": False})
    assert matching_start(RS, new, other.canonical().encode()) is new
    assert RS.earlier_starts(older) == ()
