"""The viewer on every map kind (issue 17 §3), in headless Chromium: an area map (Sixth
Fleet 2019: zones), a point-to-point map (Carrier Battlegroup: spaces) and a hex map with
zones and ports over it (the naval module). The opening position of each, as its first side
sees it, is drawn through the generic board interfaces: every stack at its place, and the
place under the pointer named as the board names it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.viewer.data import StepDoc
from referee.viewer.page import render_viewer
from tests.viewer.drafting import open_fresh, shown

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("source", "scenario", "kind"),
    [
        ("sixth_fleet_2019", "s1980", "zone"),
        ("carrier_battlegroup", "mission", "space"),
        ("naval_module", "kerch_feodosia", "hex"),
    ],
)
def test_every_map_kind_shows_its_stacks_and_names_the_place_under_the_pointer(
    browser: Any, tmp_path: Path, source: str, scenario: str, kind: str
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    module, _ = load_module(REPO / "module_src" / source)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    side = module.sides[0].id
    seen = rs.view(module, rs.new_game(module, scenario, "g", ()), side).to_json()
    report = {"sequence": 0, "title": "opening", "game_id": "g", "scenario": scenario}
    html = render_viewer(module, [StepDoc(report, "0" * 64, seen)], side=side, referee="0" * 64)
    path = tmp_path / "v.html"
    path.write_text(html)
    open_fresh(browser, path)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    kinds = browser.execute_script(
        "return JSON.parse(document.getElementById('viewer-data').textContent).board.kinds"
    )
    grid = browser.execute_script(
        "return JSON.parse(document.getElementById('viewer-data').textContent).board.grid"
    )
    placed = {p: list(ids) for p, ids in seen["stacks"].items() if ids}
    on_map = {p: ids for p, ids in placed.items() if p in kinds or (grid and p.isdigit())}
    assert on_map, "nothing of the opening position is on the map"
    assert shown(browser) == on_map
    # the place under the pointer: hover the top counter of a stack of the map's own kind
    of_kind = sorted(p for p in on_map if kinds.get(p) == kind or (kind == "hex" and p.isdigit()))
    assert of_kind, (kind, sorted(on_map)[:5])
    place = of_kind[0]
    top = browser.find_elements("css selector", f'g.stack[data-place="{place}"] g.counter')[-1]
    ActionChains(browser).move_to_element(top).perform()
    assert browser.find_element("id", "here").text == place
    assert on_map[place][0] in browser.find_element("id", "unitinfo").text
