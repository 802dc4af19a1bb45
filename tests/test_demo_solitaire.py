"""`make demo-solitaire` plays a whole Carrier Battlegroup game by email, reveals and
verifies (issue 14 §7). The game is the session's shared run (``finished_demo`` in
``tests/conftest.py``), which asserts the demo's exit code 0."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import DemoRun

OTHER_SEED = 2
"""Another seed root number of the demo than its own (``take 3, seed 5``): a dice stream the
demo's script was not written for."""


def test_the_solitaire_demo_plays_reveals_and_verifies(
    finished_demo: Callable[[str], DemoRun],
) -> None:
    run = finished_demo("carrier_battlegroup")
    out, text = run.out, run.printed
    assert "[18.1]" in text and "Tactical Routine" in text and "[16.0]" in text
    assert "hidden part checked from revealed/" in text
    assert (out / "game" / "revealed").is_dir()


@pytest.mark.slow
def test_the_solitaire_demo_keeps_its_promises_on_other_dice(tmp_path: Path) -> None:
    """Another seed root (another dice stream, as a new module version in report 000 makes):
    the demo still shows incidents, contact, a battle and the game's end over several turns
    (``run_demo`` fails on anything less), and the reports say so."""
    import json

    from referee.demos import carrier_battlegroup as demo

    with contextlib.redirect_stdout(io.StringIO()):
        game = demo.demo(tmp_path / "out", play_aids_too=False, seed=OTHER_SEED)
    turns = sorted(p for p in (game / "turns").iterdir() if p.is_dir())
    assert len(turns) >= demo.MIN_STEPS
    kinds = {
        e["kind"]
        for t in turns
        for e in json.loads((t / "report.json").read_text("utf-8")).get("events") or []
    }
    assert set(demo.WANTED) <= kinds, set(demo.WANTED) - kinds
