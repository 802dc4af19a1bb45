"""A strike on a base through the signed play-by-email workflow [DTP 10.44, 8.15, 8.232]: two
British air units fly next to the Soviet Defended hex of Tartus, strike `hex:1334` in NATO's
impulse (Player B first [DTP 8.2]); the contact roll lets the Soviet Forger next to them bounce
[DTP 8.232]; the Soviet file answers; the strike resolves on the CRT against the hex's DEF and,
on a hit, the Hit Table at DEF 2 x ECM [DTP 10.44]. A strike on a base beyond reach is
refused first, citing [8.1], exit 1, with nothing written to the game folder. The reports cite
each case, the turn folder is written for both sides, and `verify` replays every die."""

from __future__ import annotations

import json
from pathlib import Path

from tests.pbem.cliflow import Table, cli
from tests.pbem.test_sixth_fleet_dtp_pbem import DTP, _example


def _head(side: str, phase: str, section: str) -> list[str]:
    return ["game: g", "turn: 1", f"side: {side}", f"phase: {phase}", "", f"[{section}]"]


def test_a_signed_strike_on_a_base_with_a_bounce_window(tmp_path: Path) -> None:
    t = Table(tmp_path, DTP, ("NATO", "Soviet"))
    t.new("short")
    t.send("NATO", *_example("01-nato-setup.txt"))
    t.send("Soviet", *_example("02-soviet-setup.txt"))
    t.send("Soviet", *_head("Soviet", "ship_movement_a", "movement"))
    t.send("NATO", *_head("NATO", "ship_movement_b", "movement"))
    t.send(
        "NATO", *_head("NATO", "air_movement_b", "movement"),
        "move BR-NIM.2 1232 1332 1333", "move BR-LTG 1232 1332 1333",
    )  # fmt: skip
    t.send("Soviet", *_head("Soviet", "air_movement_a", "movement"))
    before = {p: p.read_bytes() for p in t.game.rglob("*") if p.is_file()}
    out = t.send(
        "NATO", *_head("NATO", "combat", "combat"), "strike BR-NIM.2 -> hex:1434", expect=1
    )  # Latakia is two hexes away: refused, citing the case, nothing written [8.1]
    assert "[8.1]" in out and "beyond its reach" in out, out
    assert {p: p.read_bytes() for p in t.game.rglob("*") if p.is_file()} == before
    out = t.send("NATO", *_head("NATO", "combat", "combat"), "strike BR-NIM.2 BR-LTG -> hex:1334")
    reports = sorted(t.game.glob("turns/*/report.md"))
    text = reports[-1].read_text(encoding="utf-8")
    assert "[DTP 8.15] Strike Contact for BR-NIM.2, BR-LTG" in text, text
    if "contact made: Soviet may bounce" in text:  # the Forger in 1233 is next to the strike
        assert "Soviet" in out
        t.send("Soviet", *_head("Soviet", "combat", "combat"), "bounce SO-F.1 -> BR-LTG")
        text = sorted(t.game.glob("turns/*/report.md"))[-1].read_text(encoding="utf-8")
        assert "SO-F.1 attack BR-LTG" in text, text
    if "no contact" not in text:
        assert "attack the base in 1334" in text or "broken up by the bounces" in text, text
    state = json.loads(sorted(t.game.glob("turns/*/state.json"))[-1].read_text(encoding="utf-8"))
    assert set(state["data"]["base_damage"]) <= {"1334"}
    viewer = t.root / "viewer-NATO.html"  # the viewer, made on demand, takes a hex target
    code, out = cli("viewer", t.game, "--side", "NATO", "--module", t.module, "-o", viewer)
    assert code == 0 and viewer.is_file(), out
    code, result = t.verify()
    assert code == 0 and result["ok"], result
