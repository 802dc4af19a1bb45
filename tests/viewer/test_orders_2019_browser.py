"""Sixth Fleet (2019)'s verbs of options format 4 pointed at in a real headless Chromium
(issue 28, "How it is checked"), carried out by the referee: NATO's part of the demo game
opened with NATO's key, its first Action Phase: a naval unit's ``patrol`` of the sea zone it
is in (provisional 8.4: the only patrol offered it), the play of a strike marker NATO holds
(a button of the side [6.1]) and the side's ``pass`` [6.0]; downloaded, accepted by
``validate`` on NATO's view, signed and carried out by ``adjudicate``. A patrol into another
zone is not offered, and typed by hand it is refused [8.4]. Screenshots at 1280 and 390 px
go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    carried_out,
    choices,
    download,
    downloads_dir,
    hidden_viewer,
    no_errors,
    offers_kind,
    open_page,
    page_options,
    point,
    refused,
    sealed_options,
    section_lines,
    side_button,
    snap,
    validated,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_a_naval_patrol_and_a_held_marker_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        doc = page_options(browser)
        unit, patrol = next(
            (u, c)
            for u in sorted(doc["units"])
            for c in choices(browser, u)
            if c.get("kind") == "patrol" and "naval" in c["label"]
        )
        # a naval unit patrols the zone it is in: no other zone is offered [8.4]
        assert [c for c in choices(browser, unit) if c.get("kind") == "patrol"] == [patrol]
        point(browser, unit, patrol)
        snap(browser, shots / f"orders-2019-naval-patrol-{width}.png")
    play = next(c for c in doc["side_choices"] if c.get("kind") == "play" and "at" not in c)
    side_button(browser, play["order"])
    side_button(browser, "pass")  # no more actions this phase [6.0]
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "actions") == [patrol["order"], play["order"], "pass"]
    draft = validated(text, game, "NATO", tmp_path, key)
    other = next(z for z in ("Eastern Med", "Western Med", "Central Med") if z != patrol["at"])
    hand = text.replace(patrol["order"], f'patrol {unit} -> "{other}"')
    refused(game, tmp_path, hand, "NATO", "8.4", key)
    carried_out(demo, game, draft, key, tmp_path, last)


@pytest.mark.parametrize(("kind", "rule"), [("reinforce", "10.0"), ("move", "8.0")])
def test_a_unit_s_move_or_reinforcement_pointed_at_its_zone_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, kind: str, rule: str
) -> None:
    """A reinforcement's ``reinforce UNIT -> ZONE`` [10.0] (only its entry zones offered),
    a unit's ``move UNIT -> ZONE ...`` (each zone it may reach, the way through adjacent
    zones [8.0]): the first step offering one, pointed at on the area map, carried out; a
    zone not offered, typed by hand, is refused with its case."""
    demo = finished_demo("sixth_fleet_2019").out
    last = next(name for name, d, _ in sealed_options(demo, "NATO") if offers_kind(d, kind))
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    doc = page_options(browser)
    unit, offered = next(
        (u, cs)
        for u in sorted(doc["units"])
        if (cs := [c for c in choices(browser, u) if c.get("kind") == kind])
    )
    zones = {c["at"] for c in offered}
    point(browser, unit, offered[0])
    snap(browser, shots / f"orders-2019-{kind}-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "actions") == [offered[0]["order"]]
    draft = validated(text, game, "NATO", tmp_path, key)
    other = next(z for z in ("Atlantic", "Malta", "Crete") if z not in zones)
    hand = text.replace(offered[0]["order"], f"{kind} {unit} -> {other}")
    refused(game, tmp_path, hand, "NATO", rule, key)
    carried_out(demo, game, draft, key, tmp_path, last)
