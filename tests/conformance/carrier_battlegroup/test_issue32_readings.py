"""Carrier Battlegroup conformance for the four readings issue 32 found undeclared, each now a
switch of ``readings.py`` (docs/interpretations.md, Carrier Battlegroup) tested both ways:
each test is a position, the orders or fire that meet the reading, and the ruling expected,
quoting the book's words and asserting the case cited and the label a report carries."""

from __future__ import annotations

from dataclasses import replace

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.rules.carrier_battlegroup import battle, combat_phase, damage, targeting
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.facts import CbgFacts
from referee.rules.carrier_battlegroup.readings import Readings, readings_of
from referee.rules.carrier_battlegroup.targeting import Combatant
from tests.conformance.rulesets.carrier_battlegroup import dice_for, module, played

NO_STANDING = {"breakoff": False, "outer": []}
LABELLED = Readings(label_readings=True)  # as a new game records it


def _f(pid: str, side: str, cat: str, ty: str, ew: int = 2, **v: int) -> Fighter:
    vals = {"AA": 0, "AS": 0, "ASW": 0, "DEF": 4, "SPD": 5, "EW": ew, **v}
    return Fighter(pid, side, cat, ty, vals, Condition(vals["DEF"]))


def test_readings_default_to_the_declared_choice_and_a_game_may_switch_them() -> None:
    st = played(steps=2)
    assert readings_of(st) == Readings(**{**st.data["flags"]})
    got = readings_of(CbgFacts.put(st, flags={"ssn_escort_never_targeted": False}))
    assert not got.ssn_escort_never_targeted and got.contact_chit_gives_edge


# ---- [18.0]/[20.1] a Contact chit and the Tactical Edge --------------------------------------


def _chit_position(flags: dict[str, bool]) -> GameState:
    """An SBG on the CVBG's space at sea, a Contact chit drawn there, the Alert at 6 and
    the carrier's CIC at 1, so the Contact Chart would seldom give the USN the Edge."""
    st = combat_phase._move_cvbg(played(steps=2), "North Sea 1")
    name = sorted(st.data["sbgs"])[0]
    for p in st.data["sbgs"][name]["units"]:
        u = st.units[p]
        st = st.with_unit(UnitState(p, u.side, "North Sea 1", None, u.status))
    sbgs = {**st.data["sbgs"], name: {**st.data["sbgs"][name], "space": "North Sea 1"}}
    return st.with_data(
        sbgs=sbgs,
        incident={"space": "North Sea 1", "contact": True, "generated": []},
        flags={**st.data["flags"], **flags},
        alert=6,
        carrier={**st.data["carrier"], "CIC": 1},
    )


def test_18_0_reading_on_a_contact_chit_gives_the_usn_the_tactical_edge() -> None:
    """[20.1] "If the incident marker that generates Soviet units is a Contact incident marker,
    then the USN is considered to be the attacker"; the reading also gives it the Edge."""
    st = _chit_position({})
    ev: list[Event] = []
    dice = dice_for("chit-on", 9)
    combat_phase.combat_phase(module(), st, dice, {}, NO_STANDING, ev)
    contact = next(e for e in ev if e.kind == "contact")
    assert contact.rule == "18.0" and "with the Tactical Edge" in contact.text
    assert "reading contact_chit_gives_edge=on" in contact.text
    assert not any("contact at" in r.purpose for r in dice.rolls)
    routine = next(e for e in ev if e.kind == "battle" and e.rule == "20.0")
    assert "attacker USN, Tactical Edge USN" in routine.text


def test_18_0_reading_off_the_edge_is_read_on_the_contact_chart() -> None:
    """Off: the chit still makes contact and the USN the attacker [20.1], but the Tactical
    Edge comes from the Contact Chart roll [18.1 step 4]; a "no contact" row gives neither
    side the Edge."""
    st = _chit_position({"contact_chit_gives_edge": False})
    seen = set()
    for seed in (b"a", b"b", b"c", b"d", b"e", b"f"):
        ev: list[Event] = []
        dice = dice_for("chit-off", 9, seed)
        combat_phase.combat_phase(module(), st, dice, {}, NO_STANDING, ev)
        assert any("contact at" in r.purpose and r.rule == "18.1" for r in dice.rolls)
        contact = next(e for e in ev if e.kind == "contact")
        assert contact.rule == "18.0" and contact.data["contact"] is True
        assert "reading contact_chit_gives_edge=off" in contact.text
        edge = contact.data["edge"]
        routine = next(e for e in ev if e.kind == "battle" and e.rule == "20.0")
        assert f"attacker USN, Tactical Edge {edge}" in routine.text
        seen.add(edge)
    assert {"Soviet", "none"} <= seen, seen  # the chart, not the chit, decided


# ---- [21.3] a USN SSN escort and the Target Priorities ---------------------------------------


def test_21_3_reading_on_a_usn_ssn_is_no_target_of_soviet_fire() -> None:
    """[21.3] Target Priorities "8 SSGN (anti-submarine)" is the list's only submarine line."""
    sub = Combatant("SO-VICTOR", "submarine", "SSN", 3, {"ASW": 3, "AS": 2})
    ssn = Combatant("US-SSN.1", "submarine", "SSN", 3, {})
    assert targeting.choose_target_21_3(sub, [ssn], set(), lambda n: 1, fire="ASW") is None
    b = Battle(
        "X",
        "Soviet",
        "Soviet",
        [
            _f("SO-V", "Soviet", "submarine", "SSN", ASW=3),
            _f("US-SSN.1", "USN", "submarine", "SSN"),
        ],
        {},
        ammo=3,
        readings=LABELLED,
    )
    battle.fight_20_2(b, module(), ScriptedDice([1] * 60))
    assert not [e for e in b.events if e.kind == "fire" and e.data["target"] == "US-SSN.1"]
    label = next(e for e in b.events if e.kind == "reading")
    assert label.rule == "21.3" and "ssn_escort_never_targeted=on" in label.text


def test_21_3_reading_off_a_usn_ssn_stands_on_the_ssgn_line() -> None:
    sub = Combatant("SO-VICTOR", "submarine", "SSN", 3, {"ASW": 3, "AS": 2})
    ssn = Combatant("US-SSN.1", "submarine", "SSN", 3, {})
    got = targeting.choose_target_21_3(
        sub, [ssn], set(), lambda n: 1, fire="ASW", any_submarine=True
    )
    assert got is not None and got[0].id == "US-SSN.1" and got[1] == "ASW"
    b = Battle(
        "X",
        "Soviet",
        "Soviet",
        [
            _f("SO-V", "Soviet", "submarine", "SSN", ASW=3),
            _f("US-SSN.1", "USN", "submarine", "SSN"),
        ],
        {},
        ammo=3,
        readings=LABELLED,
    )
    b.readings = replace(LABELLED, ssn_escort_never_targeted=False)
    battle.fight_20_2(b, module(), ScriptedDice([6] * 60))
    fired = [e for e in b.events if e.kind == "fire" and e.data["target"] == "US-SSN.1"]
    assert fired and fired[0].rule == "21.5" and fired[0].data["category"] == "ASW"
    assert "ssn_escort_never_targeted=off" in next(e for e in b.events if e.kind == "reading").text


# ---- [15.1]/[22.3] cruise missiles lost to a hit ---------------------------------------------


def test_15_1_reading_on_one_carried_missile_lost_per_damage_point() -> None:
    """[15.1] "If the ship carrying a cruise missile receives any hit, one cruise missile is
    eliminated per each individual hit"; the reading counts the Hit Table's damage points."""
    c = Condition(defense=5, missiles=3)
    assert damage.damage_22_3(c, 2).missiles == 1
    ship = _f("US-CG", "USN", "surface", "CG", DEF=5)
    ship.cond = c
    b = Battle("X", "Soviet", "Soviet", [ship], {}, ammo=3, readings=LABELLED)
    battle._apply(b, ScriptedDice([]), [(ship, ship, ["2 damage"])])
    hit = next(e for e in b.events if e.kind == "hit")
    assert ship.cond.missiles == 1 and hit.rule == "22.3"
    assert "2 carried cruise missile(s) lost, one per damage point [15.1]" in hit.text
    assert "missiles_lost_per_damage_point=on" in hit.text


def test_15_1_reading_off_one_carried_missile_lost_per_hit() -> None:
    c = Condition(defense=5, missiles=3)
    assert damage.damage_22_3(c, 2, per_point=False).missiles == 2
    ship = _f("US-CG", "USN", "surface", "CG", DEF=5)
    ship.cond = c
    b = Battle("X", "Soviet", "Soviet", [ship], {}, ammo=3, readings=LABELLED)
    b.readings = replace(LABELLED, missiles_lost_per_damage_point=False)
    battle._apply(b, ScriptedDice([]), [(ship, ship, ["2 damage", "withdraw"])])
    assert ship.cond.missiles == 1 and ship.cond.damage == 2 and ship.cond.withdrawn
    texts = [e.text for e in b.events]
    assert any("one per hit [15.1]" in t and "=off" in t for t in texts)
    assert damage.damage_22_3(replace(c, damage=4), 1, per_point=False).sunk  # all go down


# ---- [20.2 step 5] missiles in the battle result ---------------------------------------------


def _missile_battle() -> Battle:
    """The USN lost its one cruise missile (fired, [21.6]) and kept its ship; the Soviets lost
    one ship of two."""
    ship = _f("US-DD", "USN", "surface", "DD")
    missile = _f("US-TASM", "USN", "missile", "TASM")
    missile.cond, missile.zone = replace(missile.cond, sunk=True), "expended"
    lost = _f("SO-A", "Soviet", "surface", "DD")
    lost.cond = replace(lost.cond, sunk=True)
    return Battle(
        "X",
        "USN",
        "USN",
        [ship, missile, lost, _f("SO-B", "Soviet", "surface", "DD")],
        {},
        ammo=3,
        readings=LABELLED,
    )


def test_20_2_step_5_reading_on_missiles_are_left_out_of_the_result() -> None:
    """[20.2 step 5] "Any side that lost at least half of the units it had at the start of
    the battle ... cannot win": the reading leaves out every missile (a fired one is always
    lost [21.6] and would decide every battle)."""
    b = _missile_battle()
    assert battle.result_20_2(b) == "USN"
    ev: list[Event] = []
    st = played(steps=2)
    combat_phase._result_20_2(module(), st, b, ev)
    result = next(e for e in ev if e.kind == "battle_result")
    assert result.rule == "20.2" and "USN wins" in result.text
    assert "missiles left out of the tallies" in result.text and "=on" in result.text


def test_20_2_step_5_reading_off_missiles_count_and_a_fired_one_is_lost() -> None:
    b = _missile_battle()
    b.readings = replace(LABELLED, battle_result_without_missiles=False)
    assert battle.result_20_2(b) == "draw"  # the USN lost 1 of 2 units too
    ev: list[Event] = []
    combat_phase._result_20_2(module(), played(steps=2), b, ev)
    result = next(e for e in ev if e.kind == "battle_result")
    assert "a draw" in result.text and "missiles counted in the tallies" in result.text


def test_a_game_begun_before_the_labels_replays_its_reports_unchanged() -> None:
    """A start without ``label_readings`` (made before the labels) gets the events it was
    recorded with, so ``verify`` replays it; a new game records the flag."""
    st = _chit_position({})
    flags = {k: v for k, v in st.data["flags"].items() if k != "label_readings"}
    ev: list[Event] = []
    combat_phase.combat_phase(
        module(), st.with_data(flags=flags), dice_for("old", 9), {}, NO_STANDING, ev
    )
    contact = next(e for e in ev if e.kind == "contact")
    assert contact.text == "North Sea 1: a Contact chit makes contact automatic; the USN attacks"
    assert st.data["flags"]["label_readings"] is True
