"""The DTP rules through the signed play-by-email workflow (keygen, new, sign, adjudicate,
verify): SPI's set-up files, a detection in Player A's ship phase, Player B's answer to the
kept moment in his own file [DTP 6.2b, interpretations DTP-18], a refused file citing its
case, and `verify` replaying every die."""

from __future__ import annotations

from pathlib import Path

from tests.pbem.cliflow import Table

ROOT = Path(__file__).resolve().parents[2]
DTP = ROOT / "module_src" / "sixth_fleet_dtp"
SPI_EXAMPLES = ROOT / "module_src" / "sixth_fleet" / "examples"


def _example(name: str) -> list[str]:
    text = (SPI_EXAMPLES / name).read_text(encoding="utf-8").replace("game: sf-demo", "game: g")
    return text.splitlines()


def test_a_signed_dtp_game_detects_both_ways_and_verifies(tmp_path: Path) -> None:
    t = Table(tmp_path, DTP, ("NATO", "Soviet"))
    out = t.new("short")
    assert "NATO set-up [11.0]" in out
    t.send("NATO", *_example("01-nato-setup.txt"))
    out = t.send("Soviet", *_example("02-soviet-setup.txt"))
    assert "Player A ship and sub movement [DTP 4.1]" in out
    head = ["game: g", "turn: 1", "side: Soviet", "phase: ship_movement_a", "", "[movement]"]
    out = t.send("NATO", *["game: g", "turn: 1", "side: NATO", "phase: ship_movement_a", "",
                           "[movement]"], expect=1)  # fmt: skip
    assert "[DTP 4.1]" in out and "waits for Soviet" in out
    t.send("Soviet", *head, "move SO-CG-2 1120", "detect SO-CG-2 -> US-DE-1")
    report = next(t.game.glob("turns/003-*/report.md")).read_text(encoding="utf-8")
    assert "[DTP 6.3] SO-CG-2 try to detect US-DE-1" in report
    t.send(
        "NATO", "game: g", "turn: 1", "side: NATO", "phase: ship_movement_b", "",
        "[movement]", "detect US-DE-1 -> SO-CG-2",
    )  # fmt: skip
    report = next(t.game.glob("turns/004-*/report.md")).read_text(encoding="utf-8")
    assert "[DTP 6.3] US-DE-1 try to detect SO-CG-2" in report
    code, result = t.verify()
    assert code == 0 and result["ok"], result
