"""What a unit may legally do now: the ``referee options`` answer, from the rules' own code.

Movement comes from :func:`movement.reachable` (the validator checks paths with the same step
rule); attacks, single and group [8.3], from :func:`combat.analyse_attack` (the validator's own
check), the groups enumerated by :func:`group_attacks.group_attacks_8_3`.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import is_based_9_22
from referee.rules.sixth_fleet_1975.attack_advanced import followup_8_5_4, not_advanced_8_5_4
from referee.rules.sixth_fleet_1975.combat import AttackCalc, analyse_attack, hex_target
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.group_attacks import (
    MAX_COMBINATIONS,
    die_range_8_9,
    group_attacks_8_3,
)
from referee.rules.sixth_fleet_1975.mandatory import (
    adjacent_enemies,
    must_retreat_8_24,
    obligated_hexes_8_21,
)
from referee.rules.sixth_fleet_1975.movement import reachable, start_hex
from referee.rules.sixth_fleet_1975.strengths import can_attack_unit


def attack_json(calc: AttackCalc) -> dict[str, Any]:
    """One legal attack as ``referee options`` shows it: the computation [8.0] and the die
    rolls that force a retreat [8.9]."""
    return {**calc.to_json(), "die_range": die_range_8_9(calc.cell)}


def _attack_entry(
    game: Game, state: GameState, side: str, unit: str, target: str
) -> dict[str, Any]:
    """A single attack of ``unit`` on ``target`` (a unit or a Defended hex), with the reasons
    the validator would refuse it: its own [8.0] checks, and in a further file the attack on
    a unit that did not advance after the 8.24 retreats [8.5.4]."""
    calc, probs = analyse_attack(game, state, side, (unit,), (target,))
    refused = not_advanced_8_5_4(state, (target,))
    probs = [*probs, *([refused] if refused is not None else [])]
    return {
        "target": target,
        "legal": not probs,
        "why_not": [f"[{p.rule}] {p.message}" for p in probs],
        **(attack_json(calc) if calc is not None else {}),
    }


def _further_file_note(state: GameState) -> str:
    """The note of a further file's step [8.5.4]: its only attacks, no obligation."""
    return (
        "a further [8.5.4] file: only the units that advanced after the 8.24 retreats "
        f"({', '.join(followup_8_5_4(state))}) may be attacked; the obligations of "
        "[8.21]-[8.24] were met by the phase's first file"
    )


def _group_attacks(
    game: Game, state: GameState, side: str, hex_id: str, cap: int, **kw: Any
) -> tuple[list[dict[str, Any]], int]:
    """The legal group attacks [8.3] from ``hex_id`` (``kw``: those of one unit), in a
    further file only those on the units that advanced [8.5.4]; and the count untried."""
    found = group_attacks_8_3(game, state, side, hex_id, cap=cap, **kw)
    kept = [c for c in found.attacks if not_advanced_8_5_4(state, c.targets) is None]
    return [attack_json(c) for c in kept], found.untried


def legal_moves(
    game: Game, state: GameState, unit: str, *, cap: int = MAX_COMBINATIONS
) -> dict[str, Any]:
    """Reachable hexes (cost, path, forced stops), possible single attacks (with the reasons
    an adjacent target cannot be attacked) and the legal group attacks [8.3] ``unit`` can
    take part in."""
    u = state.units[unit]
    out: dict[str, Any] = {
        "unit": unit,
        "side": u.side,
        "location": u.location,
        "box": u.box,
        "phase": seq.describe(state),
        "moves": [],
        "attacks": [],
        "group_attacks": [],
        "group_attacks_untried": 0,
        "notes": [],
    }
    here = start_hex(game, state, unit)
    if here is None:
        out["notes"].append("not on the map")
        return out
    reach = reachable(game, state, unit)
    out["moves"] = [r.to_json() for h, r in sorted(reach.items()) if h != here]
    if game.is_air(unit) and not is_based_9_22(game, state, unit):
        out["notes"].append("off base: must end its next friendly Movement Phase on a base [9.22]")
    if u.location is not None:
        side = u.side
        for e in adjacent_enemies(game, state, u.location, side):
            if can_attack_unit(game, unit, e):
                out["attacks"].append(_attack_entry(game, state, side, unit, e))
        for n in game.board.neighbours(u.location):
            if game.enemy_defended(state, n, side) and game.value(unit, "AS") > 0:
                out["attacks"].append(_attack_entry(game, state, side, unit, hex_target(n)))
        out["group_attacks"], out["group_attacks_untried"] = _group_attacks(
            game, state, side, u.location, cap, including=unit, groups_only=True
        )
        if followup_8_5_4(state):
            out["notes"].append(_further_file_note(state))
        elif u.location in obligated_hexes_8_21(game, state, side):
            out["notes"].append(
                f"{u.location} is in an enemy zone of control: in a friendly Combat Phase a unit "
                "there must attack, or retreat if it cannot [8.21]-[8.24]"
            )
    return out


def hex_attacks(
    game: Game, state: GameState, hex_id: str, *, cap: int = MAX_COMBINATIONS
) -> dict[str, Any]:
    """Every legal attack, single or group [8.3], the units in ``hex_id`` could make now (a
    hex holds the units of one side only [5.21])."""
    here = list(state.stacks.get(hex_id, ()))
    side = state.units[here[0]].side if here else None
    out: dict[str, Any] = {
        "hex": hex_id,
        "side": side,
        "units": here,
        "phase": seq.describe(state),
        "attacks": [],
        "untried": 0,
        "notes": [],
    }
    if side is None:
        out["notes"].append(f"no unit in {hex_id}")
        return out
    out["attacks"], out["untried"] = _group_attacks(game, state, side, hex_id, cap)
    if followup_8_5_4(state):
        out["notes"].append(_further_file_note(state))
    elif hex_id in obligated_hexes_8_21(game, state, side) and out["attacks"]:
        out["notes"].append(
            f"{hex_id} is in an enemy zone of control: in a friendly Combat Phase one of the "
            f"{len(out['attacks'])} attacks listed must be made, or the units retreat "
            "[8.21]-[8.24]"
        )
    elif hex_id in obligated_hexes_8_21(game, state, side):
        retreat = must_retreat_8_24(game, state, side, hex_id)
        stay = [u for u in here if state.units[u].side == side and u not in retreat]
        out["notes"].append(
            f"{hex_id} is in an enemy zone of control, but no legal attack can be made from it "
            "(none reaches differential 0): in a friendly Combat Phase "
            + (f"{' '.join(retreat)} must retreat [8.24]" if retreat else "no unit retreats")
            + (f"; {' '.join(stay)} stay (no strength against the enemy) [8.22]" if stay else "")
        )
    return out
