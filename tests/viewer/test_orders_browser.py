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
from pathlib import Path
from typing import Any

import pytest

from referee.demos.base import example_files
from referee.demos.sixth_fleet_1975 import SRC as SF_SRC
from tests.pbem.cliflow import cli
from tests.viewer.drafting import (
    carried_out,
    download,
    downloads_dir,
    hidden_viewer,
    no_errors,
    open_page,
    order_lines,
    pick,
    point_line,
    report_events,
    signed_and_carried_out,
    snap,
    validated,
    viewer,
)

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


@pytest.mark.parametrize("example", sorted(CASES))
def test_pointing_drafts_the_demo_orders_line_for_line(
    browser: Any, demo_game: Path, tmp_path: Path, shots: Path, example: str
) -> None:
    last, side = CASES[example]
    game, page = viewer(demo_game, last, side, tmp_path)
    want_file = next(p for p in example_files(SF_SRC) if p.name == example)
    want = order_lines(want_file.read_text())
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert "referee validate" in browser.find_element("id", "judge").text
    for line in want:
        if ":" in line.split()[0] or line.startswith("["):
            continue  # the header and the section: the page writes them
        point_line(browser, line)
    name = example.removesuffix(".txt")
    snap(browser, shots / f"orders-{name}-1280.png")
    text = download(browser, downloads)
    got = [ln for ln in order_lines(text) if not ln.startswith("previous-report:")]
    drafted = want if "phase" in text else [ln for ln in want if not ln.startswith("phase:")]
    assert got == drafted
    report = json.loads((game / "turns" / last / "report.json").read_bytes())
    assert f"game: {report['game_id']}" in text
    signed_and_carried_out(demo_game, game, tmp_path, text, side, last)


def test_a_choice_that_an_earlier_order_rules_out_cannot_be_pointed_at(
    browser: Any, demo_game: Path, tmp_path: Path
) -> None:
    """A unit in an attack already drafted attacks no more [8.12]: every other attack it
    would take part in is disabled; a hand edit is still the validator's to catch."""
    game, page = viewer(demo_game, "005-NATO-movement", "Soviet", tmp_path)
    open_page(browser, page, 1280, tmp_path)
    point_line(browser, "attack SO-T22 SO-T16.1 SO-T16.2 -> GR-DD-2")
    pick(browser, "SO-T22")
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
    _, page = viewer(demo_game, "004-NATO-combat", "NATO", tmp_path)
    open_page(browser, page, width, tmp_path)
    point_line(browser, "move US-CG-3 1216 1117 1017")
    pick(browser, "IT-CH-1")
    marks = browser.find_elements("css selector", "#optmarks .opt")
    assert len(marks) > 5
    snap(browser, shots / f"orders-map-{width}.png")
    browser.execute_script("document.getElementById('draft').scrollIntoView()")
    snap(browser, shots / f"orders-draft-{width}.png")
    text = browser.find_element("id", "draft").get_attribute("value")
    assert "move US-CG-3 1216 1117 1017" in text
    no_errors(browser)


def test_an_area_map_game_that_hides_information_drafts_by_pointing(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), zones of an area map, NATO's part opened with NATO's key: two of
    the demo's own lines of its first NATO Action Phase (a refit and an attack on a detected
    unit [6.0], [9.0]) pointed at, downloaded, accepted by validate on NATO's view, signed
    and carried out by ``adjudicate``: the report tells the refit and the attack."""
    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    lines = [
        "refit TK-F104 -> Atlantic",
        'attack US-S3 -> "Western Med" hitting SO-SSGN-1.2',
    ]
    for line in lines:
        point_line(browser, line)
    snap(browser, shots / "orders-2019-1280.png")
    text = download(browser, downloads)
    assert order_lines(text)[-3:] == ["[actions]", *lines]
    draft = validated(text, game, "NATO", tmp_path, key)
    carried_out(demo, game, draft, key, tmp_path, last)
    told = [
        (e["kind"], e["rule"], e["data"].get("units") or e["text"].split()[0], e["data"]["zone"])
        for e in report_events(game)
        if e["kind"] in ("refit", "attack")
    ]
    assert told == [
        ("refit", "6.4", ["TK-F104"], "Atlantic"),
        ("attack", "9.0", "US-S3", "Western Med"),
    ], told
