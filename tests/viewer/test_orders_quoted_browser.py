"""A drafted line with quoted names, read back by the viewer in real headless Chromium
(issue 28): an order line writes a location with spaces in double quotes (``move E-DD-1
"Aegean Sea"``, ``referee/engine/orders.py``), and the page reads its own draft back with the
referee's tokenizer, not by splitting on spaces: where a unit ends after its drafted move (the
``stack`` line it opens [7.42] is built from it) is the quoted name, whole.

The game is the area-map fixture ``med_raid`` (a declared game of zones with names of two
words), new and awaiting the Escort side; each unit's move is pointed at on the map,
downloaded, accepted by ``referee validate`` and carried out by ``referee adjudicate``.
Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import Table, cli
from tests.viewer.drafting import (
    choices,
    download,
    downloads_dir,
    no_errors,
    open_page,
    order_lines,
    point,
    section_lines,
    snap,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

AREA = Path(__file__).resolve().parents[1] / "declared" / "fixtures" / "med_raid"


def test_a_move_to_a_quoted_zone_is_read_back_whole(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    t = Table(tmp_path / "raid", AREA, ("Escort", "Raider"))
    t.new("raid")
    page = tmp_path / "viewer-Escort.html"
    code, out = cli("viewer", t.game, "--side", "Escort", "--module", AREA, "-o", page)
    assert code == 0, out
    downloads = downloads_dir(tmp_path)
    wanted = {"E-DD-1": "Aegean Sea", "E-CV-1": "Ionian Sea"}  # from Ionian Sea, Western Med
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        chosen = []
        for unit, zone in wanted.items():
            move = next(c for c in choices(browser, unit) if c.get("at") == zone)
            assert move["order"] == f'move {unit} "{zone}"', move
            point(browser, unit, move)
            chosen.append(move["order"])
            end = browser.execute_script("return window.refereeViewer.endOf(arguments[0])", unit)
            assert end == zone  # whole, not the last half of the quoted name
        snap(browser, shots / f"orders-quoted-{width}.png")
    words = browser.execute_script(
        "return window.refereeViewer.wordsOf(arguments[0])",
        'stack "Aegean Sea" E-DD-1->E-CV-1  # a comment "with quotes"',
    )
    assert words == ["stack", "Aegean Sea", "E-DD-1", "->", "E-CV-1"]
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "orders") == chosen, order_lines(text)
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", t.game, "--side", "Escort", "--module", AREA)
    assert code == 0, out
    t.send("Escort", *text.splitlines())  # signed with the side's key, adjudicated (exit 0)
    last = sorted((t.game / "turns").glob("*/report.json"))[-1]
    texts = [e["text"] for e in json.loads(last.read_text())["events"]]
    assert "E-DD-1 moves to Aegean Sea" in texts and "E-CV-1 moves to Ionian Sea" in texts, texts
