"""`make naval-demo` plays the naval module's example orders by email and verifies the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.naval_demo import demo


def test_naval_demo_plays_and_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = demo(tmp_path / "out", play_aids_too=False)
    out = capsys.readouterr().out
    assert "ok: game nm-demo, 16 report(s)" in out
    # the abort choice written in advance [27.32b]; the seed root was chosen for it
    assert "ignores the Abort: one more damage point" in out or "turns back to" in out
    assert "board Gp-B at Sevastopol" in out  # a transport [28.14b]
    assert "H2 for the host game: amphibious assault by SU-INF-1330 on 2923" in out  # [30.15a]
    assert "SU-INF-1330 land at 2923" in out  # the host result signed by both [30.16b]
    assert "SU-DD-BO Readiness: d6" in out  # a readiness roll [25.32]
    assert (game / "turns").is_dir()
