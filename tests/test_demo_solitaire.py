"""`make demo-solitaire` plays a whole Carrier Battlegroup game by email, reveals and
verifies (issue 14 §7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.demos import carrier_battlegroup as demo_solitaire


def test_the_solitaire_demo_plays_reveals_and_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    assert demo_solitaire.main([str(out), "--no-play-aids"]) == 0
    text = capsys.readouterr().out
    assert "[18.1]" in text and "Tactical Routine" in text and "[16.0]" in text
    assert "hidden part checked from revealed/" in text
    assert (out / "game" / "revealed").is_dir()
