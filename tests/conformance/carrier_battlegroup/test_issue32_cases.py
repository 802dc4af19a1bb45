"""Carrier Battlegroup conformance for the cases issue 32 found partly enforced: each test is
named after its case, quotes the book's words it checks and asserts the case cited."""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.carrier_battlegroup import movement_phase
from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset


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
    assert ruleset().new_game(module(), "mission", "g").data["flags"]["objective_ends_early"]


def test_5_0_step_10_not_completed_while_coastal_defense_units_remain() -> None:
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import end_of_turn

    coastal = sorted(p for p, pc in module().pieces().items() if pc.unit.category == "coastal")[:1]
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
    older = ruleset().earlier_starts(new)[-1]  # the first version's start, before any ruling
    assert "flags" not in older.data


def _incident_count(flag: bool | None, entered: bool) -> int:
    from referee.engine.graphboard import PointBoard
    from referee.rules.carrier_battlegroup import soviet
    from tests.conformance.rulesets.carrier_battlegroup import dice_for

    st = played(steps=2)
    board = PointBoard(module().map)
    choke = sorted(s for s in board.locations() if board.terrain(s) == "chokepoint")[0]
    flags = {} if flag is None else {"chits_on_entering": flag}
    st = st.with_data(
        cvbg={**st.data["cvbg"], "space": choke},
        entered=choke if entered else None,
        alert=1,
        flags=flags,
    )
    ev: list = []
    soviet.incident_phase_16_0(module(), st, dice_for("incidents", 9), ev)
    return next(e.data["count"] for e in ev if e.kind == "incidents")


def test_16_1_extra_chits_only_in_the_turn_the_cvbg_enters_the_space() -> None:
    """[16.1] "Whenever a task force enters a Chokepoint, pick one additional Incident
    chit" (reading chits_on_entering on, as new games record): Alert 1 + 1 on entering,
    Alert 1 alone while it stays."""
    assert _incident_count(True, entered=True) == 2
    assert _incident_count(True, entered=False) == 1


def test_16_1_older_reading_draws_the_extra_chits_every_turn_there() -> None:
    for flag in (False, None):
        assert _incident_count(flag, entered=False) == 2


def _with_incident_unit(flag: bool | None) -> tuple[GameState, str, str]:
    """A warship an incident generated, face down in a space where no battle is fought."""
    from referee.engine.core import UnitState
    from referee.engine.graphboard import PointBoard

    st = played(steps=2)
    board = PointBoard(module().map)
    here = st.data["cvbg"]["space"]
    away = sorted(s for s in board.locations() if s != here and board.terrain(s) != "nato_base")[0]
    pid = st.data["pools"]["warships"][0]
    pools = {**st.data["pools"], "warships": st.data["pools"]["warships"][1:]}
    st = st.with_unit(UnitState(pid, "Soviet", away, None, frozenset({"face_down"})))
    flags = {} if flag is None else {"incident_units_leave": flag}
    inc = {"space": away, "generated": [pid], "contact": False, "drawn": []}
    return st.with_data(pools=pools, incident=inc, flags=flags), pid, away


def test_18_1_step_4_incident_units_with_no_contact_leave_at_the_end_of_the_turn() -> None:
    """[18.1 step 4] "if no contact has occurred, nothing happens for that game turn, but
    both sides will co-exist in that space for the rest of that game turn" (reading
    incident_units_leave on, as new games record): the generated unit goes back to its
    pool, unseen."""
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import combat_phase

    st, pid, _away = _with_incident_unit(True)
    ev: list = []
    after = combat_phase.combat_phase(module(), st, ScriptedDice([]), {}, {}, ev)
    assert after.units[pid].location is None and after.units[pid].box == "pool"
    assert pid in after.data["pools"]["warships"]
    assert [e.rule for e in ev if e.kind == "incident_units_leave"] == ["18.1"]
    assert pid not in " ".join(e.text for e in ev)  # the player never learns which


def test_18_1_step_4_older_reading_leaves_them_in_the_space() -> None:
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import combat_phase

    for flag in (False, None):
        st, pid, away = _with_incident_unit(flag)
        after = combat_phase.combat_phase(module(), st, ScriptedDice([]), {}, {}, [])
        assert after.units[pid].location == away


def test_10_0_a_damaged_escort_is_repaired_by_removing_its_damaged_marker() -> None:
    """[10.0] "Damaged Repair: This involves removing Damaged markers. Note: Crippled markers
    may never be removed." An escort's repair skips Movement [10.1 note]."""
    from referee.engine.core import ScriptedDice
    from referee.rules.carrier_battlegroup import logistics

    st = played(steps=2)
    from referee.rules.carrier_battlegroup.setup import CARRIER

    escort = next(p for p in st.data["cvbg"]["ships"] if p != CARRIER)
    conds = {**st.data["conditions"], escort: {"damage": 1, "crippled": False}}
    st = st.with_data(conditions=conds)
    order = doc(f"[logistics]\nrepair {escort}\n").orders[0]
    assert logistics.check_repairs(module(), st, [order]) == []
    assert logistics.skips_movement(st, [order])
    ev: list = []
    after = logistics.repair_10_1(module(), st, order, ScriptedDice([6] * 6), ev)
    assert escort not in after.data["conditions"]
    assert [e.rule for e in ev] == ["10.0"] and ev[0].data["repaired"]
    crippled = st.with_data(conditions={**conds, escort: {"damage": 1, "crippled": True}})
    bad = logistics.check_repairs(module(), crippled, [order])
    assert [v.rule for v in bad] == ["10.0"] and "never removed" in bad[0].message
    healthy = st.with_data(conditions={k: v for k, v in conds.items() if k != escort})
    assert [v.rule for v in logistics.check_repairs(module(), healthy, [order])] == ["10.0"]


def _hangar_short(st: GameState, over: int) -> tuple[GameState, list[str]]:
    """The carrier's Hangar cut so that ``over`` aircraft aboard have no room."""
    aboard = sorted(p for p, w in st.data["air"].items() if w == "hangar")
    deck = st.data["carrier"]["Flight Deck"]
    carrier = {**st.data["carrier"], "Hangar": len(aboard) - deck - over}
    return st.with_data(carrier=carrier), aboard


def test_14_1_the_player_selects_the_aircraft_lost() -> None:
    """[14.1] "If a carrier's hangar space is ever reduced below the number of air units,
    then you must select and then eliminate air units until the limit is not exceeded": the
    standing `lose` order names them."""
    from referee.rules.carrier_battlegroup import end_of_turn

    st, aboard = _hangar_short(played(steps=2), 1)
    pick = aboard[0]  # not the one the default would take (the last)
    ev: list = []
    after = end_of_turn.recovery_15_2(module(), st, ev, lose_first=["US-NONE", pick])
    assert pick not in after.data["air"] and after.units[pick].box == "sunk"
    assert aboard[-1] in after.data["air"]
    assert [e.rule for e in ev if e.kind == "lost"] == ["14.1"]
    assert "chosen by the player" in next(e.text for e in ev if e.kind == "lost")
    orders = doc(f"[standing]\nlose {pick}\n")
    from referee.rules.carrier_battlegroup.turn import standing_of

    assert standing_of(orders)["lose"] == [pick]


def test_14_1_without_a_lose_order_the_last_in_id_order_goes() -> None:
    from referee.rules.carrier_battlegroup import end_of_turn

    st, aboard = _hangar_short(played(steps=2), 1)
    ev: list = []
    after = end_of_turn.recovery_15_2(module(), st, ev)
    assert aboard[-1] not in after.data["air"] and aboard[0] in after.data["air"]
    assert "the last in id order" in next(e.text for e in ev if e.kind == "lost")


def test_9_2_a_land_based_aircraft_bought_at_sea_is_placed_on_a_nato_base() -> None:
    """[9.1] "Aircraft purchased after initial deployment are placed on any NATO base"; land
    based aircraft "can only be based on land" [3.2] (reading land_aircraft_to_base on, as
    new games record): the nearest NATO base; off, the older reading, the CVBG's space."""
    from referee.engine.graphboard import PointBoard
    from referee.rules.carrier_battlegroup.cargo import land_base_9_1

    board = PointBoard(module().map)
    st = played(steps=2)
    sea = "North Sea 1"
    assert board.terrain(sea) != "nato_base"
    on = st.with_data(flags={"land_aircraft_to_base": True})
    base = land_base_9_1(module(), on, sea)
    assert board.terrain(base) == "nato_base"
    bases = [s for s in board.locations() if board.terrain(s) == "nato_base"]
    assert board.distance(sea, base) == min(board.distance(sea, b) for b in bases)
    assert land_base_9_1(module(), on, "Iceland") == "Iceland"
    for flag in ({"land_aircraft_to_base": False}, {}):
        assert land_base_9_1(module(), st.with_data(flags=flag), sea) == sea


def test_5_0_step_2c_trade_cargo_between_ships_that_can_carry_it() -> None:
    """[5.0 step 2c] "Trade Cargo: Switch Cargo markers between ships in the same space
    (assuming they are of the type which can carry the cargoes)"; a Logistics Phase skips
    the Movement Phase [5.0 step 2 note]."""
    from referee.rules.carrier_battlegroup import cargo

    m = module()
    st = played(steps=2)
    ships = st.data["cvbg"]["ships"]
    missile, under = sorted(st.data["missiles"].items())[0]
    other = next(s for s in ships if s != under and cargo.capacity_of(m, s) > 0)
    # one of the other ship's missiles was fired [21.6]: it has room for one more
    fired = next(p for p, s in sorted(st.data["missiles"].items()) if s == other)
    st = st.with_data(missiles={p: s for p, s in st.data["missiles"].items() if p != fired})
    room = [other]
    order = doc(f"[logistics]\ntrade {missile} -> {room[0]}\n").orders[0]
    assert cargo.check_trades(m, st, [order]) == []
    ev: list = []
    after = cargo.carry_out_trades(st, [order], ev)
    assert after.data["missiles"][missile] == room[0]
    assert after.units[missile].box == f"carried:{room[0]}"
    none = [s for s in ships if cargo.capacity_of(m, s) == 0]
    if none:
        bad = cargo.check_trades(
            m, st, [doc(f"[logistics]\ntrade {missile} -> {none[0]}\n").orders[0]]
        )
        assert [v.rule for v in bad] == ["15.1"]
    text = f'[logistics]\ntrade {missile} -> {room[0]}\n[movement]\nmove "North Sea 1"\n'
    bad = ruleset().validate(m, st, doc(text))
    assert "5.0" in [v.rule for v in bad]  # the trade skips the Movement Phase


def test_22_2_a_flight_deck_at_0_launches_nothing_even_with_its_crew() -> None:
    """[22.2] "If a system goes to zero, that system ceases to function for any game
    purpose": the Flight Deck crew's +1 [15.0] does not revive a Flight Deck at 0."""
    from referee.rules.carrier_battlegroup.launch import flight_deck_15_0

    st = played(steps=2)
    crewed = st.with_data(crews=sorted({*st.data["crews"], "US-CREW-FD"}))
    deck = st.data["carrier"]["Flight Deck"]
    assert flight_deck_15_0(crewed) == deck + 1
    zero = crewed.with_data(carrier={**crewed.data["carrier"], "Flight Deck": 0})
    assert flight_deck_15_0(zero) == 0
