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

from tests.pbem.cliflow import cli
from tests.viewer.test_orders_browser import _download, _open, _order_lines
from tests.viewer.test_orders_hex_browser import _choices, _hidden_viewer, _point
from tests.viewer.test_orders_side_browser import _side_button

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def test_a_naval_patrol_and_a_held_marker_pointed_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
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
            if c.get("kind") == "patrol" and "naval" in c["label"]
        )
        # a naval unit patrols the zone it is in: no other zone is offered [8.4]
        assert [c for c in _choices(browser, unit) if c.get("kind") == "patrol"] == [patrol]
        _point(browser, unit, patrol)
        browser.save_screenshot(str(shots / f"orders-2019-naval-patrol-{width}.png"))
    play = next(c for c in doc["side_choices"] if c.get("kind") == "play" and "at" not in c)
    _side_button(browser, play["order"])
    _side_button(browser, "pass")  # no more actions this phase [6.0]
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [patrol["order"], play["order"], "pass"]
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "NATO", "--key", key)
    assert code == 0, out
    other = next(z for z in ("Eastern Med", "Western Med", "Central Med") if z != patrol["at"])
    hand = tmp_path / "hand.txt"
    hand.write_text(text.replace(patrol["order"], f'patrol {unit} -> "{other}"'))
    code, out = cli("validate", hand, "--state", game, "--side", "NATO", "--key", key)
    assert code == 1 and "[8.4]" in out, out
    _carried_out(demo, game, draft, tmp_path, last)


def _carried_out(demo: Path, game: Path, draft: Path, tmp_path: Path, last: str) -> None:
    """The draft signed with NATO's key and adjudicated: the game has a new step."""
    key = demo / "keys" / "nato.key"
    signed = tmp_path / "signed.txt"
    code, out = cli("sign", draft, "--key", key, "--game-dir", game, "-o", signed)
    assert code == 0, out
    code, out = cli(
        "adjudicate", game, signed, "--key", demo / "keys" / "referee.key",
        "--referee-dir", tmp_path / "referee",
    )  # fmt: skip
    assert code == 0, out
    assert sorted(p.name for p in (game / "turns").iterdir())[-1] > last


def _offers(d: dict[str, Any], kind: str) -> bool:
    return any(
        kind in {c["kind"] for c in e["choices"]} | {e.get("route", {}).get("kind")}
        for e in d["units"].values()
    )


@pytest.mark.parametrize(("kind", "rule"), [("reinforce", "10.0"), ("move", "8.0")])
def test_a_unit_s_move_or_reinforcement_pointed_at_its_zone_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, kind: str, rule: str
) -> None:
    """A reinforcement's ``reinforce UNIT -> ZONE`` [10.0] (only its entry zones offered),
    a unit's ``move UNIT -> ZONE ...`` (each zone it may reach, the way through adjacent
    zones [8.0]): the first step offering one, pointed at on the area map, carried out; a
    zone not offered, typed by hand, is refused with its case."""
    from tests.viewer.test_orders_leak import _files

    demo = finished_demo("sixth_fleet_2019").out
    last = next(name for name, d, _ in _files(demo, "NATO") if _offers(d, kind))
    game, page, key = _hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    _open(browser, page, 1280, downloads)
    doc = browser.execute_script("return window.refereeViewer.data.draft")
    unit, offered = next(
        (u, cs)
        for u in sorted(doc["units"])
        if (cs := [c for c in _choices(browser, u) if c.get("kind") == kind])
    )
    zones = {c["at"] for c in offered}
    _point(browser, unit, offered[0])
    browser.save_screenshot(str(shots / f"orders-2019-{kind}-1280.png"))
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = _download(browser, downloads)
    lines = _order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [offered[0]["order"]]
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", game, "--side", "NATO", "--key", key)
    assert code == 0, out
    other = next(z for z in ("Atlantic", "Malta", "Crete") if z not in zones)
    hand = tmp_path / "hand.txt"
    hand.write_text(text.replace(offered[0]["order"], f"{kind} {unit} -> {other}"))
    code, out = cli("validate", hand, "--state", game, "--side", "NATO", "--key", key)
    assert code == 1 and f"[{rule}]" in out, out
    _carried_out(demo, game, draft, tmp_path, last)
