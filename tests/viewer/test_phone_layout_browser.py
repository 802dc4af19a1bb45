"""The orders mode at phone width (390 x 844) and at desktop width (1280), in headless Chromium
(issue 28: "the unit's options readable on the map, the draft readable beside it").

On a phone the map and the orders panel are one column. Before, the player scrolled down to
the list of units, picked one, and its options were marked on a map that had scrolled off
the top of the screen; the marks, drawn in the map's own units, were 11-13 CSS px wide at the
zoom that frames them. Now, while the page drafts, the map stays at the top of the screen
(``position: sticky``) and what the page scrolls to lands below it (``scroll-padding-top``);
every option mark (a move's end, a target, a force's "+n") is 26 CSS px wide at phone width,
18 at desktop width, a mark on a stack too (it goes on the corner or side of the stack with
the most room, and the map is framed closer in until each has room), growing with the map
when zoomed in. Nothing stays on top of the map when the page scrolls (the step and zoom bar
scrolls away), so no mark is covered. A force being composed frames its units, the "+n"
marks and where its line ends, not the first place of its path. A unit of the side that
the options do not list, clicked on the map, is said to have no orders at this step. The
play aids are one row that scrolls sideways on a phone (they wrapped into 4-5 rows above the
map). Screenshots go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.drafting import click_hex, cut, hidden_viewer, open_page, snap, viewer

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

PHONE, DESKTOP = 390, 1280
SMALLEST = {PHONE: 26, DESKTOP: 18}  # a mark's least width, CSS px (19 beside a stack before)

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


COVERED = """
const vp = document.getElementById('viewport').getBoundingClientRect();
const top = Math.max(vp.top, 0), bottom = Math.min(vp.bottom, innerHeight);
const out = [];
for (let y = top + 2; y < bottom - 1; y += 9) {  /* the map's box on the screen, every 9 px */
  for (let x = vp.left + 2; x < vp.right - 1; x += 9) {
    const e = document.elementFromPoint(x, y);
    if (!e || !e.closest('#viewport')) { out.push(['map', x, y, e && e.tagName + '#' + e.id]); }
  }
}
document.querySelectorAll('#optmarks .opt').forEach(g => {
  const r = g.querySelector('circle').getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  if (x < vp.left || x > vp.right || y < top || y > bottom) { return; }  /* a pan away */
  const e = document.elementFromPoint(x, y);
  if (!e || e.closest('.opt') !== g) {
    out.push([g.dataset.place || g.dataset.word, x, y, e ? e.tagName + '#' + e.id : null]);
  }
});
return [scrollY, bottom - top, out.slice(0, 5)];
"""


def _covered(browser: Any) -> tuple[float, float, list[Any]]:
    """How far the page is scrolled, how tall the map's part on the screen is, and what
    covers it: points of that part where something other than the map is on top, and marks
    whose centre is there but which are not what is on top at their centre."""
    scrolled, tall, out = browser.execute_script(COVERED)
    return scrolled, tall, out


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
    the page). Its 41 move ends are all marked inside the map, the map is on the screen,
    every mark at least :data:`SMALLEST` wide, those on a stack beside a marked hex too
    (19 CSS px at phone width before), and nothing on top of the map or its marks; on a phone
    the list and the draft, scrolled to, show below the map, not under it; nothing scrolls
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
    assert widths[0] >= SMALLEST[width] - 0.5, widths[:3]  # beside a stack too (19 before)
    assert _covered(browser)[2] == []
    # on a phone the list scrolled to is below the map, not hidden under it
    pick = browser.find_element("id", "unitpick").rect
    assert pick["y"] - g["scrolled"] >= bottom - 1 or not phone, (pick, g["map"])
    snap(browser, shots / f"phone-layout-pick-{width}.png")
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
    assert _covered(browser)[2] == []
    snap(browser, shots / f"phone-layout-draft-{width}.png")
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
    snap(browser, shots / "phone-layout-force-390.png")
    before = browser.find_element("id", "draft").get_attribute("value")
    mark = browser.find_element("css selector", "#optmarks .opt.force")
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
    )
    after = browser.find_element("id", "draft").get_attribute("value")
    assert after != before and order not in after.split("\n")  # the line now names two units
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_nothing_stays_on_top_of_the_map_when_a_desktop_page_scrolls(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (1975), NATO's movement at 1280 x 600 (a laptop's window): US-CG-3
    picked, the page scrolled to its end. The step and zoom bar, two rows with the play aids,
    stayed on top of the screen (``position: sticky``) and covered the top of the map and its
    marks; now it scrolls away: every point of the map's part on the screen is the map's, and
    each mark there is what a click at its centre reaches."""
    game = cut(demo_game, "004-NATO-combat", tmp_path)
    page = tmp_path / "viewer-NATO.html"
    assert cli("viewer", game, "--side", "NATO", "-o", page)[0] == 0
    open_page(browser, page, DESKTOP, tmp_path)
    browser.set_window_size(DESKTOP, 600)
    _pick_from_the_list(browser, "US-CG-3")
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    scrolled, tall, covered = _covered(browser)
    assert scrolled > 40, scrolled  # the page did scroll: the map's top went up the screen
    assert tall > 200, tall
    assert covered == [], covered
    snap(browser, shots / "phone-layout-scrolled-1280.png")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


FORCE_MOVE = """const V = window.refereeViewer, R = V.data.draft;
for (const u of Object.keys(R.units).sort()) {
  const mates = (R.units[u].force || {}).move || [];
  for (const c of V.choicesOf(u)) {
    const w = V.wordsOf(c.order);
    if (w[0] !== 'move' || w[1] !== u || w[2] !== '->' || w.length < 5) { continue; }
    const alike = m => c.order.replace(' ' + u + ' ', ' ' + m + ' ');
    if (mates.some(m => V.choicesOf(m).some(d => d.order === alike(m)))) {
      return [u, c.order, w[3], c.at];
    }
  }
}
return null;"""

VIEW = """const V = window.refereeViewer, vp = document.getElementById('viewport');
const k = V.view.k, x0 = -V.view.x / k, y0 = -V.view.y / k;
const w = vp.clientWidth, h = vp.clientHeight;
return [x0, y0, x0 + w / k, y0 + h / k, k, w, h];"""


def test_a_force_moving_along_a_path_is_framed_with_where_it_ends(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), NATO's actions at phone width: a unit's move through several sea
    zones pointed at, with a unit that may join it. The map frames the force (the unit, the
    "+n" marks) and where the line ends; before, it framed the first zone of the path, and
    the destination was off the map. Nothing else widens the frame: the zoom is that of
    those places with a hex and a half around them."""
    demo = finished_demo("sixth_fleet_2019").out
    _, page, _ = hidden_viewer(demo, "003-NATO-nato_events", "NATO", tmp_path)
    open_page(browser, page, PHONE, tmp_path)
    browser.set_window_size(PHONE, 844)
    found = browser.execute_script(FORCE_MOVE)
    assert found, "no force may move through several zones in the demo's NATO actions"
    unit, order, first, end = found
    assert end not in (first, None)
    _pick_from_the_list(browser, unit)
    button = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        order,
    )
    button.click()
    places = browser.execute_script(
        """const V = window.refereeViewer, B = V.data.board, u = arguments[0];
        const marks = Array.from(document.querySelectorAll('#optmarks .opt.force circle'))
          .map(c => [+c.getAttribute('cx'), +c.getAttribute('cy')]);
        return {unit: B.places[document.querySelector('#units .counter[data-unit="' + u + '"]')
                  .closest('.stack').dataset.place],
                end: B.places[arguments[1]], marks: marks, hex: B.hex_width};""",
        unit,
        end,
    )
    assert places["marks"], "no '+n' mark"
    x0, y0, x1, y1, k, vw, vh = browser.execute_script(VIEW)
    for name, (x, y) in [("unit", places["unit"]), ("end", places["end"])] + [
        ("+n", m) for m in places["marks"]
    ]:
        assert x0 <= x <= x1 and y0 <= y <= y1, (name, x, y, [x0, y0, x1, y1])
    pts = [places["unit"], places["end"], *places["marks"]]
    pad = 3 * places["hex"]
    w = max(p[0] for p in pts) - min(p[0] for p in pts) + pad
    h = max(p[1] for p in pts) - min(p[1] for p in pts) + pad
    assert k >= 0.98 * min(vw / w, vh / h, 2), (k, vw / w, vh / h)  # framed on those alone
    snap(browser, shots / "phone-layout-force-path-390.png")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_unit_with_no_orders_clicked_on_the_map_says_so(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """DTP (Denmark Strait), NATO's air movement: most of NATO's ships have no order at this
    step, so the options do not list them. One clicked on the map, after a unit with orders
    was picked: the page says it has no orders at this step, offers nothing of the unit
    picked before, and ``choicesOf`` of it is empty (it threw before); no error is logged."""
    demo = finished_demo("dtp_denmark_strait").out
    _, page = viewer(demo, "006-Soviet-air_movement_a", "NATO", tmp_path)
    open_page(browser, page, DESKTOP, tmp_path)
    none, some = browser.execute_script(
        """const V = window.refereeViewer, R = V.data.draft;
        const tops = Array.from(document.querySelectorAll('#units .stack'))
          .map(s => s.lastElementChild.dataset.unit);  /* drawn last: the stack's top */
        return [tops.filter(u => V.data.units[u].side === R.side && !R.units[u]).sort()[0],
                Object.keys(R.units).sort().find(u => V.choicesOf(u).some(c => c.at))];"""
    )
    assert none and some, (none, some)
    assert browser.execute_script("return window.refereeViewer.choicesOf(arguments[0])", none) == []
    _pick_from_the_list(browser, some)
    assert browser.find_elements("css selector", "#choices button.choice")
    assert browser.find_elements("css selector", "#optmarks .opt")
    where = browser.execute_script(
        "return document.querySelector('#units .counter[data-unit=\"' + arguments[0] + '\"]')"
        ".closest('.stack').dataset.place",
        none,
    )
    click_hex(browser, where)
    said = browser.find_element("id", "noorders").text
    assert said == f"{none}: no orders for this unit at this step.", said
    assert browser.find_elements("css selector", "#choices button.choice") == []
    assert browser.find_elements("css selector", "#optmarks .opt") == []
    assert browser.find_element("id", "unitpick").get_attribute("value") == ""
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_a_unit_at_the_board_s_edge_is_framed_on_the_board(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, width: int
) -> None:
    """The naval module, the Axis's movement: RO-T-1 in Ak-Mechet, near the board's left
    edge, with a mark on each of its 266 moves, too many too close to read at once, so the
    map is framed closer in around it. The frame stays on the board (before, centred on the
    port, the left third of the map at desktop width was off the board, empty), and the
    unit is still in it."""
    demo = finished_demo("naval_module").out
    _, page = viewer(demo, "003-Axis-motorized", "Axis", tmp_path)
    open_page(browser, page, width, tmp_path)
    browser.set_window_size(width, 844)
    _pick_from_the_list(browser, "RO-T-1")
    x0, y0, x1, y1, *_ = browser.execute_script(VIEW)
    board, at = browser.execute_script(
        """const V = window.refereeViewer, B = V.data.board;
        const p = document.querySelector('#units .counter[data-unit="RO-T-1"]')
          .closest('.stack').dataset.place;
        return [[B.width, B.height], B.places[p]];"""
    )
    assert x1 - x0 < board[0] and y1 - y0 < board[1]  # closer in than the whole board
    assert x0 >= -1 and y0 >= -1 and x1 <= board[0] + 1 and y1 <= board[1] + 1, (
        [x0, y0, x1, y1],
        board,
    )
    assert x0 <= at[0] <= x1 and y0 <= at[1] <= y1, (at, [x0, y0, x1, y1])
    snap(browser, shots / f"phone-layout-edge-{width}.png")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


AIDS = """
const bar = document.getElementById('aidbar').getBoundingClientRect();
const tops = Array.from(document.querySelectorAll('#aidbar button.aid'))
  .map(b => Math.round(b.getBoundingClientRect().top));
const vp = document.getElementById('viewport').getBoundingClientRect();
return {tops: tops, bar: bar.height, map: [vp.top, vp.bottom], height: innerHeight,
        wide: document.getElementById('aidbar').scrollWidth > bar.width,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth};
"""


def test_the_play_aids_are_one_row_above_the_map_on_a_phone(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path
) -> None:
    """The Sixth Fleet demo's viewer has six play aids. At phone width they took 4-5
    wrapped rows above the map, which opened half below the first screen; now they are one
    row that scrolls sideways (the page itself does not), and at least two thirds of the map
    are on the screen when the page opens. Each aid still opens its picture."""
    game = cut(demo_game, "004-NATO-combat", tmp_path)
    page = tmp_path / "viewer-NATO.html"
    assert cli("viewer", game, "--side", "NATO", "-o", page)[0] == 0
    open_page(browser, page, PHONE, tmp_path)
    browser.set_window_size(PHONE, 844)
    a = browser.execute_script(AIDS)
    assert len(a["tops"]) >= 5, a
    assert len(set(a["tops"])) == 1, a  # one row
    assert a["bar"] < 60 and a["wide"], a  # a row that scrolls sideways, not the page
    assert a["sideways"] <= 0, a
    top, bottom = a["map"]
    assert (min(bottom, a["height"]) - top) >= (bottom - top) * 2 / 3, a
    snap(browser, shots / "phone-layout-aids.png")
    last = browser.find_elements("css selector", "#aidbar button.aid")[-1]
    browser.execute_script("arguments[0].scrollIntoView({inline: 'end', block: 'nearest'})", last)
    last.click()
    assert browser.execute_script(
        "return document.getElementById('aid-' + arguments[0].dataset.aid).open", last
    )
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
