"""`make demo-2019`: a signed Sixth Fleet (2019) game of two turns, with random events, extra
actions, a control change and strike markers played, that `referee verify` accepts; the same
run twice gives the same archive."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from referee import demo_2019


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def test_demo_2019_plays_two_turns_and_verifies(tmp_path: Path) -> None:
    game = demo_2019.demo(tmp_path / "a", play_aids_too=False)
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
    # strike markers (provisional 17.0): drawn from the cups [2.12], EW played for an action
    # [6.1], a CM or SOF strike [6.4]
    assert "[2.12] Soviet draws a strike marker from the Soviet Strike Cup" in reports
    assert re.search(r"\[6\.1\] (NATO|Soviet) plays \S*-EW\.\d", reports)
    assert re.search(r"\[6\.4\] (NATO|Soviet) plays \S*-(CM\.\d|SOF)", reports)
    # the markers are hidden: each side has its own VASSAL save of the position
    assert len(list(game.glob("turns/*/position-NATO.vsav"))) >= 8
    assert len(list(game.glob("turns/*/position-Soviet.vsav"))) >= 8
    again = demo_2019.demo(tmp_path / "b", play_aids_too=False)
    assert _digest(game) == _digest(again)
