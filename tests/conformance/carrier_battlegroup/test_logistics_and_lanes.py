"""Carrier Battlegroup conformance: Cargo aircraft [9.3], aircraft repair [10.3] and Out of
Lane [12.5], each named in the test name (``pytest ... -k 9_3``)."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import combat_phase, movement, soviet
from referee.rules.carrier_battlegroup.battle import Battle
from referee.rules.carrier_battlegroup.damage import Condition
from tests.conformance.rulesets.carrier_battlegroup import (
    dice_for,
    doc,
    module,
    played,
    ruleset,
    step,
)

COD = "US-C2"
NORWEGIAN = ["Norwegian Sea Attack Route"]


def _at(st: GameState, space: str) -> GameState:
    st = combat_phase._move_cvbg(st, space)
    return st.with_data(sbgs={})  # no SBG in the way of the moves below


def _with_cod(st: GameState) -> GameState:
    air = dict(st.data["air"])
    air.pop(sorted(air)[0])  # the Hangar is full: one aircraft makes room for the COD
    air[COD] = "hangar"
    return st.with_data(air=air)


def _rules(vs: list) -> list[str]:  # type: ignore[type-arg]
    return [v.rule for v in vs]


# ---- 9.3 Cargo aircraft ------------------------------------------------------------------


def test_9_3_a_cod_replenishes_at_sea_and_keeps_the_move() -> None:
    st = _at(played(steps=2), "North Sea 2")
    text = '[logistics]\nbuy 1 fuel\nbuy 1 ammunition\n[movement]\nmove "Shetland Gap"\n'
    without = ruleset().validate(module(), st, doc(text))
    assert "9.0" in _rules(without) and "5.0" in _rules(without)
    assert any("[9.3]" in (v.hint or "") for v in without if v.rule == "9.0")
    st = _with_cod(st)
    assert ruleset().validate(module(), st, doc(text)) == []
    out = step(st, text, 2)
    assert out.ok, [str(v) for v in out.violations]
    by = {e.kind: e for e in out.events}
    assert by["logistics"].rule == "9.3" and "not skipped" in by["logistics"].text
    assert out.state.data["fuel"] == st.data["fuel"] + 1
    spent = sum(1 for e in out.events if e.kind == "ammunition")  # a battle after the move
    assert out.state.data["ammo"] == st.data["ammo"] + 1 - spent
    assert out.state.data["cvbg"]["space"] == "Shetland Gap"
    assert out.state.data["lp"] < st.data["lp"]


def test_9_3_only_fuel_ammunition_missiles_and_crews_come_by_cod() -> None:
    st = _with_cod(_at(played(steps=2), "North Sea 2"))
    bad = ruleset().validate(module(), st, doc("[logistics]\nbuy 1 ew_enhancement\n"))
    assert _rules(bad) == ["9.0"]


def test_9_3_the_cod_must_reach_a_nato_base() -> None:
    board = PointBoard(module().map)
    reach = module().piece(COD).unit.values["SPD"]
    bases = [s for s in board.locations() if board.terrain(s) == "nato_base"]
    far = next(
        s
        for s in sorted(board.locations())
        if board.terrain(s) == "high_seas" and min(board.distance(s, b) for b in bases) > reach
    )
    st = _with_cod(_at(played(steps=2), far))
    bad = ruleset().validate(module(), st, doc("[logistics]\nbuy 1 fuel\n"))
    assert _rules(bad) == ["9.0"]


def test_9_3_at_a_base_cod_items_alone_keep_the_move_other_cargo_skips_it() -> None:
    st = _with_cod(played(steps=2))
    ok = '[logistics]\nbuy 1 fuel\n[movement]\nmove "North Sea 1"\n'
    assert ruleset().validate(module(), st, doc(ok)) == []
    bad = '[logistics]\nbuy 1 fuel\nbuy 1 air_defense\n[movement]\nmove "North Sea 1"\n'
    assert "5.0" in _rules(ruleset().validate(module(), st, doc(bad)))


# ---- 10.3 aircraft repair ----------------------------------------------------------------


def _damaged(st: GameState, pid: str, *, crippled: bool = False) -> GameState:
    return st.with_data(conditions={pid: {"damage": 1, "crippled": crippled}})


def test_10_3_an_aircraft_repair_keeps_the_move() -> None:
    st = played(steps=2)
    pid = sorted(p for p, w in st.data["air"].items() if w == "hangar")[0]
    st = _damaged(st, pid)
    text = f'[logistics]\nrepair {pid}\n[movement]\nmove "North Sea 1"\n'
    assert ruleset().validate(module(), st, doc(text)) == []
    out = step(st, text, 2)
    assert out.ok
    ev = next(e for e in out.events if e.kind == "repair")
    assert ev.rule == "10.3" and ev.data["unit"] == pid
    assert (pid not in out.state.data["conditions"]) == ev.data["repaired"]
    assert out.state.data["cvbg"]["space"] == "North Sea 1"
    # a carrier system's repair still skips the move [10.1 note]
    bad = '[logistics]\nrepair Hull\n[movement]\nmove "North Sea 1"\n'
    assert "5.0" in _rules(ruleset().validate(module(), st, doc(bad)))


def test_10_3_only_a_damaged_aircraft_and_never_a_crippled_one() -> None:
    st = played(steps=2)
    pid = sorted(st.data["air"])[0]
    assert _rules(ruleset().validate(module(), st, doc(f"[logistics]\nrepair {pid}\n"))) == ["10.3"]
    st = _damaged(st, pid, crippled=True)
    assert _rules(ruleset().validate(module(), st, doc(f"[logistics]\nrepair {pid}\n"))) == ["10.0"]


def test_10_3_a_usn_aircraft_keeps_its_damage_after_the_battle() -> None:
    st = played(steps=2)
    pid = sorted(st.data["air"])[0]
    f = combat_phase._fighter(module(), st, pid)
    f.cond = Condition(f.cond.defense, damage=1)
    b = Battle("North Sea 1", "USN", "USN", [f], dict(st.data["carrier"]), st.data["ammo"])
    after = combat_phase._after_battle_22_8(module(), st, b, [])
    assert after.data["conditions"][pid] == {"damage": 1, "crippled": False}
    assert not any(x["unit"] == pid for x in after.data["losses"])


# ---- 12.5 Out of Lane ----------------------------------------------------------------------


def test_12_5_out_of_lane_is_a_step_off_the_orders_lines() -> None:
    board = PointBoard(module().map)
    base = "NATO Base (Britain)"
    assert not movement.out_of_lane_12_5(board, [base, "North Sea 1"], NORWEGIAN)
    assert movement.out_of_lane_12_5(board, [base, "Atlantic 1"], NORWEGIAN)
    assert movement.out_of_lane_12_5(board, ["Norwegian Sea 10"], NORWEGIAN)
    # a transit point on the lane is in lane; the step off it is not
    assert not movement.out_of_lane_12_5(board, ["Lofoten Transit"], NORWEGIAN)
    assert movement.out_of_lane_12_5(board, ["Lofoten Transit", "Norwegian Sea 10"], NORWEGIAN)
    assert not movement.out_of_lane_12_5(board, [base, "Atlantic 1"], [])
    path = movement.lane_path_12_5(board, base, "Bear Island", [*NORWEGIAN])
    assert path is None  # Bear Island lies on no line of these Orders
    lofoten = [*NORWEGIAN, "Lofoten Transit Line"]
    path = movement.lane_path_12_5(board, base, "Bear Island", lofoten)
    assert path is not None and not movement.out_of_lane_12_5(board, path, lofoten)


def test_12_5_moving_out_of_lane_is_allowed_and_reported() -> None:
    st = played(steps=2)
    st = st.with_data(mission={**st.data["mission"], "lanes": NORWEGIAN})
    text = '[movement]\nmove "Atlantic 1"\n'
    assert ruleset().validate(module(), st, doc(text)) == []
    out = step(st, text, 2)
    assert out.ok and out.state.data["out_of_lane"] is True
    ev = next(e for e in out.events if e.kind == "out_of_lane")
    assert ev.rule == "12.5" and "Atlantic 1" in ev.text
    back = step(out.state, '[movement]\nmove "NATO Base (Britain)"\n', 3)
    assert back.ok and back.state.data["out_of_lane"] is True  # that line is not a lane
    again = step(_at(back.state, "NATO Base (Britain)"), '[movement]\nmove "North Sea 1"\n', 4)
    assert again.ok and again.state.data["out_of_lane"] is False


def test_12_5_an_incident_chit_sanctions_out_of_lane() -> None:
    st = _at(played(steps=2), "North Sea 2").with_data(alert=2)
    st = st.with_data(pools={**st.data["pools"], "chits": ["CHIT-UP.1"]})
    for out_of_lane, want in ((False, 3), (True, 4)):
        ev: list[Event] = []
        s = st.with_data(out_of_lane=out_of_lane)
        got = soviet.incident_phase_16_0(module(), s, dice_for("x", 5), ev)
        assert got.data["alert"] == want
        assert any(e.rule == "12.5" for e in ev) is out_of_lane
    # a chit with no sanction leaves the Alert alone out of lane
    s = st.with_data(out_of_lane=True, pools={**st.data["pools"], "chits": ["CHIT-AIR.1"]})
    ev = []
    assert soviet.incident_phase_16_0(module(), s, dice_for("x", 5), ev).data["alert"] == 2
    assert not any(e.rule == "12.5" for e in ev)
