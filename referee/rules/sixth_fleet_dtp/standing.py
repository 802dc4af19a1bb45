"""Standing orders: what a player has said to do without an email per impulse [DTP 6.2, 8.2,
8.232]. Players decide, the referee never does; these functions only carry out a player's own
standing order, and a case it does not cover becomes a pending decision for that player.

* ``detect whenever-allowed``: every attempt 6.2 allows, made by the player's best eligible
  stack within one hex of the target (the highest stack ECM [DTP 6.23]; ties to the stack
  listed first);
* ``bounce min-aa N``: bounce a strike that made contact with every eligible fighter
  [DTP 8.232] of AA at least N;
* ``pass below N``: pass when no attack open to the player reaches differential N [DTP 8.2].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.rules.sixth_fleet_dtp.detection import StackEcm, Unit, stack_ecm_6_23
from referee.rules.sixth_fleet_dtp.strikes import may_bounce_8_232


def best_stack_6_23(
    stacks: Mapping[str, Sequence[Unit]], target_category: str
) -> tuple[str, StackEcm] | None:
    """The player's stack (by hex) with the highest detection ECM against the target
    category, counting only able units [DTP 6.21, 6.23]; ``None`` when no stack can try."""
    best: tuple[str, StackEcm] | None = None
    for hex_id, units in stacks.items():
        s = stack_ecm_6_23(list(units), target_category)
        if s.best is None:
            continue
        if best is None or s.ecm > best[1].ecm:
            best = (hex_id, s)
    return best


def bouncers_8_232(candidates: Sequence[tuple[Unit, bool, bool]], min_aa: int) -> tuple[str, ...]:
    """The fighters a ``bounce min-aa N`` order sends: each candidate ``(unit, attacked this
    turn, next to the strike)`` that may bounce [DTP 8.232] with AA of at least ``min_aa``."""
    return tuple(
        u.id
        for u, attacked, adjacent in candidates
        if not may_bounce_8_232(u, attacked, adjacent) and u.value("AA") >= min_aa
    )


def passes_8_2(best_differential: int | None, below: int) -> bool:
    """A ``pass below N`` order passes when the best attack open (``None``: none at all)
    does not reach differential ``below`` [DTP 8.2]."""
    return best_differential is None or best_differential < below


def best_differential_bound_8_2(
    attack_hexes: Mapping[str, Sequence[tuple[Unit, int]]],
    targets_near: Mapping[str, Sequence[tuple[Unit, int]]],
) -> int | None:
    """An upper bound of the best differential a player's open attacks can reach [DTP 8.2]:
    for each hex of his (units with their current strengths by target category are worked
    out by the caller as ``(unit, strength)`` pairs keyed ``hex|category``), all of them on
    the weakest single target of that category next to them (``targets_near`` keyed the same
    way, ``(target, defense)``). Detection and stack order can only lower the real best, so a
    ``pass below N`` that passes on this bound never passes a player who had an attack
    reaching N. ``None``: no attack at all."""
    best: int | None = None
    for key, attackers in attack_hexes.items():
        strength = sum(s for _, s in attackers)
        if strength <= 0 or not targets_near.get(key):
            continue
        diff = strength - min(d for _, d in targets_near[key])
        best = diff if best is None else max(best, diff)
    return best
