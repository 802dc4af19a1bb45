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

from tests.pbem.cliflow import cli
from tests.viewer.test_orders_browser import _download, _open, _order_lines
from tests.viewer.test_orders_hex_browser import (
    _awaiting,
    _choices,
    _point,
    _signed_and_carried_out,
    _viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_a_set_up_hex_s_stacking_order_is_composed_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    from selenium.webdriver.support.ui import Select

    demo = finished_demo("dtp_denmark_strait").out
    last, side, doc = _awaiting(demo, "place")
    game, page = _viewer(demo, last, side, tmp_path)
    k = sorted(p.name for p in (demo / "game" / "turns").iterdir()).index(last) + 1
    own = next((demo / "orders").glob(f"{k:03d}-*.txt"))
    places = [ln for ln in _order_lines(own.read_text()) if ln.startswith("place ")]
    hexes = Counter(ln.split()[-1] for ln in places)
    hex_id = min(h for h, n in hexes.items() if n == 2)  # a hex of two units
    pair = [ln.split()[1] for ln in places if ln.split()[-1] == hex_id]
    elsewhere = next(ln.split()[1] for ln in places if ln.split()[-1] != hex_id)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        for line in places:
            unit = line.split()[1]
            _point(browser, unit, next(c for c in _choices(browser, unit) if c["order"] == line))
        Select(browser.find_element("id", "unitpick")).select_by_value(pair[0])
        browser.find_element("css selector", '#choices button.choice[data-order="stack"]').click()
        offered = [
            b.get_attribute("data-word")
            for b in browser.find_elements("css selector", "#choices button.compose")
        ]
        assert offered == [pair[1]]  # only the other unit placed there; not `elsewhere`
        assert f"stack {hex_id} {pair[0]}" in browser.find_element("id", "draft").get_attribute(
            "value"
        )  # the line opened on the unit's placed hex
        browser.find_element("css selector", f'#choices button[data-word="{pair[1]}"]').click()
        browser.save_screenshot(str(shots / f"orders-dtp-stack-{width}.png"))
    browser.find_element("id", "composedone").click()
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    line = f"stack {hex_id} {' '.join(pair)}"
    lines = [ln for ln in _order_lines(text) if ":" not in ln.split()[0]]
    assert lines == [f"[{doc['section']}]", *places, line]
    hand = tmp_path / "hand.txt"
    hand.write_text(text.replace(line, f"stack {hex_id} {pair[0]} {elsewhere}"))
    code, out = cli("validate", hand, "--state", game, "--side", side)
    assert code == 1 and "[7.42]" in out and f"{elsewhere} not in {hex_id}" in out, out
    _signed_and_carried_out(demo, game, tmp_path, text, side, last)
