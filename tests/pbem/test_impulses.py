"""Issue 10 §4 end to end: alternating impulses with final passes, and reactions of the
non-phasing side answered by a pending decision or a standing order (toy_impulse), through the
signed workflow on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pbem import toy_impulse, toys_common
from tests.pbem.cliflow import Table, cli

SIDES = ("NATO", "Soviet")


def report(t: Table, folder: str) -> dict:
    return json.loads((t.game / "turns" / folder / "report.json").read_text())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("impulse")
    t = Table(root, toys_common.module_dir(root, toy_impulse.ID), SIDES)
    t.new()
    # Game-Turn 1: NATO's carrier ends next to SO-SG-1: the Soviet player owes a reaction
    t.send("NATO", "move US-CV-1 0404", "move US-DD-1 0304")
    t.send("Soviet", "answer detect-US-CV-1 detect", "standing detect-always")
    t.send("Soviet", "pass final")  # the Soviet side has the first impulse, and is done
    t.send("NATO", "attack US-CV-1 SO-DD-1")  # NATO goes on alone
    t.send("NATO", "pass")
    # Game-Turn 2: the standing order answers the reaction; impulses until both pass
    t.send("NATO", "move US-DD-1 0305")  # next to SO-SG-1
    t.send("Soviet", "pass")
    t.send("NATO", "pass")
    # Game-Turn 3: both pass at once
    t.send("NATO", "move US-DD-1 0304")
    t.send("Soviet", "pass final")
    t.send("NATO", "pass final")
    return t


def test_a_reaction_without_standing_order_is_a_pending_decision(played: Table) -> None:
    first = report(played, "001-NATO-move")
    assert [p["id"] for p in first["pending"]] == ["detect-US-CV-1"]
    assert first["awaiting"]["due"] == [
        {"side": "Soviet", "kind": "answer", "what": "Soviet answer to detect-US-CV-1 [I2]"}
    ]
    assert [e["text"] for e in first["events"]][-1] == "Soviet may react to US-CV-1"
    answer = report(played, "002-Soviet-answer")
    assert [r["purpose"] for r in answer["rolls"]] == ["detect US-CV-1"]
    # NATO's remaining move was carried out after the answer, in the same step
    assert "US-DD-1 to 0304" in [e["text"] for e in answer["events"]]


def test_a_standing_order_answers_the_reaction(played: Table) -> None:
    rep = report(played, "006-NATO-move")
    assert rep["pending"] == []
    assert [r["purpose"] for r in rep["rolls"]] == ["detect US-DD-1"]


def test_impulses_alternate_and_a_final_pass_ends_a_side(played: Table) -> None:
    names = sorted(p.name for p in (played.game / "turns").iterdir())
    assert names[3:6] == ["003-Soviet-combat", "004-NATO-combat", "005-NATO-combat"]
    after_final = report(played, "003-Soviet-combat")["awaiting"]["due"]
    assert [d["side"] for d in after_final] == ["NATO"]
    assert report(played, "004-NATO-combat")["awaiting"]["side"] == "NATO"
    assert report(played, "005-NATO-combat")["after"]["phase"] == "move"
    assert report(played, "007-Soviet-combat")["awaiting"]["side"] == "NATO"
    assert report(played, "008-NATO-combat")["after"] == {
        "turn": 3,
        "phase": "move",
        "active_side": "NATO",
    }
    assert report(played, names[-1])["awaiting"] is None  # the game is over


def test_out_of_turn_says_who_is_awaited_and_for_what(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_impulse.ID), SIDES)
    t.new()
    out = t.send("Soviet", "pass", expect=1)
    assert "refused (out-of-turn)" in out
    assert "the game waits for NATO (orders): NATO move, Game-Turn 1 [I1]" in out
    t.send("NATO", "move US-CV-1 0404")
    out = t.send("NATO", "move US-DD-1 0304", expect=1)
    assert "Soviet (answer): Soviet answer to detect-US-CV-1 [I2]" in out


def test_verify_replays_everything_and_reveal_releases_the_rest(played: Table) -> None:
    code, out = played.verify(played.player_copy())
    assert code == 0 and out["reports"] == 12, out
    assert out["rolls"] >= 3
    code, out = cli("reveal", played.game, "--module", played.module)
    assert code == 0, out
    code, out = played.verify(played.player_copy("after"))
    assert code == 0, out
    # a changed public roll fails verify, naming the roll
    copy = played.player_copy("tampered")
    p = copy / "turns/002-Soviet-answer/report.json"
    p.write_text(p.read_text().replace('"value": ', '"value": 1', 1))
    code, out = played.verify(copy)
    assert code == 1 and out["file"] == "turns/002-Soviet-answer/report.json", out


def test_awaiting_is_derived_from_due_and_required_without_it(tmp_path: Path) -> None:
    """A ruleset with ``Submissions`` waits, for ``awaiting``, for the first submission due
    (the toy impulse ruleset gives no ``awaiting`` of its own); one played one side at a
    time cannot leave ``awaiting`` out: its class is refused when it is made."""
    from referee.engine.ruleset import Ruleset, due_of

    rs = toy_impulse.ImpulseRuleset()
    module = toys_common.load(tmp_path, rs.id)
    state = rs.new_game(module, next(iter(module.scenarios)), "g")
    first = due_of(rs, module, state)[0]
    assert rs.awaiting(module, state) == (first.side, first.what)
    over = state.evolve(active_side=None)
    assert due_of(rs, module, over) == () and rs.awaiting(module, over) == (
        "",
        "the game is over",
    )
    with pytest.raises(TypeError, match="says whose orders it awaits"):

        class OneSideAtATime(Ruleset):
            id = "toy_no_awaiting"
            name = "no awaiting (tests only)"
