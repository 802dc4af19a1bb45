"""The viewer's orders mode in a real headless Chromium (issue 28, "How it is checked").

Every one of the demo's orders files after the Soviet set-up is drafted by pointing, composed
lines too (``stack`` [7.42], the standing ``retreat UNIT prefer`` [8.71]). The demo game of
Sixth Fleet (1975) is cut back to the step before one of the demo's own
orders files was sent; the awaited side's viewer is made of it with ``referee viewer``; the
test points at each order the file gives (the unit in the list, then the choice: a button,
or the marked hex on the map) and downloads the draft. The draft must be the demo's file line
for line (comments aside; the header also names the report it answers), ``referee validate``
must accept it, and, signed with the side's demo key, ``referee adjudicate`` must carry it out.
Screenshots at desktop (1280) and phone (390) widths go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from referee.demos.base import example_files
from referee.demos.sixth_fleet_1975 import SRC as SF_SRC
from tests.pbem.cliflow import cli

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

# the demo's orders file -> the turn folder it answers (the last one kept) and its side
CASES = {
    "01-nato-setup.txt": ("000-setup-request", "NATO"),
    "03-gt1-soviet-movement.txt": ("002-Soviet-setup", "Soviet"),
    "04-gt2-nato-combat.txt": ("003-Soviet-movement", "NATO"),
    "05-gt2-nato-movement.txt": ("004-NATO-combat", "NATO"),
    "06-gt2-soviet-combat.txt": ("005-NATO-movement", "Soviet"),
    "07-gt2-nato-answer.txt": ("006-Soviet-combat", "NATO"),
    "08-gt2-soviet-movement.txt": ("007-NATO-answer", "Soviet"),
}


def _cut(demo: Path, last: str, into: Path) -> Path:
    """A copy of the demo game (and the referee's seeds) ending with turn folder ``last``."""
    game = into / "game"
    shutil.copytree(demo / "game", game)
    shutil.copytree(demo / "referee", into / "referee")
    for t in sorted((game / "turns").iterdir()):
        if t.name > last:
            shutil.rmtree(t)
    if (game / "turns" / last / "state.json").is_file():  # a game that hides nothing
        shutil.copyfile(game / "turns" / last / "state.json", game / "state.json")
    return game


def _order_lines(text: str) -> list[str]:
    """The lines an orders file says, comments and blank lines left out."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def _open(browser: Any, page: Path, width: int, downloads: Path) -> None:
    browser.set_window_size(width, 900)
    browser.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    browser.get(page.resolve().as_uri())


def _point(browser: Any, line: str) -> None:
    """Give one order by pointing: the unit from the list, then the choice's button, or the
    marked place on the map when the list does not show it (moves: one per reachable hex)."""
    from selenium.webdriver.support.ui import Select

    if line.startswith("answer "):  # the option's place on the map, else its button
        _, decision, option = line.split()
        marks = browser.find_elements(
            "css selector",
            f'#optmarks .opt.answer[data-answer="{decision}"][data-option="{option}"]',
        )
        if marks:
            browser.execute_script(
                "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", marks[0]
            )
            return
        browser.find_element("css selector", f'#answers button[data-order="{line}"]').click()
        return
    words = line.split()
    if words[0] == "stack" or words[2:3] == ["prefer"]:
        _compose(browser, words)
        return
    unit = words[1]
    Select(browser.find_element("id", "unitpick")).select_by_value(unit)
    button = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        line,
    )
    if button is not None:
        button.click()
        return
    place = words[-1]
    mark = browser.find_element("css selector", f'#optmarks .opt[data-place="{place}"]')
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", mark
    )


def _click(browser: Any, element: Any) -> None:
    browser.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element
    )


MARK = '#optmarks .opt.compose[data-word="{}"]'


def _word(browser: Any, word: str) -> Any:
    """The button that adds ``word`` to the line being composed."""
    return browser.find_element("css selector", f'#choices button.compose[data-word="{word}"]')


def _click_hex(browser: Any, hex_id: str) -> None:
    """A click on the map where ``hex_id`` is drawn (brought into view first)."""
    browser.execute_script(
        """const v = window.refereeViewer, q = v.data.board.places[arguments[0]];
        const vp = document.getElementById('viewport'), r = vp.getBoundingClientRect();
        v.view.x = r.width / 2 - v.view.k * q[0]; v.view.y = r.height / 2 - v.view.k * q[1];
        document.getElementById('world').style.transform =
          `translate(${v.view.x}px,${v.view.y}px) scale(${v.view.k})`;
        const x = r.left + v.view.x + v.view.k * q[0], y = r.top + v.view.y + v.view.k * q[1];
        document.getElementById('overlay').dispatchEvent(
          new MouseEvent('click', {bubbles: true, clientX: x, clientY: y}));""",
        hex_id,
    )


def _compose(browser: Any, words: list[str]) -> None:
    """A composed line (options format 3), built by pointing: ``stack HEX U1 U2 ...``: the
    first unit's ``stack`` choice, then each other unit's button top first [7.42];
    ``retreat UNIT prefer H1 H2``: the unit's choice, then each hex marked on the map [8.71]."""
    from selenium.webdriver.support.ui import Select

    stack = words[0] == "stack"
    unit = words[2] if stack else words[1]
    Select(browser.find_element("id", "unitpick")).select_by_value(unit)
    kind = "stack" if stack else words[0]
    start = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices button.choice'))"
        ".find(b => b.dataset.order === arguments[0]) || null",
        "stack" if stack else f"{kind} {unit} prefer",
    )
    assert start is not None, f"no {kind} choice for {unit}"
    start.click()
    if stack:
        for w in words[3:]:
            browser.find_element(
                "css selector", f'#choices button.compose[data-word="{w}"]'
            ).click()
    else:  # a marked hex, else any hex of the map, clicked where it is drawn
        for h in words[3:]:
            marks = browser.find_elements(
                "css selector", f'#optmarks .opt.compose[data-word="{h}"]'
            )
            if marks:
                _click(browser, marks[0])
            else:
                _click_hex(browser, h)
    browser.find_element("id", "composedone").click()


def _download(browser: Any, downloads: Path) -> str:
    for old in downloads.glob("orders*.txt"):
        old.unlink()
    browser.find_element("id", "savedraft").click()
    for _ in range(50):
        got = downloads / "orders.txt"
        if got.is_file() and got.stat().st_size:
            return got.read_text()
        time.sleep(0.1)
    raise AssertionError("no orders.txt downloaded")


@pytest.mark.parametrize("example", sorted(CASES))
def test_pointing_drafts_the_demo_orders_line_for_line(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path, example: str
) -> None:
    last, side = CASES[example]
    game = _cut(demo_game, last, tmp_path)
    page = tmp_path / f"viewer-{side}.html"
    code, out = cli("viewer", game, "--side", side, "-o", page)
    assert code == 0, out
    want_file = next(p for p in example_files(SF_SRC) if p.name == example)
    want = _order_lines(want_file.read_text())
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    _open(browser, page, 1280, downloads)
    assert "referee validate" in browser.find_element("id", "judge").text
    for line in want:
        if ":" in line.split()[0] or line.startswith("["):
            continue  # the header and the section: the page writes them
        _point(browser, line)
    name = example.removesuffix(".txt")
    browser.save_screenshot(str(shots / f"orders-{name}-1280.png"))
    text = _download(browser, downloads)
    got = [ln for ln in _order_lines(text) if not ln.startswith("previous-report:")]
    drafted = want if "phase" in text else [ln for ln in want if not ln.startswith("phase:")]
    assert got == drafted
    report = json.loads((game / "turns" / last / "report.json").read_bytes())
    assert f"game: {report['game_id']}" in text
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", side)
    assert code == 0, out
    key = demo_game / "keys" / f"{side.lower()}.key"
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate",
        game,
        signed,
        "--key",
        demo_game / "keys" / "referee.key",
        "--referee-dir",
        tmp_path / "referee",
    )
    assert code == 0, out
    turns = sorted(p.name for p in (game / "turns").iterdir())
    assert turns[-1] > last  # carried out: a new step


def test_a_choice_that_an_earlier_order_rules_out_cannot_be_pointed_at(
    browser: Any, demo_game: Path, tmp_path: Path
) -> None:
    """A unit in an attack already drafted attacks no more [8.12]: every other attack it
    would take part in is disabled; a hand edit is still the validator's to catch."""
    game = _cut(demo_game, "005-NATO-movement", tmp_path)
    page = tmp_path / "viewer-Soviet.html"
    assert cli("viewer", game, "--side", "Soviet", "-o", page)[0] == 0
    _open(browser, page, 1280, tmp_path)
    _point(browser, "attack SO-T22 SO-T16.1 SO-T16.2 -> GR-DD-2")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "unitpick")).select_by_value("SO-T22")
    buttons = browser.find_elements("css selector", "#choices button.choice")
    others = [b for b in buttons if b.get_attribute("data-order").startswith("attack ")]
    assert others and all(not b.is_enabled() for b in others)  # its standing orders stay
    hand = tmp_path / "hand.txt"
    text = browser.find_element("id", "draft").get_attribute("value")
    hand.write_text(text + "attack SO-T22 -> GR-DD-2\n")
    code, out = cli("validate", hand, "--state", game, "--side", "Soviet")
    assert code != 0 and "SO-T22" in out


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots_of_a_unit_s_options_and_the_draft(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path, width: int
) -> None:
    game = _cut(demo_game, "004-NATO-combat", tmp_path)
    page = tmp_path / "viewer-NATO.html"
    assert cli("viewer", game, "--side", "NATO", "-o", page)[0] == 0
    _open(browser, page, width, tmp_path)
    _point(browser, "move US-CG-3 1216 1117 1017")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "unitpick")).select_by_value("IT-CH-1")
    marks = browser.find_elements("css selector", "#optmarks .opt")
    assert len(marks) > 5
    browser.save_screenshot(str(shots / f"orders-map-{width}.png"))
    browser.execute_script("document.getElementById('draft').scrollIntoView()")
    browser.save_screenshot(str(shots / f"orders-draft-{width}.png"))
    text = browser.find_element("id", "draft").get_attribute("value")
    assert "move US-CG-3 1216 1117 1017" in text
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_an_area_map_game_that_hides_information_drafts_by_pointing(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), zones of an area map, NATO's part opened with NATO's key: two of
    the demo's own lines of its first NATO Action Phase (a refit and an attack on a detected
    unit [6.0], [9.0]) pointed at, downloaded, and accepted by validate on NATO's view."""
    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game = _cut(demo, last, tmp_path)
    secret = game / "secret"
    for t in sorted((secret / "turns").iterdir()):
        if t.name > last:
            shutil.rmtree(t)
    shutil.copyfile(secret / "turns" / last / "state.json", secret / "state.json")
    key = demo / "keys" / "nato.key"
    page = tmp_path / "viewer-NATO.html"
    code, out = cli("viewer", game, "--side", "NATO", "--key", key, "-o", page)
    assert code == 0, out
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    _open(browser, page, 1280, downloads)
    lines = [
        "refit TK-F104 -> Atlantic",
        'attack US-S3 -> "Western Med" hitting SO-SSGN-1.2',
    ]
    for line in lines:
        _point(browser, line)
    browser.save_screenshot(str(shots / "orders-2019-1280.png"))
    text = _download(browser, downloads)
    assert _order_lines(text)[-3:] == ["[actions]", *lines]
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "NATO", "--key", key)
    assert code == 0, out
