"""The verbs the viewer's orders mode offers since options format 5, pointed at in a real
headless Chromium (issue 28): each drafted by pointing in the awaited side's viewer of a
shared demo game, downloaded, accepted by ``referee validate`` and carried out by ``referee
adjudicate`` (signed with the side's demo key).

DTP, Denmark Strait: NATO's first air movement launches carrier air from the holding box onto
CAP over its carrier (``cap UNIT CV`` [9.62A]); the Soviet one relocates a Be-12 from Murmansk
to occupied Keflavik (``base UNIT HEX`` [DTP 11.3 rule 5]) and lands a Forger below decks on
the Kiev (``box UNIT CV`` [9.62B]). Screenshots at 1280 and 390 px go to
``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    awaiting,
    choices,
    click,
    download,
    downloads_dir,
    first_choice,
    hidden_viewer,
    no_errors,
    open_page,
    order_lines,
    page_options,
    pick,
    point,
    prepared_report,
    prepared_viewer,
    section_lines,
    side_button,
    signed_and_carried_out,
    validated_on,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def _draft(
    browser: Any, demo: Path, kinds: tuple[str, ...], tmp_path: Path, shots: Path, name: str
) -> None:
    """The first step offering ``kinds[0]``: one choice of each kind pointed at (a unit each),
    at both widths; the download is the section's header and exactly those lines, and the
    referee takes it."""
    last, side, doc = awaiting(demo, kinds[0])
    game, page = viewer(demo, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        chosen, units = [], set()
        for kind in kinds:
            unit, c = next(
                (u, c)
                for u in sorted(doc["units"])
                if u not in units
                for c in choices(browser, u)
                if c.get("kind") == kind
            )
            units.add(unit)
            point(browser, unit, c)
            chosen.append(c["order"])
        browser.save_screenshot(str(shots / f"orders-{name}-{width}.png"))
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, doc["section"]) == chosen, order_lines(text)
    signed_and_carried_out(demo, game, tmp_path, text, side, last)


def test_dtp_carrier_air_launched_on_cap_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("dtp_denmark_strait").out
    _draft(browser, demo, ("cap",), tmp_path, shots, "dtp-cap")


def test_dtp_relocation_to_keflavik_and_a_landing_below_decks_are_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    demo = finished_demo("dtp_denmark_strait").out
    _draft(browser, demo, ("base", "box"), tmp_path, shots, "dtp-base-box")


def test_sixth_fleet_reinforcements_placed_by_pointing_validate_and_are_carried_out(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (1975), the Campaign's Reinforcement Interphase after Game-Turn 10, NATO's
    part (a small prepared position, the conformance case 161's): the French CV arrives on
    an entry hex [12.2] (its marked place on the map) and its Crusaders on Combat Air Patrol
    over it [12.22] (the button: the line goes below the carrier's); ``validate`` takes the
    download and the Interphase carries it out."""
    import json

    from referee.engine.core import ScriptedDice
    from referee.engine.ruleset import get_ruleset
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

    src = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"
    case = json.loads(
        (
            Path(__file__).resolve().parents[1]
            / "conformance"
            / "sixth_fleet_1975"
            / "161-12.22-french-carrier-air-on-cap.json"
        ).read_text()
    )
    module = fixture_module("sixth_fleet")
    state = build_state(module, case["position"])
    rs = get_ruleset(module.ruleset)
    report = {
        "sequence": 0,
        "title": "Reinforcement Interphase",
        **prepared_report(state, "NATO"),
    }
    page = tmp_path / "viewer-NATO.html"
    prepared_viewer(module, rs, state, report, "NATO", page)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        cv = next(c for c in choices(browser, "FR-CV-1") if c["order"] == "place FR-CV-1 1401")
        point(browser, "FR-CV-1", cv)
        air = next(c for c in choices(browser, "FR-F8") if c["order"].startswith("place FR-F8 cap"))
        assert "at" not in air  # the carrier arrives now: no hex yet
        point(browser, "FR-F8", air)
        browser.save_screenshot(str(shots / f"orders-1975-reinforcement-{width}.png"))
    no_errors(browser)
    text = download(browser, downloads)
    want = [cv["order"], air["order"]]
    assert section_lines(text, "reinforcement") == want, order_lines(text)
    validated_on(text, state, src, tmp_path)
    out = rs.resolve(module, state, rs.parse_orders(text, "orders.txt"), ScriptedDice([]))
    assert out.ok, out.violations
    assert out.state.units["FR-F8"].location == out.state.units["FR-CV-1"].location == "1401"


def test_carrier_battlegroup_trade_to_a_ship_with_room_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the demo's first turn with the CVBG's Tomahawks all under ships
    (each full) and one of them fired since (a small prepared position: its missile back in
    the available Cargo [22.8 USN 1]), so the DDG that carried it has room: the Trade Cargo
    of another missile to it [5.0 step 2c] is pointed at (the CVBG's space), downloaded,
    accepted by ``validate`` and carried out (the missile under the DDG)."""
    import json

    from referee.engine.core import GameState, SeededDice, UnitState
    from referee.engine.ruleset import get_ruleset
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from referee.source.loader import load_module

    src = Path(__file__).resolve().parents[2] / "module_src" / "carrier_battlegroup"
    demo = finished_demo("carrier_battlegroup").out
    turn = sorted((demo / "game" / "revealed" / "turns").glob("*-USN-outfit"))[0].name
    state = GameState.from_json(
        json.loads((demo / "game" / "revealed" / "turns" / turn / "state.json").read_bytes())
    )
    report = json.loads((demo / "game" / "turns" / turn / "report.json").read_bytes())
    missiles = dict(facts_of(state).missiles)
    fired = sorted(missiles)[-1]
    roomy = missiles.pop(fired)
    state = CbgFacts.put(state, missiles=missiles).with_unit(
        UnitState(fired, "USN", None, "available")
    )
    module = load_module(src)[0]
    rs = get_ruleset(module.ruleset)
    page = tmp_path / "viewer-USN.html"
    doc = prepared_viewer(module, rs, state, report, "USN", page)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        unit, trade = first_choice(browser, doc["units"], "trade")
        assert trade["order"] == f"trade {unit} -> {roomy}", trade  # the one ship with room
        point(browser, unit, trade)
        browser.save_screenshot(str(shots / f"orders-cbg-trade-{width}.png"))
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "logistics") == [trade["order"]], order_lines(text)
    validated_on(text, state, src, tmp_path)
    out = rs.resolve(module, state, rs.parse_orders(text, "orders.txt"), SeededDice(1))
    assert out.ok, out.violations
    assert facts_of(out.state).missiles[unit] == roomy


def test_sixth_fleet_2019_standing_divert_composed_by_pointing_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Sixth Fleet (2019), NATO's part opened with NATO's key, its first Action Phase: an air
    unit's standing ``divert UNIT -> PLACE ...`` [8.3.2] composed place by place (a base's
    zone marked on the map, then a carrier's holding box from the list, first choice
    first); downloaded, accepted by ``validate`` on NATO's view and carried out by
    ``adjudicate``."""
    demo = finished_demo("sixth_fleet_2019").out
    last = "003-NATO-nato_events"
    game, page, key = hidden_viewer(demo, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        doc = page_options(browser)
        unit, divert = first_choice(browser, doc["units"], "divert")
        zones = [p for p in divert["from"] if not p.startswith("Holding ")]
        boxes = [p for p in divert["from"] if p.startswith("Holding ")]
        assert zones, divert
        pick(browser, unit)
        browser.execute_script(
            "Array.from(document.querySelectorAll('#choices button.choice'))"
            ".find(b => b.dataset.order === arguments[0]).click()",
            divert["order"],
        )
        mark = browser.find_element(
            "css selector", f'#optmarks .opt.compose[data-word="{zones[0]}"]'
        )  # the first choice: a base's zone, on the map
        click(browser, mark)
        chosen = [zones[0], *boxes[:1]]
        for word in chosen[1:]:  # then a holding box, from the list
            browser.execute_script(
                "Array.from(document.querySelectorAll('#choices button.compose'))"
                ".find(b => b.dataset.word === arguments[0]).click()",
                word,
            )
        browser.save_screenshot(str(shots / f"orders-2019-divert-{width}.png"))
        browser.find_element("id", "composedone").click()
    no_errors(browser)
    text = download(browser, downloads)
    spelled = [f'"{p}"' if " " in p else p for p in chosen]
    want = f"{divert['order']} {' '.join(spelled)}"
    assert section_lines(text, "standing") == [want], order_lines(text)
    signed_and_carried_out(demo, game, tmp_path, text, "NATO", last, key)


def test_dtp_westpac_exit_and_capture_pointed_validate_and_are_carried_out(
    browser: Any, tmp_path: Path, shots: Path
) -> None:
    """DTP Westpac, the East Block's ship and sub movement of Game-Turn 4 with optional rule
    11.5134 (a small prepared position from the rules' conformance set-up): a damaged
    destroyer in Vladivostok leaves by its removal port (``exit``, its marked hex
    [DTP 11.5031]) and the Korean hex next to two North Korean ones falls (``capture``, a
    button of the side [DTP 11.5134]); ``validate`` takes the download and the phase
    carries it out."""
    from referee.engine.core import ScriptedDice
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from tests.conformance.rulesets import dtp_westpac

    src = Path(__file__).resolve().parents[2] / "module_src" / "dtp_westpac"
    module = dtp_westpac.module()
    state = dtp_westpac.at_war(4).evolve(options=("11.5134",)).with_data(damage={"SO-DD-5": 1})
    report = prepared_report(state, "EastBlock")
    page = tmp_path / "viewer-EastBlock.html"
    doc = prepared_viewer(module, RULESET, state, report, "EastBlock", page)
    assert any(c["order"] == "capture 2541" for c in doc["side_choices"])
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        exit_ = next(c for c in choices(browser, "SO-DD-5") if c.get("kind") == "exit")
        point(browser, "SO-DD-5", exit_)
        side_button(browser, "capture 2541")
        browser.save_screenshot(str(shots / f"orders-westpac-exit-capture-{width}.png"))
    no_errors(browser)
    text = download(browser, downloads)
    want = ["exit SO-DD-5", "capture 2541"]
    assert section_lines(text, "movement") == want, order_lines(text)
    validated_on(text, state, src, tmp_path)
    out = RULESET.resolve(module, state, RULESET.parse_orders(text, "orders.txt"), ScriptedDice([]))
    assert out.ok, out.violations
    assert out.state.units["SO-DD-5"].box == "retreated"
    assert "2541" in out.state.data["korea_captured"]


def _prepared(name: str) -> tuple[Any, Any, Path]:
    """A small prepared DTP position of the rules' conformance set-ups, its module and its
    source: ``option`` (the Med's short scenario, the Soviet first ship and sub movement
    with optional rule 14.2 in use [14.2]) or ``remove`` (Westpac's Game-Turn 4, a fourth
    East Block naval unit in Vladivostok, the hex recorded over the limit [DTP 11.5063])."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece
    from referee.rules.sixth_fleet_dtp import westpac_overstack
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from tests.conformance.rulesets import dtp_westpac, sixth_fleet_dtp

    root = Path(__file__).resolve().parents[2] / "module_src"
    if name == "option":
        module = sixth_fleet_dtp.module()
        state = RULESET.new_game(module, "short", "g", ("14.2",))
        return (
            module,
            state.evolve(phase="ship_movement_a", active_side="Soviet"),
            root / ("sixth_fleet_dtp"),
        )
    module = dtp_westpac.module()
    state = dtp_westpac.at_war(4)
    game = Game.of(module, state)
    state = move_piece(game, state, "SO-AK-78", "3033")
    state = westpac_overstack.record_11_5063(game, state, "EastBlock", "3033")
    return module, state, root / "dtp_westpac"


@pytest.mark.parametrize("kind", ["option", "remove"])
def test_dtp_option_and_remove_pointed_validate_and_are_carried_out(
    browser: Any, tmp_path: Path, shots: Path, kind: str
) -> None:
    """DTP on small prepared positions: the Soviet player's ``option 14.2`` (a button of the
    side [14.2]) and, in Westpac, the ``remove`` of a naval unit of a hex over the limit
    (its marked hex [DTP 11.5063]); ``validate`` takes the download (the empty file is
    refused for the Westpac excess) and the phase carries it out."""
    from referee.engine.core import ScriptedDice
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET

    module, state, src = _prepared(kind)
    side = str(state.active_side)
    report = prepared_report(state, side)
    page = tmp_path / f"viewer-{side}.html"
    doc = prepared_viewer(module, RULESET, state, report, side, page)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        if kind == "option":
            line = "option 14.2"
            side_button(browser, line)
        else:
            unit, c = first_choice(browser, doc["units"], "remove")
            line = c["order"]
            point(browser, unit, c)
        browser.save_screenshot(str(shots / f"orders-dtp-{kind}-{width}.png"))
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "movement") == [line], order_lines(text)
    validated_on(text, state, src, tmp_path)
    out = RULESET.resolve(module, state, RULESET.parse_orders(text, "orders.txt"), ScriptedDice([]))
    assert out.ok, out.violations
    if kind == "option":  # announced, carried out before the file's other lines [14.2]
        assert any(e.rule == "14.2" for e in out.events), out.events
    else:  # eliminated for all purposes at the end of the phase [DTP 11.5063]
        assert out.state.units[line.split()[1]].location is None
