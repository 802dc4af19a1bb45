"""Carrier Battlegroup conformance for the cases issue 32 left partly enforced for this
ruleset (12.4 strikes, 18.2 break-off, 23.2 landings, 3.5 crews, 22.2 systems at 0): each
test is a position, the orders (or the phase) and the ruling expected, quoting the book's
words and asserting the case the referee cites."""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import combat_phase, launch
from tests.conformance.rulesets.carrier_battlegroup import dice_for, doc, module, played

NO_STANDING = {"breakoff": False, "outer": [], "lose": []}
MID, TARGET = "North Sea 2", "Shetland Gap"  # two and three spaces from NATO Base (Britain)


def _sbg_on_the_way(st: GameState) -> tuple[GameState, str]:
    """SBG-1 (its units with it) at North Sea 2, and a Soviet warship at Shetland Gap: from
    the CVBG at NATO Base (Britain) every other route is 27 spaces long."""
    assert st.data["cvbg"]["space"] == "NATO Base (Britain)"
    g = st.data["sbgs"]["SBG-1"]
    for p in [*g["units"], g["marker"]]:
        u = st.units[p]
        st = st.with_unit(UnitState(p, u.side, MID, None, u.status))
    sbgs = {k: v for k, v in st.data["sbgs"].items() if k == "SBG-1"}
    for name, other in st.data["sbgs"].items():
        if name != "SBG-1":  # out of the way
            for p in [*other["units"], other["marker"]]:
                u = st.units[p]
                st = st.with_unit(UnitState(p, u.side, None, "pool", u.status))
    sbgs["SBG-1"] = {**g, "space": MID}
    ship = st.data["pools"]["warships"][0]
    pools = {**st.data["pools"], "warships": st.data["pools"]["warships"][1:]}
    st = st.with_unit(UnitState(ship, "Soviet", TARGET, None))
    return st.with_data(sbgs=sbgs, pools=pools), ship


# ---- 12.4 an SBG on a strike's way ---------------------------------------------------------


def test_12_4_a_strike_stops_at_an_sbg_on_its_way() -> None:
    """[12.4] "SBG: You can enter these, but you must stop there (including Standoff units,
    unless no contact occurs, in which case Standoff units may continue to move)"."""
    st, _ship = _sbg_on_the_way(played(steps=2))
    board = PointBoard(module().map)
    assert launch.stops_12_4(board, st, "NATO Base (Britain)", TARGET, 6) == [MID]
    assert launch.stops_12_4(board, st, "NATO Base (Britain)", TARGET, 27) == []  # around it
    assert launch.stops_12_4(board, st, "NATO Base (Britain)", MID, 6) == []  # the target
    order = doc(f'[launch]\nstrike US-F14.1 -> "{TARGET}"\n').orders
    ev: list[Event] = []
    after, flights = launch.launch_phase_19_0(module(), board, st, order, ev)
    assert flights.at == {MID: ["US-F14.1"]} and flights.onward == {"US-F14.1": [TARGET]}
    assert after.units["US-F14.1"].location == MID
    stop = next(e for e in ev if e.kind == "strike_stop")
    assert stop.rule == "12.4" and f"must stop at {MID}" in stop.text


def test_12_4_the_strike_flies_on_only_if_no_contact_occurs_at_the_sbg() -> None:
    st, ship = _sbg_on_the_way(played(steps=2))
    seen = set()
    for seed in (b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h"):
        ev: list[Event] = []
        dice = dice_for("12.4", 5, seed)
        strikes, onward = {MID: ["US-A6.1"]}, {"US-A6.1": [TARGET]}
        combat_phase.combat_phase(module(), st, dice, strikes, NO_STANDING, ev, onward=onward)
        at_mid = next(e for e in ev if e.kind == "contact" and e.text.startswith(MID))
        on = [e for e in ev if e.kind == "strike_on"]
        if at_mid.data["contact"]:
            assert not on and not any(TARGET in e.text for e in ev if e.kind == "contact")
            assert any(e.rule == "20.0" and MID in e.text for e in ev)
        else:
            assert on[0].rule == "12.4" and f"fly on to {TARGET}" in on[0].text
            assert any(e.kind == "contact" and e.text.startswith(TARGET) for e in ev)
        seen.add(at_mid.data["contact"])
    assert seen == {True, False}
    assert ship  # the target held a Soviet unit throughout


def test_12_4_a_game_begun_before_the_ruling_keeps_strikes_flying_over() -> None:
    """A game whose start has no ``strikes_stop_at_sbgs`` (made before the ruling) replays as
    it was played; ``verify`` finds that start among the ruleset's earlier ones."""
    from tests.conformance.rulesets.carrier_battlegroup import ruleset

    st, _ship = _sbg_on_the_way(played(steps=2))
    older = st.with_data(flags={k: v for k, v in st.data["flags"].items() if "sbg" not in k})
    board = PointBoard(module().map)
    assert launch.stops_12_4(board, older, "NATO Base (Britain)", TARGET, 6) == []
    new = ruleset().new_game(module(), "mission", "g")
    assert new.data["flags"]["strikes_stop_at_sbgs"] is True
    starts = [s.data.get("flags", {}) for s in ruleset().earlier_starts(new)]
    assert "strikes_stop_at_sbgs" not in starts[0] and "chits_on_entering" in starts[0]
    assert starts[-1] == {}


# ---- 18.2 break-off ------------------------------------------------------------------------


def _standing(text: str) -> dict:  # type: ignore[type-arg]
    from referee.rules.carrier_battlegroup.turn import standing_of

    return standing_of(doc(f"[standing]\n{text}\n"))


def _at_sea(st: GameState, fuel: int = 3) -> GameState:
    return combat_phase._move_cvbg(st, "North Sea 1").with_data(fuel=fuel)


def test_18_2_the_cvbg_breaks_off_into_the_space_the_player_names() -> None:
    """[18.2] "move your CVBG one space closer to any NATO base, into any adjacent playable
    sea space (or into a NATO Base), but never into a space containing a SBG"; "you must
    expend one Fuel (if there are any non-nuclear ships in your CVBG)". From North Sea 1,
    North Sea 2 is closer to Bodo (9 spaces, not 10), so the player may pick it."""
    st = _at_sea(played(steps=2))
    ships = st.data["cvbg"]["ships"]
    needs = any("nuclear" not in module().piece(p).unit.flags for p in ships)
    ev: list[Event] = []
    standing = _standing('breakoff yes -> "Shetland Gap" "North Sea 2" "NATO Base (Britain)"')
    after, stay = combat_phase._break_off_18_2(module(), st, "North Sea 1", ships, standing, ev)
    assert stay == [] and after.data["cvbg"]["space"] == "North Sea 2"
    assert after.data["fuel"] == 3 - (1 if needs else 0)
    said = next(e for e in ev if e.kind == "breakoff")
    assert said.rule == "18.2" and "the first legal space of your breakoff list" in said.text


def test_18_2_never_into_an_sbg_nor_a_space_not_adjacent_the_referees_default() -> None:
    st = _at_sea(played(steps=2))
    sbgs = {**st.data["sbgs"], "SBG-1": {**st.data["sbgs"]["SBG-1"], "space": "North Sea 2"}}
    st = st.with_data(sbgs=sbgs)
    ships = st.data["cvbg"]["ships"]
    ev: list[Event] = []
    standing = _standing('breakoff yes -> "North Sea 2" "Shetland Gap"')
    after, _ = combat_phase._break_off_18_2(module(), st, "North Sea 1", ships, standing, ev)
    assert after.data["cvbg"]["space"] == "NATO Base (Britain)"
    assert "none of North Sea 2, Shetland Gap is adjacent, closer to a NATO base" in ev[-1].text
    ev = []
    after, _ = combat_phase._break_off_18_2(
        module(), st, "North Sea 1", ships, _standing("breakoff yes"), ev
    )
    assert after.data["cvbg"]["space"] == "NATO Base (Britain)"
    assert "your breakoff names no space: one space toward the nearest NATO base" in ev[-1].text


def test_18_2_no_fuel_no_break_off_and_cruise_missiles_never() -> None:
    """[18.2] "If no Fuel is available, then no break-off occurs. Exception: Cruise missiles
    may not break-off"."""
    st = _at_sea(played(steps=2), fuel=0)
    ships = st.data["cvbg"]["ships"]
    ev: list[Event] = []
    after, stay = combat_phase._break_off_18_2(
        module(), st, "North Sea 1", ships, _standing("breakoff yes"), ev
    )
    needs = any("nuclear" not in module().piece(p).unit.flags for p in ships)
    if needs:
        assert stay == ships and after.data["cvbg"]["space"] == "North Sea 1"
        assert ev[-1].rule == "18.2" and "no Fuel" in ev[-1].text
    missile = sorted(st.data["missiles"])[0]
    ev = []
    _, stay = combat_phase._break_off_18_2(
        module(), st.with_data(fuel=3), TARGET, [missile], _standing("breakoff all"), ev
    )
    assert stay == [missile] and "cruise missiles may not break off" in ev[-1].text


def test_18_2_air_units_on_a_strike_break_off_and_land_the_missiles_fight_on() -> None:
    """[18.2] "Air units that break-off must immediately land (recover)"."""
    st = played(steps=2).with_data(fuel=3)
    missile = sorted(st.data["missiles"])[0]
    strike = ["US-A6.1", missile]
    for p in strike:
        st = st.with_unit(UnitState(p, "USN", TARGET, None))
    ev: list[Event] = []
    _same, stay = combat_phase._break_off_18_2(
        module(), st, TARGET, strike, _standing("breakoff yes"), ev
    )
    assert stay == strike and not ev  # `yes` is the CVBG's break-off only
    after, stay = combat_phase._break_off_18_2(
        module(), st, TARGET, strike, _standing("breakoff strikes"), ev
    )
    assert stay == [missile]
    assert after.units["US-A6.1"].location is None and after.data["air"]["US-A6.1"] == "hangar"
    assert after.data["cvbg"]["space"] == st.data["cvbg"]["space"]  # the CVBG stays
    said = ev[-1]
    assert said.rule == "18.2" and "US-A6.1 break off and land" in said.text
    assert f"{missile} may not break off and fight on" in said.text


def test_18_2_with_the_edge_a_strike_breaks_off_in_play() -> None:
    """The Combat Phase: with the USN Edge at a strike's space and the standing ``breakoff
    strikes``, no battle is fought there and the aircraft are back aboard."""
    st, _ship = _sbg_on_the_way(played(steps=2).with_data(fuel=3))
    st = st.with_unit(UnitState("US-A6.1", "USN", MID, None))
    standing = {**_standing("breakoff strikes"), "outer": []}
    outcomes = set()
    for seed in (b"a", b"b", b"c", b"d", b"e", b"f", b"g", b"h"):
        ev: list[Event] = []
        after = combat_phase.combat_phase(
            module(), st, dice_for("18.2", 5, seed), {MID: ["US-A6.1"]}, standing, ev
        )
        contact = next(e for e in ev if e.kind == "contact" and e.text.startswith(MID))
        if contact.data["edge"] == "USN":
            assert any(e.kind == "breakoff" and e.rule == "18.2" for e in ev)
            assert not any(e.rule == "20.0" for e in ev)
            assert after.units["US-A6.1"].location is None
        outcomes.add(contact.data["edge"])
    assert "USN" in outcomes, outcomes


def test_18_2_a_break_off_space_that_is_no_space_is_refused() -> None:
    from tests.conformance.rulesets.carrier_battlegroup import ruleset

    st = played(steps=2)
    text = f'game: cbg\nturn: {st.turn}\nside: USN\n\n[standing]\nbreakoff yes -> "North Se 2"\n'
    bad = ruleset().validate(module(), st, doc(text))
    assert [v.rule for v in bad] == ["18.2"]
    assert "expected a space of the map to break off into" in bad[0].message
    assert "North Sea 2" in (bad[0].hint or "")


# ---- 3.5 the EW and Camera crews -------------------------------------------------------------


def _with_crews(st: GameState, *crews: str) -> GameState:
    return st.with_data(crews=[*st.data["crews"], *crews])


def test_3_5_the_ew_crew_adds_to_the_carriers_ew_for_contact_and_intelligence() -> None:
    """[3.5] "EW: This represents additional EW" (the Crew Chart's EW column, estimate)."""
    from referee.rules.carrier_battlegroup import crews

    st = played(steps=2).with_data(crews=[])
    base = st.data["carrier"]["EW"]
    assert crews.carrier_ew_3_5(module(), st) == base
    crew_ew = int(module().tables["crew"].lookup(row="EW Crew", col="EW").value)
    assert crew_ew > 0
    assert crews.carrier_ew_3_5(module(), _with_crews(st, "US-CREW-EW")) == base + crew_ew
    older = _with_crews(st, "US-CREW-EW").with_data(
        flags={k: v for k, v in st.data["flags"].items() if k != "special_crews_3_5"}
    )
    assert crews.carrier_ew_3_5(module(), older) == base  # a game begun before
    text = f"game: cbg\nturn: {st.turn}\nside: USN\n\n[intelligence]\nintel US-CVN-68\n"
    from referee.engine.core import ScriptedDice
    from tests.conformance.rulesets.carrier_battlegroup import ruleset

    out = ruleset().resolve(module(), _with_crews(st, "US-CREW-EW"), doc(text), ScriptedDice([2]))
    intel = next(e for e in out.events if e.kind == "intel")
    assert intel.rule == "11.1" and f"d6 2 x {base + crew_ew} = " in intel.text


def test_3_5_the_camera_crew_publicizes_a_usn_win() -> None:
    """[3.5] "Camera Crew: They publicize your heroic deeds": a provisional VP for each
    battle the USN wins with the crew aboard (the Crew Chart is missing; estimate)."""
    from referee.rules.carrier_battlegroup import crews

    st = played(steps=2).with_data(crews=[], vp=0)
    per = int(module().tables["victory_points"].lookup(row=crews.CAMERA_VP, col="vp").value)
    ev: list[Event] = []
    after = crews.camera_crew_3_5(module(), _with_crews(st, "US-CAMERA"), "USN", MID, ev)
    assert after.data["vp"] == per and ev[0].rule == "3.5" and "provisional" in ev[0].text
    for winner, who in (("Soviet", ("US-CAMERA",)), ("draw", ("US-CAMERA",)), ("USN", ())):
        same = crews.camera_crew_3_5(module(), _with_crews(st, *who), winner, MID, [])
        assert same.data["vp"] == 0


# ---- 22.2 a carrier system at 0 ----------------------------------------------------------------


def test_22_2_ew_at_0_ceases_to_function_no_crew_revives_it_and_no_intelligence() -> None:
    """[22.2] "If a system goes to zero, that system ceases to function for any game
    purpose"."""
    from referee.rules.carrier_battlegroup import crews
    from tests.conformance.rulesets.carrier_battlegroup import ruleset

    st = played(steps=2)
    st = st.with_data(carrier={**st.data["carrier"], "EW": 0}, crews=["US-CREW-EW"])
    assert crews.carrier_ew_3_5(module(), st) == 0
    text = f"game: cbg\nturn: {st.turn}\nside: USN\n\n[intelligence]\nintel US-CVN-68\n"
    bad = ruleset().validate(module(), st, doc(text))
    assert [v.rule for v in bad] == ["22.2"] and "EW system is at 0" in bad[0].message
    escort = next(p for p in st.data["cvbg"]["ships"] if p != "US-CVN-68")
    ok = text.replace("US-CVN-68", escort)
    assert ruleset().validate(module(), st, doc(ok)) == []


def test_22_2_air_defense_at_0_fires_nothing_even_with_a_crew() -> None:
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import battle
    from referee.rules.carrier_battlegroup.battle import Battle, Fighter
    from referee.rules.carrier_battlegroup.damage import Condition

    carrier = Fighter("US-CVN-68", "USN", "surface", "CVN", {}, Condition(12), carrier=True)
    plane = Fighter(
        "SO-TU22", "Soviet", "air", "TU22", {"AA": 0, "AS": 3, "EW": 1, "DEF": 1}, Condition(1)
    )
    b = Battle("X", "USN", "USN", [carrier, plane], {"Air Defense": 0, "EW": 5, "Hull": 12}, 3)
    b.crew = {"AA": 2}
    battle._fire_side(b, module(), ScriptedDice([6] * 10), "USN", "AA", None)
    assert not [e for e in b.events if e.kind == "fire"]
    b.systems = {**b.systems, "Air Defense": 1}
    battle._fire_side(b, module(), ScriptedDice([6] * 10), "USN", "AA", None)
    assert [e.data["strength"] for e in b.events if e.kind == "fire"] == [3]


def test_22_2_cic_and_cag_at_0_add_nothing_to_the_contact_rating() -> None:
    from referee.rules.carrier_battlegroup import contact

    assert contact.usn_rating_18_1(0, 4, [5], standoff_only=False) == 5
    assert contact.usn_rating_18_1(4, 0, [2], standoff_only=True) == 2


# ---- 23.2 landings and re-embarking --------------------------------------------------------------


def _landing_position() -> GameState:
    """The CVBG at its Objective, no coastal defense unit left, Orders that allow a landing,
    the M.E.U. aboard."""
    st = played(steps=2)
    obj = st.data["mission"]["objective"]
    st = combat_phase._move_cvbg(st, obj)
    return st.with_data(
        mission={**st.data["mission"], "landing": True},
        coastal={**st.data["coastal"], "units": []},
        crews=["US-MEU"],
    )


def _objective_turn(st: GameState, body: str):  # type: ignore[no-untyped-def]
    from referee.rules.carrier_battlegroup import objective

    ev: list[Event] = []
    o = doc(f"[objective]\n{body}\n").orders
    land = [x for x in o if x.verb == "land"]
    embark = [x for x in o if x.verb == "embark"]
    st = objective.objective_phase_23_0(module(), st, [], land, dice_for("23.2", 7), ev)
    return objective.embark_23_2(st, embark, ev), ev


def test_23_2_landed_marines_leave_the_carrier_and_stand_ashore() -> None:
    """[23.2] "An amphibious operation is automatic once in that space with a CVBG that is
    stacked with a Marines or SEAL unit"."""
    st = _landing_position()
    after, ev = _objective_turn(st, "land US-MEU")
    obj = st.data["mission"]["objective"]
    assert [e.rule for e in ev] == ["23.2"] and f"US-MEU land at {obj}" in ev[0].text
    assert "US-MEU" not in after.data["crews"] and after.units["US-MEU"].location == obj
    assert after.data["landed_at"] == {"US-MEU": {"space": obj, "turn": st.turn}}
    older = st.with_data(flags={k: v for k, v in st.data["flags"].items() if "landing" not in k})
    kept, _ = _objective_turn(older, "land US-MEU")
    assert kept.data["crews"] == ["US-MEU"] and kept.data["landed"] == ["US-MEU"]


def test_23_2_a_soviet_base_occupied_by_marines_is_closed_to_the_soviet_side() -> None:
    """[23.2] "Soviet bases cannot be used ... if occupied by a Marine or SEAL unit": a
    beaten SBG does not withdraw toward it [20.2 step 5]."""
    from referee.rules.carrier_battlegroup import soviet

    st = played(steps=2)
    board = PointBoard(module().map)
    bases = sorted(s for s in board.locations() if board.terrain(s) == "soviet_base")
    space = next(n for n in board.neighbours(bases[0]) if board.terrain(n) != "soviet_base")
    assert combat_phase._toward_base(module(), st, space, "soviet_base") == bases[0]
    held = st.with_data(landed_at={"US-SEAL": {"space": bases[0], "turn": 1}})
    assert soviet.closed_bases_23_2(held) == {bases[0]}
    assert combat_phase._toward_base(module(), held, space, "soviet_base") != bases[0]


def test_23_2_re_embark_on_a_later_turn_in_the_same_space() -> None:
    """[23.2] "You may re-embark a Marine or SEALs unit onto a CVBG in the same space during
    any subsequent game turn (i.e., any game turn after they were debarked)"."""
    from referee.rules.carrier_battlegroup import objective

    st, _ = _objective_turn(_landing_position(), "land US-MEU")
    o = doc("[objective]\nembark US-MEU\n").orders
    same_turn = objective.check_embark_23_2(st, o)
    assert [v.rule for v in same_turn] == ["23.2"] and "later turn" in same_turn[0].message
    later = st.evolve(turn=st.turn + 1)
    assert objective.check_embark_23_2(later, o) == []
    away = combat_phase._move_cvbg(later, "North Sea 1")
    assert "ashore at" in objective.check_embark_23_2(away, o)[0].message
    back, ev = _objective_turn(later, "embark US-MEU")
    assert back.data["crews"] == ["US-MEU"] and back.data["landed_at"] == {}
    assert back.units["US-MEU"].location is None and ev[-1].rule == "23.2"
    nobody = objective.check_embark_23_2(later, doc("[objective]\nembark US-SEAL\n").orders)
    assert "expected a landed Marine or SEAL unit, found US-SEAL" in nobody[0].message


# ---- the older play of each switch a game begun before records none of -------------------------


def _older(st: GameState, name: str) -> GameState:
    return st.with_data(flags={k: v for k, v in st.data["flags"].items() if k != name})


def test_18_2_older_play_only_the_cvbg_breaks_off_toward_the_nearest_base() -> None:
    st = _older(_at_sea(played(steps=2)), "breakoff_by_the_player")
    ships = st.data["cvbg"]["ships"]
    ev: list[Event] = []
    standing = _standing('breakoff all -> "North Sea 2"')
    after, stay = combat_phase._break_off_18_2(module(), st, "North Sea 1", ships, standing, ev)
    assert stay == [] and after.data["cvbg"]["space"] == "NATO Base (Britain)"
    assert ev[-1].text.startswith("the CVBG breaks off to NATO Base (Britain)")
    plane = st.with_unit(UnitState("US-A6.1", "USN", TARGET, None))
    ev = []
    same, stay = combat_phase._break_off_18_2(
        module(), plane, TARGET, ["US-A6.1"], _standing("breakoff strikes"), ev
    )
    assert stay == ["US-A6.1"] and not ev and same.units["US-A6.1"].location == TARGET


def test_3_5_older_play_the_camera_crew_scores_nothing() -> None:
    from referee.rules.carrier_battlegroup import crews

    st = _older(played(steps=2), "special_crews_3_5").with_data(crews=["US-CAMERA"], vp=0)
    assert crews.camera_crew_3_5(module(), st, "USN", MID, []).data["vp"] == 0


def test_22_2_older_play_the_carrier_rolls_its_intelligence_at_ew_0() -> None:
    from tests.conformance.rulesets.carrier_battlegroup import ruleset

    st = _older(played(steps=2), "systems_at_0_22_2")
    st = st.with_data(carrier={**st.data["carrier"], "EW": 0})
    text = f"game: cbg\nturn: {st.turn}\nside: USN\n\n[intelligence]\nintel US-CVN-68\n"
    assert ruleset().validate(module(), st, doc(text)) == []
