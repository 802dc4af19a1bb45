"""The verbs the viewer's orders mode offers since options format 5, pointed at in a real
headless Chromium (issue 28): each drafted by pointing in the awaited side's viewer of a
shared demo game or of a small prepared game (a conformance case's position, or a demo's
changed: :func:`tests.viewer.drafting.prepared_game`), downloaded, accepted by ``referee
validate`` and carried out by ``referee adjudicate`` (signed with the side's key); what it
did is read from the adjudicated game's state or report. On the prepared games the choice
the rules refuse is not on the page, and the same line typed by hand is refused by
``validate`` with its rule case.

DTP, Denmark Strait: NATO's first air movement launches carrier air from the holding box onto
CAP over its carrier (``cap UNIT CV`` [9.62A]); the Soviet one relocates a Be-12 from Murmansk
to occupied Keflavik (``base UNIT HEX`` [DTP 11.3 rule 5]) and lands a Forger below decks on
the Kiev (``box UNIT CV`` [9.62B]). Prepared: Sixth Fleet (1975)'s Reinforcement Interphase
``place`` [12.2], [12.22]; DTP's ``exit`` [DTP 11.5031], ``capture`` [DTP 11.5134],
``option 14.2`` [14.2] and ``remove`` [DTP 11.5063]; Carrier Battlegroup's ``trade`` [5.0
step 2c]. Screenshots at 1280 and 390 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
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
    newest_state,
    no_errors,
    open_page,
    opening,
    order_lines,
    page_options,
    pick,
    point,
    prepared_game,
    press,
    refused,
    report_events,
    revealed_state,
    section_lines,
    side_button,
    side_orders,
    signed_and_carried_out,
    snap,
    viewer,
)

CASES = Path(__file__).resolve().parents[1] / "conformance"
MODULES = Path(__file__).resolve().parents[2] / "module_src"

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
        snap(browser, shots / f"orders-{name}-{width}.png")
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
    part (a small prepared game of the conformance case 161's position): the French CV
    arrives on an entry hex [12.2] (its marked place on the map) and its Crusaders on Combat
    Air Patrol over it [12.22] (the button: the line goes below the carrier's); a hex that
    is no entry hex is not offered and, typed, is refused [12.22]; ``validate`` takes the
    download and ``adjudicate`` carries it out (both in the entry hex)."""
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

    case = json.loads((CASES / "sixth_fleet_1975" / "161-12.22-french-carrier-air-on-cap.json")
                      .read_text())  # fmt: skip
    module = fixture_module("sixth_fleet")
    root = prepared_game(tmp_path / "prepared", module, build_state(module, case["position"]))
    last = opening(root)
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        places = [c for c in choices(browser, "FR-CV-1") if c.get("kind") == "place"]
        assert "place FR-CV-1 0812" not in {c["order"] for c in places}, places
        cv = next(c for c in places if c["order"] == "place FR-CV-1 1401")
        point(browser, "FR-CV-1", cv)
        air = next(c for c in choices(browser, "FR-F8") if c["order"].startswith("place FR-F8 cap"))
        assert "at" not in air  # the carrier arrives now: no hex yet
        point(browser, "FR-F8", air)
        snap(browser, shots / f"orders-1975-reinforcement-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    want = [cv["order"], air["order"]]
    assert section_lines(text, "reinforcement") == want, order_lines(text)
    out = refused(game, tmp_path, text.replace(cv["order"], "place FR-CV-1 0812"), "NATO", "12.22")
    assert "FR-CV-1 may not be placed in 0812" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    after = newest_state(game)
    assert after.units["FR-F8"].location == after.units["FR-CV-1"].location == "1401"


def test_carrier_battlegroup_trade_to_a_ship_with_room_is_carried_out(
    browser: Any, finished_demo: Any, tmp_path: Path, shots: Path
) -> None:
    """Carrier Battlegroup, the demo's first turn with the CVBG's Tomahawks all under ships
    (each full) and one of them fired since (a small prepared game: its missile back in
    the available Cargo [22.8 USN 1]), so the DDG that carried it has room: the Trade Cargo
    of another missile to it [5.0 step 2c] is pointed at (the CVBG's space) in the USN part
    opened with the player's key, downloaded, accepted by ``validate`` and carried out by
    ``adjudicate`` (the missile under the DDG); to a ship still full it is not offered and,
    typed, is refused [15.1]."""
    from referee.engine.core import UnitState
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from referee.source.loader import load_module

    module = load_module(MODULES / "carrier_battlegroup")[0]
    state = revealed_state(finished_demo("carrier_battlegroup").out, "*-USN-outfit")
    missiles = dict(facts_of(state).missiles)
    fired = sorted(missiles)[-1]
    roomy = missiles.pop(fired)
    state = CbgFacts.put(state, missiles=missiles).with_unit(
        UnitState(fired, "USN", None, "available")
    )
    root = prepared_game(tmp_path / "prepared", module, state)
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        doc = page_options(browser)
        unit, trade = first_choice(browser, doc["units"], "trade")
        assert trade["order"] == f"trade {unit} -> {roomy}", trade  # the one ship with room
        full = next(s for m, s in sorted(missiles.items()) if s not in (roomy, missiles[unit]))
        assert f"trade {unit} -> {full}" not in {c["order"] for c in choices(browser, unit)}
        point(browser, unit, trade)
        snap(browser, shots / f"orders-cbg-trade-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "logistics") == [trade["order"]], order_lines(text)
    refused(game, tmp_path, text.replace(trade["order"], f"trade {unit} -> {full}"), "USN",
            "15.1", key)  # fmt: skip
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    assert facts_of(newest_state(game)).missiles[unit] == roomy


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
        snap(browser, shots / f"orders-2019-divert-{width}.png")
        press(browser, "#composedone")
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
    11.5134 (a small prepared game from the rules' conformance set-up): a damaged destroyer
    in Vladivostok leaves by its removal port (``exit``, its marked hex [DTP 11.5031]) and
    the Korean hex next to two North Korean ones falls (``capture``, a button of the side
    [DTP 11.5134]); an undamaged destroyer there is offered no exit and a hex not South
    Korean no capture, and each typed is refused [DTP 5.24], [DTP 11.5134]; ``validate``
    takes the download and ``adjudicate`` carries it out."""
    from tests.conformance.rulesets import dtp_westpac

    state = dtp_westpac.at_war(4).evolve(options=("11.5134",)).with_data(damage={"SO-DD-5": 1})
    root = prepared_game(tmp_path / "prepared", dtp_westpac.module(), state)
    last = opening(root)
    game, page = viewer(root, last, "EastBlock", tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        assert "capture 2541" in side_orders(browser) and "capture 3033" not in side_orders(browser)
        assert not [c for c in choices(browser, "SO-DD-9") if c.get("kind") == "exit"]
        exit_ = next(c for c in choices(browser, "SO-DD-5") if c.get("kind") == "exit")
        point(browser, "SO-DD-5", exit_)
        side_button(browser, "capture 2541")
        snap(browser, shots / f"orders-westpac-exit-capture-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    want = ["exit SO-DD-5", "capture 2541"]
    assert section_lines(text, "movement") == want, order_lines(text)
    refused(game, tmp_path, text.replace("exit SO-DD-5", "exit SO-DD-9"), "EastBlock", "DTP 5.24")
    refused(game, tmp_path, text.replace("capture 2541", "capture 3033"), "EastBlock",
            "DTP 11.5134")  # fmt: skip
    signed_and_carried_out(root, game, tmp_path, text, "EastBlock", last)
    after = newest_state(game)
    assert after.units["SO-DD-5"].box == "retreated"
    assert "2541" in after.data["korea_captured"]


def _prepared(name: str) -> tuple[Any, Any]:
    """A small prepared DTP position of the rules' conformance set-ups and its module:
    ``option`` (the Med's short scenario, the Soviet first ship and sub movement with
    optional rule 14.2 in use [14.2]) or ``remove`` (Westpac's Game-Turn 4, a fourth East
    Block naval unit in Vladivostok, the hex recorded over the limit [DTP 11.5063])."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece
    from referee.rules.sixth_fleet_dtp import westpac_overstack
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from tests.conformance.rulesets import dtp_westpac, sixth_fleet_dtp

    if name == "option":
        module = sixth_fleet_dtp.module()
        state = RULESET.new_game(module, "short", "g", ("14.2",))
        return module, state.evolve(phase="ship_movement_a", active_side="Soviet")
    module = dtp_westpac.module()
    state = dtp_westpac.at_war(4)
    game = Game.of(module, state)
    state = move_piece(game, state, "SO-AK-78", "3033")
    state = westpac_overstack.record_11_5063(game, state, "EastBlock", "3033")
    return module, state


@pytest.mark.parametrize("kind", ["option", "remove"])
def test_dtp_option_and_remove_pointed_validate_and_are_carried_out(
    browser: Any, tmp_path: Path, shots: Path, kind: str
) -> None:
    """DTP on small prepared games: the Soviet player's ``option 14.2`` (a button of the
    side [14.2]) and, in Westpac, the ``remove`` of a naval unit of a hex over the limit
    (its marked hex [DTP 11.5063]: a unit elsewhere is offered none and, typed, is refused
    [DTP 11.5063]); ``validate`` takes the download and ``adjudicate`` carries it out."""
    module, state = _prepared(kind)
    side = str(state.active_side)
    root = prepared_game(tmp_path / "prepared", module, state)
    last = opening(root)
    game, page = viewer(root, last, side, tmp_path)
    downloads = downloads_dir(tmp_path)
    for width in (390, 1280):
        open_page(browser, page, width, downloads)
        if kind == "option":
            line = "option 14.2"
            side_button(browser, line)
        else:
            doc = page_options(browser)
            assert "SO-DD-8" not in doc["units"] or not [  # in 5823, not over the limit
                c for c in choices(browser, "SO-DD-8") if c.get("kind") == "remove"
            ]
            unit, c = first_choice(browser, doc["units"], "remove")
            line = c["order"]
            point(browser, unit, c)
        snap(browser, shots / f"orders-dtp-{kind}-{width}.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "movement") == [line], order_lines(text)
    if kind == "remove":
        out = refused(game, tmp_path, text.replace(line, "remove SO-DD-8"), side, "DTP 11.5063")
        assert "SO-DD-8 is not in a hex its reinforcements left over the stacking limit" in out
    signed_and_carried_out(root, game, tmp_path, text, side, last)
    if kind == "option":  # announced, carried out before the file's other lines [14.2]
        assert any(e.get("rule") == "14.2" for e in report_events(game)), report_events(game)
    else:  # eliminated for all purposes at the end of the phase [DTP 11.5063]
        assert newest_state(game).units[line.split()[1]].location is None
