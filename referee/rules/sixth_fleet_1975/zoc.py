"""Zones of control [6.0]: who controls a hex, and whose control a unit may ignore.

A unit's ZOC is the six hexes around it [6.1], never into a Prohibited hex [10.21] and, for a
naval unit, never across an all-land hexside [10.22]. Air units in a holding box are off the
map and exert none (digest §16.12). A unit ignores the ZOC of an enemy unit that cannot attack
it [6.42]: so "enemy-controlled" is always asked *for a given unit*.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.strengths import can_attack_6_41


def exerts_zoc_into_6_21(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    """Whether ``unit`` (on the map) controls adjacent ``hex_id`` [6.1][6.21][10.21][10.22]."""
    loc = state.units[unit].location
    if loc is None or not game.board.adjacent(loc, hex_id):
        return False
    if game.board.blocks_zoc(hex_id):
        return False
    return not (game.is_naval(unit) and game.board.hexside_blocked(loc, hex_id, "naval_zoc"))


def controllers(
    game: Game, state: GameState, hex_id: str, side: str, category: str | None = None
) -> list[str]:
    """Units of the side opposing ``side`` whose ZOC reaches ``hex_id``; with ``category``,
    only those able to attack a unit of that category (the others may be ignored [6.42])."""
    out: list[str] = []
    for n in game.board.neighbours(hex_id):
        for e in state.stacks.get(n, ()):
            if state.units[e].side == side:
                continue
            if category is not None and not can_attack_6_41(game, e, category):
                continue
            if exerts_zoc_into_6_21(game, state, e, hex_id):
                out.append(e)
    return sorted(out)


def in_enemy_zoc(game: Game, state: GameState, hex_id: str, side: str, category: str) -> bool:
    """An enemy-controlled hex *for a unit of this side and category* [6.11][6.42]: whether
    :func:`controllers` would name anyone (stopping at the first; every search asks this)."""
    units = state.units
    for n in game.board.adjacent_hexes(hex_id):
        for e in state.stacks.get(n, ()):
            if (
                units[e].side != side
                and can_attack_6_41(game, e, category)
                and exerts_zoc_into_6_21(game, state, e, hex_id)
            ):
                return True
    return False


def may_leave_6_43(game: Game, state: GameState, unit: str, hex_id: str) -> tuple[bool, str]:
    """Whether ``unit`` may leave the enemy-controlled ``hex_id`` in its Movement Phase, and
    the case that lets it: C submarines and D air units always may; A the ZOC of enemy air
    units never holds anyone; B every other controlling unit has a lower MA (digest §16.3:
    air units and units that cannot attack the mover are dropped first)."""
    side = state.units[unit].side
    cat = game.category(unit)
    if cat == "submarine":
        return True, "6.43C"
    if cat == "air":
        return True, "6.43D"
    ctrl = controllers(game, state, hex_id, side, cat)
    if game.flags.zoc_b_ignores_air_and_harmless:
        ground = [e for e in ctrl if not game.is_air(e)]
    else:
        ground = [
            e
            for n in game.board.neighbours(hex_id)
            for e in state.stacks.get(n, ())
            if state.units[e].side != side and exerts_zoc_into_6_21(game, state, e, hex_id)
        ]
    if not ground:
        return True, "6.43A"
    ma = game.movement_allowance(unit)
    if all(game.movement_allowance(e) < ma for e in ground):
        return True, "6.43B"
    return False, "6.43"
