"""The last verbs no Chromium test pointed at (issue 28, "How it is checked";
``browser_coverage.md``): the shared demo games never reach them, so each is played from a
small prepared position (:func:`tests.viewer.drafting.prepared_game`), as in
``test_orders_prepared_browser.py``:

* DTP ``detect UNIT -> TARGET``: the answer to an enemy move that ended within one hex of the
  unit, taken in its own next movement file [DTP 6.2b] (the Med map's position of
  ``tests/rules/test_sixth_fleet_dtp_movement_phase.py``, changed: the Soviet move sent
  first, typed);
* DTP ``commence prc`` [DTP 11.51021]: Westpac's announcement step on a Game-Turn after
  hostilities began without the PRC (the conformance set-up, Game-Turn 2);
* Carrier Battlegroup ``repair`` [10.0]-[10.3] and ``buy`` [9.0]-[9.2]: turn 1's Logistics
  Phase of the scripted set-up and outfitting (the conformance cases' ``played: 2``), the CVBG
  at its NATO base, with a carrier system, an escort and an aircraft damaged and another
  escort Crippled.

Each test opens the awaited side's viewer with ``referee viewer``, points at the order,
downloads the draft, and shows that ``referee validate`` accepts it and that, signed with the
side's key, ``referee adjudicate`` carries it out (the report, and where it is kept the
referee's full position, show the effect). The choice the rules refuse is not on the page;
the same line typed by hand is refused by ``validate`` with its rule case.

Screenshots at 1280 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    body_lines,
    choices,
    download,
    downloads_dir,
    dtp_detection_position,
    hidden_viewer,
    newest_state,
    no_errors,
    open_page,
    opening,
    page_options,
    point,
    prepared_game,
    refused,
    report_events,
    reported,
    section_lines,
    side_button,
    side_orders,
    signed_and_carried_out,
    snap,
    typed_step,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


# ---- DTP: a detection attempt answering an enemy move [DTP 6.2b] ---------------------------


@pytest.fixture(scope="module")
def dtp_moment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The Med map under DTP, Game-Turn 1 (the short scenario): the US CV in 0815, a US DD in
    0812, the Soviet CG and SS in 0817 and a Soviet SN already in 0814, next to the CV. The
    Soviet ship and sub movement (Player A) is sent, typed: the CG and the SS move to 0816,
    within one hex of the CV, and try no detection; NATO has no standing order, so the CV's
    chance at each is kept for NATO's own file [DTP 6.2b]. NATO's ship and sub movement is
    awaited."""
    module, state = dtp_detection_position()
    root = tmp_path_factory.mktemp("dtp-moment")
    prepared_game(root, module, state)
    return root, typed_step(root, "Soviet", ["move SO-CG-2 0816", "move SO-SS-1 0816"])


def test_dtp_detect_answering_an_enemy_move_is_carried_out(
    browser: Any, dtp_moment: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """``detect US-CV-1 -> SO-CG-2`` and ``detect US-CV-1 -> SO-SS-1`` [DTP 6.2b], each
    pointed at their hex: the CV's attempts offered, one per category [DTP 6.2b], both
    drafted (the second does not replace the first). The SN next to the CV since before (no
    move brought it there) and the DD far off are offered none; the SN's attempt, typed, is
    refused [DTP 6.2a]. Each attempt is rolled on the Detection table [DTP 6.3]."""
    root, last = dtp_moment
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    detects = {
        u: [c for c in choices(browser, u) if c.get("kind") == "detect"]
        for u in sorted(page_options(browser)["units"])
    }
    lines = ["detect US-CV-1 -> SO-CG-2", "detect US-CV-1 -> SO-SS-1"]
    assert {u: [c["order"] for c in cs] for u, cs in detects.items()} == {
        "US-CV-1": lines,
        "US-DD-1": [],
    }
    for detect in detects["US-CV-1"]:
        assert detect["at"] == "0816", detect
        point(browser, "US-CV-1", detect)
    snap(browser, shots / "orders-unreached-dtp-detect-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[movement]", *lines]
    out = refused(game, tmp_path, text.replace("SO-SS-1", "SO-SN-1"), "NATO", "DTP 6.2a")
    assert "no move just brought the units in 0814 within one hex of 0815" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    tried = {e["data"]["units"][0]: e for e in report_events(game) if e.get("kind") == "detect"}
    assert sorted(tried) == ["SO-CG-2", "SO-SS-1"], report_events(game)
    assert {e["rule"] for e in tried.values()} == {"DTP 6.3"}, tried
    after = newest_state(game)
    for unit, marker in (("SO-CG-2", "detected_surface"), ("SO-SS-1", "detected_sub")):
        assert str(tried[unit]["text"]).startswith(f"US-CV-1 try to detect {unit}"), tried
        got = after.units[unit]
        assert (marker in got.status) == tried[unit]["data"]["detected"], (got, tried[unit])


# ---- DTP: the PRC's entry on a later Game-Turn [DTP 11.51021] --------------------------------


@pytest.fixture(scope="module")
def westpac_prc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Westpac after both sides' set-up files (the conformance set-up), on Game-Turn 2:
    hostilities announced on Game-Turn 1 without the PRC [DTP 11.5101]; the East Block's
    announcement step is awaited again, the PRC's entry still to come [DTP 11.51021]."""
    from tests.conformance.rulesets import dtp_westpac

    state = dtp_westpac.set_up_files()
    assert state.phase == "hostilities" and state.turn == 1
    state = state.evolve(turn=2).with_data(hostilities={"war": 1, "asked": 1})
    root = tmp_path_factory.mktemp("westpac-prc")
    return prepared_game(root, dtp_westpac.module(), state)


def test_dtp_westpac_prc_entry_pointed_is_carried_out(
    browser: Any, westpac_prc: Path, tmp_path: Path, shots: Path
) -> None:
    """``commence prc`` [DTP 11.51021], a button of the side, the only one: hostilities,
    begun on Game-Turn 1, are not offered again, and ``commence`` typed is refused [DTP
    11.5101]. Carried out, the PRC and Taiwan are at war from Game-Turn 2."""
    root = westpac_prc
    last = opening(root)
    game, page = viewer(root, last, "EastBlock", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert side_orders(browser) == ["commence prc"]
    side_button(browser, "commence prc")
    snap(browser, shots / "orders-unreached-dtp-westpac-prc-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[hostilities]", "commence prc"]
    again = text.replace("commence prc", "commence")
    out = refused(game, tmp_path, again, "EastBlock", "DTP 11.5101")
    assert "hostilities already announced" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "EastBlock", last)
    said = [(e.get("kind"), e.get("rule")) for e in report_events(game)]
    assert ("hostilities", "DTP 11.51021") in said and ("hostilities", "DTP 11.5101") not in said
    assert "Game-Turn 2: the PRC enters hostilities, and with it Taiwan" in reported(game)
    kept = newest_state(game).data["hostilities"]
    assert (kept["war"], kept["prc"]) == (1, 2), kept


# ---- Carrier Battlegroup: the Logistics Phase [9.0]-[10.3] -----------------------------------


@pytest.fixture(scope="module")
def cbg_logistics(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted set-up and outfitting of the mission scenario (the conformance cases'
    ``played: 2``): turn 1, the CVBG at its NATO base with 8 LP and a full Hangar (8
    aircraft), no room under its ships for another cruise missile. Then damage: the
    carrier's Hull at 10 of 12, the escort US-FFG.1 and the F-14 US-F14.1 Damaged, the
    escort US-DDG-K.1 Crippled. The USN's turn is awaited."""
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from tests.conformance.rulesets.carrier_battlegroup import module, played

    state = played()
    facts = facts_of(state)
    assert (facts.lp, facts.carrier["Hull"], facts.carrier_start["Hull"]) == (8, 12, 12)
    state = CbgFacts.put(
        state,
        carrier={**facts.carrier, "Hull": 10},
        conditions={
            "US-FFG.1": {"damage": 1, "crippled": False},
            "US-F14.1": {"damage": 1, "crippled": False},
            "US-DDG-K.1": {"damage": 2, "crippled": True},
        },
    )
    root = tmp_path_factory.mktemp("cbg-logistics")
    return prepared_game(root, module(), state)


def _offered(browser: Any, kind: str) -> set[str]:
    """Every line of ``kind`` the page offers, whichever unit it is offered on."""
    return {
        c["order"]
        for u in page_options(browser)["units"]
        for c in choices(browser, u)
        if c.get("kind") == kind
    }


def test_carrier_battlegroup_repairs_are_carried_out(
    browser: Any, cbg_logistics: Path, tmp_path: Path, shots: Path
) -> None:
    """``repair Hull`` [10.1], ``repair US-FFG.1`` (an escort's Damaged marker [10.0]) and
    ``repair US-F14.1`` (an aircraft's [10.3]), each pointed at the CVBG's space in the USN
    part opened with the player's key, each in the list of the piece it repairs (options
    format 8: the carrier's systems on the carrier; no other ship offers them). The Crippled
    escort is offered no repair, and its repair typed is refused [10.0]. Carried out, each
    repair is rolled, and what it restored is in the referee's position."""
    root = cbg_logistics
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert _offered(browser, "repair") == {"repair Hull", "repair US-FFG.1", "repair US-F14.1"}
    on = {
        u: [c["order"] for c in choices(browser, u) if c.get("kind") == "repair"]
        for u in page_options(browser)["units"]
    }
    assert {u: r for u, r in on.items() if r} == {
        "US-CVN-68": ["repair Hull"],
        "US-FFG.1": ["repair US-FFG.1"],
        "US-F14.1": ["repair US-F14.1"],
    }
    for unit, line in (  # each drafted beside the others: the second replaces nothing
        ("US-CVN-68", "repair Hull"),
        ("US-FFG.1", "repair US-FFG.1"),
        ("US-F14.1", "repair US-F14.1"),
    ):
        (c,) = [c for c in choices(browser, unit) if c["order"] == line]
        assert c["at"] == "NATO Base (Britain)", c  # the CVBG's space
        point(browser, unit, c)
    snap(browser, shots / "orders-unreached-cbg-repair-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    lines = ["repair Hull", "repair US-FFG.1", "repair US-F14.1"]
    assert section_lines(text, "logistics") == lines
    crippled = text.replace("repair US-FFG.1", "repair US-DDG-K.1")
    out = refused(game, tmp_path, crippled, "USN", "10.0", key)
    assert "found US-DDG-K.1 Crippled: that marker is never removed" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    rolled = {
        str(e["text"]).split(":")[0]: e for e in report_events(game) if e.get("kind") == "repair"
    }
    assert {k: e["rule"] for k, e in rolled.items()} == {
        "repair Hull": "10.1",
        "repair US-FFG.1": "10.0",
        "repair US-F14.1": "10.3",
    }, rolled
    kept = newest_state(game).data
    hull = str(rolled["repair Hull"]["text"]).rsplit("10 -> ", 1)[1]
    assert kept["carrier"]["Hull"] == int(hull) >= 10, (kept["carrier"], rolled)
    for unit in ("US-FFG.1", "US-F14.1"):
        repaired = rolled[f"repair {unit}"]["data"]["repaired"]
        assert (unit not in kept["conditions"]) == repaired, (kept["conditions"], rolled)
    assert kept["conditions"]["US-DDG-K.1"]["crippled"] is True


def test_carrier_battlegroup_purchases_are_carried_out(
    browser: Any, cbg_logistics: Path, tmp_path: Path, shots: Path
) -> None:
    """``buy US-CREW-FD`` and ``buy US-SEAL`` [9.2], 3 LP each, pointed in the flagship's
    list (the group's purchases [9.0]): the second is drafted beside the first. No carrier
    aircraft is offered, the Hangar being full, and one typed is refused [9.1]; nor a cruise
    missile, no ship having room for it [9.2]. Carried out, the LP are spent and the crews
    are aboard."""
    root = cbg_logistics
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    buys = _offered(browser, "buy")
    assert {"buy US-CREW-FD", "buy US-SEAL"} <= buys, sorted(buys)
    for refused_kind in ("US-A6.3", "US-C2", "US-S3.1", "US-TASM.3"):
        assert f"buy {refused_kind}" not in buys, sorted(buys)
    for line in ("buy US-CREW-FD", "buy US-SEAL"):
        (c,) = [c for c in choices(browser, "US-CVN-68") if c["order"] == line]
        assert c.get("at") is None, c  # a purchase is not at a place: its button
        point(browser, "US-CVN-68", c)
    snap(browser, shots / "orders-unreached-cbg-buy-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "logistics") == ["buy US-CREW-FD", "buy US-SEAL"]
    out = refused(game, tmp_path, text.replace("US-SEAL", "US-A6.3"), "USN", "9.1", key)
    assert "expected at most 8 carrier aircraft aboard (the Hangar), found 9" in out, out
    out = refused(game, tmp_path, text.replace("US-SEAL", "US-TASM.3"), "USN", "9.2", key)
    assert "expected at most 0 cruise missiles" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    said = [(e.get("kind"), e.get("rule"), e.get("text")) for e in report_events(game)]
    assert ("logistics", "9.1", "Cargo bought for 6 LP; 2 LP left; Movement Phase skipped") in (
        said
    ), said
    kept = newest_state(game).data
    assert kept["lp"] == 2 and {"US-CREW-FD", "US-SEAL"} <= set(kept["crews"]), kept["crews"]
