"""The verbs the shared demo games never reach, pointed at in a real headless Chromium from
small prepared positions (issue 28, "How it is checked").

Each position is a conformance case's (or, for Carrier Battlegroup, its scripted set-up and
outfitting with the CVBG put at a landing Objective), made into a small signed game archive
whose opening step is that position (:func:`tests.viewer.drafting.prepared_game`), once per
module; where the verb's step follows another side's orders, those are sent first through
the real pipeline (signed and adjudicated). Each test then opens the awaited side's viewer
with ``referee viewer``, points at the order, downloads the draft, and shows that ``referee
validate`` accepts it and that, signed with the side's key, ``referee adjudicate`` carries it
out (the report tells of it). The choice the rules refuse is not on the page; the same line
typed by hand is refused by ``validate`` with its rule case.

* the naval module: ``coastfire CD -> SHIP`` [27.12] (no shot at a ship out of Range
  [30.23]), ``defend SHIP -> HEX`` [29.25] (only to the hex the Axis attacks) and
  ``repair SHIP`` [27.42] (in port only [26.32]);
* Sixth Fleet (2019): ``embark UNIT -> SHIP`` and ``land UNIT -> ZONE`` (provisional 8.5.1);
* Carrier Battlegroup: the Objective Phase's ``bombard`` [23.1], ``land UNIT`` and
  ``embark UNIT`` [23.2];
* DTP: the Med Campaign's Reinforcement Interphase ``place`` [12.2], [12.21], Westpac's
  reinforcement phase ``place`` [DTP 11.506], [DTP 11.5082] and its ``commence`` of
  hostilities [DTP 11.5101].

Screenshots at 1280 px go to ``$REFEREE_VIEWER_SHOTS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.viewer.drafting import (
    body_lines,
    choices,
    download,
    downloads_dir,
    hidden_viewer,
    latest,
    newest_state,
    no_errors,
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
    sealed_options,
    side_button,
    side_orders,
    signed_and_carried_out,
    snap,
    typed_step,
    viewer,
    word,
)

pytestmark = [pytest.mark.slow, pytest.mark.chromium]

CASES = Path(__file__).resolve().parents[1] / "conformance"


def _case_position(folder: str, name: str) -> dict[str, Any]:
    return dict(json.loads((CASES / folder / name).read_text())["position"])


def _finish_composing(browser: Any) -> None:
    """A line that may grow into a force (format 5) is drafted as it is: done composing."""
    for done in browser.find_elements("id", "composedone"):
        press(browser, done)


# ---- the naval module: the coast step ------------------------------------------------------


def _naval(root: Path, case: str, first: tuple[str, list[str]]) -> tuple[Path, str]:
    from tests.conformance.rulesets import naval_module as nm

    module = nm.naval_module()
    state = nm.build_state(module, _case_position("naval_module", case))
    prepared_game(root, module, state)
    return root, typed_step(root, *first)


@pytest.fixture(scope="module")
def naval_coastfire(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Case NM-083: the Soviet cruiser SU-CL-KK supports the attack on 2824 from 2925 (the
    Soviet Combat Phase, sent), SU-CL-KR at 3026 beyond the Range of the Axis CD unit
    DE-CD-1.2 in 2824; the Axis coast step is awaited [30.2]."""
    root = tmp_path_factory.mktemp("naval-coastfire")
    return _naval(root, "083-30.23-cd-out-of-reach.json", ("Soviet", ["support SU-CL-KK -> 2824"]))


@pytest.fixture(scope="module")
def naval_defend(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Case NM-150: the Axis attacks 1626 (the Axis Combat Phase, sent: the host game's
    attack, typed [29.25]); three Soviet ships in Sevastopol, 1826 not attacked; the
    Soviet coast step is awaited."""
    root = tmp_path_factory.mktemp("naval-defend")
    return _naval(root, "150-29.25-defensive-support-from-port.json", ("Axis", ["attack 1626"]))


def test_naval_coastfire_at_a_ship_in_range_is_carried_out(
    browser: Any, naval_coastfire: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """``coastfire DE-CD-1.2 -> SU-CL-KK`` [27.12], pointed at the ship's hex; the cruiser
    beyond the CD unit's Range is not offered and, typed, refused [30.23]."""
    root, last = naval_coastfire
    game, page = viewer(root, last, "Axis", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    fire = [c for c in choices(browser, "DE-CD-1.2") if c.get("kind") == "coastfire"]
    assert [c["order"] for c in fire] == ["coastfire DE-CD-1.2 -> SU-CL-KK"]
    assert fire[0]["at"] == "2925"
    point(browser, "DE-CD-1.2", fire[0])
    _finish_composing(browser)
    snap(browser, shots / "orders-prepared-naval-coastfire-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[coast]", fire[0]["order"]]
    out_of_range = text.replace(fire[0]["order"], "coastfire DE-CD-1.2 -> SU-CL-KR")
    refused(game, tmp_path, out_of_range, "Axis", "30.23")
    signed_and_carried_out(root, game, tmp_path, text, "Axis", last)
    shots_at = [e for e in report_events(game) if e.get("kind") == "cd_shipping_attack"]
    assert shots_at and shots_at[0]["rule"] == "27.12", report_events(game)
    assert shots_at[0]["data"]["ship"] == "SU-CL-KK"


def test_naval_defend_of_the_attacked_hex_is_carried_out(
    browser: Any, naval_defend: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """``defend SU-BB-PK -> 1626`` [29.25], pointed at the attacked hex: the only hex each
    ship in port is offered; the hex nobody attacks, typed, is refused [29.25]."""
    root, last = naval_defend
    game, page = viewer(root, last, "Soviet", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    for ship in ("SU-BB-PK", "SU-CL-KO", "SU-DD-BO"):
        offered = [c["order"] for c in choices(browser, ship) if c.get("kind") == "defend"]
        assert offered == [f"defend {ship} -> 1626"], offered
    defend = next(c for c in choices(browser, "SU-BB-PK") if c.get("kind") == "defend")
    point(browser, "SU-BB-PK", defend)
    _finish_composing(browser)
    snap(browser, shots / "orders-prepared-naval-defend-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[coast]", "defend SU-BB-PK -> 1626"]
    unattacked = text.replace("defend SU-BB-PK -> 1626", "defend SU-BB-PK -> 1826")
    refused(game, tmp_path, unattacked, "Soviet", "29.25")
    signed_and_carried_out(root, game, tmp_path, text, "Soviet", last)
    said = [e for e in report_events(game) if e.get("rule") == "29.25"]
    assert any("SU-BB-PK" in str(e.get("text")) for e in said), report_events(game)


@pytest.fixture(scope="module")
def naval_repair(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Cases NM-019 and NM-020 together: the Soviet Readiness Phase, SU-CL-KK damaged twice
    in Sevastopol, SU-CL-KR damaged once at sea in the Crimea Sea Zone."""
    from tests.conformance.rulesets import naval_module as nm

    module = nm.naval_module()
    position = {
        "phase": "readiness",
        "units": [["SU-CL-KK", "Sevastopol"], ["SU-CL-KR", "Crimea Sea Zone"]],
        "ships": {"SU-CL-KK": {"damage": 2}, "SU-CL-KR": {"damage": 1}},
    }
    root = tmp_path_factory.mktemp("naval-repair")
    return prepared_game(root, module, nm.build_state(module, position))


def test_naval_repair_in_port_is_carried_out(
    browser: Any, naval_repair: Path, tmp_path: Path, shots: Path
) -> None:
    """``repair SU-CL-KK`` [27.42], pointed at its port; the ship at sea is offered no
    repair and, typed, its repair is refused [26.32]; the phase rolls the repair."""
    root = naval_repair
    last = opening(root)
    game, page = viewer(root, last, "Soviet", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert "SU-CL-KR" not in page_options(browser)["units"]  # at sea: nothing to offer it
    (repair,) = [c for c in choices(browser, "SU-CL-KK") if c.get("kind") == "repair"]
    assert (repair["order"], repair["at"]) == ("repair SU-CL-KK", "Sevastopol")
    point(browser, "SU-CL-KK", repair)
    snap(browser, shots / "orders-prepared-naval-repair-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[readiness]", "repair SU-CL-KK"]
    refused(game, tmp_path, text.replace("SU-CL-KK", "SU-CL-KR"), "Soviet", "26.32")
    signed_and_carried_out(root, game, tmp_path, text, "Soviet", last)
    rolled = [e for e in report_events(game) if e.get("kind") == "repair"]
    assert rolled and rolled[0]["rule"] == "27.42", report_events(game)
    assert str(rolled[0]["text"]).startswith("SU-CL-KK Repair"), rolled


# ---- Sixth Fleet (2019): amphibious movement -----------------------------------------------


@pytest.fixture(scope="module")
def amphibians_2019(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """NATO's Action Phase of Game-Turn 3 (case 114's, widened): the MEB aboard US-AWG-1 in
    the Ionian Sea, the Italian airborne brigade IT-ABN beside ACE-AWG in Naples."""
    from tests.conformance.rulesets.sixth_fleet_2019 import build_state, module_2019

    module = module_2019()
    position = {
        "turn": 3,
        "phase": "nato_actions",
        "units": [
            ["US-AWG-1", "Ionian Sea"],
            ["US-MEB", "Holding US-AWG-1"],
            ["ACE-AWG", "Naples"],
            ["IT-ABN", "Naples"],
        ],
    }
    root = tmp_path_factory.mktemp("amphibians-2019")
    return prepared_game(root, module, build_state(module, position))


def test_sixth_fleet_2019_embark_and_land_are_carried_out(
    browser: Any, amphibians_2019: Path, tmp_path: Path, shots: Path
) -> None:
    """``embark IT-ABN -> ACE-AWG`` (the one amphibian in its port) and ``land US-MEB ->
    Greece`` (a land zone next to its amphibian's sea zone), provisional 8.5.1, pointed in
    NATO's part opened with its key; the other amphibian and a zone not next to the Ionian
    Sea are not offered and, typed, are refused [8.5.1], [8.0]."""
    root = amphibians_2019
    last = opening(root)
    game, page, key = hidden_viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    (embark,) = [c for c in choices(browser, "IT-ABN") if c.get("kind") == "embark"]
    assert embark["order"] == "embark IT-ABN -> ACE-AWG"
    lands = {c["at"]: c for c in choices(browser, "US-MEB") if c.get("kind") == "land"}
    assert "Greece" in lands and "Western Med" not in lands, sorted(lands)
    point(browser, "IT-ABN", embark)
    _finish_composing(browser)
    point(browser, "US-MEB", lands["Greece"])
    _finish_composing(browser)
    snap(browser, shots / "orders-prepared-2019-amphibious-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    lines = order_lines(text)
    assert lines[lines.index("[actions]") + 1 :] == [embark["order"], lands["Greece"]["order"]]
    other_ship = text.replace(embark["order"], "embark IT-ABN -> US-AWG-1")
    refused(game, tmp_path, other_ship, "NATO", "8.5.1", key)
    far = text.replace(lands["Greece"]["order"], 'land US-MEB -> "Western Med"')
    refused(game, tmp_path, far, "NATO", "8.0", key)
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last, key)
    said = [str(e.get("text")) for e in report_events(game)]
    assert any(s.startswith("IT-ABN embark") for s in said), said
    assert any(s.startswith("US-MEB land in Greece") for s in said), said


# ---- Carrier Battlegroup: the Objective Phase -------------------------------------------------


@pytest.fixture(scope="module")
def cbg_objective(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scripted set-up and outfitting of the mission scenario (the conformance cases'
    ``played: 2``), then: the Orders O3 as the set-up records them (Spitsbergen, a landing
    allowed [23.2], two coastal defense units [4.0 step 5]: the module's Orders Chart row),
    the CVBG at its Objective with the first two coastal defense units drawn there face
    down (the third back in the pool), a Marine unit (US-MEU) bought and aboard the
    carrier, and the SEALs landed at Spitsbergen on an earlier turn [23.2]. The USN's turn
    is awaited."""
    from referee.engine.core import UnitState
    from referee.rules.carrier_battlegroup import movement, rows
    from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
    from referee.rules.carrier_battlegroup.setup import CARRIER
    from tests.conformance.rulesets.carrier_battlegroup import module, played, ruleset

    row, _ = rows.row_record(module().tables["orders"], "O3")
    mission = {  # as the set-up records the Orders drawn [4.0]
        "order": "O3",
        "objective": str(row["objective"]),
        "line": str(row["line"]),
        "turns": int(row["turns"]),
        "coastal": int(row["coastal"]),
        "landing": bool(row["landing"]),
        "kill": str(row.get("kill") or ""),
        "lanes": list(movement.lanes_of_orders(str(row.get("lanes") or ""))),
    }
    objective, count = mission["objective"], mission["coastal"]
    assert (objective, count, mission["landing"]) == ("Spitsbergen", 2, True)
    state = played()
    fresh = ruleset().new_game(module(), "mission", state.game_id)
    facts = facts_of(state)
    there, back = facts.coastal["units"][:count], facts.coastal["units"][count:]
    for pid in back:
        state = state.with_unit(fresh.units[pid])
    for pid in there:
        state = state.with_unit(UnitState(pid, "Soviet", objective, None, frozenset({"face_down"})))
    for pid in [*facts.cvbg["ships"], "US-CVBG"]:  # the task force's counters there too
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, objective, None, u.status))
    state = state.with_unit(UnitState("US-MEU", "USN", None, f"crew:{CARRIER}"))
    state = state.with_unit(UnitState("US-SEAL", "USN", objective, None))
    state = CbgFacts.put(
        state,
        mission=mission,
        cvbg={**facts.cvbg, "space": objective},
        coastal={"space": objective, "units": there, "revealed": False},
        crews=[*facts.crews, "US-MEU"],
        landed_at={"US-SEAL": {"space": objective, "turn": state.turn - 1}},
    )
    root = tmp_path_factory.mktemp("cbg-objective")
    return prepared_game(root, module(), state)


def test_carrier_battlegroup_bombard_land_and_embark_are_carried_out(
    browser: Any, cbg_objective: Path, tmp_path: Path, shots: Path
) -> None:
    """The Objective Phase, in the USN part opened with the player's key: ``bombard``
    [23.1] (a button of the side), ``land US-MEU`` and ``embark US-SEAL`` [23.2] (composed:
    only the Marine aboard may land, only the SEALs ashore may re-embark); the SEALs
    landing, or the Marines re-embarking, typed, are refused [23.2]."""
    from referee.rules.carrier_battlegroup.facts import facts_of

    root = cbg_objective
    last = opening(root)
    ((name, doc, _),) = sealed_options(root, "USN")  # the options sealed into its part
    assert name == last
    objective = {c["kind"] for c in doc["side_choices"] if c.get("section") == "objective"}
    assert objective == {"bombard", "land", "embark"}, objective
    game, page, key = hidden_viewer(root, last, "USN", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    side_button(browser, "bombard")
    for verb, unit in (("land", "US-MEU"), ("embark", "US-SEAL")):
        side_button(browser, verb)
        assert offered_words(browser) == [unit]  # the other Marine unit is not offered
        press(browser, word(browser, unit))
        press(browser, "#composedone")
    snap(browser, shots / "orders-prepared-cbg-objective-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    lines = order_lines(text)
    at = lines.index("[objective]")
    assert lines[at + 1 : at + 4] == ["bombard", "land US-MEU", "embark US-SEAL"], lines
    out = refused(game, tmp_path, text.replace("land US-MEU", "land US-SEAL"), "USN", "23.2", key)
    assert "expected a Marine or SEAL unit aboard, found US-SEAL" in out, out
    out = refused(
        game, tmp_path, text.replace("embark US-SEAL", "embark US-MEU"), "USN", "23.2", key
    )
    assert "expected a landed Marine or SEAL unit, found US-MEU" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "USN", last, key)
    rules = {(e.get("kind"), e.get("rule")) for e in report_events(game)}
    assert ("landing", "23.2") in rules and ("embark", "23.2") in rules, rules
    # the bombardment is carried out where coastal defense units are left when the
    # Objective Phase comes [23.1]: the Combat Phase's battle there may sink them all (with
    # this game's fixed keys and seeds one is left, and it is bombarded); the units left are
    # the referee's to know (the game hides them from the player)
    left = facts_of(newest_state(game)).coastal["units"]
    assert ("bombard", "23.1") in rules or left == [], (rules, left)


# ---- DTP: the reinforcements' places ------------------------------------------------------------


@pytest.fixture(scope="module")
def med_interphase(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Case 094's position: the Med Campaign under DTP after Game-Turn 10, the Reinforcement
    Interphase awaiting NATO with the US F4 US-F4.3 to place [12.2]."""
    from referee.engine.core import GameState, UnitState
    from tests.conformance.rulesets import sixth_fleet_dtp

    module = sixth_fleet_dtp.module()
    state = GameState("med", module.id, "sixth_fleet_dtp", "campaign", 10, "reinforcement_12_2",
                      "NATO", {}, {})  # fmt: skip
    state = state.with_unit(UnitState("US-F4.3", "NATO", None, "reinforcements"))
    state = state.with_data(
        damage={},
        recycle={},
        base_damage={},
        combat={},
        dtp_flags={"reinforcement_interphase_12_2": True},
        interphase_12_2=[],
    )
    root = tmp_path_factory.mktemp("med-interphase")
    return prepared_game(root, module, state)


def test_dtp_med_campaign_reinforcement_placed_is_carried_out(
    browser: Any, med_interphase: Path, tmp_path: Path, shots: Path
) -> None:
    """The F4 on one of the two US airbases [12.21] (its marked hex): only those are
    offered; another hex, typed, is refused [12.21]; the Interphase carries it out."""
    root = med_interphase
    last = opening(root)
    game, page = viewer(root, last, "NATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    places = {c["at"]: c for c in choices(browser, "US-F4.3") if c.get("kind") == "place"}
    assert sorted(places) == ["1022", "1311"], sorted(places)
    point(browser, "US-F4.3", places["1311"])
    snap(browser, shots / "orders-prepared-dtp-med-reinforcement-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[reinforcement]", "place US-F4.3 1311"]
    out = refused(game, tmp_path, text.replace(" 1311", " 0812"), "NATO", "12.21")
    assert "US-F4.3 may not be placed in 0812" in out, out
    signed_and_carried_out(root, game, tmp_path, text, "NATO", last)
    assert any(e.get("rule") == "12.21" for e in report_events(game)), report_events(game)
    assert latest(game)[1]["section"] != "reinforcement"  # on to Game-Turn 11


@pytest.fixture(scope="module")
def westpac_reinforcements(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Westpac's Game-Turn 4 reinforcement phase (case 004's): the East Block's one unit
    placed (sent), SEATO's three due units awaited [DTP 11.5041], [DTP 11.506]."""
    from referee.engine.core import ScriptedDice
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp import flow, westpac_reinforcement
    from tests.conformance.rulesets import dtp_westpac

    module = dtp_westpac.module()
    state = dtp_westpac.at_war(4)
    game = Game.of(module, state)
    owed = westpac_reinforcement.detour_11_506(game, state, "ship_movement_a")
    state = flow.reinforce_11_506(game, state.with_data(reinforce=owed), ScriptedDice([]), [])
    root = tmp_path_factory.mktemp("westpac-reinforcements")
    prepared_game(root, module, state)
    return root, typed_step(root, "EastBlock", ["place SO-AK-81 3033"])


def test_dtp_westpac_reinforcements_placed_are_carried_out(
    browser: Any, westpac_reinforcements: tuple[Path, str], tmp_path: Path, shots: Path
) -> None:
    """Each SEATO unit due on Game-Turn 4 placed at a hex it may enter (a ship's entry hex,
    the air unit on a base with room [DTP 11.5082]), each its marked hex; a hex not offered
    typed for the air unit is refused [DTP 11.5082]."""
    root, last = westpac_reinforcements
    game, page = viewer(root, last, "SEATO", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    doc = page_options(browser)
    chosen = []
    for unit in sorted(doc["units"]):
        places = [c for c in choices(browser, unit) if c.get("kind") == "place"]
        assert places and "3033" not in {c["at"] for c in places}, places
        point(browser, unit, places[-1])
        chosen.append(places[-1]["order"])
    snap(browser, shots / "orders-prepared-dtp-westpac-reinforcement-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[reinforcement]", *chosen]
    air = next(line for line in chosen if line.startswith("place US-F15.1 "))
    refused(game, tmp_path, text.replace(air, "place US-F15.1 3033"), "SEATO", "DTP 11.5082")
    signed_and_carried_out(root, game, tmp_path, text, "SEATO", last)
    placed = {
        e["data"]["unit"]: e["data"]["hex"] for e in report_events(game) if e["kind"] == "reinforce"
    }
    assert placed == {line.split()[1]: line.split()[2] for line in chosen}, placed


@pytest.fixture(scope="module")
def westpac_hostilities(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Westpac after both sides' set-up files (the conformance set-up): Game-Turn 1, the East
    Block (Player A) to announce hostilities or not [DTP 11.5101]."""
    from tests.conformance.rulesets import dtp_westpac

    root = tmp_path_factory.mktemp("westpac-hostilities")
    return prepared_game(root, dtp_westpac.module(), dtp_westpac.set_up_files())


def test_dtp_westpac_hostilities_commenced_by_pointing_are_carried_out(
    browser: Any, westpac_hostilities: Path, tmp_path: Path, shots: Path
) -> None:
    """``commence`` [DTP 11.5101], a button of the side; the PRC's entry alone (``commence
    prc`` without ``commence``) is not offered and, typed, is refused [DTP 11.51021]."""
    root = westpac_hostilities
    last = opening(root)
    game, page = viewer(root, last, "EastBlock", tmp_path)
    downloads = downloads_dir(tmp_path)
    open_page(browser, page, 1280, downloads)
    assert side_orders(browser) == ["commence"]
    side_button(browser, "commence")
    snap(browser, shots / "orders-prepared-dtp-westpac-commence-1280.png")
    no_errors(browser)
    text = download(browser, downloads)
    assert body_lines(text) == ["[hostilities]", "commence"]
    refused(game, tmp_path, text.replace("commence", "commence prc"), "EastBlock", "DTP 11.51021")
    signed_and_carried_out(root, game, tmp_path, text, "EastBlock", last)
    assert any(e.get("rule") == "DTP 11.5101" for e in report_events(game)), report_events(game)
