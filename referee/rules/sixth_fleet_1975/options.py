"""What a unit may legally do now: the ``referee options`` answer, from the rules' own code.

Movement comes from :func:`movement.reachable` (the validator checks paths with the same step
rule); attacks from :func:`combat.analyse_attack` (the validator's own check).
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import is_based_9_22
from referee.rules.sixth_fleet_1975.combat import analyse_attack
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import adjacent_enemies, obligated_hexes_8_21
from referee.rules.sixth_fleet_1975.movement import reachable, start_hex
from referee.rules.sixth_fleet_1975.strengths import can_attack_unit


def legal_moves(game: Game, state: GameState, unit: str) -> dict[str, Any]:
    """Reachable hexes (cost, path, forced stops) and possible attacks for ``unit``."""
    u = state.units[unit]
    out: dict[str, Any] = {
        "unit": unit,
        "side": u.side,
        "location": u.location,
        "box": u.box,
        "phase": seq.describe(state),
        "moves": [],
        "attacks": [],
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
            if not can_attack_unit(game, unit, e):
                continue
            calc, probs = analyse_attack(game, state, side, (unit,), (e,))
            out["attacks"].append(
                {
                    "target": e,
                    "legal": not probs,
                    "why_not": [f"[{p.rule}] {p.message}" for p in probs],
                    **(calc.to_json() if calc is not None else {}),
                }
            )
        for n in game.board.neighbours(u.location):
            if game.enemy_defended(state, n, side) and game.value(unit, "AS") > 0:
                calc, probs = analyse_attack(game, state, side, (unit,), (f"hex:{n}",))
                out["attacks"].append(
                    {
                        "target": f"hex:{n}",
                        "legal": not probs,
                        "why_not": [f"[{p.rule}] {p.message}" for p in probs],
                        **(calc.to_json() if calc is not None else {}),
                    }
                )
        if u.location in obligated_hexes_8_21(game, state, side):
            out["notes"].append(
                f"{u.location} is in an enemy zone of control: in a friendly Combat Phase a unit "
                "there must attack, or retreat if it cannot [8.21]-[8.24]"
            )
    return out
