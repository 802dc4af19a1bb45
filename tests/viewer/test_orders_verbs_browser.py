"""The verbs the viewer's orders mode offers since options format 4, pointed at in a real
headless Chromium (issue 28): each drafted by pointing in the awaited side's viewer of a
shared demo game, downloaded, accepted by ``referee validate`` and carried out by ``referee
adjudicate`` (signed with the side's demo key).

The naval module: in the Soviet Movement Phase of the demo, the 1330 Regiment boards the
transport Gp-B in Sevastopol (``load``, pointed on the ground unit: the line goes before the
ship's move, units load before it moves [28.14a]), the transport sails, and its Abort choice
is made in advance (``abort SHIP damage`` [27.32b]). Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.test_orders_browser import _download, _open, _order_lines
from tests.viewer.test_orders_hex_browser import (
    _awaiting,
    _choices,
    _point,
    _signed_and_carried_out,
    _viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_naval_load_move_and_abort_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("naval_module").out
    last, side, doc = _awaiting(demo, "load")
    game, page = _viewer(demo, last, side, tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):  # the phone's screenshot first, then the desktop's drafting
        _open(browser, page, width, downloads)
        cargo = next(u for u in sorted(doc["units"]) if any(
            c.get("kind") == "load" for c in _choices(browser, u)))  # fmt: skip
        load = next(c for c in _choices(browser, cargo) if c.get("kind") == "load")
        _point(browser, cargo, load)
        browser.save_screenshot(str(shots / f"orders-naval-load-{width}.png"))
    ship = load["order"].split()[-1]
    move = next(c for c in _choices(browser, ship) if c.get("kind") == "move")
    _point(browser, ship, move)
    aborts = [c for c in _choices(browser, ship) if c.get("kind") == "abort"]
    abort = next(c for c in aborts if c["order"].endswith(" return"))
    _point(browser, ship, abort)
    damage = next(c["order"] for c in aborts if c["order"].endswith(" damage"))
    _point(browser, ship, {"order": damage})  # the other Abort choice replaces the first
    assert abort["order"] not in browser.find_element("id", "draft").get_attribute("value")
    browser.save_screenshot(str(shots / "orders-naval-abort-1280.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = [ln for ln in _order_lines(text) if ":" not in ln.split()[0]]
    assert lines == [f"[{doc['section']}]", load["order"], move["order"], damage]
    _signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_sixth_fleet_2019_patrol_and_a_held_marker_pointed_validate_accepts(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), NATO's part opened with NATO's key, its first Action Phase: a
    unit's ``patrol`` (pointed at its zone on the area map, provisional 15.0) and, where
    NATO holds one, a strike marker's ``play`` (a button of the side: only the markers the
    side holds are offered [2.12]); downloaded and accepted by ``validate`` on NATO's
    view."""
    from tests.viewer.test_orders_hex_browser import _hidden_viewer
    from tests.viewer.test_orders_side_browser import _side_button

    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game, page, key = _hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        doc = browser.execute_script("return window.refereeViewer.data.draft")
        unit, patrol = next(
            (u, c)
            for u in sorted(doc["units"])
            for c in _choices(browser, u)
            if c.get("kind") == "patrol"
        )
        _point(browser, unit, patrol)
        browser.save_screenshot(str(shots / f"orders-2019-patrol-{width}.png"))
    chosen = [patrol["order"]]
    plays = [c for c in doc.get("side_choices", []) if c.get("kind") == "play"]
    if plays:
        _side_button(browser, plays[0]["order"])
        chosen.append(plays[0]["order"])
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == chosen, lines
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "NATO", "--key", key)
    assert code == 0, out


def test_carrier_battlegroup_standing_deploy_and_breakoff_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the USN part opened with the player's key, a turn of the demo:
    the standing ``deploy outer`` composed unit by unit (buttons of the side, then the
    units [20.2]) and a ``breakoff yes -> SPACE`` [18.2]; downloaded, accepted by
    ``validate`` on the player's view and carried out by ``adjudicate``."""
    from tests.viewer.test_orders_hex_browser import _hidden_viewer
    from tests.viewer.test_orders_leak import _files
    from tests.viewer.test_orders_side_browser import _side_button

    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in _files(demo, "USN")
        if any(c.get("kind") == "deploy" for c in d.get("side_choices", []))
    )
    game, page, key = _hidden_viewer(demo, last, "USN", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    deploy = next(c for c in doc["side_choices"] if c.get("kind") == "deploy")
    breakoff = next(
        c["order"] for c in doc["side_choices"] if c["order"].startswith("breakoff yes -> ")
    )
    for width in (390, 1280):
        _open(browser, page, width, downloads)
        _side_button(browser, "deploy outer")
        for unit in deploy["from"][:2]:
            browser.find_element("css selector", f'#choices button[data-word="{unit}"]').click()
        browser.save_screenshot(str(shots / f"orders-cbg-deploy-{width}.png"))
    browser.find_element("id", "composedone").click()
    _side_button(browser, breakoff)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    at = lines.index("[standing]")
    composed = "deploy outer " + " ".join(deploy["from"][:2])
    assert composed in lines[at:] and breakoff in lines[at:], lines
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "USN", "--key", key)
    assert code == 0, out
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate", game, signed, "--key", demo / "keys" / "referee.key",
        "--referee-dir", tmp_path / "referee",
    )  # fmt: skip
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last
