"""The game viewer in a real headless Chromium (issue 17, "How it is checked").

The demo's NATO viewer is loaded with the network blocked; the tests step to a turn with the
keyboard, read the units shown in each hex and compare them with NATO's view of the engine's
state at that step, hover a counter and read its values, click the attack and read its
differential and die, check the pixels of a screenshot against the position, and take
screenshots at desktop and phone widths."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from referee.demos.sixth_fleet_1975 import SRC
from referee.source.loader import load_module
from tests.viewer.drafting import open_fresh, shown, snap

STEP = "006-Soviet-combat"  # Game-Turn 2: three Soviet units attack GR-DD-2 in 1720 [8.0]
TARGET = "1720"


@pytest.fixture(scope="module")
def nato(demo_game: Path) -> Path:
    return demo_game / "viewer" / "viewer-NATO.html"


def _view(demo_game: Path, step: str, side: str = "NATO") -> dict[str, Any]:
    return json.loads((demo_game / "game/turns" / step / f"view-{side}.json").read_text())


def _status(browser: Any) -> str:
    return str(browser.find_element("id", "status").text)


def _go_to(browser: Any, title: str) -> None:
    """Step with the arrow keys (from the last step backwards) until ``title`` shows."""
    from selenium.webdriver.common.keys import Keys

    body = browser.find_element("tag name", "body")
    for _ in range(20):
        if title in _status(browser):
            return
        body.send_keys(Keys.ARROW_LEFT)
    raise AssertionError(f"never reached {title!r}: {_status(browser)}")


def test_it_loads_offline_with_no_request_and_no_error(logged_browser: Any, nato: Path) -> None:
    browser = logged_browser
    open_fresh(browser, nato)
    urls = []
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    assert urls, "the performance log recorded no request at all"
    assert all(u.startswith(("file:", "data:")) for u in urls), urls
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    assert browser.execute_script("return document.getElementById('board').naturalWidth") > 1000


def test_stepping_shows_the_units_of_the_engine_state(
    browser: Any, nato: Path, demo_game: Path
) -> None:
    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    state = _view(demo_game, STEP)["state"]
    want = {h: list(ids) for h, ids in state["stacks"].items() if ids}
    assert shown(browser) == want
    assert shown(browser)[TARGET] == ["GR-DD-2"]
    # one step on (NATO's answer): GR-DD-2 retreated to 1620 [8.71]
    from selenium.webdriver.common.keys import Keys

    browser.find_element("tag name", "body").send_keys(Keys.ARROW_RIGHT)
    assert "NATO answer" in _status(browser)
    after = _view(demo_game, "007-NATO-answer")["state"]["stacks"]
    assert shown(browser) == {h: list(ids) for h, ids in after.items() if ids}
    assert TARGET not in shown(browser) and "GR-DD-2" in shown(browser)["1620"]
    # the slider goes anywhere: the first step is the set-up request (fixed set-ups only)
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = 0;"
        "s.dispatchEvent(new Event('input'));"
    )
    assert "Step 1 of 9: set-up request" in _status(browser)
    first = _view(demo_game, "000-setup-request")["state"]["stacks"]
    assert shown(browser) == {h: list(ids) for h, ids in first.items() if ids}
    assert len(shown(browser)) < len(want)


def test_hovering_a_counter_shows_its_values_status_and_stack(browser: Any, nato: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    module, _ = load_module(SRC)
    assert module is not None
    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    counter = browser.find_element("css selector", f'g.stack[data-place="{TARGET}"] g.counter')
    ActionChains(browser).move_to_element(counter).perform()
    info = browser.find_element("id", "unitinfo")
    assert info.is_displayed()
    text = info.text
    unit = module.pieces()["GR-DD-2"].unit
    assert "GR-DD-2" in text and unit.name in text
    for name, value in unit.values.items():
        assert f"{name} {value}" in text, (name, text)
    assert "Where 1720" in text and "Stack GR-DD-2" in text and "Status normal" in text
    assert browser.find_element("id", "here").text == TARGET  # the hex under the pointer


def test_clicking_the_attack_shows_its_differential_and_die(
    browser: Any, nato: Path, demo_game: Path
) -> None:
    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    events = _view(demo_game, STEP)["report"]["events"]
    attack = next(e for e in events if e["kind"] == "attack")
    die = next(e for e in events if e["kind"] == "roll")
    mark = browser.find_element("css selector", 'g.mark[data-kind="attack"] polyline')
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
    )
    box = browser.find_element("id", "eventinfo")
    assert box.is_displayed()
    diff = box.find_element("css selector", ".differential").text
    assert diff == f"Differential: {attack['data']['differential']}" == "Differential: 126"
    assert box.find_element("css selector", ".die").text.startswith(
        f"Die: {die['data']['roll']} [{die['rule']}]"
    )
    assert f"[{attack['rule']}]" in box.text
    # the event list names the rule case of each event, and the die table its purpose
    items = [li.text for li in browser.find_elements("css selector", "#events li")]
    assert items == [f"[{e['rule']}] {e['text']}" for e in events]
    rolls = browser.find_element("id", "rolls").text
    assert "combat: attack SO-T22 SO-T16.1 SO-T16.2 -> GR-DD-2" in rolls and "8.9" in rolls
    sha = (demo_game / "game/turns" / STEP / "report.json").read_bytes()
    import hashlib

    digest = hashlib.sha256(sha).hexdigest()
    assert browser.find_element("id", "sha").text == digest
    assert browser.find_element("id", "verifyline").text.endswith(f"--head {digest}")
    assert browser.find_element("id", "signature").text.startswith("Signature: good")


def test_score_turn_pending_and_play_aids(browser: Any, nato: Path, demo_game: Path) -> None:
    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    rep = _view(demo_game, STEP)["report"]
    summary = browser.find_element("id", "summary").text
    assert "Whose move: Soviet" in summary
    assert rep["awaiting"]["what"] in summary
    assert f"level of victory now: {rep['score']['level']}" in summary
    assert "NATO must answer D2-1 [8.71]" in summary
    browser.find_element("css selector", 'button.aid[data-aid="crt"]').click()
    dialog = browser.find_element("id", "aid-crt")
    assert dialog.is_displayed()
    assert browser.execute_script("return arguments[0].querySelector('img').naturalWidth", dialog)
    dialog.find_element("css selector", "button").click()
    assert not dialog.is_displayed()


def test_keyboard_zoom_and_the_screenshot_matches_the_position(
    browser: Any, nato: Path, demo_game: Path, shots: Path
) -> None:
    from PIL import Image
    from selenium.webdriver.common.keys import Keys

    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    body = browser.find_element("tag name", "body")
    k_region = browser.execute_script("return window.refereeViewer.view.k")
    body.send_keys("0")  # the whole map: smaller than the region of play it opens on
    k0 = browser.execute_script("return window.refereeViewer.view.k")
    assert k0 < k_region
    for _ in range(4):
        body.send_keys("+")
    k1 = browser.execute_script("return window.refereeViewer.view.k")
    assert k1 > k0 * 2
    body.send_keys("-")
    assert browser.execute_script("return window.refereeViewer.view.k") < k1
    body.send_keys("0")  # the whole map again
    assert browser.execute_script("return window.refereeViewer.view.k") == pytest.approx(k0)
    for _ in range(3):
        body.send_keys("+")
    # pixels: the top counter of every stack in NATO's view is drawn in its side's colour
    module, _ = load_module(SRC)
    assert module is not None
    colours = {s.id: s.color for s in module.sides}
    png = browser.get_screenshot_as_png()
    (shots / "viewer-desktop.png").write_bytes(png)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    state = _view(demo_game, STEP)["state"]
    side_of = {u["id"]: u["side"] for u in state["units"]}
    vp = browser.find_element("id", "viewport").rect
    checked = 0
    for place, ids in sorted(state["stacks"].items()):
        if not ids:
            continue
        box = browser.execute_script(
            "const r = document.querySelector(`g.stack[data-place='${arguments[0]}'] "
            "g.counter:last-child rect`).getBoundingClientRect();"
            "return [r.left, r.top, r.width, r.height];",
            place,
        )
        x, y = round(box[0] + box[2] * 0.15), round(box[1] + box[3] / 2)  # left of the text
        if not (vp["x"] < x < vp["x"] + vp["width"] and vp["y"] < y < vp["y"] + vp["height"]):
            continue  # scrolled out of the map's frame at this zoom
        want = colours[side_of[ids[0]]].lstrip("#")
        rgb = tuple(int(want[i : i + 2], 16) for i in (0, 2, 4))
        got = img.getpixel((x, y))
        assert sum(abs(a - b) for a, b in zip(got, rgb, strict=True)) < 60, (place, got, rgb)
        checked += 1
    assert checked >= 8
    body.send_keys(Keys.END)
    assert "Step 9 of 9" in _status(browser)


def test_readable_at_phone_width(browser: Any, nato: Path, shots: Path) -> None:
    open_fresh(browser, nato, 390, 844)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways at phone width"
    vp = browser.find_element("id", "viewport").rect
    assert vp["width"] >= 350 and vp["height"] >= 300
    snap(browser, shots / "viewer-phone.png")
    browser.execute_script("document.getElementById('events').scrollIntoView()")
    snap(browser, shots / "viewer-phone-events.png")
    assert browser.find_element("css selector", "#events li").is_displayed()


def test_the_dice_are_recomputed_in_the_page(browser: Any, nato: Path, demo_game: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    # the die the archive recorded for this step (the dice follow from the signed record, so
    # the value is read from it, not written into the test)
    events = _view(demo_game, STEP)["report"]["events"]
    rolled = next(e for e in events if e["kind"] == "roll")["data"]["roll"]
    forged = rolled % 6 + 1
    open_fresh(browser, nato)
    _go_to(browser, "Game-Turn 2, Soviet combat")
    browser.find_element("id", "checkdice").click()
    box = browser.find_element("id", "dicecheck")
    WebDriverWait(browser, 10).until(lambda d: len(box.find_elements("tag name", "p")) == 2)
    lines = [p.text for p in box.find_elements("tag name", "p")]
    assert lines[0] == "\u2713 SHA-256 of seed 6 is seed 5", lines
    assert (
        lines[1].startswith("\u2713 roll 0 (combat: attack SO-T22")
        and f"d6 = {rolled}, as recorded" in (lines[1])
    )
    # a recorded value changed in the page is caught
    browser.execute_script(
        "window.refereeViewer.data.steps[window.refereeViewer.step()].rolls[0].value = "
        + str(forged)
        + ";"
    )
    browser.find_element("id", "checkdice").click()
    WebDriverWait(browser, 10).until(lambda d: len(box.find_elements("tag name", "p")) == 2)
    assert f"NOT the recorded {forged}" in box.text and "\u2717" in box.text


def test_wheel_drag_and_two_finger_pinch(browser: Any, nato: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    open_fresh(browser, nato)

    def view() -> dict[str, float]:
        return browser.execute_script("return Object.assign({}, window.refereeViewer.view)")

    vp = browser.find_element("id", "viewport")
    before = view()
    browser.execute_script(  # a mouse wheel (or a trackpad's scroll) over the map zooms in
        "const r = arguments[0].getBoundingClientRect();"
        "arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: r.left + 100,"
        " clientY: r.top + 100, bubbles: true, cancelable: true}));",
        vp,
    )
    assert view()["k"] > before["k"] * 1.5
    browser.execute_script(  # a trackpad pinch: the wheel with ctrlKey, small deltas
        "const r = arguments[0].getBoundingClientRect();"
        "arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: 30, ctrlKey: true,"
        " clientX: r.left + 100, clientY: r.top + 100, bubbles: true, cancelable: true}));",
        vp,
    )
    zoomed = view()
    assert zoomed["k"] < before["k"] * 2.0
    ActionChains(browser).move_to_element(vp).click_and_hold().move_by_offset(
        120, 80
    ).release().perform()
    dragged = view()
    assert dragged["x"] == pytest.approx(zoomed["x"] + 120, abs=2)
    assert dragged["y"] == pytest.approx(zoomed["y"] + 80, abs=2)
    # two fingers moving apart (touch events through DevTools): the map zooms in
    r = vp.rect
    cx, cy = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2

    def touch(kind: str, d: float) -> None:
        pts = (
            []
            if kind == "touchEnd"
            else [
                {"x": cx - d, "y": cy, "id": 1},
                {"x": cx + d, "y": cy, "id": 2},
            ]
        )
        browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    try:
        touch("touchStart", 40)
        for d in (60, 80, 100, 120):
            touch("touchMove", d)
        touch("touchEnd", 0)
    finally:
        browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    assert view()["k"] == pytest.approx(dragged["k"] * 3, rel=0.1)
