"""A partner pointed at in a real headless Chromium (issue 28, options format 7): the naval
module's ``defend SHIP ARTILLERY -> HEX``. A single ship in port combines with a single
ground artillery unit [29.22] for defensive support of an attacked Defender hex [29.25]; the
artillery unit gives no ``defend`` line of its own, so the page offers it as the ship's
line's partner.

A prepared position of a new Kerch-Feodosia game (its report 000, with the phase and side
the prepared step awaits, answers the header): the
Axis 46th Infantry next to the Romanian destroyer's port Ak-Mechet, the Soviet player's
attack on it declared, the Axis defence step awaited. The destroyer's ``defend`` line is
pointed at, the artillery added from the offered partners (each marked beside its stack on
the map), the draft downloaded, accepted by ``referee validate`` and carried out by the
ruleset's resolution (the host hand-off names the artillery). The infantry, which the rules
do not let combine [29.22], is not offered, and typed by hand ``validate`` refuses it with
29.22. Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pbem.cliflow import Table, cli
from tests.viewer.drafting import download, open_page, order_lines
from tests.viewer.test_orders_forces_browser import _draft, _offered, _start

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

SRC = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"
SHIP, HEX, GUN, NOT_A_GUN = "RO-DD-RF", "0920", "DE-ART-1", "DE-INF-46"


def _defence(tmp_path: Path) -> tuple[Any, Any, Any, dict[str, Any]]:
    """The module, the ruleset, the prepared position and the report its header answers."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.rules.naval_module.context import place
    from referee.rules.naval_module.facts import NavalFacts
    from referee.source.loader import load_module

    table = Table(tmp_path / "table", SRC, ("Soviet", "Axis"))
    table.new("kerch_feodosia")
    turn = sorted((table.game / "turns").iterdir())[-1]
    report = json.loads((turn / "report.json").read_bytes())
    state = GameState.from_json(json.loads((table.game / "state.json").read_bytes()))
    state = place(state, NOT_A_GUN, HEX)
    state = state.evolve(phase="coast", active_side="Axis").with_data(phasing="Soviet")
    state = NavalFacts.put(state, declared_attacks=[HEX])
    # the report as the step that awaits the Axis defence would say it: its phase, its side
    report = {
        **report,
        "after": {**report["after"], "phase": state.phase},
        "awaiting": {"side": "Axis", "due": [{"side": "Axis"}]},
    }
    module = load_module(SRC)[0]
    return module, get_ruleset("naval_module"), state, report


def test_a_ship_and_its_ground_artillery_defend_pointed_at_is_carried_out(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    from referee.engine.core import SeededDice
    from tests.viewer.drafting import prepared_viewer

    module, rs, state, report = _defence(tmp_path)
    page = tmp_path / "viewer-Axis.html"
    doc = prepared_viewer(module, rs, state, report, "Axis", page)
    assert doc["format"] == "referee-draft-options/8"
    own = f"defend {SHIP} -> {HEX}"
    line = f"defend {SHIP} {GUN} -> {HEX}"
    assert doc["units"][SHIP]["partners"] == {"defend": {f"-> {HEX}": [GUN, "DE-RRA-1"]}}
    position = tmp_path / "state.json"
    position.write_text(json.dumps(state.to_json()))
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):  # the phone's screenshot first, then the desktop's drafting
        open_page(browser, page, width, downloads)
        _start(browser, SHIP, own)
        assert own in _draft(browser), _draft(browser)
        assert _offered(browser) == [GUN, "DE-RRA-1"]  # the infantry is not offered
        marks = browser.execute_script(
            "return Array.from(document.querySelectorAll('g.opt.compose.force'))"
            ".map(g => [g.dataset.place, g.dataset.word])"
        )
        places = {u: state.units[u].location for u in (GUN, "DE-RRA-1")}
        assert sorted(marks) == sorted([p, u] for u, p in places.items()), marks
        browser.save_screenshot(str(shots / f"orders-naval-defend-partner-{width}.png"))
    browser.find_element("css selector", f'#choices button.compose[data-word="{GUN}"]').click()
    assert line in _draft(browser) and own not in _draft(browser), _draft(browser)
    assert _offered(browser) == []  # one ship, one ground artillery unit [29.22]
    browser.find_element("id", "composedone").click()
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[coast]") + 1 :] == [line], lines
    draft = tmp_path / "orders.txt"
    draft.write_text(text)
    code, out = cli("validate", draft, "--state", position, "--module", SRC)
    assert code == 0, out
    typed = tmp_path / "typed.txt"
    typed.write_text(text.replace(line, f"defend {SHIP} {NOT_A_GUN} -> {HEX}"))
    code, out = cli("validate", typed, "--state", position, "--module", SRC)
    assert code != 0 and "29.22" in out, out
    done = rs.resolve(module, state, rs.parse_orders(text, "orders.txt"), SeededDice(1))
    assert done.ok, done.violations
    handoffs = [e for e in done.events if e.data.get("kind") == "defensive_support"]
    assert [(h.data["ships"], h.data["artillery"], h.data["target"]) for h in handoffs] == [
        ([SHIP], GUN, HEX)
    ], handoffs
    assert "[29.22]" in handoffs[0].text, handoffs[0].text
