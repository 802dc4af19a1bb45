"""The browser tests' click (:func:`tests.viewer.drafting.press`) refuses what a person could
not click, as WebDriver's own click does: a button not shown, one under another element, one
not on the page; and the list pick (:func:`tests.viewer.drafting.pick`) a unit not listed.
Else a test that points by script would pass on a page a player could not use."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from tests.viewer.drafting import pick, press

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

PAGE = """<!doctype html><body style="margin:0">
<button id="shown" onclick="document.title = 'pressed'">shown</button>
<button id="hidden" style="display:none" onclick="document.title = 'hidden'">hidden</button>
<div style="position:relative;height:60px">
  <button id="covered" onclick="document.title = 'covered'">covered</button>
  <div style="position:absolute;inset:0;background:#fff"></div>
</div>
<select id="unitpick" onchange="document.title = 'picked ' + this.value">
  <option value="">-</option><option value="US-CV-1">US-CV-1</option>
  <option value="SO-SS-1" disabled>SO-SS-1</option>
</select></body>"""


def test_press_and_pick_refuse_what_a_person_could_not_click(browser: Any) -> None:
    browser.get("data:text/html;charset=utf-8," + quote(PAGE))
    for what, why in (
        ("#hidden", "not interactable"),
        ("#covered", "click intercepted"),
        ("#missing", "no element #missing"),
    ):
        with pytest.raises(AssertionError, match=why):
            press(browser, what)
        assert browser.title == "", what  # nothing clicked
    press(browser, browser.find_element("id", "shown"))
    assert browser.title == "pressed"
    for unit, why in (("SO-SS-9", "no unit SO-SS-9"), ("SO-SS-1", "disabled")):
        with pytest.raises(AssertionError, match=why):
            pick(browser, unit)
    pick(browser, "US-CV-1")
    assert browser.title == "picked US-CV-1"
