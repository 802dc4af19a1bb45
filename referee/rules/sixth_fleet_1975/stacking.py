"""Stacking [7.0]: 3 naval units and 6 air units per side per hex [7.11][9.41].

The limit holds at the end of each Movement Phase [7.21] and throughout each Combat Phase
[9.41]; retreats and advances may not break it [7.22][8.5]. Air units always sit above the
naval units of their hex [7.43]; naval order is the owner's choice [7.42].
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, Violation
from referee.engine.orders import Order
from referee.engine.steps import Carry
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
        if len(state.stacks[hex_id]) <= min(NAVAL_LIMIT, AIR_LIMIT):  # within both, whoever's
            continue
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


def stack_order_7_42(game: Game, carry: Carry, side: str, o: Order) -> None:
    """``stack HEX UNIT ...``: check and carry out the owner's order of his naval units, top
    first [7.42]; air units stay on top [7.43]; only in his own Movement Phase or set-up
    [7.47] (the phases that take the order)."""
    h = o.hexes[0]
    st = carry.state
    here = list(st.stacks.get(h, ()))
    mine = [u for u in here if st.units[u].side == side]
    listed = list(o.units)
    if sorted(set(listed)) != sorted(listed):
        carry.refuse(Violation("7.42", "a unit is listed twice", code="listed-twice"), o)
        return
    missing = [u for u in listed if u not in mine]
    if missing:
        carry.refuse(
            Violation(
                "7.42",
                f"{', '.join(missing)} not in {h} (at the end of the orders)",
                code="not-there",
                word=missing[0],
            ),
            o,
        )
        return
    naval = [u for u in mine if not game.is_air(u)]
    if any(u not in listed for u in naval):
        carry.refuse(
            Violation(
                "7.42", f"list every naval unit in {h}: {' '.join(naval)}", code="not-all-listed"
            ),
            o,
        )
        return
    air_listed = [u for u in listed if game.is_air(u)]
    naval_listed = [u for u in listed if not game.is_air(u)]
    if listed != air_listed + naval_listed:
        carry.refuse(
            Violation(
                "7.43", "air units always sit above the naval units of their hex", code="air-below"
            ),
            o,
        )
        return
    others = [u for u in here if u not in listed]
    air_rest = [u for u in others if game.is_air(u)]
    new = tuple(air_listed + air_rest + naval_listed + [u for u in others if not game.is_air(u)])
    carry.state = normalise(game, st.with_stack_order(h, new), h)
    carry.events.append(Event("stack", "7.42", f"{h} stacked " + " ".join(new), {"hex": h}))
