"""A declared game's moves sent as a VASSAL log (``import-vlog``): drags become ``move``
lines, chat lines that start with a verb (``roll 2d6 on gunnery light``) become orders, and
what is no order is listed; the orders made are signed, adjudicated and verified. The log is
made by our codec the way VASSAL logs drags and chat (``tests/vassal/test_import_vlog.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.source.loader import load_module
from referee.vassal.position.placement import table_for
from tests.declared.conftest import SRC, reports_of
from tests.pbem.cliflow import Table, cli
from tests.vassal.test_import_vlog import Player


def test_a_vassal_log_becomes_the_sides_orders_and_verifies(played: Table, tmp_path: Path) -> None:
    module, _ = load_module(SRC)
    assert module is not None
    last = sorted((played.game / "turns").glob("*/position.vsav"))[-1]
    p = Player(table_for(module), last.read_bytes())
    p.drag("S-DD-1", "0405")
    p.drag("S-DD-1", "0504")
    p.chat("roll 2d6 on gunnery light")
    p.drag("N-DD-1", "0404")  # North's counter: not South's to move
    p.chat("good luck")
    p.chat("mark S-DD-2 disrupted")
    log = tmp_path / "south-2.vlog"
    log.write_bytes(p.log_bytes())
    out = tmp_path / "orders.txt"
    code, text = cli("import-vlog", log, "--game-dir", played.game, "--module", SRC, "-o", out)
    assert code == 1 and "2 thing(s) not translated" in text, text  # listed, never guessed
    assert "log step 6: N-DD-1 is not South's counter" in text
    lines = out.read_text().splitlines()
    body = lines[lines.index("[orders]") + 1 :]
    orders = [ln for ln in body if not ln.startswith("#")]
    assert orders == [
        "move S-DD-1 0405 0504",
        "roll 2d6 on gunnery light",
        "mark S-DD-2 disrupted",
    ]
    notes = "\n".join(ln for ln in body if ln.startswith("#"))
    assert "N-DD-1 is not South's counter" in notes and "'good luck'" in notes
    played.send("South", *lines)
    report = reports_of(played)[-1]
    texts = [e["text"] for e in report["events"]]
    assert "S-DD-1 moves to 0504 by 0405" in texts and "S-DD-2 marked disrupted" in texts
    roll = next(e for e in report["events"] if e["kind"] == "roll")
    assert roll["rule"] == "G4" and [r["value"] for r in report["rolls"]] == roll["data"]["faces"]
    code, verdict = played.verify()
    assert code == 0, json.dumps(verdict)[:2000]
