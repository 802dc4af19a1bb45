"""Carrier Battlegroup conformance for the cases issue 32 left partly enforced for this
ruleset (12.4 strikes, 18.2 break-off, 23.2 landings, 3.5 crews, 22.2 systems at 0): each
test is a position, the orders (or the phase) and the ruling expected, quoting the book's
words and asserting the case the referee cites."""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import combat_phase, launch
from tests.conformance.carrier_battlegroup.cbg_helpers import dice_for, doc, module, played

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
    from tests.conformance.carrier_battlegroup.cbg_helpers import ruleset

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
    from tests.conformance.carrier_battlegroup.cbg_helpers import ruleset

    st = played(steps=2)
    text = f'game: cbg\nturn: {st.turn}\nside: USN\n\n[standing]\nbreakoff yes -> "North Se 2"\n'
    bad = ruleset().validate(module(), st, doc(text))
    assert [v.rule for v in bad] == ["18.2"]
    assert "expected a space of the map to break off into" in bad[0].message
    assert "North Sea 2" in (bad[0].hint or "")
