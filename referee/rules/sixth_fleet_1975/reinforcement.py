"""Reinforcements [12.2x]: where they may be placed, and lines of communication [12.21].

An LOC is an unbroken path of hexes, of any length, from the entry hex to the named map edge,
not through enemy-occupied hexes, enemy-controlled hexes (even friendly-occupied ones),
undestroyed enemy Defended hexes or Prohibited hexes [12.21]. Reinforcements that need an LOC
and cannot trace one are forfeited [12.2]. (The Israeli LOC of [13.12] is a different rule;
see :mod:`victory`.)
"""

from __future__ import annotations

from collections import deque

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12
from referee.rules.sixth_fleet_1975.stacking import room_for_7_22
from referee.rules.sixth_fleet_1975.zoc import exerts_zoc_into_6_21
from referee.source.model import Reinforcement


def _prohibited(game: Game, hex_id: str) -> bool:
    t = game.board.terrain_type(hex_id)
    return all(c is None for c in t.costs.values())


def _enemy_controlled_any(game: Game, state: GameState, hex_id: str, side: str) -> bool:
    for n in game.board.neighbours(hex_id):
        for e in state.stacks.get(n, ()):
            if state.units[e].side != side and exerts_zoc_into_6_21(game, state, e, hex_id):
                return True
    return False


def loc_open_12_21(game: Game, state: GameState, hex_id: str, side: str) -> bool:
    """Whether a hex may carry a [12.21] LOC for ``side``."""
    if _prohibited(game, hex_id):
        return False
    if any(state.units[e].side != side for e in state.stacks.get(hex_id, ())):
        return False
    if game.enemy_defended(state, hex_id, side):
        return False
    return not _enemy_controlled_any(game, state, hex_id, side)


def has_loc_12_21(game: Game, state: GameState, start: str, edge: str, side: str) -> bool:
    """Breadth-first search from ``start`` to any hex of ``edge`` [12.21]."""
    goal = set(game.board.edge_hexes(edge))
    if not goal or not loc_open_12_21(game, state, start, side):
        return False
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        if h in goal:
            return True
        for n in game.board.neighbours(h):
            if n not in seen and loc_open_12_21(game, state, n, side):
                seen.add(n)
                todo.append(n)
    return False


def due_12_2(game: Game, state: GameState, side: str) -> list[tuple[str, Reinforcement]]:
    """(unit, reinforcement) for every unit of ``side`` arriving now and not yet placed."""
    out: list[tuple[str, Reinforcement]] = []
    for r in game.scenario.reinforcements:
        if r.side != side or r.after_turn != state.turn:
            continue
        for u in r.units:
            if u in state.units and state.units[u].box == "reinforcements":
                out.append((u, r))
    return out


def entry_hexes_12_2(game: Game, state: GameState, unit: str, r: Reinforcement) -> list[str]:
    """Hexes where ``unit`` may be placed now [12.21]-[12.24]: on the listed (or any
    friendly) airbases it may use, with an LOC to ``loc_edge`` when one is named; next to
    the named map edge; or anywhere in the named area -- never in an enemy-occupied hex, never
    where it could not move, never over the stacking limit [12.2]."""
    side = state.units[unit].side
    if r.entry == "airbases":
        cands = list(r.hexes) or list(game.board.airbase_hexes())
        cands = [h for h in cands if airbase_usable_9_16(game, state, unit, h)]
    elif r.entry == "edge_adjacent":
        cands = list(game.board.edge_hexes(r.edge or ""))
    else:
        cands = list(game.board.locations_in_area(r.area or ""))
    out: list[str] = []
    for h in sorted(set(cands)):
        if entry_cost_5_12(game, state, unit, h) is None:
            continue
        if any(state.units[e].side != side for e in state.stacks.get(h, ())):
            continue
        if game.enemy_defended(state, h, side):
            continue
        if not room_for_7_22(game, state, h, side, [unit]):
            continue
        if r.loc_edge and not has_loc_12_21(game, state, h, r.loc_edge, side):
            continue
        out.append(h)
    return out
