"""A partner pointed at in a real headless Chromium (issue 28, options format 7): the naval
module's ``defend SHIP ARTILLERY -> HEX``. A single ship in port combines with a single
ground artillery unit [29.22] for defensive support of an attacked Defender hex [29.25]; the
artillery unit gives no ``defend`` line of its own, so the page offers it as the ship's
line's partner.

A small prepared game of a new Kerch-Feodosia game's position, changed
(:func:`tests.viewer.drafting.prepared_game`): the Axis 46th Infantry next to the Romanian
destroyer's port Ak-Mechet, the Soviet player's attack on it declared, the Axis defence step
awaited. The destroyer's ``defend`` line is pointed at, the artillery added from the offered
partners (each marked beside its stack on the map), the draft downloaded, accepted by
``referee validate``, signed with the Axis key and carried out by ``referee adjudicate``
(the report's host hand-off names the ship, the artillery and the hex [29.22]). The
infantry, which the rules do not let combine [29.22], is not offered, and typed by hand
``validate`` refuses it with 29.22. Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    choices,
    download,
    draft_text,
    offered_words,
    open_page,
    opening,
    order_lines,
    page_options,
    point,
    prepared_game,
    press,
    refused,
    report_events,
    signed_and_carried_out,
    snap,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

SRC = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"
SHIP, HEX, GUN, NOT_A_GUN = "RO-DD-RF", "0920", "DE-ART-1", "DE-INF-46"


def _defence() -> tuple[Any, Any]:
    """The module and the prepared position: a new game's, the infantry moved next to the
    destroyer's port, the Soviet attack on its hex declared, the Axis defence awaited."""
    from referee.engine.ruleset import get_ruleset
    from referee.rules.naval_module.context import place
    from referee.rules.naval_module.facts import NavalFacts
    from referee.source.loader import load_module

    module = load_module(SRC)[0]
    state = get_ruleset(module.ruleset).new_game(module, "kerch_feodosia", "kerch", ())
    state = place(state, NOT_A_GUN, HEX)
    state = state.evolve(phase="coast", active_side="Axis").with_data(phasing="Soviet")
    return module, NavalFacts.put(state, declared_attacks=[HEX])


def test_a_ship_and_its_ground_artillery_defend_pointed_at_is_carried_out(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    module, state = _defence()
    root = prepared_game(tmp_path / "prepared", module, state)
    last = opening(root)
    game, page = viewer(root, last, "Axis", tmp_path)
    own = f"defend {SHIP} -> {HEX}"
    line = f"defend {SHIP} {GUN} -> {HEX}"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for width in (390, 1280):  # the phone's screenshot first, then the desktop's drafting
        open_page(browser, page, width, downloads)
        doc = page_options(browser)
        assert doc["format"] == "referee-draft-options/8"
        assert doc["units"][SHIP]["partners"] == {"defend": {f"-> {HEX}": [GUN, "DE-RRA-1"]}}
        point(browser, SHIP, next(c for c in choices(browser, SHIP) if c["order"] == own))
        assert own in draft_text(browser).split("\n"), draft_text(browser)
        assert offered_words(browser) == [GUN, "DE-RRA-1"]  # the infantry is not offered
        marks = browser.execute_script(
            "return Array.from(document.querySelectorAll('g.opt.compose.force'))"
            ".map(g => [g.dataset.place, g.dataset.word])"
        )
        places = {u: state.units[u].location for u in (GUN, "DE-RRA-1")}
        assert sorted(marks) == sorted([p, u] for u, p in places.items()), marks
        snap(browser, shots / f"orders-naval-defend-partner-{width}.png")
    press(browser, f'#choices button.compose[data-word="{GUN}"]')
    drafted = draft_text(browser).split("\n")
    assert line in drafted and own not in drafted, drafted
    assert offered_words(browser) == []  # one ship, one ground artillery unit [29.22]
    press(browser, "#composedone")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[coast]") + 1 :] == [line], lines
    typed = text.replace(line, f"defend {SHIP} {NOT_A_GUN} -> {HEX}")
    refused(game, tmp_path, typed, "Axis", "29.22")
    signed_and_carried_out(root, game, tmp_path, text, "Axis", last)
    handoffs = [e for e in report_events(game) if e["data"].get("kind") == "defensive_support"]
    assert [
        (h["data"]["ships"], h["data"]["artillery"], h["data"]["target"]) for h in handoffs
    ] == [([SHIP], GUN, HEX)], report_events(game)
    assert "[29.22]" in handoffs[0]["text"], handoffs[0]["text"]
