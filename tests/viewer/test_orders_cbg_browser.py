"""Carrier Battlegroup's composed standing ``lose`` [14.1] in a real headless Chromium (issue
28, "How it is checked"): the USN part of the demo game opened with the player's key, the
first turn offering it: the side's ``lose`` button opens the line, the CVBG's aircraft are
the words offered (no ship), two are added; the draft is downloaded, accepted by
``validate`` on the player's view and carried out by ``adjudicate``. A ship typed into the
line by hand is refused [14.1]. Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.test_orders_browser import _download, _open, _order_lines
from tests.viewer.test_orders_hex_browser import _hidden_viewer
from tests.viewer.test_orders_side_browser import _side_button

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_the_aircraft_given_up_first_composed_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    from tests.viewer.test_orders_leak import _files

    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in _files(demo, "USN")
        if any(c.get("kind") == "deploy" for c in d.get("side_choices", []))
    )
    lose = next(c for c in doc["side_choices"] if c.get("kind") == "lose")
    deploy = next(c for c in doc["side_choices"] if c.get("kind") == "deploy")
    ship = next(u for u in deploy["from"] if u not in lose["from"])  # a ship of the CVBG
    game, page, key = _hidden_viewer(demo, last, "USN", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        _side_button(browser, "lose")
        offered = [
            b.get_attribute("data-word")
            for b in browser.find_elements("css selector", "#choices button.compose")
        ]
        assert offered == lose["from"] and ship not in offered  # aircraft only
        for unit in lose["from"][:2]:
            browser.find_element("css selector", f'#choices button[data-word="{unit}"]').click()
        browser.save_screenshot(str(shots / f"orders-cbg-lose-{width}.png"))
    browser.find_element("id", "composedone").click()
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    line = "lose " + " ".join(lose["from"][:2])
    lines = _order_lines(text)
    assert lines[lines.index("[standing]") + 1 :] == [line], lines
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "USN", "--key", key)
    assert code == 0, out
    hand = tmp_path / "hand.txt"
    hand.write_text(text.replace(line, f"{line} {ship}"))
    code, out = cli("validate", hand, "--state", game, "--side", "USN", "--key", key)
    assert code == 1 and "[14.1]" in out and f"{ship} is not an aircraft" in out, out
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate", game, signed, "--key", demo / "keys" / "referee.key",
        "--referee-dir", tmp_path / "referee",
    )  # fmt: skip
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last
