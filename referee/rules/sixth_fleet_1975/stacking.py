"""Stacking [7.0]: 3 naval units and 6 air units per side per hex [7.11][9.41].

The limit holds at the end of each Movement Phase [7.21] and throughout each Combat Phase
[9.41]; retreats and advances may not break it [7.22][8.5]. Air units always sit above the
naval units of their hex [7.43]; naval order is the owner's choice [7.42].
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game

NAVAL_LIMIT = 3
AIR_LIMIT = 6


def counts(game: Game, state: GameState, hex_id: str, side: str) -> tuple[int, int]:
    """(naval, air) units of ``side`` in ``hex_id``."""
    naval = air = 0
    for u in state.stacks.get(hex_id, ()):
        if state.units[u].side != side:
            continue
        if game.is_air(u):
            air += 1
        else:
            naval += 1
    return naval, air


def room_for_7_22(game: Game, state: GameState, hex_id: str, side: str, units: list[str]) -> bool:
    """Whether ``units`` can join ``hex_id`` without breaking the limit [7.22][9.41]."""
    naval, air = counts(game, state, hex_id, side)
    for u in units:
        if state.units[u].location == hex_id:
            continue
        if game.is_air(u):
            air += 1
        else:
            naval += 1
    return naval <= NAVAL_LIMIT and air <= AIR_LIMIT


def overstacked_7_0(game: Game, state: GameState, side: str) -> dict[str, tuple[int, int]]:
    """Hexes where ``side`` is over the limit: hex -> (naval excess, air excess)."""
    out: dict[str, tuple[int, int]] = {}
    for hex_id in sorted(state.stacks):
        naval, air = counts(game, state, hex_id, side)
        ex = (max(0, naval - NAVAL_LIMIT), max(0, air - AIR_LIMIT))
        if ex != (0, 0):
            out[hex_id] = ex
    return out


def air_on_top_7_43(game: Game, state: GameState, hex_id: str) -> tuple[str, ...]:
    """The stack with every air unit above every naval unit, each group's order kept [7.43]."""
    ids = state.stacks.get(hex_id, ())
    return tuple([u for u in ids if game.is_air(u)] + [u for u in ids if not game.is_air(u)])


def normalise(game: Game, state: GameState, hex_id: str) -> GameState:
    if hex_id not in state.stacks:
        return state
    order = air_on_top_7_43(game, state, hex_id)
    if order == state.stacks[hex_id]:
        return state
    return state.with_stack_order(hex_id, order)
