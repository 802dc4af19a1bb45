"""`make naval-demo` plays a game of the naval module by email and verifies it.

The demo promises the things of :data:`referee.demos.naval_module.WANTED` (among them an Abort
decision [27.32b] answered by its owner), whatever the dice: its player reads each published
outcome before it writes the next orders (``referee/demos/naval_module.py``). These tests
check that the game shows each of them -- on the demo's own seed root and on another one (a
changed dice stream, as a new module version in report 000 makes) -- never particular rolls."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos import naval_module as naval_demo
from referee.demos.naval_module import WANTED, abort_choices, shows

if TYPE_CHECKING:
    from tests.conftest import DemoRun

OTHER_SEED = 3
"""Another seed root number of the demo: another dice stream (on it a Readiness line of the
examples is refused, so the scripted player plays on to a later Readiness Phase), the same
promises."""


def _check_the_promises(game: Path, out: Path) -> None:
    found = shows(game)
    assert set(found) == set(WANTED), [w.what for k, w in WANTED.items() if k not in found]
    # every Abort result was a decision its owner answered in a file of its own [27.32b]
    answers = sorted((out / "orders").glob("*-answer-abort-*.txt"))
    assert answers, "no Abort decision was answered"
    assert all("answer abort-" in a.read_text(encoding="utf-8") for a in answers)
    choices = abort_choices(game)
    assert all("ignores the Abort" in c or "turns back to" in c for c in choices), choices
    # the files written in advance carry no Abort choice: the examples leave it to the answer
    for f in naval_demo.example_files():
        assert not any(x.startswith("abort ") for x in f.read_text(encoding="utf-8").splitlines())


def test_naval_demo_plays_and_verifies(finished_demo: Callable[[str], DemoRun]) -> None:
    run = finished_demo("naval_module")  # the session's run (no play aids)
    game, out = run.game, run.printed
    assert "replay matches" in out or "ok: game nm-demo" in out
    _check_the_promises(game, run.out)
    assert "== What the game showed, and where" in out
    # the story of the example files, where the dice leave it whole: a transport [28.14b]
    # and the naval fighter's air combat handed to the host game [31.13]
    assert "board Gp-B at Sevastopol" in out
    assert "H1 for the host game: air combat in the Naval Movement Interdiction Box" in out


@pytest.mark.slow
def test_naval_demo_keeps_its_promises_on_other_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another seed root: other rolls (other losses, Aborts, readiness), the same promises,
    and the archive verifies (``run_demo`` fails on anything less)."""
    game = naval_demo.demo(tmp_path / "out", play_aids_too=False, seed=OTHER_SEED)
    printed = capsys.readouterr().out
    assert "replay matches" in printed
    _check_the_promises(game, tmp_path / "out")
