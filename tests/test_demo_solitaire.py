"""`make demo-solitaire` plays a whole Carrier Battlegroup game by email, reveals and
verifies (issue 14 §7). The game is the session's shared run (``finished_demo`` in
``tests/conftest.py``), which asserts the demo's exit code 0."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import DemoRun


def test_the_solitaire_demo_plays_reveals_and_verifies(
    finished_demo: Callable[[str], DemoRun],
) -> None:
    run = finished_demo("carrier_battlegroup")
    out, text = run.out, run.printed
    assert "[18.1]" in text and "Tactical Routine" in text and "[16.0]" in text
    assert "hidden part checked from revealed/" in text
    assert (out / "game" / "revealed").is_dir()
