"""Carrier Battlegroup conformance: at least one case per rule case, each naming its case
in the test name (``pytest tests/conformance/carrier_battlegroup -k 21_3``)."""

from __future__ import annotations

from referee.engine.core import ScriptedDice
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import (
    alert,
    battle,
    contact,
    damage,
    movement,
    pools,
    setup,
    soviet,
    targeting,
    victory,
)
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.targeting import Combatant
from tests.conformance.carrier_battlegroup.cbg_helpers import doc, module, played, ruleset, step


def rules_of(violations: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in violations]


# ---- 4.0 set-up ------------------------------------------------------------------------


def test_4_0_setup_rolls_orders_alert_sbgs_carrier_escorts() -> None:
    st = played(steps=1)
    d = st.data
    assert st.phase == "outfit" and d["mission"]["order"] in {f"O{i}" for i in range(1, 7)}
    assert 1 <= d["alert"] <= 6 and len(d["sbgs"]) == d["alert"]  # [4.0 4c]
    for g in d["sbgs"].values():
        assert 1 <= len(g["units"]) <= 6 and not g["revealed"]  # [4.0 4d]
        assert all("face_down" in st.units[p].status for p in g["units"])
    c = d["carrier"]
    assert (c["Hangar"], c["Flight Deck"], c["Air Defense"], c["Propulsion"]) == (8, 6, 3, 6)
    assert (c["EW"], c["Hull"], c["Crew"]) == (5, 12, 8) and 1 <= c["CIC"] <= 6  # [4.0 6]


def test_4_0_4e_placement_rerolls_off_the_line_and_onto_a_nato_base() -> None:
    # Norwegian Sea Attack Route: 19 spaces -> 3d6; Murmansk is its last space (index 18).
    dice = ScriptedDice([6, 6, 6, 1, 1, 1])  # 18 = the NATO base: re-roll; then 3
    space, rerolls = setup.placement_4_0(
        module(), "Norwegian Sea Attack Route", "Murmansk", dice, "SBG-1"
    )
    assert len(rerolls) == 1 and rerolls[0].rule == "4.0"
    assert space == setup.line_spaces(module(), "Norwegian Sea Attack Route")[15]


def test_4_0_sbg_contents_are_hidden_rolls_and_hidden_events() -> None:
    rs = ruleset()
    st = rs.new_game(module(), "mission", "cbg")
    out = step(st, "[setup]\nbegin\n", 0)
    draws = [r for r in out.rolls if "draw" in r.purpose]
    assert draws and all(r.hidden_from == ("USN",) for r in draws)
    contents = [e for e in out.events if e.kind == "sbg_contents"]
    assert contents and all(e.hidden_from == ("USN",) for e in contents)


def test_4_0_7_escorts_must_match_the_roll_and_one_aegis() -> None:
    st = played(steps=1)
    st = st.with_data(escort_classes={"cruiser": 2, "destroyer": 0, "frigate": 0, "submarine": 0})
    bad = ruleset().validate(module(), st, doc("[outfit]\nescort US-CGA.1 US-CGA.2\n"))
    assert "4.0" in rules_of(bad) and any("Aegis" in v.message for v in bad)
    ok = ruleset().validate(module(), st, doc("[outfit]\nescort US-CGA.1 US-CGN\n"))
    assert ok == []


def test_9_1_purchase_beyond_the_lp_is_refused() -> None:
    st = played(steps=1)
    st = st.with_data(escort_classes={"cruiser": 1, "destroyer": 0, "frigate": 0, "submarine": 0})
    text = "[outfit]\nescort US-CGN\nbuy 99 fuel\n"
    bad = ruleset().validate(module(), st, doc(text))
    assert rules_of(bad) == ["9.1"] and "LP" in bad[0].message and bad[0].where is not None


def test_9_2_cruise_missiles_need_room_under_a_ship() -> None:
    st = played(steps=1)
    st = st.with_data(escort_classes={"cruiser": 0, "destroyer": 0, "frigate": 1, "submarine": 0})
    bad = ruleset().validate(module(), st, doc("[outfit]\nescort US-FFG.1\nbuy US-TASM.1\n"))
    assert "9.2" in rules_of(bad)


# ---- 2.2 / 1.0 the Soviet side is the game's -----------------------------------------------


def test_2_2_an_order_for_a_soviet_unit_is_refused() -> None:
    st = played(steps=2)
    bad = ruleset().validate(module(), st, doc("[intelligence]\nintel SO-KIROV.1\n"))
    assert rules_of(bad) == ["2.2"] and "Soviet" in bad[0].message


# ---- 6.1 alert ---------------------------------------------------------------------------


def test_6_1_alert_bounds_and_netting() -> None:
    assert alert.clamp_alert_6_1(0) == 1 and alert.clamp_alert_6_1(9) == 6
    assert alert.net_alert_6_1(3, [+1, -1]) == 3  # simultaneous raise and lower net out
    assert alert.net_alert_6_1(6, [+1, +1, -1]) == 6


# ---- 12.x movement -----------------------------------------------------------------------


def test_12_4_a_move_past_a_chokepoint_is_refused() -> None:
    st = played(steps=2)
    assert st.data["cvbg"]["space"] == setup.NATO_BASE
    text = '[movement]\nmove "North Sea 1" "North Sea 2" "Shetland Gap" "Norwegian Sea 1"\n'
    bad = ruleset().validate(module(), st, doc(text))
    assert "12.4" in rules_of(bad) and any("Shetland Gap" in v.message for v in bad)


def test_12_1_a_move_beyond_the_slowest_ship_is_refused() -> None:
    st = played(steps=2)
    slow = movement.cvbg_allowance_12_1([(4, False)], spend_fuel=False)
    assert slow == 4
    names = ["North Sea 1", "North Sea 2"]
    ok = ruleset().validate(
        module(), st, doc("[movement]\nmove " + " ".join(f'"{n}"' for n in names) + "\n")
    )
    assert ok == []
    bad = ruleset().validate(module(), st, doc('[movement]\nmove "Norwegian Sea 1"\n'))
    assert "12.1" in rules_of(bad)  # not adjacent to the NATO base


def test_12_3_damage_halves_speed_rounding_up_and_crippled_stops() -> None:
    assert movement.damaged_speed_12_3(5, damaged=True, crippled=False) == 3
    assert movement.damaged_speed_12_3(5, damaged=False, crippled=True) == 0


def test_5_0_logistics_skips_movement() -> None:
    st = played(steps=2)
    text = '[logistics]\nbuy 1 fuel\n[movement]\nmove "North Sea 1"\n'
    bad = ruleset().validate(module(), st, doc(text))
    assert "5.0" in rules_of(bad)


# ---- 15.0 / 19.0 launch -----------------------------------------------------------------


def test_15_0_launch_beyond_the_flight_deck_is_refused() -> None:
    st = played(steps=2)
    air = sorted(p for p, w in st.data["air"].items() if w == "hangar")
    st = st.with_data(carrier={**st.data["carrier"], "Flight Deck": 1})
    g = next(iter(st.data["sbgs"].values()))
    text = "[launch]\nstrike " + " ".join(air[:2]) + f' -> "{g["space"]}"\n'
    bad = ruleset().validate(module(), st, doc(text))
    assert "15.0" in rules_of(bad)


def test_19_1_launch_beyond_range_is_refused() -> None:
    st = played(steps=2)
    air = sorted(p for p, w in st.data["air"].items() if w == "hangar")
    far = st.with_data(sbgs={"SBG-9": {"space": "Murmansk", "units": [], "revealed": False}})
    bad = ruleset().validate(module(), far, doc(f"[launch]\nstrike {air[0]} -> Murmansk\n"))
    assert "19.1" in rules_of(bad) and any("range" in v.message for v in bad)


# ---- 13.0 Soviet movement ------------------------------------------------------------------


def test_13_0_an_sbg_stops_short_of_a_nato_base_and_on_a_usn_unit() -> None:
    st = played(steps=2)
    name = sorted(st.data["sbgs"])[0]
    g = st.data["sbgs"][name]
    st = soviet.move_sbg_13_0(module(), st, name, 0, g["space"], "13.0", [])
    ev: list = []  # type: ignore[type-arg]
    moved = soviet.move_sbg_13_0(module(), st, name, 40, setup.NATO_BASE, "13.0", ev)
    end = moved.data["sbgs"][name]["space"]
    assert end != setup.NATO_BASE  # [13.0] never enters a NATO base
    assert all(moved.units[p].location == end for p in g["units"])


# ---- 16.x incidents ------------------------------------------------------------------------


def test_16_1_no_chits_at_a_nato_base() -> None:
    from referee.rules.carrier_battlegroup import incidents

    assert incidents.chits_to_draw_16_0(module(), 4, "nato_base", objective=False) == 0
    assert incidents.chits_to_draw_16_0(module(), 2, "chokepoint", objective=False) == 3


def test_16_2_every_drawn_chit_returns_to_the_pool() -> None:
    st = played(steps=2)
    st = st.with_data(cvbg={**st.data["cvbg"], "space": "North Sea 1"})
    before = list(st.data["pools"]["chits"])
    ev: list = []  # type: ignore[type-arg]
    after = soviet.incident_phase_16_0(module(), st, ScriptedDice([1] * 40), ev)
    assert after.data["pools"]["chits"] == before
    assert any(e.kind == "chit" for e in ev)


# ---- 17.x revealing ----------------------------------------------------------------------


def test_17_1_a_glitch_goes_back_to_the_pool_when_revealed() -> None:
    st = played(steps=2)
    name = sorted(st.data["sbgs"])[0]
    g = st.data["sbgs"][name]
    st = setup.place_face_down(st, ["SO-GLITCH.1"], g["space"])
    st = st.with_data(
        sbgs={**st.data["sbgs"], name: {**g, "units": [*g["units"], "SO-GLITCH.1"]}},
        pools={
            **st.data["pools"],
            "warships": [p for p in st.data["pools"]["warships"] if p != "SO-GLITCH.1"],
        },
    )
    ev: list = []  # type: ignore[type-arg]
    out = soviet.reveal_sbg(st, name, "17.0", ev)
    assert "SO-GLITCH.1" in out.data["pools"]["warships"]
    assert "SO-GLITCH.1" not in out.data["revealed"]
    assert set(g["units"]) <= set(out.data["revealed"])  # revealed for good [17.0]


# ---- 18.x contact ------------------------------------------------------------------------


def test_18_1_contact_ratings_and_chart() -> None:
    assert contact.usn_rating_18_1(4, 2, [5, 3], standoff_only=False) == 9
    assert contact.usn_rating_18_1(4, 2, [5, 3], standoff_only=True) == 7
    assert contact.soviet_rating_18_1([2, 4], 3) == 7
    r = contact.read_chart_18_1(module(), 9, 7, 6)  # 2 + 6 = 8
    assert r.total == 8 and r.contact and r.edge == "USN"
    r = contact.read_chart_18_1(module(), 9, 7, 2)  # 4: no contact
    assert not r.contact


def test_18_2_break_off_needs_the_edge_and_fuel_and_never_missiles() -> None:
    assert contact.may_break_off_18_2("USN", cruise_missiles_only=False, fuel=1, needs_fuel=True)
    assert not contact.may_break_off_18_2(
        "Soviet", cruise_missiles_only=False, fuel=3, needs_fuel=True
    )
    assert not contact.may_break_off_18_2(
        "USN", cruise_missiles_only=True, fuel=3, needs_fuel=False
    )
    assert not contact.may_break_off_18_2(
        "USN", cruise_missiles_only=False, fuel=0, needs_fuel=True
    )


# ---- 20.x Tactical Routine ------------------------------------------------------------------


def test_20_2_soviet_deployment_roll() -> None:
    assert targeting.deployment_20_2(True, 4) == "Outer"
    assert targeting.deployment_20_2(True, 5) == "Inner"
    assert targeting.deployment_20_2(False, 1) == "Inner"
    assert targeting.deployment_20_2(False, 6) == "Outer"


def test_20_2_step_5_half_lost_is_not_won_and_both_may_fail() -> None:
    assert victory.battle_result_20_2((4, 2), (3, 0)) == "Soviet"
    assert victory.battle_result_20_2((4, 1), (2, 1)) == "USN"
    assert victory.battle_result_20_2((2, 1), (2, 1)) == "draw"


def test_20_3_fruits_of_victory() -> None:
    assert victory.fruits_20_3("USN", cvbg=True, aircraft_only=False) == {"CIC": 1}
    assert victory.fruits_20_3("Soviet", cvbg=False, aircraft_only=True) == {"CAG": -1}
    assert victory.fruits_20_3("USN", cvbg=False, aircraft_only=False) == {}  # missiles


def _f(pid: str, side: str, cat: str, ty: str, ew: int, **v: int) -> Fighter:
    vals = {"AA": 0, "AS": 0, "ASW": 0, "DEF": 2, "SPD": 5, "EW": ew, **v}
    return Fighter(pid, side, cat, ty, vals, Condition(vals["DEF"]))


def test_20_2_the_edge_fires_first_and_outer_needs_both_sides() -> None:
    usn = _f("US-A", "USN", "surface", "DD", 2, AS=1)
    sov = _f("SO-B", "Soviet", "surface", "DD", 2, AS=1)
    b = Battle("X", "Soviet", "Soviet", [usn, sov], {}, ammo=3)
    usn.zone, sov.zone = "Inner", "Outer"
    battle.fight_20_2(b, module(), ScriptedDice([1, 1]))
    kinds = [e.text for e in b.events if e.kind in ("zone", "fire")]
    assert kinds[0].startswith("no Outer Zone combat")
    fires = [e.data["firer"] for e in b.events if e.kind == "fire"]
    assert fires == ["SO-B", "US-A"]  # the Soviet Edge fires first


def test_20_5_no_ammunition_zeroes_cvbg_ships_not_the_carrier() -> None:
    ship = _f("US-A", "USN", "surface", "DD", 2, AS=3)
    b = Battle("X", "USN", "USN", [ship], {"Air Defense": 3, "EW": 5}, ammo=0)
    assert battle.factors(b, ship)["AS"] == 0
    carrier = Fighter("US-CVN-68", "USN", "surface", "CVN", {}, Condition(12), carrier=True)
    assert battle.factors(b, carrier)["AA"] == 3


# ---- 21.x fire -------------------------------------------------------------------------------


def test_21_3_firing_order_by_group_then_highest_ew() -> None:
    units = [
        Combatant("ship", "surface", "DD", 5, {}),
        Combatant("air-lo", "air", "Tu-16", 1, {}),
        Combatant("missile", "missile", "AS-4", 0, {}),
        Combatant("air-hi", "air", "Tu-22M", 3, {}),
        Combatant("sub", "submarine", "SSN", 2, {}),
    ]
    order = [c.id for c in targeting.firing_order_21_3(units, lambda n: 1)]
    assert order == ["missile", "air-hi", "air-lo", "sub", "ship"]


def test_21_3_priorities_and_lowest_ew_and_21_4_different_targets() -> None:
    firer = Combatant("SO-X", "surface", "CG", 3, {"AA": 2, "AS": 4, "ASW": 0})
    cv = Combatant("US-CVN-68", "surface", "CVN", 5, {})
    dd_hi = Combatant("US-DD.1", "surface", "DD", 3, {})
    dd_lo = Combatant("US-DD.2", "surface", "DD", 1, {})
    f14 = Combatant("US-F14.1", "air", "F-14", 2, {})
    pick = targeting.choose_target_21_3(firer, [cv, dd_hi, dd_lo, f14], set(), lambda n: 1)
    assert pick is not None and pick[0].id == "US-F14.1" and pick[1] == "AA"  # air first
    pick = targeting.choose_target_21_3(firer, [cv, dd_hi, dd_lo], set(), lambda n: 1, fire="AS")
    assert pick is not None and pick[0].id == "US-CVN-68"  # the CV before destroyers
    pick = targeting.choose_target_21_3(firer, [dd_hi, dd_lo], set(), lambda n: 1, fire="AS")
    assert pick is not None and pick[0].id == "US-DD.2"  # the lowest EW within a class
    pick = targeting.choose_target_21_3(firer, [dd_hi, dd_lo], {"US-DD.2"}, lambda n: 1, fire="AS")
    assert pick is not None and pick[0].id == "US-DD.1"  # a different target if any [21.4]
    pick = targeting.choose_target_21_3(firer, [dd_lo], {"US-DD.2"}, lambda n: 1, fire="AS")
    assert pick is not None and pick[0].id == "US-DD.2"  # else the same one


def test_21_5_firing_and_hit_dice() -> None:
    rolls = iter([6, 1, 5, 1, 6])  # firing dice 6, 1, 5 (two Hits); hit dice 1 and 6
    hits, outcomes = battle.fire.fire_21_5(module(), 3, "ship", lambda purpose: next(rolls))
    assert hits == 2 and outcomes == ["1 damage", "crippled"]


def test_21_6_a_cruise_missile_is_expended_after_firing() -> None:
    tasm = _f("US-TASM.1", "USN", "missile", "TASM", 0, AS=1)
    sov = _f("SO-B", "Soviet", "surface", "DD", 2)
    b = Battle("X", "USN", "USN", [tasm, sov], {}, ammo=3)
    battle._fire_side(b, module(), ScriptedDice([1]), "USN", "AS", "Inner")
    assert tasm.cond.sunk and tasm.zone == "expended"


# ---- 22.x outcomes ------------------------------------------------------------------------


def test_22_2_carrier_hits_never_below_zero_and_hull_zero_sinks() -> None:
    systems = {"Hull": 1, "Hangar": 0}
    s, sunk = damage.carrier_hit_22_2(systems, "Hangar")
    assert s["Hangar"] == 0 and not sunk
    s, sunk = damage.carrier_hit_22_2(s, "Hull")
    assert sunk


def test_22_3_damage_halves_rounding_up_not_defense() -> None:
    c = damage.damage_22_3(Condition(3), 1)
    f = damage.factors_22_3({"AA": 5, "AS": 3, "ASW": 0, "DEF": 3, "SPD": 5, "EW": 3}, c)
    assert f == {"AA": 3, "AS": 2, "ASW": 0, "DEF": 3, "SPD": 3, "EW": 2}


def test_22_3_each_damage_point_destroys_a_carried_missile() -> None:
    c = damage.damage_22_3(Condition(4, missiles=2), 1)
    assert c.missiles == 1


def test_22_4_explosion_cripples_at_or_below_defense() -> None:
    assert damage.explosion_22_4(Condition(3), 3).crippled
    assert damage.explosion_22_4(Condition(3), 4).sunk


def test_22_5_crippled_twice_sinks() -> None:
    c = damage.cripple_22_5(Condition(3))
    assert c.crippled and not c.sunk
    assert damage.damage_22_3(c, 1).sunk and damage.cripple_22_5(c).sunk


def test_22_7_withdraw_applies_after_other_hits() -> None:
    sov = _f("SO-B", "Soviet", "surface", "DD", 2, DEF=1)
    b = Battle("X", "USN", "USN", [sov], {}, ammo=3)
    battle._apply(b, ScriptedDice([]), [(sov, sov, ["withdraw", "1 damage"])])
    assert sov.cond.sunk and not sov.cond.withdrawn  # sunk first, the withdrawal is moot


# ---- 14.1 / 15.2 hangar ------------------------------------------------------------------


def test_15_2_aircraft_over_hangar_plus_flight_deck_are_lost() -> None:
    assert damage.hangar_losses_14_1(12, 8, 6) == 0
    assert damage.hangar_losses_14_1(12, 4, 6) == 2


# ---- 24.x / 25.x victory ---------------------------------------------------------------------


def test_24_3_check_only_when_negative() -> None:
    assert not victory.vp_check_24_3(0).needed
    assert not victory.vp_defeat_24_3(3, 2)


def test_25_0_red_oktober_three_sbgs_of_six_at_murmansk() -> None:
    st = played("red_oktober", steps=1)
    sbgs = st.data["sbgs"]
    assert len(sbgs) == 3 and all(len(g["units"]) == 6 for g in sbgs.values())
    assert all(g["space"] == "Murmansk" for g in sbgs.values())
    assert sum(setup.SSBN in g["units"] for g in sbgs.values()) == 1


def test_25_1_an_sbg_moves_the_higher_of_2d6() -> None:
    st = played("red_oktober", steps=2)
    ev: list = []  # type: ignore[type-arg]
    out = soviet.red_oktober_25_1(module(), st, ScriptedDice([2, 5, 1, 1, 1, 1]), ev)
    moves = [e for e in ev if e.kind == "sbg_move"]
    assert moves and moves[0].data["sbg"] == "SBG-1"
    board = PointBoard(module().map)
    assert board.distance("Murmansk", out.data["sbgs"]["SBG-1"]["space"]) == 5


def test_pools_draw_is_one_face_per_item() -> None:
    got, rest = pools.draw(["a", "b", "c"], ScriptedDice([2]), "x", "2.4", hidden=True)
    assert got == "b" and rest == ["a", "c"]


def test_21_5_crews_add_to_non_zero_factors_only() -> None:
    from referee.rules.carrier_battlegroup.combat_phase import crew_bonuses_21_5

    st = played(steps=2)
    st = st.with_data(crews=["US-CREW-TG", "US-CREW-DC.1"])
    carrier, pilots = crew_bonuses_21_5(module(), st)
    assert pilots == {"AA": 1, "AS": 1, "ASW": 0} and carrier == {"AA": 0, "AS": 0, "ASW": 0}
    f14 = _f("US-F14.1", "USN", "air", "F-14", 2, AA=4)
    b = Battle("X", "USN", "USN", [f14], {}, ammo=3, pilots=pilots)
    assert battle._crew_bonus(b, f14, "AA") == 1
    assert battle.fire.strength_21_5(0, battle._crew_bonus(b, f14, "ASW")) == 0


def test_6_0_a_sunk_soviet_ship_raises_the_alert_netted() -> None:
    from referee.rules.carrier_battlegroup.end_of_turn import alert_events_6_0 as _alert_events_6_0

    st = played(steps=2)
    st = st.with_data(
        alert=2, losses=[{"unit": "SO-KARA.1", "what": "soviet_sunk", "turn": st.turn}] * 2
    )
    ev: list = []  # type: ignore[type-arg]
    assert _alert_events_6_0(module(), st, ev).data["alert"] == 4 and ev[0].rule == "6.0"
