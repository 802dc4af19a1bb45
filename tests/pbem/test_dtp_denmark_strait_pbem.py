"""Iceland [DTP 11.31] through the signed play-by-email workflow (keygen, new, sign,
adjudicate, verify): the Soviet land-based air starts in the Murmansk box and flies onto the
map through 3003 [DTP 11.3 rule 2], lands back there by name in phase 6 [DTP 9.22], and the
archive -- reports, ``position.vsav`` with its off-map box, viewer -- verifies."""

from __future__ import annotations

from pathlib import Path

from tests.pbem.cliflow import Table

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "module_src" / "dtp_denmark_strait"


SETUP_11_31 = {
    "NATO": [
        *(f"place {u} 0123" for u in ("US-LHA-1", "US-DE-1", "US-DD-1")),
        "place US-CV-1 0423",
        "place US-CV-2 1622",
        "place US-DD-2 1622",
    ],
    "Soviet": [f"place {u} 0717" for u in ("SO-CH-1", "SO-CG-1", "SO-DD-1", "SO-F.1", "SO-F.2")],
}


def _head(side: str, phase: str, section: str) -> list[str]:
    return ["game: g", "turn: 1", f"side: {side}", f"phase: {phase}", "", f"[{section}]"]


def test_murmansk_air_flies_out_and_back_in_a_signed_iceland_game(tmp_path: Path) -> None:
    t = Table(tmp_path, SRC, ("NATO", "Soviet"))
    assert "NATO set-up [11.0]" in t.new("iceland")
    # the set-up choices Iceland leaves to the players [DTP 11.31 rules 3-5]
    for side, lines in SETUP_11_31.items():
        t.send(side, "game: g", "turn: 0", f"side: {side}", "phase: setup", "", "[setup]", *lines)
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
