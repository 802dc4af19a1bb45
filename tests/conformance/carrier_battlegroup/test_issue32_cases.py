"""Carrier Battlegroup conformance for the cases issue 32 found partly enforced: each test is
named after its case, quotes the book's words it checks and asserts the case cited."""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.carrier_battlegroup import movement_phase
from tests.conformance.carrier_battlegroup.cbg_helpers import doc, module, played, ruleset


def _with_propulsion(st: GameState, value: int) -> GameState:
    carrier = {**st.data["carrier"], "Propulsion": value}
    return st.with_data(carrier=carrier)


def _route(st: GameState, n: int) -> list[str]:
    """``n`` spaces on from the CVBG's space, each next to the last, no stop on the way."""
    from referee.engine.graphboard import board_for

    board = board_for(module().map)
    here, out = st.data["cvbg"]["space"], []
    for _ in range(n):
        nxt = sorted(s for s in board.neighbours(here) if s not in out and s != here)
        here = nxt[0]
        out.append(here)
    return out


def test_12_3_a_carrier_at_propulsion_0_does_not_move() -> None:
    """[12.3] "If damage has reduced a carrier's propulsion, you can only move it up to the
    speed indicated by the Engine marker"; at 0 the system is out of action [22.2]."""
    st = _with_propulsion(played(steps=2), 0)
    assert movement_phase.allowance(module(), st, spend_fuel=False) == 0
    assert movement_phase.allowance(module(), st, spend_fuel=True) == 0
    first = _route(st, 1)[0]
    bad = ruleset().validate(module(), st, doc(f'[movement]\nmove "{first}"\n'))
    assert [v.rule for v in bad] == ["12.1"]
    assert "allowance is 0" in bad[0].message


def test_12_3_a_damaged_carrier_moves_up_to_its_engine_value_even_at_maximum_speed() -> None:
    """[12.3] the Engine marker's value caps the carrier: no maximum-speed bonus [12.2]."""
    st = played(steps=2)
    full = movement_phase.allowance(module(), st, spend_fuel=True)
    hurt = _with_propulsion(st, 2)
    assert movement_phase.allowance(module(), hurt, spend_fuel=True) == min(2, full)
    assert movement_phase.allowance(module(), hurt, spend_fuel=False) <= 2
    assert st.data["carrier_start"]["Propulsion"] == 6  # undamaged: the carrier is not capped


def test_21_6_a_soviet_cruise_missile_is_used_up_after_its_attack() -> None:
    """[21.6] "After resolving a cruise missile attack, the cruise missile is eliminated
    automatically, regardless of the outcome of the attack": Soviet missiles too. It leaves
    play (box ``expended``), back to no pool and no SBG, and scores nothing for the player."""
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import battle, combat_phase
    from referee.rules.carrier_battlegroup.battle import Battle

    m = module()
    st = played(steps=2)
    sov = sorted(
        p
        for p, pc in m.pieces().items()
        if pc.unit.side == "Soviet" and pc.unit.category == "missile"
    )[0]
    pools = {k: [p for p in v if p != sov] for k, v in st.data["pools"].items()}
    st = st.with_data(pools=pools)  # drawn from its pool for this battle [16.2]
    missile = combat_phase._fighter(m, st, sov)
    target = combat_phase._fighter(m, st, "US-FFG.1")
    b = Battle(st.data["cvbg"]["space"], "Soviet", "Soviet", [missile, target], {}, ammo=3)
    cat = next(c for c in ("AS", "AA", "ASW") if battle.factors(b, missile).get(c, 0) > 0)
    target.category = {"AS": "surface", "AA": "air", "ASW": "submarine"}[cat]
    battle._fire_side(b, m, ScriptedDice([1] * 40), "Soviet", cat, None)
    assert [e.data["firer"] for e in b.events if e.kind == "fire"] == [sov]
    assert missile.zone == "expended" and missile.cond.sunk
    ev: list = []
    after = combat_phase._after_battle_22_8(m, st, b, ev)
    assert after.units[sov].box == "expended" and after.units[sov].location is None
    assert not [x for x in after.data["losses"] if x["unit"] == sov]  # no VP: not shot down
    assert sov not in after.data["pools"]["standoff"]
    assert [e.rule for e in ev if e.kind == "expended"] == ["21.6"]


def _at_objective(flag: bool | None, coastal: list[str]) -> GameState:
    st = played(steps=2)
    d = st.data
    flags = {} if flag is None else {"objective_ends_early": flag}
    return st.with_data(
        cvbg={**d["cvbg"], "space": d["mission"]["objective"]},
        coastal={**d["coastal"], "space": d["mission"]["objective"], "units": coastal},
        vp=0,
        flags=flags,
    )


def test_5_0_step_10_completing_the_objective_early_ends_the_scenario() -> None:
    """[5.0 step 10] "Repeat sequence of play until you have completed your mission Objective
    or until the last game turn" (reading objective_ends_early on, as new games record)."""
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import end_of_turn

    st = _at_objective(True, [])
    assert st.turn < st.data["mission"]["turns"]
    after, ev = end_of_turn.end_of_turn_5_0(module(), st, ScriptedDice([]), [])
    assert after.phase == "over" and after.data["result"].startswith("victory")
    assert "5.0 step 10" in after.data["result"]
    assert [e.rule for e in ev if e.kind == "game_over"] == ["24.0"]
    assert ruleset().new_game(module(), "mission", "g").data["flags"] == {
        "objective_ends_early": True
    }


def test_5_0_step_10_not_completed_while_coastal_defense_units_remain() -> None:
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import end_of_turn

    coastal = sorted(
        p for p, pc in module().pieces().items() if pc.unit.category == "coastal"
    )[:1]
    st = _at_objective(True, coastal)
    after, _ = end_of_turn.end_of_turn_5_0(module(), st, ScriptedDice([]), [])
    assert after.phase != "over" and after.turn == st.turn + 1


def test_5_0_step_10_older_reading_plays_every_turn() -> None:
    """The switch off (a game begun before the ruling): the scenario runs its turns."""
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import end_of_turn

    for flag in (False, None):
        st = _at_objective(flag, [])
        after, _ = end_of_turn.end_of_turn_5_0(module(), st, ScriptedDice([]), [])
        assert after.phase != "over" and after.data["result"] is None
    new = ruleset().new_game(module(), "mission", "g")
    (older,) = ruleset().earlier_starts(new)
    assert "flags" not in older.data
