"""`make demo-2019`: a signed Sixth Fleet (2019) game of two turns, with random events, extra
actions, a control change and strike markers played, that `referee verify` accepts; the same
run twice gives the same bytes (shown over Game-Turn 1, in-process)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos import sixth_fleet_2019 as demo_2019
from referee.demos.base import begin, prepare
from tests.pbem.cliflow import cli, first_steps_differ

if TYPE_CHECKING:
    from tests.conftest import DemoRun


def _first_turn(out: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The demo's game from the same inputs over its Game-Turn 1 only (every phase of the
    sequence of play once: each side's Random Events and Action Phase), in-process: a
    whole second game would cost about 30 s of CPU. Its archive."""
    monkeypatch.setattr(demo_2019, "TURNS", 1)
    with contextlib.redirect_stdout(io.StringIO()):
        prepare(out)
        game, keys, secret = begin(out, demo_2019.GAME)
        demo_2019.play_turns(out, game, keys, secret)
    return game


@pytest.mark.slow
def test_demo_2019_plays_two_turns_and_verifies(
    tmp_path: Path, finished_demo: Callable[[str], DemoRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = finished_demo("sixth_fleet_2019").game  # the session's run; a second run below
    reports = "\n".join(p.read_text("utf-8") for p in sorted(game.glob("turns/*/report.md")))
    assert "[5.1] Soviet rolls" in reports and "[5.1] NATO rolls" in reports
    assert "[6.2] " in reports or "6.2 Crete" in reports  # a NATO extra action
    assert "[3.2.1] control of Istanbul changes" in reports
    assert "provisional: not from the rulebook" in reports
    # an attack cites its rule once, before its text, not again after the table reading [9.0]
    attacks = [
        line for line in reports.splitlines() if line.startswith("- [9.0]") and "die" in line
    ]
    assert attacks and not [line for line in attacks if line.count("[9.0]") > 1]
    # step titles name the phase as the sequence of play does [5.0], not by its id
    titles = [
        json.loads(p.read_text("utf-8"))["title"] for p in sorted(game.glob("turns/*/report.json"))
    ]
    assert "Game-Turn 1, Soviet Random Events Phase" in titles
    assert "Game-Turn 2, NATO Action Phase" in titles
    assert not [t for t in titles if "_events" in t or "_actions" in t]
    assert "## Position after: Game-Turn 2, Soviet Random Events Phase" in reports
    assert "Position after: Game-Turn 1, soviet_" not in reports
    assert "| Unit | Name | Zone | Status |" in reports and "| Hex |" not in reports
    # reinforcements due on turn 2 are brought in (provisional 10.0)
    assert "arrive as reinforcements" in reports or "arrives as a reinforcement" in reports
    # strike markers (provisional 17.0): drawn from the cups [2.12], EW played for an action
    # [6.1], a CM or SOF strike [6.4]
    assert "[2.12] Soviet draws a strike marker from the Soviet Strike Cup" in reports
    assert re.search(r"\[6\.1\] (NATO|Soviet) plays \S*-EW\.\d", reports)
    assert re.search(r"\[6\.4\] (NATO|Soviet) plays \S*-(CM\.\d|SOF)", reports)
    # the markers are hidden: each side has its own VASSAL save of the position, in its
    # encrypted part of each step (issue 24), and none in the clear
    for side in ("NATO", "Soviet"):
        parts = [json.loads(p.read_text("utf-8"))["parts"][side]
                 for p in game.glob("turns/*/manifest.json")]  # fmt: skip
        assert sum(f"position-{side}.vsav" in names for names in parts) >= 8
        assert len(list(game.glob(f"turns/*/side-{side}.age"))) == len(parts)
    assert not list(game.glob("turns/*/position-*.vsav")) and not list(game.glob("turns/*/view-*"))
    # the same run twice gives the same bytes: shown over Game-Turn 1 (_first_turn)
    assert first_steps_differ(game, _first_turn(tmp_path / "b", monkeypatch)) == []


@pytest.mark.slow
def test_an_archive_titled_by_phase_ids_still_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Archives made before step titles named phases recorded the phase id ("Game-Turn 1,
    Soviet soviet_events"); verify binds the title but reads that form too. The demo's own
    ``verify`` step (today's code) must accept the archive such a referee writes: shown on
    the game's Game-Turn 1, where every phase of the sequence of play has a step."""
    from referee.pbem import record

    # the referee of then: titles from the phase id (verify keeps today's phase_title_of)
    monkeypatch.setattr(record, "phase_title_of", lambda rs, module, state: state.phase)
    game = _first_turn(tmp_path / "old", monkeypatch)
    code, out = cli("verify", game)
    assert code == 0 and "replay matches" in out, out
    titles = [
        json.loads(p.read_text("utf-8"))["title"] for p in sorted(game.glob("turns/*/report.json"))
    ]
    assert "Game-Turn 1, Soviet soviet_events" in titles


def test_step_titles_accept_only_the_two_forms() -> None:
    from referee.engine.core import GameState
    from referee.pbem.record import step_names, step_titles

    state = GameState(
        game_id="g", module_id="m", ruleset="r", scenario="s", turn=3, phase="nato_actions",
        active_side="NATO", units={}, stacks={}, data={},
    )  # fmt: skip
    title, folder = step_names(7, "NATO", state, "NATO Action Phase")
    assert (title, folder) == ("Game-Turn 3, NATO Action Phase", "007-NATO-nato_actions")
    assert step_titles(7, "NATO", state, "NATO Action Phase") == (
        "Game-Turn 3, NATO Action Phase",
        "Game-Turn 3, NATO nato_actions",
    )
    # a ruleset without human titles: one form, unchanged
    assert step_titles(7, "NATO", state, "nato_actions") == ("Game-Turn 3, NATO nato_actions",)
    # a title that does not start with the side keeps the side in front
    assert step_names(7, "NATO", state, "Action Phase")[0] == "Game-Turn 3, NATO Action Phase"
