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

from tests.viewer.drafting import (
    download,
    downloads_dir,
    hidden_viewer,
    no_errors,
    offered_words,
    open_page,
    order_lines,
    press,
    refused,
    sealed_options,
    section_lines,
    side_button,
    signed_and_carried_out,
    snap,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_the_aircraft_given_up_first_composed_and_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in sealed_options(demo, "USN")
        if any(c.get("kind") == "deploy" for c in d.get("side_choices", []))
    )
    lose = next(c for c in doc["side_choices"] if c.get("kind") == "lose")
    deploy = next(c for c in doc["side_choices"] if c.get("kind") == "deploy")
    ship = next(u for u in deploy["from"] if u not in lose["from"])  # a ship of the CVBG
    game, page, key = hidden_viewer(demo, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        side_button(browser, "lose")
        offered = offered_words(browser)
        assert offered == lose["from"] and ship not in offered  # aircraft only
        for unit in lose["from"][:2]:
            press(browser, word(browser, unit))
        snap(browser, shots / f"orders-cbg-lose-{width}.png")
    press(browser, "#composedone")
    no_errors(browser)
    text = download(browser, downloads)
    line = "lose " + " ".join(lose["from"][:2])
    assert section_lines(text, "standing") == [line], order_lines(text)
    out = refused(game, tmp_path, text.replace(line, f"{line} {ship}"), "USN", "14.1", key)
    assert f"{ship} is not an aircraft" in out, out
    signed_and_carried_out(demo, game, tmp_path, text, "USN", last, key)
