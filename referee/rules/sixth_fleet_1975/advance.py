"""Advance after combat [8.5][10.45]: one rule, checked the same way in validation and in
resolution.

After an attack empties the attacked hex of enemy units, up to three of the attackers may
enter it at once (``advance UNIT ... -> HEX`` in the Combat Phase's orders) [8.5][10.45];
they may not attack again this phase [8.5]. After an 8.24 retreat leaves a hex empty, the
non-phasing player may advance into it "if he wishes" [8.5]: by his standing orders
(``advance ... when-vacated``) or, when none covers the hex, by answering a pending decision
(flag ``ask_advance_after_824``; older games: standing orders only). Whether a unit may
enter the hex is :func:`advance_problem_8_5`, asked by the validator
on the position the orders are written against and by the referee after the dice.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.driver import Task
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.attack_advanced import record_advance_8_5_4
from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
from referee.rules.sixth_fleet_1975.combat import phase_record, with_record
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.decisions import pend, phase_orders, standing_orders
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12, terrain_case_10_1
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.stacking import room_for_7_22


def advance_problem_8_5(
    game: Game, state: GameState, unit: str, hex_id: str, side: str
) -> Violation | None:
    """Why ``unit`` of ``side`` may not advance into ``hex_id`` now, or ``None``: it is on
    the map, next to the hex, may enter its terrain [10.11][10.12], the hex is not closed to
    it [12.3][14.4] nor an undestroyed enemy Defended hex [10.15], and stacking allows it (the
    limit holds throughout the Combat Phase [9.41]). The message completes "UNIT ..." /
    "UNIT cannot advance: ..."; the rule is the case that forbids the hex, most specific
    first, with the advance rule [8.5] second (so does the refusal event)."""
    u = state.units[unit]
    if u.location is None or u.side != side:
        return Violation("8.5", "not on the map", code="not-on-map", word=unit, unit=unit)
    if not game.board.adjacent(u.location, hex_id):
        return Violation(
            "8.5", f"{u.location} is not adjacent to {hex_id}", code="not-adjacent", word=unit
        )
    if entry_cost_5_12(game, state, unit, hex_id) is None:
        return Violation(
            terrain_case_10_1(game, hex_id),
            f"cannot enter the terrain of {hex_id} [8.5]",
            code="terrain",
            word=unit,
            unit=unit,
        )
    closed = closed_area_12_3(game, state, unit, hex_id)
    if closed is not None:
        return Violation(closed, f"may not enter {hex_id}", code="closed", word=unit, unit=unit)
    if game.enemy_defended(state, hex_id, side):
        return Violation(
            "10.15", f"may not enter {hex_id}", code="enemy-defended-hex", word=unit, unit=unit
        )
    if not room_for_7_22(game, state, hex_id, side, [unit]):
        return Violation(
            "9.41", "would break the stacking limit [8.5]", code="stacking", word=unit, unit=unit
        )
    return None


def over_limit_8_5(game: Game, count: int) -> bool:
    """More units than may advance into one hex [8.5] (a flag: 3 by the rulebook)."""
    return count > game.flags.advance_limit


def check_advances_8_5(
    game: Game,
    state: GameState,
    side: str,
    orders: tuple[Order, ...],
    attackers_of: dict[str, set[str]],
    defended_attacked: set[str],
) -> list[Violation]:
    """The Combat Phase's ``advance`` orders, against the attacks declared before them
    (``attackers_of``: attacked hex -> attackers): only attackers of a unit in the hex
    advance into it, each one able to, at most three per hex [8.5][10.45]. Whether a unit
    is able to is :func:`advance_problem_8_5` on the position the orders are written
    against, with each attacked Defended hex destroyed (an advance into it follows only
    that result [10.44][10.45])."""
    if defended_attacked:
        gone = {*(facts_of(state).destroyed_defended or ()), *defended_attacked}
        state = SixthFleetFacts.put(state, destroyed_defended=sorted(gone))
    probs: list[Violation] = []
    per_hex: dict[str, int] = {}
    for o in orders:
        if o.verb != "advance":
            continue
        h = o.hexes[0]
        allowed = attackers_of.get(h, set())
        for u in o.units:
            if u not in state.units:
                continue
            if u not in allowed:
                probs.append(
                    Violation(
                        "8.5",
                        f"{u} may advance into {h} only after attacking a unit in it",
                        code="not-an-attacker",
                        word=u,
                        unit=u,
                    ).at(o)
                )
                continue
            why = advance_problem_8_5(game, state, u, h, side)
            if why is not None:
                probs.append(
                    Violation(
                        why.rule, f"{u} {why.message}", code=why.code, word=u, unit=u, hint=why.hint
                    ).at(o)
                )
            per_hex[h] = per_hex.get(h, 0) + 1
        if over_limit_8_5(game, per_hex.get(h, 0)):
            probs.append(
                Violation(
                    "8.5",
                    f"at most {game.flags.advance_limit} units may advance into {h}",
                    code="too-many",
                ).at(o)
            )
    return probs


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
            if over_limit_8_5(game, n + 1):
                ev.append(
                    Event(
                        "advance-refused",
                        "8.5",
                        f"{unit}: at most {game.flags.advance_limit} units may advance",
                        {"unit": unit},
                    )
                )
                continue
            why = advance_problem_8_5(game, state, unit, hex_id, side)
            if why is not None:
                ev.append(
                    Event(
                        "advance-refused",
                        why.rule,  # the case that forbids the hex first; [8.5] in the message
                        f"{unit} cannot advance: {why.message}",
                        {"unit": unit},
                    )
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
    """The non-phasing player's advance into a hex emptied by 8.24 retreats, "if he wishes"
    [8.5]. His standing orders for the hex (``advance UNIT -> HEX when-vacated``) decide when
    he wrote any; otherwise, under ``ask_advance_after_824``, it is his decision, asked one
    unit at a time (:func:`_ask_advance`); under the older reading he does not advance."""
    hex_id, side = str(task["hex"]), str(task["side"])
    if any(state.units[e].side != side for e in state.stacks.get(hex_id, ())):
        return state
    standing = [
        o for o in standing_orders(state, side) if o.verb == "advance" and o.hexes[0] == hex_id
    ]
    if standing or not game.flags.ask_advance_after_824:
        return _advance_standing(game, state, hex_id, side, standing, ev)
    return _ask_advance(game, state, task, hex_id, side, ev)


def _advance_standing(
    game: Game,
    state: GameState,
    hex_id: str,
    side: str,
    standing: list[Order],
    ev: list[Event],
) -> GameState:
    n = 0
    for o in standing:
        for unit in o.units:
            if unit not in state.units or over_limit_8_5(game, n + 1):
                continue
            if advance_problem_8_5(game, state, unit, hex_id, side) is not None:
                continue
            frm = state.units[unit].location
            state = record_advance_8_5_4(game, move_piece(game, state, unit, hex_id), unit)
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


NO_ADVANCE = "none"
"""The answer that ends the non-phasing player's advance after an 8.24 retreat [8.5]."""


def advance_candidates_8_5(game: Game, state: GameState, hex_id: str, side: str) -> list[str]:
    """The units of ``side`` that may advance into ``hex_id`` now: next to it, able to enter
    it [8.5] (:func:`advance_problem_8_5`), not air units [8.72]."""
    return [
        uid
        for uid, u in sorted(state.units.items())
        if u.side == side
        and u.location is not None
        and not game.is_air(uid)
        and advance_problem_8_5(game, state, uid, hex_id, side) is None
    ]


def _ask_advance(
    game: Game, state: GameState, task: Task, hex_id: str, side: str, ev: list[Event]
) -> GameState:
    """One unit per decision: the answer names a unit that advances, or ``none``; the
    question is asked again while units may still enter, up to the limit [8.5]."""
    advanced = [str(u) for u in task.get("advanced", ())]
    choice = task.get("choice")
    rest = {k: v for k, v in task.items() if k not in ("choice", "decision")}
    if choice == NO_ADVANCE:
        return state
    if choice is not None:
        if choice in advance_candidates_8_5(game, state, hex_id, side):
            frm = state.units[str(choice)].location
            state = move_piece(game, state, str(choice), hex_id)
            state = record_advance_8_5_4(game, state, str(choice))
            advanced.append(str(choice))
            ev.append(
                Event(
                    "advance",
                    "8.5",
                    f"{choice} advances {frm} -> {hex_id}",
                    {"unit": choice, "from": frm, "to": hex_id},
                )
            )
        else:
            ev.append(
                Event(
                    "advance-refused",
                    "8.5",
                    f"{choice} cannot advance into {hex_id}",
                    {"unit": choice},
                )
            )
    if over_limit_8_5(game, len(advanced) + 1):
        return state
    options = advance_candidates_8_5(game, state, hex_id, side)
    if not options:
        return state
    rest["advanced"] = advanced
    return pend(
        state,
        rest,
        side=side,
        kind="advance",
        rule="8.5",
        prompt=(
            f"{hex_id} was left empty by an 8.24 retreat: choose a unit to advance into it, "
            f"or {NO_ADVANCE}"
        ),
        options=[*options, NO_ADVANCE],
    )
