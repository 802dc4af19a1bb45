"""Carrier Battlegroup conformance: one case for each rule case that had code but no case
of its own (7.0, 8.0, 8.1, 11.0-11.2, 11.4, 12.0, 15.1, 18.0, 20.0, 20.4, 21.0, 22.1,
22.6, 22.8, 23.0, 23.1, 24.0), each named in the test name and asserting the book's
behaviour and the case the referee cites."""

from __future__ import annotations

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.rules.carrier_battlegroup import (
    battle,
    cargo,
    combat_phase,
    end_of_turn,
    movement_phase,
    soviet,
)
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.setup import CARRIER, CVBG, NATO_BASE
from tests.conformance.rulesets.carrier_battlegroup import (
    dice_for,
    doc,
    module,
    played,
    ruleset,
)

NO_STANDING = {"breakoff": False, "outer": []}


def _rules(vs: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in vs]


def _turn(st: GameState, body: str, rolls: list[int]):  # type: ignore[no-untyped-def]
    """One turn's orders resolved with scripted dice (the CVBG at the NATO base: no
    incident chits [16.1], no battle), so every die the case needs is the test's."""
    text = f"game: cbg\nturn: {st.turn}\nside: USN\n\n{body}"
    return ruleset().resolve(module(), st, doc(text), ScriptedDice(rolls))


def _sbg_unit(st: GameState) -> tuple[str, str, str]:
    """(SBG name, its space, a warship of it that is no Glitch)."""
    for name, g in sorted(st.data["sbgs"].items()):
        for p in g["units"]:
            if "glitch" not in module().piece(p).unit.flags:
                return name, g["space"], p
    raise AssertionError("no SBG warship")


# ---- 7.0 the CVBG ----------------------------------------------------------------------------


def test_7_0_every_ship_of_the_cvbg_moves_with_its_marker() -> None:
    st = played(steps=2)
    text = f'game: cbg\nturn: {st.turn}\nside: USN\n\n[movement]\nmove "North Sea 1"\n'
    out = ruleset().resolve(module(), st, doc(text), dice_for(text, 2))
    assert out.ok, [str(v) for v in out.violations]
    ships = out.state.data["cvbg"]["ships"]
    assert len(ships) > 1 and out.state.data["cvbg"]["space"] == "North Sea 1"
    assert {out.state.units[p].location for p in [*ships, CVBG]} == {"North Sea 1"}
    bad = ruleset().validate(module(), st, doc('[movement]\nmove US-FFG.1 "North Sea 1"\n'))
    assert _rules(bad) == ["7.0"]  # a ship is never ordered apart from its CVBG


def test_2_2_units_hidden_from_the_view_or_unknown_are_refused_clearly() -> None:
    """On the player's view (validate before sending) a face-down Soviet unit is not in the
    position: naming it is still [2.2], and an id no counter has is a clear refusal with
    the nearest ids, not a crash."""
    st = played(steps=2)
    seen = ruleset().view(module(), st, "USN")
    _name, _space, hidden = _sbg_unit(st)
    assert hidden not in seen.units
    for text, rule in (
        (f'[launch]\nstrike {hidden} -> "North Sea 1"\n', "2.2"),
        (f'[movement]\nmove {hidden} "North Sea 1"\n', "2.2"),
        ('[launch]\nstrike US-F14.9 -> "North Sea 1"\n', "19.0"),
        ("[intelligence]\nintel US-CGN.7\n", "11.1"),
    ):
        bad = ruleset().validate(module(), seen, doc(text))
        assert _rules(bad) == [rule], text
    unknown = ruleset().validate(module(), seen, doc("[intelligence]\nintel US-CGN.7\n"))
    assert "no unit 'US-CGN.7'" in unknown[0].message and "US-CGN" in (unknown[0].hint or "")


# ---- 8.0 / 8.1 logistics ---------------------------------------------------------------------


def test_8_0_fuel_and_ammunition_only_at_a_nato_base_one_track_for_all_ships() -> None:
    st = played(steps=2)
    fuel = st.data["fuel"]
    out = _turn(st, "[logistics]\nbuy 1 fuel\n", [])
    assert out.ok and out.state.data["fuel"] == fuel + 1  # one Fuel track for the task force
    at_sea = combat_phase._move_cvbg(st, "North Sea 1")
    bad = ruleset().validate(module(), at_sea, doc("[logistics]\nbuy 1 ammunition\n"))
    assert _rules(bad) == ["9.0"] and "NATO base" in bad[0].message
    repair = ruleset().validate(
        module(),
        at_sea.with_data(carrier={**at_sea.data["carrier"], "Hull": 10}),
        doc("[logistics]\nrepair Hull\n"),
    )
    assert repair == []  # repairing can be conducted anywhere [8.0]


def test_8_1_the_initial_outfitting_needs_no_nato_base() -> None:
    st = played(steps=1)
    at_sea = combat_phase._move_cvbg(st, "North Sea 1")
    text = ruleset().scripted_orders(module(), st)
    assert "buy" in text
    assert ruleset().validate(module(), at_sea, doc(text)) == []


# ---- 11.x intelligence -----------------------------------------------------------------------


def test_11_1_d6_times_the_named_ships_value() -> None:
    st = played(steps=2)
    bad = ruleset().validate(module(), st, doc("[intelligence]\nintel US-DD.1\n"))
    assert _rules(bad) == ["11.1"]  # not a ship of this CVBG
    ew = module().piece("US-CGN").unit.values["EW"]
    out = _turn(st, "[intelligence]\nintel US-CGN\n", [3])
    ev = next(e for e in out.events if e.kind == "intel")
    assert ev.rule == "11.1" and ev.data == {"roll": 3, "total": 3 * ew}
    out = _turn(st, "[intelligence]\nintel US-CVN-68\n", [1])
    ev = next(e for e in out.events if e.kind == "intel")
    assert ev.data["total"] == st.data["carrier"]["EW"]  # the carrier's EW track


def test_11_2_results_reveal_an_sbg_lower_the_alert_and_gain_a_turn() -> None:
    st = played(steps=2)
    assert st.data["carrier"]["EW"] * 6 >= 30  # the top row of the Intelligence Table
    out = _turn(st, "[intelligence]\nintel US-CVN-68\n", [6])
    got = {e.kind for e in out.events if e.rule == "11.2"}
    assert {"alert", "turns"} <= got
    assert out.state.data["alert"] == max(1, st.data["alert"] - 1)
    assert out.state.data["mission"]["turns"] == st.data["mission"]["turns"] + 1
    revealed = [n for n, g in out.state.data["sbgs"].items() if g["revealed"]]
    assert len(revealed) == 1 or not out.state.data["sbgs"]


def test_11_4_a_glitch_is_never_a_target_and_never_destroyed() -> None:
    glitch = Fighter(
        "SO-GLITCH.1", "Soviet", "marker", "Glitch", {"DEF": 0}, Condition(0), glitch=True
    )
    ship = Fighter("SO-X", "Soviet", "surface", "DD", {"DEF": 2}, Condition(2))
    assert battle._eligible(glitch, "AS", [glitch, ship]) == [ship]
    st = played(steps=2)
    ev: list[Event] = []
    pool = len(st.data["pools"]["warships"])
    st = st.with_unit(UnitState("SO-GLITCH.1", "Soviet", "North Sea 1", None, ("face_down",)))
    after = soviet.reveal_17_0(st, ["SO-GLITCH.1"], "17.0", ev)
    assert after.units["SO-GLITCH.1"].box == "pool" and after.units["SO-GLITCH.1"].location is None
    assert len(after.data["pools"]["warships"]) == pool + 1  # picked, then back in the pool


# ---- 12.0 movement ---------------------------------------------------------------------------


def test_12_0_the_cvbg_moves_at_its_slowest_ships_speed() -> None:
    st = played(steps=2)
    cruise = movement_phase.allowance(module(), st, spend_fuel=False)
    slowest = min(
        module().piece(p).unit.values["SPD"]
        for p in st.data["cvbg"]["ships"]
        if "nuclear" not in module().piece(p).unit.flags
    )
    assert cruise == slowest
    slow = st.with_data(cvbg={**st.data["cvbg"], "ships": [*st.data["cvbg"]["ships"], "US-AO"]})
    assert movement_phase.allowance(module(), slow, spend_fuel=False) == min(
        slowest, module().piece("US-AO").unit.values["SPD"]
    )
    stay = _turn(st, "[standing]\nbreakoff no\n", [])
    assert stay.ok and stay.state.data["cvbg"]["space"] == NATO_BASE  # never mandatory


# ---- 15.1 cruise missiles --------------------------------------------------------------------


def test_15_1_who_carries_cruise_missiles_and_they_sink_with_their_ship() -> None:
    m = module()
    assert cargo.capacity_of(m, CARRIER) == 0  # not by aircraft carriers
    assert cargo.capacity_of(m, "US-DD.1") == cargo.capacity_of(m, "US-FFG.1") == 0
    assert cargo.capacity_of(m, "US-AO") == 0
    assert cargo.capacity_of(m, "US-DDG-K.1") >= 1 and cargo.capacity_of(m, "US-BBG") >= 1
    st = played(steps=2)
    missile, ship = sorted(st.data["missiles"].items())[0]
    f = combat_phase._fighter(m, st, ship)
    assert f.cond.missiles == 1
    f.cond = Condition(f.cond.defense, sunk=True)
    b = Battle("North Sea 1", "USN", "USN", [f], dict(st.data["carrier"]), st.data["ammo"])
    after = combat_phase._after_battle_22_8(m, st, b, [])
    assert missile not in after.data["missiles"] and after.units[missile].box == "available"


# ---- 18.0 contact ----------------------------------------------------------------------------


def _soviet_at_the_cvbg(st: GameState) -> tuple[GameState, list[str]]:
    """An SBG moved onto the CVBG's space, its units with it."""
    name, _space, _p = _sbg_unit(st)
    here = st.data["cvbg"]["space"]
    for p in st.data["sbgs"][name]["units"]:
        u = st.units[p]
        st = st.with_unit(UnitState(p, u.side, here, None, u.status))
    sbgs = {**st.data["sbgs"], name: {**st.data["sbgs"][name], "space": here}}
    return st.with_data(sbgs=sbgs), combat_phase.soviet_here(st, here)


def test_18_0_a_contact_chit_makes_contact_automatic_for_every_unit_there() -> None:
    st = combat_phase._move_cvbg(played(steps=2), "North Sea 1")
    st, sov = _soviet_at_the_cvbg(st)
    st = st.with_data(incident={"space": "North Sea 1", "contact": True, "generated": []})
    ev: list[Event] = []
    dice = dice_for("18.0", 9)
    combat_phase.combat_phase(module(), st, dice, {}, NO_STANDING, ev)
    first = next(e for e in ev if e.kind == "contact")
    assert first.rule == "18.0" and "USN attacks" in first.text
    assert not any("contact at" in r.purpose for r in dice.rolls)  # no Contact Chart roll
    revealed = {e.data.get("unit") for e in ev if e.kind == "reveal"} | {
        u for e in ev if e.kind == "reveal" for u in e.data.get("units", [])
    }
    assert sov and all(p in revealed or "glitch" in module().piece(p).unit.flags for p in sov)


# ---- 20.0 / 20.4 the Tactical Routine ---------------------------------------------------------


def test_20_0_a_tactical_routine_only_where_both_sides_meet_after_contact() -> None:
    st = combat_phase._move_cvbg(played(steps=2), "North Sea 1")
    ev: list[Event] = []
    combat_phase.combat_phase(module(), st, dice_for("20.0", 9), {}, NO_STANDING, ev)
    assert not [e for e in ev if e.rule in ("18.1", "20.0")]  # no Soviet unit: no battle
    st, _sov = _soviet_at_the_cvbg(st)
    st = st.with_data(incident={"space": "North Sea 1", "contact": True, "generated": []})
    combat_phase.combat_phase(module(), st, dice_for("20.0", 9), {}, NO_STANDING, ev)
    routine = [e for e in ev if e.kind == "battle" and e.rule == "20.0"]
    assert len(routine) == 1 and "attacker USN" in routine[0].text


def test_20_4_one_battle_per_space_per_turn() -> None:
    st = combat_phase._move_cvbg(played(steps=2), "North Sea 1")
    st, _sov = _soviet_at_the_cvbg(st)
    st = st.with_data(incident={"space": "North Sea 1", "contact": True, "generated": []})
    plane = sorted(p for p, w in st.data["air"].items() if w == "hangar")[0]
    strikes = {"North Sea 1": [plane]}  # aircraft launched into the CVBG's own space
    for seed in (b"a", b"b", b"c"):
        ev: list[Event] = []
        dice = dice_for("20.4", 9, seed)
        after = combat_phase.combat_phase(module(), st, dice, strikes, NO_STANDING, ev)
        assert len([e for e in ev if e.kind == "battle" and e.rule == "20.0"]) == 1
        assert len([e for e in ev if e.kind == "battle_result"]) == 1
        assert after.data["incident"] is None


# ---- 21.0 / 22.x combat ----------------------------------------------------------------------


def _f(pid: str, side: str, ty: str, **v: int) -> Fighter:
    vals = {"AA": 0, "AS": 0, "ASW": 0, "DEF": 2, "SPD": 5, "EW": 2, **v}
    return Fighter(pid, side, "surface", ty, vals, Condition(vals["DEF"]))


def test_21_0_fire_is_not_simultaneous_a_crippled_target_never_fires_back() -> None:
    usn, sov = _f("US-A", "USN", "DD", AS=1), _f("SO-B", "Soviet", "DD", AS=1)
    b = Battle("X", "USN", "USN", [usn, sov], {}, ammo=3)
    battle.fight_20_2(b, module(), ScriptedDice([6, 6]))  # a Hit, then "crippled"
    fires = [e.data["firer"] for e in b.events if e.kind == "fire"]
    assert fires == ["US-A"] and sov.cond.crippled and not usn.cond.damage


def test_22_1_hits_beyond_an_elimination_are_lost_not_moved() -> None:
    a, other = _f("SO-A", "Soviet", "DD"), _f("SO-B", "Soviet", "DD")
    firer = _f("US-A", "USN", "DD", AS=3)
    b = Battle("X", "USN", "USN", [firer, a, other], {}, ammo=3)
    battle._apply(b, ScriptedDice([]), [(firer, a, ["eliminated", "2 damage", "crippled"])])
    assert a.cond.sunk and other.cond == Condition(2)
    assert [e.rule for e in b.events] == ["22.6"]


def test_22_6_an_eliminated_soviet_warship_goes_to_the_sunk_box() -> None:
    st = played(steps=2)
    _name, space, p = _sbg_unit(st)
    f = combat_phase._fighter(module(), st, p)
    firer = combat_phase._fighter(module(), st, "US-CGN")
    b = Battle(space, "USN", "USN", [firer, f], dict(st.data["carrier"]), st.data["ammo"])
    battle._apply(b, ScriptedDice([]), [(firer, f, ["eliminated"])])
    assert b.events[0].rule == "22.6"
    after = combat_phase._after_battle_22_8(module(), st, b, [])
    assert after.units[p].box == "sunk" and after.units[p].location is None
    # the loss record cites the rule that removed the ship [22.8] (issue 31: the score lists it)
    assert {"unit": p, "what": "soviet_sunk", "turn": st.turn, "rule": "22.8"} in after.data[
        "losses"
    ]


def test_22_8_after_the_battle_missiles_spent_cripples_towed_damaged_out_sbg_kept() -> None:
    st = played(steps=2)
    name, space, _p = _sbg_unit(st)
    m = module()
    units = [p for p in st.data["sbgs"][name]["units"] if "glitch" not in m.piece(p).unit.flags]
    missile = sorted(st.data["missiles"])[0]
    tasm = combat_phase._fighter(m, st, missile)
    tasm.cond = Condition(tasm.cond.defense, sunk=True)  # [21.6] expended
    ffg = combat_phase._fighter(m, st, "US-FFG.1")
    ffg.cond = Condition(ffg.cond.defense, crippled=True)
    sov = [combat_phase._fighter(m, st, p) for p in units]
    sov[0].cond = Condition(sov[0].cond.defense, damage=1)
    b = Battle(space, "USN", "USN", [tasm, ffg, *sov], dict(st.data["carrier"]), 2)
    after = combat_phase._after_battle_22_8(m, st, b, [])
    assert after.units[missile].box == "available"  # USN 1
    assert after.units["US-FFG.1"].box == "crippled"  # USN 2: the Crippled Ship box
    assert "US-FFG.1" not in after.data["cvbg"]["ships"]
    assert after.units[units[0]].box == "damaged"  # Soviet 2: out of play
    assert units[0] not in after.data["sbgs"].get(name, {"units": []})["units"]
    for p in units[1:]:  # Soviet 3: back to their SBG
        assert p in after.data["sbgs"][name]["units"]


# ---- 23.x objective actions ------------------------------------------------------------------


def test_23_1_shore_bombardment_the_usn_attacks_coastal_units_in_the_inner_zone() -> None:
    st = played(steps=2)
    objective = st.data["mission"]["objective"]
    st = combat_phase._move_cvbg(st, objective)
    assert st.data["coastal"]["units"] and st.data["coastal"]["space"] == objective
    dice = ScriptedDice([1] * 400)  # every firing die "No Effect"
    ev: list[Event] = []
    after = combat_phase.bombard_23_1(module(), st, dice, ev)
    assert after.data["coastal"]["revealed"]
    assert not [r for r in dice.rolls if "deployment" in r.purpose]  # no deployment roll
    fires = [e for e in ev if e.kind == "fire"]
    assert fires and fires[0].data["firer"] in st.data["cvbg"]["ships"]  # the USN first
    assert any(e.rule == "23.1" for e in ev)


# ---- 24.0 winning ----------------------------------------------------------------------------


def test_24_0_the_objective_held_at_the_end_wins_else_defeat() -> None:
    st = played(steps=2)
    last = st.evolve(turn=st.data["mission"]["turns"]).with_data(vp=0)
    ev: list[Event] = []
    lost, _ = end_of_turn.end_of_turn_5_0(module(), last, ScriptedDice([]), ev)
    assert lost.phase == "over" and lost.data["result"].startswith("defeat")
    assert ev[-1].rule == "24.0"
    held = combat_phase._move_cvbg(last, st.data["mission"]["objective"])
    won, _ = end_of_turn.end_of_turn_5_0(module(), held, ScriptedDice([]), [])
    assert won.data["result"] == "victory: the Objective is held [24.0]"
    early = st.with_data(vp=0)
    going, _ = end_of_turn.end_of_turn_5_0(module(), early, ScriptedDice([]), [])
    assert going.data["result"] is None and going.turn == st.turn + 1
