"""The Combat Phase [8.0]: its orders checked, its attacks carried out, and its end.

At the start a phase with no possible attack and no obligation is skipped [8.11][8.21].
Validation (:func:`check_combat`) walks the attacks in the order written against the phase's
record, as the referee will declare them [7.44][8.1x][8.3x][8.4x]; then the obligations
[8.21]-[8.24] (:mod:`mandatory`) and the advances [8.5] (:mod:`advance`). Resolution
(:func:`carry_out_combat`) queues one ``attack`` task per attack and ``end_combat``; each
attack is analysed again on the position the earlier results left (:func:`attack`), rolled
[8.9] and its results queued (:mod:`combat_results`, :mod:`advance`); at the end the
retreats owed under 8.24 are queued (:func:`mandatory.retreats_owed_8_24`), and under the
[8.5.4] ruling the phasing player may then attack, in a further file, the units that advanced
after them (:mod:`attack_advanced`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.driver import Task, push_front
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.advance import check_advances_8_5
from referee.rules.sixth_fleet_1975.attack_advanced import check_followup_8_5_4, followup_8_5_4
from referee.rules.sixth_fleet_1975.combat import (
    DEFENDED_HEX_OCCUPIED,
    AttackCalc,
    analyse_attack,
    defended_target_10_44,
    is_hex_target,
    phase_record,
    with_record,
)
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.mandatory import (
    best_attacks_from,
    check_obligations_8_21,
    obligated_hexes_8_21,
    retreats_owed_8_24,
)
from referee.rules.sixth_fleet_1975.retreat import RetreatCause
from referee.rules.sixth_fleet_1975.strengths import fmt

# ---- the start of the phase -----------------------------------------------------------------


def enter_combat(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """A new phase record; the phase is skipped when the phasing side has no possible attack
    and no unit that must attack [8.11][8.21]."""
    state = SixthFleetFacts.put(state, combat=None)
    side = state.active_side
    assert side is not None
    if not combat_possible_8_11(game, state, side):
        events.append(
            Event(
                "skip",
                "8.21",
                f"{side} has no possible attack and no unit "
                "that must attack: the Combat Phase is skipped [8.11][8.21]",
            )
        )
        return push_front(state, [{"t": "end_phase"}])
    return state


def combat_possible_8_11(game: Game, state: GameState, side: str) -> bool:
    """An obligated hex [8.21], a legal attack from some hex, or a vacant enemy Defended hex
    next to a unit with an AS strength [10.44]."""
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


# ---- the orders ---------------------------------------------------------------------------


def attack_hexes(game: Game, state: GameState, o: Order) -> list[str]:
    """The hexes an ``attack`` order attacks from, whose obligation it meets [8.21]: its
    first unit's; every attacker's with ``allow_multi_hex_attack`` [8.12] (without it an
    attack from several hexes is refused, and the other hexes have not attacked)."""
    units = o.units if game.flags.allow_multi_hex_attack else o.units[:1]
    return sorted({loc for u in units if (loc := state.units[u].location)})


def counts_as_attacked_7_44(game: Game, calc: AttackCalc) -> bool:
    """Has an attack "been made" on its targets for the stack order [7.44]? Yes, unless its
    CRT entry is ``*`` (no effect, no roll) and the game reads [7.44] as needing an attack
    that could have a result (``star_counts_as_attacked=False``; digest §16.6)."""
    no_effect = calc.cell is not None and calc.cell.no_effect
    return game.flags.star_counts_as_attacked or not no_effect


@dataclass
class Declared:
    """What a Combat Phase's orders declare: the hexes that attack enemy units [8.21], the
    attackers of each attacked hex [8.5], the enemy Defended hexes attacked [10.44]."""

    attacks_from: set[str] = field(default_factory=set)
    attackers_of: dict[str, set[str]] = field(default_factory=dict)
    defended: set[str] = field(default_factory=set)


def check_attacks_8_0(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> tuple[list[Violation], Declared]:
    """Every attack legal as declared, in the order written [7.44][8.1x][8.3x][8.4x], and
    what the attacks declare. An attack on a Defended hex [10.44] may be declared after
    attacks on every unit in it."""
    probs: list[Violation] = []
    rec = phase_record(state)
    declared = Declared()
    declared_targets: set[str] = set()
    for o in orders:
        if o.verb != "attack":
            continue
        if any(u not in state.units for u in o.units) or any(
            t not in state.units for t in o.targets if not is_hex_target(t)
        ):
            continue
        calc, found = analyse_attack(game, state, side, o.units, o.targets, rec)
        defended = defended_target_10_44(o.targets)
        if defended is not None:
            occupants = set(state.stacks.get(defended, ()))
            if occupants <= declared_targets:
                found = [p for p in found if p.code != DEFENDED_HEX_OCCUPIED]
        probs.extend(p.at(o) for p in found)
        if defended is None:
            # only an attack on enemy *units* meets the hex's obligation [8.21]; an empty
            # enemy Defended hex is no unit [10.44]; every attacker's hex attacks (several
            # hexes only with allow_multi_hex_attack [8.12])
            declared.attacks_from.update(attack_hexes(game, state, o))
        rec["used"].extend(o.units)
        if calc is not None:
            if counts_as_attacked_7_44(game, calc):
                rec["attacked"].extend(calc.targets)
            declared_targets.update(calc.targets)
            for a in o.units:
                declared.attackers_of.setdefault(calc.target_hex, set()).add(a)
            if calc.category == "defended":
                declared.defended.add(calc.target_hex)
    return probs, declared


def _announcement_problem(o: Order) -> Violation:
    """``option`` in a Combat Phase: the only announcement, the violation of neutral air
    space, is made "at the start of any Soviet Movement Phase" [14.2]."""
    return Violation(
        "14.2" if o.value == "14.2" else (o.value or "14"),
        f"option {o.value} is announced at the start of a Soviet Movement Phase, "
        "not in a Combat Phase",
        code="not-in-movement",
        hint="write it in the [movement] section of the Soviet Movement Phase",
    )


def check_combat(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> list[Violation]:
    """Every attack legal as declared; every obligated hex attacks or retreats
    [8.21]-[8.24]; retreats and advances allowed [8.24][8.5]."""
    probs, declared = check_attacks_8_0(game, state, side, orders)
    probs += [_announcement_problem(o).at(o) for o in orders if o.verb == "option"]
    if followup_8_5_4(state):  # a further file: the obligations were met by the first one
        probs += check_followup_8_5_4(state, orders)
    else:
        probs += check_obligations_8_21(game, state, side, orders, declared.attacks_from)
    probs += check_advances_8_5(game, state, side, orders, declared.attackers_of, declared.defended)
    return probs


def carry_out_combat(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...], events: list[Event]
) -> GameState:
    """Keep the orders decided now for later (``retreat``, ``advance``, ``displace``) and
    queue the attacks in the order written, then the end of the phase."""
    kept = [o.to_json() for o in orders if o.verb in ("retreat", "advance", "displace")]
    state = SixthFleetFacts.put(state, phase_orders={"side": side, "orders": kept})
    attack_tasks: list[dict[str, Any]] = [
        {"t": "attack", "order": o.to_json()} for o in orders if o.verb == "attack"
    ]
    return push_front(state, [*attack_tasks, {"t": "end_combat"}])


# ---- resolution ---------------------------------------------------------------------------


def attack(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """Resolve one attack [8.0]: totals, differential, CRT, die roll, retreats at once."""
    o = Order.from_json(task["order"])
    side = state.active_side
    assert side is not None
    rec = phase_record(state)
    calc, probs = analyse_attack(game, state, side, o.units, o.targets, rec)
    if defended_target_10_44(o.targets) is None:
        rec["attacked_from"].extend(attack_hexes(game, state, o))  # attacks on units only [8.21]
    if probs or calc is None:
        p = probs[0]
        ev.append(
            Event(
                "attack-cancelled", p.rule, f"{o.text}: cancelled: {p.message}", {"order": o.text}
            )
        )
        return with_record(state, rec)
    rec["used"].extend(o.units)
    if counts_as_attacked_7_44(game, calc):
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
        dd = sorted({*(facts_of(state).destroyed_defended or ()), calc.target_hex})
        state = SixthFleetFacts.put(state, destroyed_defended=dd)
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
        {"t": "retreat", "unit": t, "cause": RetreatCause.CRT.value} for t in calc.targets
    ]
    tasks.append({"t": "advance_check", "hex": calc.target_hex, "attackers": list(o.units)})
    return push_front(state, tasks)


def end_combat(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """The phasing player's attacks are over: the retreats owed under 8.24, then the end of
    the phase, or under the [8.5.4] ruling the check for units that advanced after them
    (:func:`attack_advanced.after_retreats_8_5_4`). A further file's attacks end the phase:
    its obligations were met by the first file."""
    side = state.active_side
    assert side is not None
    if followup_8_5_4(state):
        return push_front(state, [{"t": "end_phase"}])
    tasks = retreats_owed_8_24(game, state, side, ev)
    tasks.append({"t": "after_824" if game.flags.attack_advanced_8_5_4 else "end_phase"})
    return push_front(state, tasks)
