"""Carrier Battlegroup conformance: cases that had code but no case of their own —
reconnaissance [11.3], the repair dice [10.2], [10.4], the refueler [19.2], the landing
[23.2] — each named in the test name."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import combat_phase, view
from referee.rules.carrier_battlegroup.setup import NATO_BASE
from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset, step


def _rules(vs: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in vs]


# ---- 11.3 aircraft reconnaissance ------------------------------------------------------------


def test_11_3_aircraft_flown_into_an_sbg_space_reveal_it_contact_or_not() -> None:
    st = played(steps=2)
    name, g = sorted(st.data["sbgs"].items())[0]
    assert not g["revealed"] and g["units"]
    missile = sorted(st.data["missiles"])[0]
    ev: list[Event] = []
    same = combat_phase.recon_11_3(module(), st, g["space"], [missile], ev)
    assert same is st and ev == []  # a cruise missile is no reconnaissance
    plane = sorted(st.data["air"])[0]
    got = combat_phase.recon_11_3(module(), st, g["space"], [plane], ev)
    assert got.data["sbgs"][name]["revealed"] if name in got.data["sbgs"] else True
    assert not view.hidden_ids(got) & set(g["units"])  # face up, or a Glitch back to its pool
    assert ev[0].rule == "11.3" and any(e.rule == "11.3" and e.kind != "recon" for e in ev)


def test_11_3_no_sbg_or_coastal_unit_no_reconnaissance() -> None:
    st = played(steps=2)
    ev: list[Event] = []
    plane = sorted(st.data["air"])[0]
    assert combat_phase.recon_11_3(module(), st, "North Sea 1", [plane], ev) is st and not ev


# ---- 10.2 / 10.4 repair dice ----------------------------------------------------------------


def _hull_repair_dice(st: GameState) -> int:
    st = st.with_data(carrier={**st.data["carrier"], "Hull": st.data["carrier"]["Hull"] - 2})
    out = step(st, "[logistics]\nrepair Hull\n", 2)
    assert out.ok, [str(v) for v in out.violations]
    ev = next(e for e in out.events if e.kind == "repair")
    return len(ev.data["rolls"])


def test_10_2_a_nato_base_gives_more_repair_dice_and_10_4_crews_add_one_each() -> None:
    st = played(steps=2)
    t = module().tables["repair"]
    base, sea = (int(t.lookup(row=r, col="dice").value) for r in ("nato_base", "at_sea"))
    per = int(t.lookup(row="crew", col="dice").value)
    crews = sum(1 for c in st.data["crews"] if c.startswith(("US-CREW-DC", "US-CREW-FD")))
    assert st.data["cvbg"]["space"] == NATO_BASE
    assert _hull_repair_dice(st) == base + per * crews
    at_sea = combat_phase._move_cvbg(st, "North Sea 1").with_data(crews=[])
    assert _hull_repair_dice(at_sea) == sea
    assert base > sea


# ---- 19.2 refueler --------------------------------------------------------------------------


def test_19_2_a_refueler_doubles_aircraft_range_never_its_own() -> None:
    st = played(steps=2)
    board = PointBoard(module().map)
    fighter = "US-FA18.1"  # range 5
    tanker = "US-KA6D"  # range 6, a refueler
    reach = module().piece(fighter).unit.values["SPD"]
    own = module().piece(tanker).unit.values["SPD"]
    far = next(s for s in sorted(board.locations()) if reach < board.distance(NATO_BASE, s) <= own)
    air = {fighter: "hangar", tanker: "hangar"}
    st = st.with_data(air=air, sbgs={"SBG-9": {"space": far, "units": [], "revealed": False}})
    alone = ruleset().validate(module(), st, doc(f'[launch]\nstrike {fighter} -> "{far}"\n'))
    assert _rules(alone) == ["19.1"]
    both = ruleset().validate(
        module(), st, doc(f'[launch]\nstrike {fighter} {tanker} -> "{far}"\n')
    )
    assert both == []
    beyond = next(s for s in sorted(board.locations()) if board.distance(NATO_BASE, s) == own + 1)
    st = st.with_data(sbgs={"SBG-9": {"space": beyond, "units": [], "revealed": False}})
    bad = ruleset().validate(
        module(), st, doc(f'[launch]\nstrike {fighter} {tanker} -> "{beyond}"\n')
    )
    assert any(v.rule == "19.1" and tanker in v.message for v in bad)  # not its own range


# ---- 23.2 amphibious landing ----------------------------------------------------------------


def test_23_2_a_landing_needs_orders_that_allow_it_and_marines_aboard() -> None:
    st = played(steps=2)
    no = st.with_data(mission={**st.data["mission"], "landing": False})
    bad = ruleset().validate(module(), no, doc("[objective]\nland US-MEU\n"))
    assert "23.2" in _rules(bad)
    yes = st.with_data(mission={**st.data["mission"], "landing": True}, crews=["US-MEU"])
    assert ruleset().validate(module(), yes, doc("[objective]\nland US-MEU\n")) == []
    notaboard = yes.with_data(crews=[])
    assert _rules(ruleset().validate(module(), notaboard, doc("[objective]\nland US-MEU\n"))) == [
        "23.2"
    ]


# ---- 6.2 alert effects, 18.3 the Soviet edge ------------------------------------------------


# ---- 20.1 the attacker ----------------------------------------------------------------------


def test_20_1_the_side_that_entered_attacks_incident_units_attack_but_a_contact_chit() -> None:
    st = played(steps=2)
    here = st.data["cvbg"]["space"]
    attacker = combat_phase._attacker_20_1
    assert attacker(st.with_data(entered=here, incident=None), here, False) == "USN"
    assert attacker(st.with_data(entered=None, incident=None), here, False) == "Soviet"
    gen = st.with_data(entered=here, incident={"space": here, "generated": ["SO-TU22.1"]})
    assert attacker(gen, here, False) == "Soviet"
    assert attacker(gen, here, True) == "USN"  # a Contact chit
    assert attacker(st.with_data(entered=None, incident=None), "Murmansk", False) == "USN"


# ---- 24.1 victory points, 24.2 automatic defeat, 25.2 Red Oktober ----------------------------


def test_24_1_a_ship_damaged_then_sunk_counts_only_as_sunk() -> None:
    from referee.rules.carrier_battlegroup import end_of_turn

    st = played(steps=2)
    t = module().tables["victory_points"]
    vp = {k: int(t.lookup(row=k, col="vp").value) for k in ("usn_ship_sunk", "usn_ship_damaged")}
    losses = [
        {"unit": "US-FFG.1", "what": "damaged", "turn": st.turn},
        {"unit": "US-FFG.1", "what": "sunk", "turn": st.turn},
    ]
    ev: list[Event] = []
    got = end_of_turn.victory_phase_24_1(module(), st.with_data(losses=losses, vp=0), ev)
    assert got.data["vp"] == vp["usn_ship_sunk"] and ev[0].rule == "24.1"
    again = end_of_turn.victory_phase_24_1(module(), got, [])  # scored once, not again
    assert again.data["vp"] == vp["usn_ship_sunk"]


def test_24_2_a_sunk_carrier_ends_the_mission_in_defeat() -> None:
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import end_of_turn

    st = played(steps=2).with_data(result="defeat: the carrier is sunk [24.2]", vp=0)
    out, ev = end_of_turn.end_of_turn_5_0(module(), st, ScriptedDice([]), [])
    assert out.phase == "over" and out.active_side is None
    assert ev[-1].rule == "24.0" and "[24.2]" in ev[-1].text


def test_25_2_red_oktober_sunk_is_victory_and_at_the_entry_defeat() -> None:
    from referee.engine.core import ScriptedDice, UnitState
    from referee.rules.carrier_battlegroup import end_of_turn
    from referee.rules.carrier_battlegroup.setup import SSBN

    st = played("red_oktober", steps=2)
    assert st.data["kind"] == "red_oktober"
    sunk = st.with_unit(UnitState(SSBN, "Soviet", None, "sunk"))
    out, _ = end_of_turn.end_of_turn_5_0(module(), sunk, ScriptedDice([]), [])
    assert out.data["result"].startswith("victory") and "[25.2]" in out.data["result"]
    entry = "Atlantic Ocean Entry"
    there = st.with_unit(UnitState(SSBN, "Soviet", entry, None))
    sbgs = {
        n: {**g, "space": entry} if SSBN in g["units"] else g for n, g in st.data["sbgs"].items()
    }
    out, _ = end_of_turn.end_of_turn_5_0(module(), there.with_data(sbgs=sbgs), ScriptedDice([]), [])
    assert out.data["result"].startswith("defeat") and "[25.2]" in out.data["result"]
