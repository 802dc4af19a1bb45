"""Iceland [DTP 11.31] through the signed play-by-email workflow (keygen, new, sign,
adjudicate, verify): the Soviet land-based air starts in the Murmansk box and flies onto the
map through 3003 [DTP 11.3 rule 2], lands back there by name in phase 6 [DTP 9.22], and the
archive -- reports, ``position.vsav`` with its off-map box, viewer -- verifies."""

from __future__ import annotations

from pathlib import Path

from tests.pbem.cliflow import Table

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "module_src" / "dtp_denmark_strait"


def _head(side: str, phase: str, section: str) -> list[str]:
    return ["game: g", "turn: 1", f"side: {side}", f"phase: {phase}", "", f"[{section}]"]


def test_murmansk_air_flies_out_and_back_in_a_signed_iceland_game(tmp_path: Path) -> None:
    t = Table(tmp_path, SRC, ("NATO", "Soviet"))
    assert "NATO set-up [11.0]" in t.new("iceland")
    for side in ("NATO", "Soviet"):
        t.send(side, "game: g", "turn: 0", f"side: {side}", "phase: setup", "", "[setup]")
    t.send("Soviet", *_head("Soviet", "ship_movement_a", "movement"))
    t.send("NATO", *_head("NATO", "ship_movement_b", "movement"))
    t.send("NATO", *_head("NATO", "air_movement_b", "movement"))
    out = t.send(
        "Soviet", *_head("Soviet", "air_movement_a", "movement"), "move SO-T16.1 3003 2903 2803"
    )
    assert "Combat phase [DTP 8.2]" in out
    t.send("NATO", *_head("NATO", "combat", "combat"), "pass")
    t.send("Soviet", *_head("Soviet", "combat", "combat"), "pass")
    t.send("Soviet", *_head("Soviet", "rebasing", "rebasing"), "rebase SO-T16.1 Murmansk")
    t.send("NATO", *_head("NATO", "rebasing", "rebasing"))
    reports = sorted(t.game.glob("turns/*/report.md"))
    text = "\n".join(r.read_text(encoding="utf-8") for r in reports)
    assert "SO-T16.1 moves 3003 2903 2803" in text
    assert "SO-T16.1 lands at Murmansk" in text
    code, result = t.verify()
    assert code == 0 and result["ok"], result
