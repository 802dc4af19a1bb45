"""Mandatory attacks [8.21]-[8.24], with the exceptions of [6.42], [8.22], [8.5] and [8.75].

Following the digest's procedure: a hex is *obligated* when one of its units is in the ZOC of
an enemy unit that can attack it [8.21][6.42]. One legal attack by any unit of the hex meets
the obligation [8.21][8.23]. If no attack from the hex can reach a differential of 0, each of
its units that has the right strength against some adjacent enemy must retreat [8.24]; units
with no such strength stay [8.22]. Units that advanced [8.5] or already retreated under 8.24
[8.75] are exempt for the rest of the phase.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.combat import AttackCalc, analyse_attack, phase_record
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.strengths import can_attack_6_41
from referee.rules.sixth_fleet_1975.zoc import controllers


def _exempt(rec: Mapping[str, list[str]]) -> set[str]:
    return set(rec["retreated_824"]) | set(rec["advanced"])


def obligated_hexes_8_21(
    game: Game, state: GameState, side: str, rec: Mapping[str, list[str]] | None = None
) -> dict[str, list[str]]:
    """Hex -> the non-exempt units of ``side`` there, for every obligated hex, sorted."""
    rec = rec if rec is not None else phase_record(state)
    ex = _exempt(rec)
    out: dict[str, list[str]] = {}
    for hex_id in sorted(state.stacks):
        units = [u for u in state.stacks[hex_id] if state.units[u].side == side and u not in ex]
        if not units:
            continue
        if any(controllers(game, state, hex_id, side, game.category(u)) for u in units):
            out[hex_id] = units
    return out


def adjacent_enemies(game: Game, state: GameState, hex_id: str, side: str) -> list[str]:
    out: list[str] = []
    for n in game.board.neighbours(hex_id):
        out.extend(e for e in state.stacks.get(n, ()) if state.units[e].side != side)
    return sorted(out)


def best_attacks_from(
    game: Game,
    state: GameState,
    side: str,
    hex_id: str,
    rec: Mapping[str, list[str]] | None = None,
) -> list[AttackCalc]:
    """Legal attacks from ``hex_id`` worth trying: for each adjacent enemy unit, all the
    hex's able units together and, when stack order stops that, those that may skip the units
    above [7.45]; sorted best differential first. Empty means no legal attack [8.24]."""
    rec = rec if rec is not None else phase_record(state)
    ex = _exempt(rec) | set(rec["used"])
    mine = [u for u in state.stacks.get(hex_id, ()) if state.units[u].side == side and u not in ex]
    found: dict[tuple[tuple[str, ...], tuple[str, ...]], AttackCalc] = {}
    for t in adjacent_enemies(game, state, hex_id, side):
        cat = game.category(t)
        able = tuple(u for u in mine if can_attack_6_41(game, u, cat))
        tries = [able, *((u,) for u in able)]
        for group in tries:
            if not group:
                continue
            calc, probs = analyse_attack(game, state, side, group, (t,), rec)
            if calc is not None and not probs:
                found[(group, (t,))] = calc
    return sorted(found.values(), key=lambda c: (-c.differential, c.targets, c.attackers))


def must_retreat_8_24(game: Game, state: GameState, side: str, hex_id: str) -> list[str]:
    """Units of an obligated hex with no legal attack that must retreat: those with the right
    strength type against some adjacent enemy unit [8.24]; the others stay [8.22]."""
    rec = phase_record(state)
    ex = _exempt(rec)
    enemies = adjacent_enemies(game, state, hex_id, side)
    out = []
    for u in state.stacks.get(hex_id, ()):
        if state.units[u].side != side or u in ex:
            continue
        if any(can_attack_6_41(game, u, game.category(e)) for e in enemies):
            out.append(u)
    return sorted(out)
