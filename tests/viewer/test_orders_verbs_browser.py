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

from tests.viewer.drafting import (
    awaiting,
    body_lines,
    choices,
    download,
    downloads_dir,
    first_choice,
    hidden_viewer,
    no_errors,
    open_page,
    order_lines,
    page_options,
    point,
    press,
    report_events,
    sealed_options,
    section_lines,
    side_button,
    signed_and_carried_out,
    snap,
    viewer,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_naval_load_move_and_abort_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("naval_module").out
    last, side, doc = awaiting(demo, "load")
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):  # the phone's screenshot first, then the desktop's drafting
        open_page(browser, page, width, downloads)
        cargo = next(u for u in sorted(doc["units"]) if any(
            c.get("kind") == "load" for c in choices(browser, u)))  # fmt: skip
        load = next(c for c in choices(browser, cargo) if c.get("kind") == "load")
        point(browser, cargo, load)
        snap(browser, shots / f"orders-naval-load-{width}.png")
    ship = load["order"].split()[-1]
    move = next(c for c in choices(browser, ship) if c.get("kind") == "move")
    point(browser, ship, move)
    aborts = [c for c in choices(browser, ship) if c.get("kind") == "abort"]
    abort = next(c for c in aborts if c["order"].endswith(" return"))
    point(browser, ship, abort)
    damage = next(c["order"] for c in aborts if c["order"].endswith(" damage"))
    point(browser, ship, {"order": damage})  # the other Abort choice replaces the first
    assert abort["order"] not in browser.find_element("id", "draft").get_attribute("value")
    snap(browser, shots / "orders-naval-abort-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", load["order"], move["order"], damage]
    signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_sixth_fleet_2019_patrol_and_a_held_marker_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), NATO's part opened with NATO's key, its first Action Phase: a
    unit's ``patrol`` (pointed at its zone on the area map, provisional 15.0) and, where
    NATO holds one, a strike marker's ``play`` (a button of the side: only the markers the
    side holds are offered [2.12]); downloaded, accepted by ``validate`` on NATO's view,
    signed and carried out by ``adjudicate``: the report tells the patrol [8.4] and the
    marker played."""
    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        doc = page_options(browser)
        unit, patrol = first_choice(browser, doc["units"], "patrol")
        point(browser, unit, patrol)
        snap(browser, shots / f"orders-2019-patrol-{width}.png")
    chosen = [patrol["order"]]
    plays = [c for c in doc.get("side_choices", []) if c.get("kind") == "play"]
    if plays:
        side_button(browser, plays[0]["order"])
        chosen.append(plays[0]["order"])
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "actions") == chosen, order_lines(text)
    signed_and_carried_out(demo, game, tmp_path, text, "NATO", last, key)
    told = report_events(game)
    patrols = [
        (e["rule"], e["data"]["units"], e["data"]["zone"]) for e in told if e["kind"] == "patrol"
    ]
    assert patrols == [("8.4", [unit], patrol["at"])], told
    played = [e["data"]["marker"] for e in told if e["kind"] == "strike_marker"]
    assert played == ([plays[0]["order"].split()[1]] if plays else []), told


def test_carrier_battlegroup_standing_deploy_and_breakoff_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the USN part opened with the player's key, a turn of the demo:
    the standing ``deploy outer`` composed unit by unit (buttons of the side, then the
    units [20.2]) and a ``breakoff yes -> SPACE`` [18.2]; downloaded, accepted by
    ``validate`` on the player's view and carried out by ``adjudicate``."""
    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in sealed_options(demo, "USN")
        if any(c.get("kind") == "deploy" for c in d.get("side_choices", []))
    )
    game, page, key = hidden_viewer(demo, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    deploy = next(c for c in doc["side_choices"] if c.get("kind") == "deploy")
    breakoff = next(
        c["order"] for c in doc["side_choices"] if c["order"].startswith("breakoff yes -> ")
    )
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        side_button(browser, "deploy outer")
        for unit in deploy["from"][:2]:
            press(browser, word(browser, unit))
        snap(browser, shots / f"orders-cbg-deploy-{width}.png")
    press(browser, "#composedone")
    side_button(browser, breakoff)
    no_errors(browser)
    text = download(browser, downloads)
    standing = section_lines(text, "standing")
    composed = "deploy outer " + " ".join(deploy["from"][:2])
    assert composed in standing and breakoff in standing, order_lines(text)
    signed_and_carried_out(demo, game, tmp_path, text, "USN", last, key)
