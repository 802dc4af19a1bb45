"""Orders whose legality depends on earlier orders of the same file, pointed in a real
headless Chromium (issue 28 §1, options format 8: ``test_options_format8.py`` holds the
data's own tests). Each from a small prepared position
(:func:`tests.viewer.drafting.prepared_game`):

* DTP ``detect UNIT -> TARGET`` straight after the unit's own move [DTP 6.2a]: offered once
  the move is in the draft, drafted right behind it, gone with it when another move
  replaces it;
* DTP Westpac ``commence prc`` with ``commence`` on the Game-Turn hostilities begin [DTP
  11.51021]: offered once ``commence`` is in the draft;
* Carrier Battlegroup ``buy`` [9.1], [9.2]: a second piece of a kind and any count of a
  track, each offered only while the LP the draft's purchases spend leave room for it;
* Carrier Battlegroup ``intel`` [11.0]: once one attempt is in the draft, no other ship
  offers one.

(Each ``repair`` on the piece it repairs [10.0]-[10.3] is pointed in
``test_orders_unreached_browser.py``.) Each test points at the lines, downloads the draft,
shows that ``referee validate`` accepts it and that, signed with the side's key, ``referee
adjudicate`` carries it out; the choice the draft leaves no room for is not on the page, and
the same line typed is refused by ``validate`` with its rule case.

Screenshots at 1280 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.pbem.draft_options import choice_after
from tests.viewer.drafting import (
    body_lines,
    choices,
    download,
    downloads_dir,
    draft_text,
    dtp_detection_position,
    hidden_viewer,
    no_errors,
    open_page,
    opening,
    page_options,
    pick,
    point,
    prepared_game,
    refused,
    reported,
    section_lines,
    side_button,
    side_orders,
    signed_and_carried_out,
    snap,
    viewer,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]


def _events(game: Path) -> list[dict[str, Any]]:
    """The events of the game's newest report."""
    turn = sorted((game / "turns").iterdir())[-1]
    return list(json.loads((turn / "report.json").read_text())["events"])


def _kept(game: Path) -> dict[str, Any]:
    """The referee's full position after the newest step (``secret/turns/<step>/state.json``
    of a game that hides information, else the step's ``state.json``): the game's data."""
    turn = sorted((game / "turns").iterdir())[-1].name
    secret = game / "secret" / "turns" / turn / "state.json"
    path = secret if secret.is_file() else game / "turns" / turn / "state.json"
    return dict(json.loads(path.read_text())["data"])


def _of_kind(browser: Any, unit: str, kind: str) -> list[str]:
    """The lines of ``kind`` the page offers ``unit`` now."""
    return [c["order"] for c in choices(browser, unit) if c.get("kind") == kind]


# ---- DTP: a detection attempt right after the unit's own move [DTP 6.2a] -------------------


@pytest.fixture(scope="module")
def dtp_move(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Med map under DTP, the Soviet ship and sub movement of Game-Turn 1 (the short
    scenario): the US CV in 0815, a US DD in 0812, the Soviet CG and SS in 0817 and an SN in
    0814. The Soviet file is awaited."""
    module, state = dtp_detection_position()
    root = tmp_path_factory.mktemp("dtp-move")
    return prepared_game(root, module, state)


def test_dtp_detect_after_the_units_own_move_is_carried_out(
    browser: Any, dtp_move: Path, tmp_path: Path, shots: Path
) -> None:
    """``move SO-SN-1 0813`` pointed, then ``detect SO-SN-1 -> US-DD-1`` [DTP 6.2a], offered
    only once the move is in the draft (the DD in 0812 comes within one hex at 0813), drafted
    right behind it. A move elsewhere replaces the move and takes the attempt with it; the
    move back offers it again. Before any move the SN offers no attempt, and the attempt typed
    before its move is refused [DTP 6.2a]. Carried out, the attempt is rolled [DTP 6.3]."""
    root = dtp_move
    last = opening(root)
    game, page = viewer(root, last, "Soviet", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    unit, line = "SO-SN-1", "detect SO-SN-1 -> US-DD-1"
    assert _of_kind(browser, unit, "detect") == []  # no move drafted: no moment [DTP 6.2a]
    moves = {c["at"]: c for c in choices(browser, unit) if c.get("kind") == "move"}
    opening_one = {c.get("after") for c in choices(browser, unit)}  # none before the move
    assert opening_one == {None}
    doc = page_options(browser)
    opening_one = {choice_after(doc, unit, c) for c in doc["units"][unit]["choices"]}
    there = moves["0813"]
    far = next(c for h, c in sorted(moves.items()) if c["order"] not in opening_one)
    point(browser, unit, there)
    (detect,) = [c for c in choices(browser, unit) if c.get("kind") == "detect"]
    assert (detect["order"], detect["at"], detect["after"]) == (line, "0812", there["order"])
    point(browser, unit, detect)
    assert body_lines(draft_text(browser)) == ["[movement]", there["order"], line]
    point(browser, unit, far)  # replaces the move: the attempt behind it goes too
    assert body_lines(draft_text(browser)) == ["[movement]", far["order"]]
    assert _of_kind(browser, unit, "detect") == []
    point(browser, unit, there)
    point(browser, unit, next(c for c in choices(browser, unit) if c.get("kind") == "detect"))
    snap(browser, shots / "orders-draft8-dtp-detect-after-move-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[movement]", "move SO-SN-1 0813", line]
    early = text.replace(f"move SO-SN-1 0813\n{line}", f"{line}\nmove SO-SN-1 0813")
    out = refused(game, tmp_path, early, "Soviet", "DTP 6.2a")
    assert "no move just brought the units in 0812 within one hex of 0814" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "Soviet", last)
    (tried,) = [e for e in _events(game) if e.get("kind") == "detect"]
    assert tried["rule"] == "DTP 6.3" and tried["data"]["units"] == ["US-DD-1"], tried
    assert str(tried["text"]).startswith("SO-SN-1 try to detect US-DD-1"), tried


# ---- DTP Westpac: the PRC's entry with hostilities [DTP 11.51021] --------------------------


@pytest.fixture(scope="module")
def westpac_war(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Westpac after both sides' set-up files (the conformance set-up): Game-Turn 1's
    announcement step, hostilities not begun [DTP 11.5101]. The East Block is awaited."""
    from tests.conformance.rulesets import dtp_westpac

    state = dtp_westpac.set_up_files()
    assert (state.phase, state.turn, state.active_side) == ("hostilities", 1, "EastBlock")
    root = tmp_path_factory.mktemp("westpac-war")
    return prepared_game(root, dtp_westpac.module(), state)


def test_dtp_westpac_prc_entry_with_hostilities_is_carried_out(
    browser: Any, westpac_war: Path, tmp_path: Path, shots: Path
) -> None:
    """``commence`` pointed, then ``commence prc`` [DTP 11.51021], offered only once
    ``commence`` is in the draft: the PRC enters with the others on the Game-Turn
    hostilities begin. ``commence prc`` alone, typed, is refused [DTP 11.51021]. Carried out,
    both are at war from Game-Turn 1."""
    root = westpac_war
    last = opening(root)
    game, page = viewer(root, last, "EastBlock", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert side_orders(browser) == ["commence"]
    side_button(browser, "commence")
    assert side_orders(browser) == ["commence", "commence prc"]
    side_button(browser, "commence prc")
    snap(browser, shots / "orders-draft8-westpac-commence-prc-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[hostilities]", "commence", "commence prc"]
    alone = text.replace("commence\ncommence prc", "commence prc")
    out = refused(game, tmp_path, alone, "EastBlock", "DTP 11.51021")
    assert "the PRC may enter only with or after the other East Block nations" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "EastBlock", last)
    said = [(e.get("kind"), e.get("rule")) for e in _events(game)]
    assert ("hostilities", "DTP 11.5101") in said and ("hostilities", "DTP 11.51021") in said
    assert "Game-Turn 1: the PRC enters hostilities, and with it Taiwan" in reported(game)
    kept = _kept(game)["hostilities"]
    assert (kept["war"], kept["prc"]) == (1, 1), kept


# ---- Carrier Battlegroup: purchases and the Intelligence attempt [9.1], [9.2], [11.0] ------


def _cbg(tmp_path_factory: pytest.TempPathFactory, name: str, lp: int) -> Path:
    """Turn 1 of the scripted set-up and outfitting (the conformance cases' ``played: 2``),
    the CVBG at its NATO base with ``lp`` LP and a full Hangar. The USN's turn is awaited."""
    from referee.rules.carrier_battlegroup.facts import CbgFacts
    from tests.conformance.rulesets.carrier_battlegroup import module, played

    root = tmp_path_factory.mktemp(name)
    return prepared_game(root, module(), CbgFacts.put(played(), lp=lp))


@pytest.fixture(scope="module")
def cbg_14_lp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _cbg(tmp_path_factory, "cbg-14-lp", 14)


def test_carrier_battlegroup_purchases_within_the_lp_are_carried_out(
    browser: Any, cbg_14_lp: Path, tmp_path: Path, shots: Path
) -> None:
    """With 14 LP: ``buy US-P3.1`` and a second P-3, ``buy US-P3.2`` (5 LP each [9.2]), then
    ``buy 2 fuel`` (4 LP), a count below the most: after the two P-3s only the counts the 4
    LP left buy are offered (``buy 2 fuel`` and a 3-LP crew, not ``buy 3 fuel`` or a
    5-LP aircraft), and after the fuel no other
    purchase [9.1]. ``buy 1 fuel`` more, typed, is refused [9.1]. Carried out, the 14 LP are
    spent, the fuel is on the track, the P-3s at a NATO base."""
    root = cbg_14_lp
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    flagship = "US-CVN-68"
    buys = _of_kind(browser, flagship, "buy")
    assert {"buy US-P3.1", "buy US-P3.2", "buy 7 fuel", "buy 2 fuel"} <= set(buys), buys

    def buy(line: str) -> None:
        (c,) = [c for c in choices(browser, flagship) if c["order"] == line]
        point(browser, flagship, c)

    buy("buy US-P3.1")
    assert "buy US-P3.2" in _of_kind(browser, flagship, "buy")  # 9 LP left: a second P-3
    buy("buy US-P3.2")
    left = set(_of_kind(browser, flagship, "buy")) - {"buy US-P3.1", "buy US-P3.2"}
    assert {"buy 1 fuel", "buy 2 fuel", "buy 1 ew_enhancement", "buy US-SEAL"} <= left, left
    assert not {"buy 3 fuel", "buy 2 ew_enhancement", "buy US-KC135"} & left, sorted(left)
    buy("buy 2 fuel")
    assert set(_of_kind(browser, flagship, "buy")) == {"buy US-P3.1", "buy US-P3.2", "buy 2 fuel"}
    pick(browser, flagship)
    notes = browser.execute_script(
        "return Array.from(document.querySelectorAll('#choices p.allowance'))"
        ".map(p => p.textContent)"
    )
    assert "LP [9.1]: 0 of 14 left in this draft" in notes, notes
    snap(browser, shots / "orders-draft8-cbg-buy-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "logistics") == ["buy US-P3.1", "buy US-P3.2", "buy 2 fuel"]
    out = refused(game, tmp_path, text.rstrip("\n") + "\nbuy 1 fuel\n", "USN", "9.1", key)
    assert "the purchases cost 16 LP: expected at most the 14 LP left" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    said = [(e.get("kind"), e.get("rule"), e.get("text")) for e in _events(game)]
    assert ("logistics", "9.1", "Cargo bought for 14 LP; 0 LP left; Movement Phase skipped") in (
        said
    ), said
    kept = _kept(game)
    assert kept["lp"] == 0 and {"US-P3.1", "US-P3.2"} <= set(kept["air"]), kept["air"]


@pytest.fixture(scope="module")
def cbg_turn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _cbg(tmp_path_factory, "cbg-turn", 8)


def test_carrier_battlegroup_one_intelligence_attempt_is_carried_out(
    browser: Any, cbg_turn: Path, tmp_path: Path, shots: Path
) -> None:
    """``intel US-CGN`` pointed [11.0], [11.1]: once it is in the draft no other ship offers
    an attempt (one a turn [11.0]); the CGN's own stays. A second attempt typed is refused
    [11.0]. Carried out, the attempt is rolled on the Intelligence table."""
    root = cbg_turn
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    ships = ("US-CGN", "US-CVN-68", "US-DDG-K.1", "US-FFG.1")
    assert {s: _of_kind(browser, s, "intel") for s in ships} == {s: [f"intel {s}"] for s in ships}
    (c,) = [c for c in choices(browser, "US-CGN") if c.get("kind") == "intel"]
    point(browser, "US-CGN", c)
    assert {s: _of_kind(browser, s, "intel") for s in ships} == {
        "US-CGN": ["intel US-CGN"],
        "US-CVN-68": [],
        "US-DDG-K.1": [],
        "US-FFG.1": [],
    }
    snap(browser, shots / "orders-draft8-cbg-intel-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert section_lines(text, "intelligence") == ["intel US-CGN"]
    twice = text.replace("intel US-CGN", "intel US-CGN\nintel US-FFG.1")
    out = refused(game, tmp_path, twice, "USN", "11.0", key)
    assert "expected one Intelligence attempt per turn, found 2" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    rolled = [e for e in _events(game) if e.get("kind") == "intel"]
    assert len(rolled) == 1 and "US-CGN" in str(rolled[0]["text"]), rolled
