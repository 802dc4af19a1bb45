"""Any unit of a stack picked from the map (issue 28), in headless Chromium at phone width
(390 px) and desktop width (1280 px).

A tap on a stack picks the counter under the finger, its top one; before, a unit under it
could be picked only from the list far down the page. Now a second tap on the stack of the
unit shown picks the next unit of that stack (the side's units with orders first, top
first), and the unit box under the map names the unit shown, says which of the stack it is,
and lists the stack's units as buttons, each picking its unit. Screenshots go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import click_hex, no_errors, open_page, snap, viewer

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

# Sixth Fleet (1975), the Soviet movement after the set-ups: three Soviet units in hex 1119,
# each with moves of its own (SO-CG-2 on top)
LAST, SIDE, HEX = "002-Soviet-setup", "Soviet", "1119"

STATE = """
const V = window.refereeViewer, sel = document.getElementById('unitpick');
const info = document.getElementById('unitinfo');
return {picked: sel.value, info: info.hidden ? '' : info.innerText,
        pressed: Array.from(info.querySelectorAll('button.stackunit[aria-pressed="true"]'))
          .map(b => b.dataset.unit),
        units: Array.from(info.querySelectorAll('button.stackunit')).map(b => b.dataset.unit),
        marks: document.querySelectorAll('#optmarks .opt').length,
        choices: Array.from(document.querySelectorAll('#choices button.choice'))
          .map(b => b.dataset.order),
        offered: arguments[0] ? V.choicesOf(arguments[0]).filter(c => c.at).length : 0};
"""


def _state(browser: Any, unit: str | None = None) -> dict[str, Any]:
    return dict(browser.execute_script(STATE, unit))


@pytest.mark.parametrize("width", [390, 1280])
def test_a_second_tap_on_a_stack_picks_its_lower_unit(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path, width: int
) -> None:
    """Hex 1119 holds SO-CG-2 on top of SO-SG-2 and SO-SG-1. The first tap picks SO-CG-2;
    the second picks SO-SG-2 (before, SO-CG-2 again): its moves are its choices and its
    marks, the list says SO-SG-2, the unit box names it as 2 of 3. The third tap picks
    SO-SG-1, the fourth SO-CG-2 again. The stack's button of SO-SG-1 picks it too."""
    _, page = viewer(demo_game, LAST, SIDE, tmp_path)
    open_page(browser, page, width, tmp_path)
    browser.set_window_size(width, 844)
    stack = browser.execute_script(
        "return Array.from(document.querySelectorAll('#units .stack[data-place=\"' + arguments[0]"
        " + '\"] .counter')).map(c => c.dataset.unit).reverse()",
        HEX,
    )
    assert stack == ["SO-CG-2", "SO-SG-2", "SO-SG-1"], stack

    click_hex(browser, HEX)
    first = _state(browser, "SO-CG-2")
    assert first["picked"] == "SO-CG-2" and first["pressed"] == ["SO-CG-2"], first
    assert first["units"] == stack, first
    assert "1 of 3 in this stack (tap it again for the next)" in first["info"], first

    click_hex(browser, HEX)
    second = _state(browser, "SO-SG-2")
    assert second["picked"] == "SO-SG-2", second
    assert second["info"].startswith("SO-SG-2"), second["info"]
    assert "2 of 3 in this stack" in second["info"] and second["pressed"] == ["SO-SG-2"]
    assert second["offered"] > 0 and second["marks"] > 0, second  # its moves on the map
    assert any(c.startswith("move SO-SG-2 ") for c in second["choices"]), second
    assert not any("SO-CG-2" in c for c in second["choices"]), second  # none of the top's
    snap(browser, shots / f"stack-second-tap-{width}.png")

    click_hex(browser, HEX)
    assert _state(browser)["picked"] == "SO-SG-1"
    click_hex(browser, HEX)
    assert _state(browser)["picked"] == "SO-CG-2"  # round again

    button = browser.find_element("css selector", '#unitinfo button.stackunit[data-unit="SO-SG-1"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", button)
    button.click()
    chosen = _state(browser, "SO-SG-1")
    assert chosen["picked"] == "SO-SG-1" and chosen["pressed"] == ["SO-SG-1"], chosen
    assert chosen["marks"] > 0 and any(c.startswith("move SO-SG-1 ") for c in chosen["choices"])
    snap(browser, shots / f"stack-button-{width}.png")
    no_errors(browser)


def test_a_second_tap_shows_the_next_unit_in_a_page_that_does_not_draft(
    browser: Any, demo_game: Path, tmp_path: Path
) -> None:
    """NATO's view of the same step drafts nothing (the Soviet side is awaited): a second
    tap on the stack still shows its next unit, SO-SG-2 under SO-CG-2, and picks nothing."""
    _, page = viewer(demo_game, LAST, "NATO", tmp_path)
    open_page(browser, page, 1280, tmp_path)
    assert browser.find_elements("id", "unitpick") == []
    click_hex(browser, HEX)
    click_hex(browser, HEX)
    shown = browser.find_element("id", "unitinfo").text
    assert shown.startswith("SO-SG-2") and "2 of 3 in this stack" in shown, shown
    no_errors(browser)
