"""Drafting orders by pointing on the hex maps of DTP and the naval module, in a real headless
Chromium (issue 28 item 2, "How it is checked").

Each case cuts its demo game back to the first step whose awaited side's options offer a
choice of one kind (set-up placing, moves, an impulse's attack, a bounce of a strike that
made contact [DTP 8.232]), makes that side's viewer with
``referee viewer``, points at the choices (the unit in the list, then its marked place on the
map, or the choice's button where several share a place), downloads the draft, and shows that
``referee validate`` accepts it and that, signed with the side's demo key, ``referee
adjudicate`` carries it out. The DTP set-up reproduces the demo's own orders file line for line.
Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import cli
from tests.viewer.drafting import (
    awaiting,
    body_lines,
    choice_button,
    choices,
    cut,
    download,
    downloads_dir,
    draft_text,
    hidden_viewer,
    open_page,
    order_lines,
    page_options,
    pick,
    point,
    report_events,
    screenshots,
    sealed_options,
    signed_and_carried_out,
    snap,
    validate,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

CASES = [
    ("dtp_denmark_strait", "place"),
    ("dtp_denmark_strait", "move"),
    ("dtp_denmark_strait", "attack"),
    ("dtp_denmark_strait", "bounce"),  # the defender's reaction in the attacker's impulse
    ("naval_module", "move"),
]


@pytest.mark.parametrize(("demo_name", "kind"), CASES)
def test_pointing_on_a_hex_map_drafts_orders_the_referee_carries_out(
    browser: Any,
    finished_demo: Any,
    tmp_path: Path,
    shots: Path,
    demo_name: str,
    kind: str,
) -> None:
    demo = finished_demo(demo_name).out
    last, side, doc = awaiting(demo, kind)
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert "referee validate" in browser.find_element("id", "judge").text
    chosen: list[str] = []
    if kind == "place":  # the demo's own set-up file, line for line
        k = sorted(p.name for p in (demo / "game" / "turns").iterdir()).index(last) + 1
        own = next((demo / "orders").glob(f"{k:03d}-*.txt"))
        want = [ln for ln in order_lines(own.read_text()) if ln.startswith("place ")]
        for line in want:
            unit = line.split()[1]
            c = next(c for c in choices(browser, unit) if c["order"] == line)
            point(browser, unit, c)
            chosen.append(line)
    else:
        ends: set[str] = set()  # each unit to a place of its own (no stacking question)
        for unit in sorted(doc["units"]):
            cs = [
                c
                for c in choices(browser, unit)
                if c.get("kind") == kind and c.get("at") and c["at"] not in ends
            ]
            if not cs:
                continue
            point(browser, unit, cs[0])
            chosen.append(cs[0]["order"])
            ends.add(cs[0]["at"])
            if kind == "attack" or len(chosen) == 3:  # one attack an impulse [DTP 8.2]
                break
    assert chosen
    snap(browser, shots / f"orders-{demo_name}-{kind}-1280.png")
    text = download(browser, downloads)
    assert body_lines(text) == [f"[{doc['section']}]", *chosen]
    if kind == "attack":
        _no_second_attack(browser, doc, chosen[0], game, tmp_path, text, side)
    signed_and_carried_out(demo, game, tmp_path, text, side, last)


def _no_second_attack(
    browser: Any, doc: dict[str, Any], first: str, game: Path, tmp_path: Path, text: str, side: str
) -> None:
    """One attack an impulse [DTP 8.2]: once one is drafted, no other can be pointed at (its
    button is disabled), and a second typed by hand is refused by ``validate``."""
    others = [
        (u, c)
        for u in sorted(doc["units"])
        for c in choices(browser, u)
        if c.get("kind") == "attack" and c["order"] != first
    ]
    assert others, "the step offers one attack only: nothing to rule out"
    unit, other = others[0]
    pick(browser, unit)
    button = choice_button(browser, other["order"])
    assert button is not None and not button.is_enabled()
    code, out = validate(text + other["order"] + "\n", game, side, tmp_path)
    assert code != 0, out


@pytest.mark.parametrize("demo_name", ["dtp_denmark_strait", "naval_module"])
def test_hex_map_screenshots_at_desktop_and_phone_widths(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path, demo_name: str
) -> None:
    demo = finished_demo(demo_name).out
    last, side, doc = awaiting(demo, "move")
    _, page = viewer(demo, last, side, tmp_path)
    for width in (1280, 390):
        open_page(browser, page, width, tmp_path)
        screenshots(browser, sorted(doc["units"])[0], shots, f"{demo_name}-{width}")


def test_when_both_sides_act_each_sides_viewer_drafts_only_its_own(
    browser: Any, finished_demo: Any, tmp_path: Path
) -> None:
    """A step that awaits both sides (the DTP rebasing phase: both players file, in either
    order [DTP 9.22]): each side's viewer offers its own units only, under its own header,
    and the draft of a side's own choices (a unit's ``rebase``) validates as that side's
    file. Both drafts are then carried out by ``adjudicate``, one after the other, each
    signed on the report it follows (the second side's after the first's step): each step's
    report tells its unit landing at the base pointed at [DTP 9.23]."""
    demo = finished_demo("dtp_denmark_strait").out
    both = next(
        t
        for t in sorted((demo / "game" / "turns").iterdir())
        if len(list(t.glob("options-*.json"))) > 1
    )
    game = cut(demo, both.name, tmp_path)
    state = json.loads((game / "state.json").read_bytes())
    side_of = {u["id"]: u["side"] for u in state["units"]}
    sides = sorted(json.loads(f.read_bytes())["side"] for f in both.glob("options-*.json"))
    assert len(sides) == 2
    drafted: list[tuple[str, str, dict[str, Any]]] = []  # each side's draft and its rebase
    for side in sides:
        page = tmp_path / f"viewer-{side}.html"
        code, out = cli("viewer", game, "--side", side, "-o", page)
        assert code == 0, out
        open_page(browser, page, 1280, tmp_path)
        doc = page_options(browser)
        assert doc["side"] == side and f"side: {side}" in doc["header"]
        assert all(side_of[u] == side for u in doc["units"]), side
        options = [
            o.get_attribute("value")
            for o in browser.find_elements("css selector", "#unitpick option")
        ]
        assert all(side_of[u] == side for u in options if u), side
        for unit in sorted(doc["units"]):
            cs = [c for c in choices(browser, unit) if c.get("at")]
            if cs:
                assert cs[0]["kind"] == "rebase", cs[0]
                point(browser, unit, cs[0])
                text = draft_text(browser)
                code, out = validate(text, game, side, tmp_path, name=f"orders-{side}")
                assert code == 0, out
                drafted.append((side, text, cs[0]))
                break
    assert [side for side, _, _ in drafted] == sides, "a side had no choice to point at"
    for side, text, rebase in drafted:
        last = sorted(p.name for p in (game / "turns").iterdir())[-1]
        signed_and_carried_out(demo, game, tmp_path, text, side, last)
        unit = rebase["order"].split()[1]
        landed = [
            (e["rule"], e["text"].split(":")[0])
            for e in report_events(game)
            if e["kind"] == "readiness" and e["data"]["unit"] == unit
        ]
        assert landed == [("DTP 9.23", f"{unit} lands at {rebase['at']}")], report_events(game)


def test_carrier_battlegroup_pointing_on_the_point_to_point_map(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the USN part opened with the player's key: the CVBG's move to a
    space (clicked on the map), a ship's Intelligence attempt and a strike where one is
    offered, each in its own section of one turn's file [5.0]; downloaded, accepted by
    ``validate`` on the player's view, and carried out by ``adjudicate``."""
    demo = finished_demo("carrier_battlegroup").out
    last, doc = next(
        (name, d)
        for name, d, _ in sealed_options(demo, "USN")
        if any(c.get("kind") == "move" for e in d["units"].values() for c in e["choices"])
    )
    game, page, key = hidden_viewer(demo, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    ship = next(
        u
        for u in sorted(doc["units"])
        if any(c.get("kind") == "move" for c in doc["units"][u]["choices"])
    )
    for width in (390, 1280):  # the phone's screenshots first, then the desktop's drafting
        open_page(browser, page, width, downloads)
        screenshots(browser, ship, shots, f"cbg-{width}")
    chosen: dict[str, list[str]] = {}
    for kind in ("move", "intel", "attack"):
        for unit in sorted(doc["units"]):
            cs = [c for c in choices(browser, unit) if c.get("kind") == kind and c.get("at")]
            if cs:
                point(browser, unit, cs[0])
                chosen.setdefault(cs[0]["section"], []).append(cs[0]["order"])
                break
    assert "movement" in chosen, chosen
    snap(browser, shots / "orders-cbg-1280.png")
    text = download(browser, downloads)
    lines = body_lines(text)
    for section, orders in chosen.items():
        at = lines.index(f"[{section}]")
        assert lines[at + 1 : at + 1 + len(orders)] == orders, (section, lines)
    signed_and_carried_out(demo, game, tmp_path, text, "USN", last, key)
