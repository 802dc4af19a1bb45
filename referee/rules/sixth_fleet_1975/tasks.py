"""Resolution steps: the handlers the phase driver runs, one small task at a time.

Each handler is pure: ``(state, task, dice, events) -> state``. A handler that needs a
player's decision calls :func:`decisions.pend` and returns; the driver then stops with the
task back at the front of the queue and ``state.pending`` set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState
from referee.engine.driver import Handler, push_front
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16, is_based_9_22
from referee.rules.sixth_fleet_1975.combat import analyse_attack, phase_record, with_record
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.decisions import (
    elimination_preference,
    pend,
    phase_orders,
    preferred,
    standing_orders,
)
from referee.rules.sixth_fleet_1975.mandatory import (
    best_attacks_from,
    must_retreat_8_24,
    obligated_hexes_8_21,
)
from referee.rules.sixth_fleet_1975.middle_east import middle_east_roll_14_3, roll_due_14_3
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12
from referee.rules.sixth_fleet_1975.optional import black_sea_delay_14_4, first_strike_14_1
from referee.rules.sixth_fleet_1975.position import eliminate, move_piece, set_status
from referee.rules.sixth_fleet_1975.reinforcement import due_12_2, entry_hexes_12_2
from referee.rules.sixth_fleet_1975.retreat import (
    displace_hexes_8_71,
    displacement_hexes_8_71,
    retreat_hexes_8_71,
)
from referee.rules.sixth_fleet_1975.stacking import (
    AIR_LIMIT,
    NAVAL_LIMIT,
    counts,
    overstacked_7_0,
    room_for_7_22,
)
from referee.rules.sixth_fleet_1975.strengths import fmt
from referee.rules.sixth_fleet_1975.victory import score_13_0

Task = Mapping[str, Any]


def auto(game: Game, state: GameState) -> list[dict[str, Any]] | None:
    """What the current phase does on its own: enter it once; otherwise wait for orders."""
    if state.phase == seq.GAME_OVER and state.data.get("entered"):
        return None
    if not state.data.get("entered"):
        return [{"t": "enter"}]
    return None


# ---- phase entry and exit -------------------------------------------------------------------


def enter(game: Game, state: GameState, task: Task, dice: Dice, events: list[Event]) -> GameState:
    """Begin the current step [4.0]: the 14.3 roll as the Soviet set-up begins [14.3]; an
    empty Combat Phase skipped [8.21]; the First Strike [14.1] and the [9.22] flags as a
    Movement Phase begins; the Black Sea delay [14.4] and forfeits [12.2] in the Interphase;
    the final score [13.2]."""
    state = state.with_data(entered=True)
    side = state.active_side
    events.append(
        Event(
            "phase",
            "4.0",
            f"{seq.describe(state)} begins",
            {"turn": state.turn, "phase": state.phase, "side": side},
        )
    )
    if state.phase == seq.SETUP:
        if roll_due_14_3(game, state):
            state = middle_east_roll_14_3(game, state, dice, events)
    elif state.phase == seq.COMBAT:
        state = state.with_data(combat=None)
        assert side is not None
        if not _combat_possible(game, state, side):
            events.append(
                Event(
                    "skip",
                    "8.21",
                    f"{side} has no possible attack and no unit "
                    "that must attack: the Combat Phase is skipped [8.11][8.21]",
                )
            )
            return push_front(state, [{"t": "end_phase"}])
    elif state.phase == seq.MOVEMENT:
        assert side is not None
        if (
            "14.1" in state.options
            and side == game.flags.soviet_side
            and not state.data.get("first_strike_done")
        ):
            state = first_strike_14_1(game, state, dice, events)
        state = _flag_returning_9_22(game, state, side, events)
    elif state.phase == seq.REINFORCEMENT:
        assert side is not None
        if (
            "14.4" in state.options
            and side == game.flags.soviet_side
            and "gate_turn" not in state.data
            and game.flags.black_sea_gate
        ):
            state = black_sea_delay_14_4(game, state, dice, events)
        left = 0
        for unit, r in due_12_2(game, state, side):
            if entry_hexes_12_2(game, state, unit, r):
                left += 1
                continue
            u = state.units[unit]
            from referee.engine.core import UnitState

            state = state.with_unit(UnitState(u.id, u.side, None, "forfeited", frozenset()))
            events.append(
                Event(
                    "forfeit",
                    r.rule or "12.2",
                    f"{unit} cannot be placed (no LOC or no room) and is forfeited",
                    {"unit": unit},
                )
            )
        if left == 0:
            return push_front(state, [{"t": "end_phase"}])
    elif state.phase == seq.GAME_OVER:
        sc = score_13_0(game, state)
        events.append(
            Event("victory", "13.2", f"Game over: net {sc['net']} VP, {sc['level']}", {"score": sc})
        )
    return state


def _combat_possible(game: Game, state: GameState, side: str) -> bool:
    if obligated_hexes_8_21(game, state, side):
        return True
    for h in sorted(state.stacks):
        if any(state.units[u].side == side for u in state.stacks[h]):
            if best_attacks_from(game, state, side, h):
                return True
            for n in game.board.neighbours(h):
                if (
                    game.enemy_defended(state, n, side)
                    and not state.stacks.get(n)
                    and any(
                        game.value(u, "AS") > 0
                        for u in state.stacks[h]
                        if state.units[u].side == side
                    )
                ):
                    return True
    return False


def _flag_returning_9_22(game: Game, state: GameState, side: str, ev: list[Event]) -> GameState:
    """At the start of a friendly Movement Phase, turn over every air unit not on a base
    [9.22]; they must end the phase on one."""
    flagged = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if (
            u.side == side
            and u.location is not None
            and game.is_air(u.id)
            and not is_based_9_22(game, state, u.id)
        ):
            state = set_status(state, u.id, u.status | {"returning"})
            flagged.append(u.id)
    if flagged:
        ev.append(
            Event(
                "returning",
                "9.22",
                "must end this phase on a base: " + ", ".join(flagged),
                {"units": flagged},
            )
        )
    return state


def end_phase(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    turn, phase, side = seq.next_step_4_0(game, state)
    if turn > state.turn and state.phase != seq.SETUP:
        ev.append(Event("turn", "4.0", f"Game-Turn Indication: Game-Turn {turn}", {"turn": turn}))
    return state.evolve(turn=turn, phase=phase, active_side=side).with_data(
        entered=False, combat=None, phase_orders=None
    )


# ---- combat ---------------------------------------------------------------------------------


def attack(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """Resolve one attack [8.0]: totals, differential, CRT, die roll, retreats at once."""
    o = Order.from_json(task["order"])
    side = state.active_side
    assert side is not None
    rec = phase_record(state)
    from_hex = state.units[o.units[0]].location
    calc, probs = analyse_attack(game, state, side, o.units, o.targets, rec)
    if from_hex:
        rec["attacked_from"].append(from_hex)
    if probs or calc is None:
        p = probs[0]
        ev.append(
            Event(
                "attack-cancelled", p.rule, f"{o.text}: cancelled: {p.message}", {"order": o.text}
            )
        )
        return with_record(state, rec)
    rec["used"].extend(o.units)
    rec["attacked"].extend(calc.targets)
    state = with_record(state, rec)
    data = calc.to_json()
    text = (
        f"{' '.join(o.units)} attack {' '.join(calc.targets) or 'hex ' + calc.target_hex}: "
        f"{calc.strength_key} {fmt(calc.attack_total)} - DEF {fmt(calc.defense_total)} = "
        f"{fmt(calc.differential)}, column {calc.column}, ECM {calc.ecm_row}: {calc.cell}"
    )
    ev.append(Event("attack", "8.0", text, data))
    assert calc.cell is not None
    if calc.cell.no_effect:
        ev.append(Event("no-effect", "8.9", "'*': no effect, no die roll", {}))
        return state
    roll = dice.roll(6, f"combat: {o.text}", "8.9")
    hit = calc.cell.hi is not None and roll <= calc.cell.hi
    ev.append(
        Event(
            "roll",
            "8.9",
            f"die {roll}: " + ("retreat" if hit else "no effect"),
            {"roll": roll, "needed": str(calc.cell), "retreat": hit},
        )
    )
    if not hit:
        return state
    if calc.category == "defended":
        dd = sorted({*state.data.get("destroyed_defended", ()), calc.target_hex})
        state = state.with_data(destroyed_defended=dd)
        ev.append(
            Event(
                "destroy-defended",
                "10.44",
                f"the Defended hex {calc.target_hex} is destroyed",
                {"hex": calc.target_hex},
            )
        )
        return push_front(
            state, [{"t": "advance_check", "hex": calc.target_hex, "attackers": list(o.units)}]
        )
    tasks: list[dict[str, Any]] = [
        {"t": "retreat", "unit": t, "cause": "crt"} for t in calc.targets
    ]
    tasks.append({"t": "advance_check", "hex": calc.target_hex, "attackers": list(o.units)})
    return push_front(state, tasks)


def retreat(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """One unit retreats one hex, chosen by its owner [8.71]; air units are eliminated
    [8.72]; no retreat: eliminated [8.71]; displacement as a last resort [8.71]."""
    unit = str(task["unit"])
    u = state.units[unit]
    if u.location is None:
        return state
    rule = "8.24" if task.get("cause") == "8.24" else "8.71"
    if game.is_air(unit):
        return eliminate(game, state, unit, "8.72", "air units cannot retreat", ev)
    options = retreat_hexes_8_71(game, state, unit)
    displacing = False
    if not options:
        options = displacement_hexes_8_71(game, state, unit)
        displacing = True
        if not options:
            return eliminate(game, state, unit, "8.71", f"no legal retreat from {u.location}", ev)
    choice = _choose(state, task, u.side, "retreat", unit, u.location, options)
    if choice is None:
        how = " (each choice displaces the enemy units there [8.71])" if displacing else ""
        return pend(
            state,
            task,
            side=u.side,
            kind="retreat",
            rule=rule,
            prompt=f"Retreat {unit} from {u.location} one hex{how}: choose the hex",
            options=options,
        )
    if displacing:
        occupants = list(state.stacks.get(choice, ()))
        tasks = [{"t": "displace", "unit": e, "avoid": u.location} for e in occupants]
        tasks.append(
            {"t": "finish_retreat", "unit": unit, "hex": choice, "cause": task.get("cause")}
        )
        return push_front(state, tasks)
    return _do_retreat(game, state, unit, choice, str(task.get("cause")), ev)


def _choose(
    state: GameState,
    task: Task,
    side: str,
    verb: str,
    unit: str,
    here: str | None,
    options: list[str],
) -> str | None:
    if task.get("choice") in options:
        return str(task["choice"])
    pick, _ = preferred(state, side, verb, unit, here, options)
    if pick is not None:
        return pick
    if len(options) == 1:
        return options[0]
    return None


def _do_retreat(
    game: Game, state: GameState, unit: str, to: str, cause: str, ev: list[Event]
) -> GameState:
    u = state.units[unit]
    frm = u.location
    assert frm is not None
    state = move_piece(game, state, unit, to)
    rule = "8.24" if cause == "8.24" else "8.71"
    ev.append(
        Event(
            "retreat", rule, f"{unit} retreats {frm} -> {to}", {"unit": unit, "from": frm, "to": to}
        )
    )
    if cause == "8.24":
        rec = phase_record(state)
        rec["retreated_824"].append(unit)
        state = with_record(state, rec)
        if not any(state.units[x].side == u.side for x in state.stacks.get(frm, ())):
            state = push_front(
                state, [{"t": "advance_vacated", "hex": frm, "side": game.enemy_of(u.side)}]
            )
    return state


def displace(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    unit = str(task["unit"])
    u = state.units[unit]
    if u.location is None:
        return state
    options = displace_hexes_8_71(game, state, unit, avoid=task.get("avoid"))
    if not options:
        ev.append(Event("displace-failed", "8.71", f"{unit} cannot be displaced", {"unit": unit}))
        return state
    choice = _choose(state, task, u.side, "displace", unit, u.location, options)
    if choice is None:
        return pend(
            state,
            task,
            side=u.side,
            kind="displace",
            rule="8.71",
            prompt=f"{unit} is displaced from {u.location}: choose the hex",
            options=options,
        )
    frm = u.location
    state = move_piece(game, state, unit, choice)
    ev.append(
        Event(
            "displace",
            "8.71",
            f"{unit} displaced {frm} -> {choice}",
            {"unit": unit, "from": frm, "to": choice},
        )
    )
    return state


def finish_retreat(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    unit, to = str(task["unit"]), str(task["hex"])
    u = state.units[unit]
    if u.location is None:
        return state
    if any(state.units[e].side != u.side for e in state.stacks.get(to, ())):
        return eliminate(game, state, unit, "8.71", f"the units in {to} could not be displaced", ev)
    return _do_retreat(game, state, unit, to, str(task.get("cause")), ev)


def _advance_ok(game: Game, state: GameState, unit: str, hex_id: str, side: str) -> str | None:
    u = state.units[unit]
    if u.location is None or u.side != side:
        return "not on the map"
    if not game.board.adjacent(u.location, hex_id):
        return f"{u.location} is not adjacent to {hex_id}"
    if entry_cost_5_12(game, state, unit, hex_id) is None:
        return f"cannot enter the terrain of {hex_id}"
    from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3

    if closed_area_12_3(game, state, unit, hex_id) or game.enemy_defended(state, hex_id, side):
        return f"may not enter {hex_id}"
    if not room_for_7_22(game, state, hex_id, side, [unit]):
        return "stacking limit"
    return None


def advance_check(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """Advance after combat: when the attacked hex is empty of enemy units, up to three of
    the attackers may enter it at once [8.5][10.45]; they may not attack again [8.5]."""
    hex_id = str(task["hex"])
    side = state.active_side
    assert side is not None
    if any(state.units[e].side != side for e in state.stacks.get(hex_id, ())):
        return state
    attackers = set(task.get("attackers", ()))
    rec = phase_record(state)
    n = 0
    for o in phase_orders(state, side):
        if o.verb != "advance" or o.hexes[0] != hex_id:
            continue
        for unit in o.units:
            if unit not in attackers or unit in rec["advanced"]:
                continue
            if n >= game.flags.advance_limit:
                ev.append(
                    Event(
                        "advance-refused",
                        "8.5",
                        f"{unit}: at most {game.flags.advance_limit} units may advance",
                        {"unit": unit},
                    )
                )
                continue
            why = _advance_ok(game, state, unit, hex_id, side)
            if why:
                ev.append(
                    Event("advance-refused", "8.5", f"{unit} cannot advance: {why}", {"unit": unit})
                )
                continue
            frm = state.units[unit].location
            state = move_piece(game, state, unit, hex_id)
            rec["advanced"].append(unit)
            n += 1
            ev.append(
                Event(
                    "advance",
                    "8.5",
                    f"{unit} advances {frm} -> {hex_id}",
                    {"unit": unit, "from": frm, "to": hex_id},
                )
            )
    return with_record(state, rec)


def advance_vacated(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """The non-phasing player's advance into a hex emptied by 8.24 retreats, by his standing
    orders (``advance UNIT -> HEX when-vacated``) [8.5]."""
    hex_id, side = str(task["hex"]), str(task["side"])
    if any(state.units[e].side != side for e in state.stacks.get(hex_id, ())):
        return state
    n = 0
    for o in standing_orders(state, side):
        if o.verb != "advance" or o.hexes[0] != hex_id:
            continue
        for unit in o.units:
            if unit not in state.units or n >= game.flags.advance_limit:
                continue
            if _advance_ok(game, state, unit, hex_id, side):
                continue
            frm = state.units[unit].location
            state = move_piece(game, state, unit, hex_id)
            n += 1
            ev.append(
                Event(
                    "advance",
                    "8.5",
                    f"{unit} advances {frm} -> {hex_id} (standing)",
                    {"unit": unit, "from": frm, "to": hex_id},
                )
            )
    return state


def end_combat(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """The phasing player's attacks are over: units of obligated hexes that made no attack
    and had none at 0 or better retreat now [8.24] (digest §16.5)."""
    side = state.active_side
    assert side is not None
    rec = phase_record(state)
    tasks: list[dict[str, Any]] = []
    for hex_id, _units in obligated_hexes_8_21(game, state, side, rec).items():
        if hex_id in rec["attacked_from"]:
            continue
        if best_attacks_from(game, state, side, hex_id, rec):
            ev.append(
                Event(
                    "obligation-unmet",
                    "8.21",
                    f"{hex_id} had a legal attack but made none",
                    {"hex": hex_id},
                )
            )
            continue
        for u in must_retreat_8_24(game, state, side, hex_id):
            ev.append(
                Event(
                    "must-retreat",
                    "8.24",
                    f"{u} in {hex_id} cannot attack at 0 or better and must retreat",
                    {"unit": u, "hex": hex_id},
                )
            )
            tasks.append({"t": "retreat", "unit": u, "cause": "8.24"})
    tasks.append({"t": "end_phase"})
    return push_front(state, tasks)


# ---- movement -------------------------------------------------------------------------------


def end_movement(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """End of a Movement Phase: air units that began it off a base and are not on one now are
    grounded [9.15] or eliminated [9.22]; over-stacked units go at the opponent's choice
    [7.0]."""
    side = state.active_side
    assert side is not None
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != side or "returning" not in u.status:
            continue
        state = set_status(state, u.id, u.status - {"returning"})
        if state.units[u.id].location is None:
            continue
        if is_based_9_22(game, state, u.id):
            continue
        loc = state.units[u.id].location
        assert loc is not None
        if side == game.flags.nato_side and airbase_usable_9_16(
            game, state, u.id, loc, any_friendly=True
        ):
            state = eliminate(
                game,
                state,
                u.id,
                "9.15",
                f"landed at {loc}, not its own nation's base",
                ev,
                scores=False,
                box="grounded",
            )
        else:
            state = eliminate(
                game,
                state,
                u.id,
                "9.22",
                "did not return to a base",
                ev,
                scores=game.flags.air_return_losses_score,
            )
    tasks: list[dict[str, Any]] = [
        {"t": "overstack", "hex": h, "side": side} for h in overstacked_7_0(game, state, side)
    ]
    tasks.append({"t": "end_phase"})
    return push_front(state, tasks)


def overstack(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """Over-stacked units are eliminated at once, the opponent choosing which [7.0]."""
    hex_id, side = str(task["hex"]), str(task["side"])
    naval, air = counts(game, state, hex_id, side)
    if naval > NAVAL_LIMIT:
        pool = [
            u
            for u in state.stacks.get(hex_id, ())
            if state.units[u].side == side and not game.is_air(u)
        ]
    elif air > AIR_LIMIT:
        pool = [
            u
            for u in state.stacks.get(hex_id, ())
            if state.units[u].side == side and game.is_air(u)
        ]
    else:
        return state
    pool = sorted(pool)
    decider = game.enemy_of(side)
    choice = task.get("choice") if task.get("choice") in pool else None
    if choice is None:
        choice = elimination_preference(state, decider, pool)
    if choice is None:
        return pend(
            state,
            task,
            side=decider,
            kind="overstack",
            rule="7.0",
            prompt=f"{hex_id} is over-stacked: choose a {side} unit to eliminate",
            options=pool,
        )
    state = eliminate(
        game,
        state,
        str(choice),
        "7.0",
        f"over-stacked in {hex_id}",
        ev,
        scores=game.flags.overstack_losses_score,
    )
    return push_front(state, [{"t": "overstack", "hex": hex_id, "side": side}])


def handlers(game: Game) -> dict[str, Handler]:
    def bind(fn: Any) -> Handler:
        return lambda s, t, d, e: fn(game, s, t, d, e)

    return {
        "enter": bind(enter),
        "end_phase": bind(end_phase),
        "attack": bind(attack),
        "retreat": bind(retreat),
        "displace": bind(displace),
        "finish_retreat": bind(finish_retreat),
        "advance_check": bind(advance_check),
        "advance_vacated": bind(advance_vacated),
        "end_combat": bind(end_combat),
        "end_movement": bind(end_movement),
        "overstack": bind(overstack),
    }
