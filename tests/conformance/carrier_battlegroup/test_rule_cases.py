"""Carrier Battlegroup conformance: at least one case per rule case, each naming its case
in the test name (``pytest tests/conformance/carrier_battlegroup -k 21_3``)."""

from __future__ import annotations

from referee.engine.core import ScriptedDice
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import (
    battle,
    damage,
    pools,
    setup,
    soviet,
    targeting,
)
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.targeting import Combatant
from tests.conformance.rulesets.carrier_battlegroup import module, played, ruleset, step


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


# ---- 2.2 / 1.0 the Soviet side is the game's -----------------------------------------------


# ---- 6.1 alert ---------------------------------------------------------------------------


# ---- 12.x movement -----------------------------------------------------------------------


# ---- 15.0 / 19.0 launch -----------------------------------------------------------------


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


# ---- 20.x Tactical Routine ------------------------------------------------------------------


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


# ---- 24.x / 25.x victory ---------------------------------------------------------------------


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
