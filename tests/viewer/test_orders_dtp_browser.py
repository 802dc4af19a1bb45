"""DTP's composed ``stack HEX UNIT ...`` [7.42] in a real headless Chromium (issue 28, "How
it is checked"): NATO's set-up of the shared demo game pointed at line for line (the demo's
own ``place`` lines), then the stacking order of a hex where two of its units are placed,
composed unit by unit: the unit's ``stack`` choice opens the line of the hex it is placed
in, and only the other units placed there are offered. The draft is downloaded, ``validate``
accepts it and ``adjudicate`` carries it out; a unit placed elsewhere typed into the line by
hand is refused [7.42]. Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    awaiting,
    body_lines,
    choice_button,
    choices,
    download,
    downloads_dir,
    draft_text,
    no_errors,
    offered_words,
    open_page,
    order_lines,
    pick,
    point,
    press,
    refused,
    signed_and_carried_out,
    snap,
    viewer,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_a_set_up_hex_s_stacking_order_is_composed_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("dtp_denmark_strait").out
    last, side, doc = awaiting(demo, "place")
    game, page = viewer(demo, last, side, tmp_path)
    k = sorted(p.name for p in (demo / "game" / "turns").iterdir()).index(last) + 1
    own = next((demo / "orders").glob(f"{k:03d}-*.txt"))
    places = [ln for ln in order_lines(own.read_text()) if ln.startswith("place ")]
    hexes = Counter(ln.split()[-1] for ln in places)
    hex_id = min(h for h, n in hexes.items() if n == 2)  # a hex of two units
    pair = [ln.split()[1] for ln in places if ln.split()[-1] == hex_id]
    elsewhere = next(ln.split()[1] for ln in places if ln.split()[-1] != hex_id)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        for line in places:
            unit = line.split()[1]
            point(browser, unit, next(c for c in choices(browser, unit) if c["order"] == line))
        pick(browser, pair[0])
        press(browser, choice_button(browser, "stack"))
        # only the other unit placed there; not `elsewhere`
        assert offered_words(browser) == [pair[1]]
        assert f"stack {hex_id} {pair[0]}" in draft_text(browser)  # opened on its placed hex
        press(browser, word(browser, pair[1]))
        snap(browser, shots / f"orders-dtp-stack-{width}.png")
    press(browser, "#composedone")
    no_errors(browser)
    text = download(browser, downloads)
    line = f"stack {hex_id} {' '.join(pair)}"
    assert body_lines(text) == [f"[{doc['section']}]", *places, line]
    hand = text.replace(line, f"stack {hex_id} {pair[0]} {elsewhere}")
    out = refused(game, tmp_path, hand, side, "7.42")
    assert f"{elsewhere} not in {hex_id}" in out, out
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
