"""The orders mode at phone width (390 x 844) and at desktop width (1280), in headless Chromium
(issue 28: "the unit's options readable on the map, the draft readable beside it").

On a phone the map and the orders panel are one column. Before, the player scrolled down to
the list of units, picked one, and its options were marked on a map that had scrolled off
the top of the screen; the marks, drawn in the map's own units, were 11-13 CSS px wide at the
zoom that frames them. Now, while the page drafts, the map stays at the top of the screen
(``position: sticky``) and what the page scrolls to lands below it (``scroll-padding-top``);
every option mark (a move's end, a target, a force's "+n") is 26 CSS px wide at phone width,
18 at desktop width, where its neighbours leave room (at least 18 at phone width beside a
stack), growing with the map when zoomed in. Screenshots go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.drafting import cut, hidden_viewer, open_page

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

PHONE, DESKTOP = 390, 1280
SMALLEST = {PHONE: 26, DESKTOP: 18}  # an option mark's width where it has room, CSS px
CROWDED = 18  # the least width at phone width of a mark close to another (a stack's corner)

GEOMETRY = """
const box = e => {
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];
};
const marks = Array.from(document.querySelectorAll(arguments[0]))
  .map(g => box(g.querySelector('circle')));
return {map: box(document.getElementById('viewport')), marks: marks,
        height: innerHeight, width: document.documentElement.clientWidth,
        scrolled: scrollY, sideways: document.documentElement.scrollWidth};
"""


def _geometry(browser: Any, marks: str = "#optmarks .opt") -> dict[str, Any]:
    return dict(browser.execute_script(GEOMETRY, marks))


def _on_screen_in_map(g: dict[str, Any]) -> list[list[float]]:
    """The marks whose centre is not inside the map's box on the screen."""
    left, top, right, bottom = g["map"]
    top, bottom = max(top, 0), min(bottom, g["height"])
    return [
        m
        for m in g["marks"]
        if not (left <= (m[0] + m[2]) / 2 <= right and top <= (m[1] + m[3]) / 2 <= bottom)
    ]


def _pick_from_the_list(browser: Any, unit: str) -> None:
    """As a player does on a phone: scroll down to the unit list, choose the unit there."""
    from selenium.webdriver.support.ui import Select

    browser.execute_script("document.getElementById('unitpick').scrollIntoView()")
    Select(browser.find_element("id", "unitpick")).select_by_value(unit)


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_picked_unit_s_options_stay_on_the_map_and_big_enough_to_tap(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path, width: int
) -> None:
    """Sixth Fleet (1975), NATO's movement: US-CG-3 picked in the list (on a phone, far down
    the page). Its 41 move ends are all marked inside the map, the map is on the screen, most
    marks :data:`SMALLEST` wide and none under :data:`CROWDED` at phone width; on a phone the
    list and the draft, scrolled to, show below the map, not under it; nothing scrolls
    sideways."""
    game = cut(demo_game, "004-NATO-combat", tmp_path)
    page = tmp_path / "viewer-NATO.html"
    assert cli("viewer", game, "--side", "NATO", "-o", page)[0] == 0
    open_page(browser, page, width, tmp_path)
    browser.set_window_size(width, 844)
    _pick_from_the_list(browser, "US-CG-3")
    g = _geometry(browser)
    phone = width == PHONE
    assert g["scrolled"] > 300 or not phone  # on a phone the list is far down the page
    assert len(g["marks"]) > 30
    _, top, _, bottom = g["map"]
    assert top >= -1 and bottom <= g["height"] + 1, ("the map is off the screen", g["map"])
    assert bottom - top >= 0.4 * g["height"]  # a map, not a strip
    assert _on_screen_in_map(g) == []
    widths = sorted(m[2] - m[0] for m in g["marks"])  # 11-13 px at phone width before
    assert widths[len(widths) // 2] >= SMALLEST[width] - 0.5, widths
    assert widths[0] >= min(CROWDED, SMALLEST[width]) - 0.5, widths[:3]
    # on a phone the list scrolled to is below the map, not hidden under it
    pick = browser.find_element("id", "unitpick").rect
    assert pick["y"] - g["scrolled"] >= bottom - 1 or not phone, (pick, g["map"])
    browser.save_screenshot(str(shots / f"phone-layout-pick-{width}.png"))
    # a move pointed at: the draft has it; scrolled to the draft, the map is still there
    mark = browser.find_element("css selector", '#optmarks .opt[data-place="0914"]')
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
    )
    draft = browser.find_element("id", "draft")
    assert "move US-CG-3 1215 1115 1014 0914" in draft.get_attribute("value")
    browser.execute_script("arguments[0].focus()", draft)  # the browser scrolls it into view
    g = _geometry(browser)
    at = browser.execute_script("return arguments[0].getBoundingClientRect().top", draft)
    assert g["map"][1] >= -1 and g["map"][3] <= g["height"] + 1, g["map"]
    assert at >= g["map"][3] - 1 or not phone, (at, g["map"])
    assert g["sideways"] <= g["width"], "the page scrolls sideways"
    browser.save_screenshot(str(shots / f"phone-layout-draft-{width}.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_force_s_marks_at_phone_width(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), NATO's actions: a unit's line pointed at, the units that may join
    its force are marked "+n" beside their stack (options format 5). At phone width the map
    holds them on the screen with the line's own marks, each mark at least 26 CSS px wide,
    and its "+n" text at least 14 CSS px tall; a "+n" clicked joins the force."""
    demo = finished_demo("sixth_fleet_2019").out
    _, page, _ = hidden_viewer(demo, "003-NATO-nato_events", "NATO", tmp_path)
    open_page(browser, page, PHONE, tmp_path)
    browser.set_window_size(PHONE, 844)
    found = browser.execute_script(
        """const V = window.refereeViewer, R = V.data.draft;
        for (const u of Object.keys(R.units).sort()) {
          const f = R.units[u].force || {};
          for (const verb of Object.keys(f)) {
            const c = V.choicesOf(u).find(c => c.at && c.order.startsWith(verb + ' ' + u + ' ->')
              && f[verb].some(m => V.choicesOf(m).some(
                d => d.order === c.order.replace(' ' + u + ' ', ' ' + m + ' '))));
            if (c) { return [u, c.order]; }
          }
        }
        return null;"""
    )
    assert found, "no unit of the demo's NATO actions may act in a force"
    unit, order = found
    _pick_from_the_list(browser, unit)
    button = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        order,
    )
    button.click()
    g = _geometry(browser, "#optmarks .opt.force")
    assert g["marks"], "no '+n' mark"
    _, top, _, bottom = g["map"]
    assert top >= -1 and bottom <= g["height"] + 1, ("the map is off the screen", g["map"])
    assert _on_screen_in_map(g) == []
    assert min(m[2] - m[0] for m in g["marks"]) >= SMALLEST[PHONE] - 0.5
    tall = browser.execute_script(
        "return Array.from(document.querySelectorAll('#optmarks .opt.force text'))"
        ".map(t => [t.textContent, t.getBoundingClientRect().height])"
    )
    assert all(text.startswith("+") and h >= 14 for text, h in tall), tall
    browser.save_screenshot(str(shots / "phone-layout-force-390.png"))
    before = browser.find_element("id", "draft").get_attribute("value")
    mark = browser.find_element("css selector", "#optmarks .opt.force")
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
    )
    after = browser.find_element("id", "draft").get_attribute("value")
    assert after != before and order not in after.split("\n")  # the line now names two units
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
