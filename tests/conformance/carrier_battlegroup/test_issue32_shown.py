"""Carrier Battlegroup conformance for cases the code applied with no case of its own
(issue 32: "applied in the code; no conformance case or test shows it yet"): each test is a
position, the orders or the phase, and the ruling expected, quoting the book's words and
asserting the case the referee cites."""

from __future__ import annotations

from referee.engine.core import Event, GameState, ScriptedDice
from referee.rules.carrier_battlegroup import battle, combat_phase, fire, soviet
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset

AT_SEA = "North Sea 1"


def _file(st: GameState, body: str) -> str:
    return f"game: cbg\nturn: {st.turn}\nside: USN\n\n{body}"


def _rules(vs: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in vs]


def test_9_0_cargo_is_bought_at_a_nato_base_but_land_aircraft_anywhere() -> None:
    """[9.0] "You may use them to purchase Cargo during any Logistics Phase, but only if your
    task force is in a NATO Base. Exception: Land-based aircraft may be purchased even if
    your CVBG is not at a NATO base." Unused LP are saved."""
    st = combat_phase._move_cvbg(played(steps=2), AT_SEA)
    bad = ruleset().validate(module(), st, doc(_file(st, "[logistics]\nbuy 1 fuel\n")))
    assert (
        _rules(bad) == ["9.0"] and "expected the CVBG at a NATO base to buy fuel" in bad[0].message
    )
    land = next(
        p
        for p, pc in module().pieces().items()
        if pc.unit.side == "USN" and "land" in pc.unit.flags and st.units[p].box == "available"
    )
    ok = ruleset().validate(module(), st, doc(_file(st, f"[logistics]\nbuy {land}\n")))
    assert [v for v in ok if v.rule == "9.0"] == []
    at_base = played(steps=2)
    out = ruleset().resolve(
        module(), at_base, doc(_file(at_base, "[logistics]\nbuy 1 fuel\n")), ScriptedDice([])
    )
    assert out.ok and 0 <= out.state.data["lp"] < at_base.data["lp"]  # the rest is saved


def test_10_1_repair_rolls_the_charts_dice_and_skips_movement() -> None:
    """[10.1] "roll a number of di(c)e equal to the total on the Repair Chart"; "If any repair
    is conducted, skip your Movement Phase for this turn (unless the repair is an aircraft
    unit)"."""
    st = played(steps=2).with_data(crews=[])
    st = st.with_data(carrier={**st.data["carrier"], "Hull": st.data["carrier"]["Hull"] - 2})
    t = module().tables["repair"]
    n = int(t.lookup(row="nato_base", col="dice").value)
    out = ruleset().resolve(
        module(), st, doc(_file(st, "[logistics]\nrepair Hull\n")), ScriptedDice([6] * n + [1] * 40)
    )
    rep = next(e for e in out.events if e.kind == "repair")
    assert rep.rule == "10.1" and len(rep.data["rolls"]) == n
    assert out.state.data["carrier"]["Hull"] == st.data["carrier_start"]["Hull"]
    both = _file(st, '[logistics]\nrepair Hull\n\n[movement]\nmove "North Sea 1"\n')
    bad = ruleset().validate(module(), st, doc(both))
    assert _rules(bad) == ["5.0"] and "skips the Movement Phase" in bad[0].message


def test_12_2_maximum_speed_costs_one_fuel_per_cvbg() -> None:
    """[12.2] "To move at the maximum speed, you must expend fuel per each CVBG; one fuel
    increment must be expended to increase all of the ships' movement two additional
    spaces"."""
    st = played(steps=2)
    ships = st.data["cvbg"]["ships"]
    if all("nuclear" in module().piece(p).unit.flags for p in ships):
        st = st.with_data(cvbg={**st.data["cvbg"], "ships": [*ships, "US-AO"]})
    dry = st.with_data(fuel=0)
    bad = ruleset().validate(module(), dry, doc(_file(dry, f'[movement]\nmove max "{AT_SEA}"\n')))
    assert "12.2" in _rules(bad) and "no Fuel" in next(v for v in bad if v.rule == "12.2").message
    wet = st.with_data(fuel=2)
    out = ruleset().resolve(
        module(), wet, doc(_file(wet, f'[movement]\nmove max "{AT_SEA}"\n')), ScriptedDice([1] * 80)
    )
    assert out.ok, [str(v) for v in out.violations]
    fuel = [e for e in out.events if e.kind == "fuel"]
    assert [e.rule for e in fuel] == ["12.2"] and out.state.data["fuel"] == 1


def test_16_0_pick_as_many_chits_as_the_alert_level() -> None:
    """[16.0] "you must pick a number of Incident chits equal to the number indicated by the
    current Alert Level. You must draw Incident chits if you move or stay in the same space"."""
    from tests.conformance.rulesets.carrier_battlegroup import dice_for

    st = combat_phase._move_cvbg(played(steps=2), AT_SEA).with_data(alert=3, entered=None)
    ev: list[Event] = []
    soviet.incident_phase_16_0(module(), st, dice_for("16.0", 4), ev)
    head = next(e for e in ev if e.kind == "incidents")
    assert head.rule == "16.0" and head.data["count"] == 3  # stayed in a high-seas space


def test_17_0_contact_reveals_the_sbg_for_good() -> None:
    """[17.0] "Soviet SBG are revealed (flipped face up) permanently ... If a USN unit is in
    the same space as a Soviet SBG (assuming contact occurred)"."""
    st = played(steps=2)
    name, g = sorted(st.data["sbgs"].items())[0]
    ev: list[Event] = []
    after = combat_phase.reveal_space(st, g["space"], list(g["units"]), "17.0", ev)
    assert after.data["sbgs"][name]["revealed"]
    assert {e.rule for e in ev} <= {"17.0", "17.1"} and any(e.rule == "17.0" for e in ev)
    glitch_free = [p for p in g["units"] if "glitch" not in module().piece(p).unit.flags]
    assert all(p in after.data["revealed"] for p in glitch_free)


def test_19_0_missiles_launch_without_the_flight_deck_aircraft_only_from_it() -> None:
    """[19.0] "only as many [air units] may be launched as equals that carrier's flight deck
    capacity ... In the case of cruise missiles, you may launch any number of them as are
    being carried by any present USN ships"."""
    st = played(steps=2)
    target = sorted(st.data["sbgs"].values(), key=lambda g: g["space"])[0]["space"]
    missiles = " ".join(sorted(st.data["missiles"]))
    deck0 = st.with_data(carrier={**st.data["carrier"], "Flight Deck": 0}, crews=[])
    ok = ruleset().validate(
        module(), deck0, doc(_file(st, f'[launch]\nstrike {missiles} -> "{target}"\n'))
    )
    assert [v for v in ok if v.rule in ("15.0", "19.0")] == []
    plane = sorted(p for p, w in st.data["air"].items() if w == "hangar")[0]
    bad = ruleset().validate(
        module(), deck0, doc(_file(st, f'[launch]\nstrike {plane} -> "{target}"\n'))
    )
    assert "15.0" in _rules(bad)
    twice = ruleset().validate(
        module(), st, doc(_file(st, f'[launch]\nstrike {plane} {plane} -> "{target}"\n'))
    )
    assert "19.0" in _rules(twice)


def _f(pid: str, side: str, cat: str, ty: str, **v: int) -> Fighter:
    vals = {"AA": 0, "AS": 0, "ASW": 0, "DEF": 3, "SPD": 5, "EW": 2, **v}
    return Fighter(pid, side, cat, ty, vals, Condition(vals["DEF"]))


def test_21_1_anti_surface_fire_never_targets_a_submarine() -> None:
    """[21.1] "Anti-surface fire can only be targeted at enemy ships (not submarines) and
    coastal defense units. Anti-submarine fire can only be targeted at submarines. Anti-air
    fire can only be targeted at missiles and air units"."""
    assert fire.TARGETS_21_1 == {
        "AA": ("air", "missile"),
        "AS": ("surface", "coastal"),
        "ASW": ("submarine",),
    }
    ship = _f("US-DD", "USN", "surface", "DD", AS=3)
    sub = _f("SO-SUB", "Soviet", "submarine", "SSN")
    b = Battle("X", "USN", "USN", [ship, sub], {}, ammo=3)
    battle._fire_side(b, module(), ScriptedDice([6] * 20), "USN", "AS", None)
    assert not [e for e in b.events if e.kind == "fire"]


def test_21_2_each_unit_fires_individually_at_one_target_per_category() -> None:
    """[21.2] "Each unit fires individually (different units cannot ever combine their fire
    strengths), and each unit can target only one enemy unit (per each of its categories)"."""
    a = _f("US-A", "USN", "surface", "DD", AS=2)
    c = _f("US-C", "USN", "surface", "DD", AS=3)
    t1 = _f("SO-1", "Soviet", "surface", "DD")
    t2 = _f("SO-2", "Soviet", "surface", "DD")
    b = Battle("X", "USN", "USN", [a, c, t1, t2], {}, ammo=3)
    battle._fire_side(b, module(), ScriptedDice([1] * 40), "USN", "AS", None)
    shots = [(e.data["firer"], e.data["strength"]) for e in b.events if e.kind == "fire"]
    assert shots == [("US-A", 2), ("US-C", 3)]  # one shot each, strengths never combined
    assert all(e.rule == "21.5" for e in b.events if e.kind == "fire")
