"""The orders of a whole side and the composed lines (options format 3), pointed at in a real
headless Chromium (issue 28): Carrier Battlegroup's set-up and turns drafted from the demo's
own files line for line (``begin`` [4.0], the CVBG's move [12.1], the standing ``breakoff``
[18.2]) and its outfit's ``escort`` line composed ship by ship [4.0 step 7]; DTP's ``pass``
of an impulse [DTP 8.2] and Sixth Fleet (2019)'s ``roll`` [5.1], buttons of the side. Each
draft is downloaded, ``referee validate`` accepts it on the side's view, and, signed with the
side's demo key, ``referee adjudicate`` carries it out in the demo game cut back to its step:
the new step's report tells what the draft ordered.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    body_lines,
    carried_out,
    choices,
    download,
    downloads_dir,
    hidden_viewer,
    open_page,
    order_lines,
    pick,
    point,
    press,
    report_events,
    side_button,
    signed_and_carried_out,
    snap,
    validated,
    viewer,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def _demo_lines(path: Path) -> list[str]:
    """An orders file's lines without its header, signature and nonces."""
    text = path.read_text().split("-----BEGIN SSH SIGNATURE-----")[0]
    return body_lines(text)


def _point_line(browser: Any, line: str) -> None:
    """Point at ``line``: the side's button, else the first unit offering it."""
    sides = browser.execute_script(
        "return (window.refereeViewer.data.draft.side_choices || []).map(c => c.order)"
    )
    if line in sides:
        side_button(browser, line)
        return
    units = browser.execute_script("return Object.keys(window.refereeViewer.data.draft.units)")
    unit, c = next((u, c) for u in sorted(units) for c in choices(browser, u) if c["order"] == line)
    point(browser, unit, c)


@pytest.mark.parametrize("width", [1280, 390])
def test_carrier_battlegroup_set_up_and_turns_line_for_line(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, width: int
) -> None:
    """The demo's set-up (``begin`` [4.0]) and its two turns' files (the CVBG's move
    [12.1], the standing ``breakoff`` [18.2]), each pointed at in the step it answers and
    downloaded: the demo's own lines, which ``validate`` accepts on the USN's view and
    ``adjudicate`` carries out (the report tells the set-up's draws, the move). Then the
    outfit (below), carried out too: the CVBG is the carrier and the escorts composed."""
    demo = finished_demo("carrier_battlegroup").out
    turns = sorted(p.name for p in (demo / "game" / "turns").iterdir())
    downloads = downloads_dir(tmp_path)
    for n, name in ((0, "00-usn.txt"), (2, "02-usn.txt"), (3, "03-usn.txt")):
        game, page, key = hidden_viewer(demo, turns[n], "USN", tmp_path / name)
        want = _demo_lines(demo / "orders" / name)
        open_page(browser, page, width, downloads)
        for line in want:
            if not line.startswith("["):
                _point_line(browser, line)
        snap(browser, shots / f"orders-cbg-{name[:2]}-{width}.png")
        text = download(browser, downloads)
        assert body_lines(text) == want
        signed_and_carried_out(demo, game, tmp_path / name, text, "USN", turns[n], key)
        _told_as_drafted(report_events(game), want)
    if width != 1280:
        return
    # the outfit (01-usn.txt): the escort line composed ship by ship; the purchases typed
    game, page, key = hidden_viewer(demo, turns[1], "USN", tmp_path / "outfit")
    want = _demo_lines(demo / "orders" / "01-usn.txt")
    open_page(browser, page, 390, downloads)
    escort = next(ln for ln in want if ln.startswith("escort "))
    side_button(browser, "escort")
    for ship in escort.split()[1:]:
        press(browser, word(browser, ship))
    press(browser, "#composedone")
    snap(browser, shots / "orders-cbg-outfit-390.png")
    box = browser.find_element("id", "draft")
    box.send_keys("\n".join(ln for ln in want if ln.startswith("buy ")) + "\n")
    text = download(browser, downloads)
    assert body_lines(text) == want
    signed_and_carried_out(demo, game, tmp_path / "outfit", text, "USN", turns[1], key)
    told = report_events(game)
    (cvbg,) = [e["data"]["ships"] for e in told if e["kind"] == "escorts"]
    assert cvbg[1:] == escort.split()[1:], told  # the carrier, then the escorts chosen [4.0]
    assert [e["rule"] for e in told if e["kind"] == "outfit"] == ["4.0"], told


def _told_as_drafted(told: list[dict[str, Any]], lines: list[str]) -> None:
    """The report of a set-up or a turn the USN's draft ``lines`` was carried out in tells
    what it ordered: the set-up's draws (the Orders marker, the mission, the carrier, its
    escorts [4.0]) after ``begin``; the CVBG's move through the spaces of ``move`` [12.1].
    The dice are not the demo's (the draft's header is not the demo file's), so what they
    decide differs."""
    kinds = [e["kind"] for e in told]
    if "begin" in lines:
        drawn = [e for e in told if e["kind"] in ("orders", "mission", "carrier", "escorts")]
        assert [(e["kind"], e["rule"]) for e in drawn] == [
            ("orders", "4.0"), ("mission", "4.0"), ("carrier", "4.0"), ("escorts", "4.0"),
        ], kinds  # fmt: skip
    moves = [("12.1", shlex.split(ln)[1:]) for ln in lines if ln.startswith("move ")]
    assert [(e["rule"], e["data"]["path"]) for e in told if e["kind"] == "move"] == moves, kinds


def _first_offering(demo: Path, line: str) -> tuple[str, str]:
    """The first turn folder whose published options (an open game's, not encrypted) offer
    the side's ``line``: its name and the side."""
    for t in sorted((demo / "game" / "turns").iterdir()):
        for f in sorted(t.glob("options-*.json")):
            doc = json.loads(f.read_bytes())
            if any(c["order"] == line for c in doc.get("side_choices", [])):
                return t.name, doc["side"]
    raise AssertionError(f"no step of the demo offers {line!r}")


def test_dtp_pass_of_an_impulse_is_a_button_of_the_side(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """An impulse's ``pass`` [DTP 8.2] uses the impulse as an attack does: once drafted,
    the attacks are disabled. Signed and carried out by ``adjudicate``: the report tells
    the side's pass."""
    demo = finished_demo("dtp_denmark_strait").out
    last, side = _first_offering(demo, "pass")
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    side_button(browser, "pass")
    attacks = browser.execute_script(
        "const d = window.refereeViewer.data.draft; return Object.keys(d.units).filter("
        "u => window.refereeViewer.choicesOf(u).some(c => (c.uses || []).length))"
    )
    if attacks:
        pick(browser, attacks[0])
        used = [
            b
            for b in browser.find_elements("css selector", "#choices button.choice")
            if "attack" in b.text or "strike" in b.text
        ]
        assert used and all(not b.is_enabled() for b in used)
    text = download(browser, downloads)
    assert order_lines(text)[-1] == "pass"
    signed_and_carried_out(demo, game, tmp_path, text, side, last)
    told = [(e["kind"], e["rule"], e["text"]) for e in report_events(game) if e["kind"] == "pass"]
    assert told == [("pass", "DTP 8.2", f"{side} passes")], report_events(game)


def test_sixth_fleet_2019_roll_is_a_button_of_the_side(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """The Random Events Phase's one order, ``roll`` [5.1], in NATO's part opened with its
    key (the file is inside the part, so the step is found by its phase's name); signed and
    carried out by ``adjudicate``: the report tells NATO's roll and its event."""
    demo = finished_demo("sixth_fleet_2019").out
    last = next(
        p.name
        for p in sorted((demo / "game" / "turns").iterdir())
        if p.name.endswith("-soviet_actions")
    )
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    side_button(browser, "roll")
    text = download(browser, downloads)
    assert order_lines(text)[-2:] == ["[events]", "roll"]
    draft = validated(text, game, "NATO", tmp_path, key)
    carried_out(demo, game, draft, key, tmp_path, last)
    rolled = [e for e in report_events(game) if e["kind"] == "random_event"]
    assert len(rolled) == 1 and rolled[0]["rule"] == "5.1", rolled
    assert rolled[0]["text"].startswith(f"NATO rolls {rolled[0]['data']['roll']}: "), rolled
