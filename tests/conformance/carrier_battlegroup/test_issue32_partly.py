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
