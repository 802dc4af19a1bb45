"""Reinforcements [12.2x]: where they may be placed, lines of communication [12.21], and the
Reinforcement Interphase that places them (its start, its ``place`` orders checked and
carried out).

An LOC is an unbroken path of hexes, of any length, from the entry hex to the named map edge,
not through enemy-occupied hexes, enemy-controlled hexes (even friendly-occupied ones),
undestroyed enemy Defended hexes or Prohibited hexes [12.21]. Reinforcements that need an LOC
and cannot trace one are forfeited [12.2]. (The Israeli LOC of [13.12] is a different rule;
see :mod:`victory`.)
"""

from __future__ import annotations

from collections import deque

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.driver import push_front
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16
from referee.rules.sixth_fleet_1975.carriers import place_on_carrier_9_62
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12
from referee.rules.sixth_fleet_1975.optional import black_sea_delay_14_4
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.stacking import room_for_7_22, stack_order_7_42
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


def aboard_only_12_22(game: Game, unit: str) -> bool:
    """Carrier air of a nation with no land airbases (the French, ``carrier_only_
    nationalities`` [9.61]) arrives aboard its carrier, on CAP over it or in its holding box,
    never on a hex of its own [12.22][11.1]."""
    return game.is_air(unit) and game.unit(unit).nationality in (
        game.flags.carrier_only_nationalities
    )


def carriers_ready_12_22(game: Game, state: GameState, unit: str) -> list[str]:
    """The carriers of ``unit``'s nationality on the map, or arriving in this Interphase, to
    take it aboard [12.22], sorted."""
    nat = game.unit(unit).nationality
    return sorted(
        cv
        for cv, u in state.units.items()
        if game.unit(cv).type == "CV"
        and game.unit(cv).nationality == nat
        and (u.location is not None or u.box == "reinforcements")
    )


def entry_hexes_12_2(game: Game, state: GameState, unit: str, r: Reinforcement) -> list[str]:
    """Hexes where ``unit`` may be placed now [12.21]-[12.24]: on the listed (or any
    friendly) airbases it may use, with an LOC to ``loc_edge`` when one is named; next to
    the named map edge; or anywhere in the named area -- never in an enemy-occupied hex, never
    where it could not move, never over the stacking limit [12.2]; none for carrier air that
    arrives only aboard its carrier (:func:`aboard_only_12_22`)."""
    side = state.units[unit].side
    if aboard_only_12_22(game, unit):
        return []
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


# ---- the Reinforcement Interphase: its start, its orders ----------------------------------


def enter_reinforcement(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """A side's part of the Interphase begins (:func:`arrivals_12_2`); with nothing left to
    place, the Interphase ends."""
    side = state.active_side
    assert side is not None
    state, left = arrivals_12_2(game, state, side, dice, events)
    if left == 0:
        return push_front(state, [{"t": "end_phase"}])
    return state


def arrivals_12_2(
    game: Game, state: GameState, side: str, dice: Dice, events: list[Event]
) -> tuple[GameState, int]:
    """As ``side``'s part of the Reinforcement Interphase begins: the Black Sea delay roll
    [14.4]; reinforcements that cannot be placed (no LOC, no room) are forfeited [12.2].
    Returns the position and how many units are left to place."""
    if (
        "14.4" in state.options
        and side == game.flags.soviet_side
        and facts_of(state).gate_turn is None
        and game.flags.black_sea_gate
    ):
        state = black_sea_delay_14_4(game, state, dice, events)
    left = 0
    for unit, r in due_12_2(game, state, side):
        if entry_hexes_12_2(game, state, unit, r) or (
            aboard_only_12_22(game, unit) and carriers_ready_12_22(game, state, unit)
        ):
            left += 1
            continue
        u = state.units[unit]
        state = state.with_unit(UnitState(u.id, u.side, None, "forfeited", frozenset()))
        events.append(
            Event(
                "forfeit",
                r.rule or "12.2",
                f"{unit} cannot be placed (no LOC or no room) and is forfeited",
                {"unit": unit},
            )
        )
    return state, left


def agree_to_stop_11_0(state: GameState, side: str) -> GameState:
    """``stop``: ``side`` agrees to end the Campaign at this Interphase, after Game-Turn 10,
    and score it [11.0: "players may stop after turn 10 or play to turn 21"]; the game stops
    when every player has agreed (``sequence.stopped_11_0``)."""
    votes = sorted({*(facts_of(state).stop_11_0 or ()), side})
    return SixthFleetFacts.put(state, stop_11_0=votes)


def reinforcement_12_2(game: Game, state: GameState, side: str, orders: tuple[Order, ...]) -> Carry:
    """Place the reinforcements [12.2x], one order at a time; they may not be delayed
    [12.2]; then the ``stack`` orders [7.42]."""
    carry = Carry(state)
    due = dict(due_12_2(game, state, side))
    placed: set[str] = set()
    for o in orders:
        st = carry.state
        if o.verb == "stack":
            continue
        if o.verb == "stop":
            carry.state = agree_to_stop_11_0(st, side)
            carry.events.append(
                Event(
                    "stop-agreed",
                    "11.0",
                    f"{side} agrees to stop the Campaign after Game-Turn {st.turn}; it stops "
                    "if the other player agrees too",
                    {"side": side},
                )
            )
            continue
        if o.verb != "place":
            carry.refuse(
                Violation(
                    "12.2", f"'{o.verb}' is not a reinforcement order", code="not-a-placement"
                ),
                o,
            )
            continue
        u = o.units[0]
        if u not in due:
            carry.refuse(
                Violation(
                    "12.2",
                    f"{u} is not a reinforcement arriving now",
                    code="not-due",
                    word=u,
                    unit=u,
                ),
                o,
            )
            continue
        if u in placed:
            carry.refuse(
                Violation(
                    "12.2",
                    f"{u} is placed twice: expected one place order a reinforcement, found a"
                    " second",
                    code="placed-twice",
                    word=u,
                    unit=u,
                    hint=f"keep one of the two 'place {u}' lines",
                ),
                o,
            )
            continue
        placed.add(u)
        r = due[u]
        if o.mode in ("cap", "box"):
            place_on_carrier_9_62(game, carry, o, u)
            continue
        h = o.hexes[0]
        ok = entry_hexes_12_2(game, st, u, r)
        if aboard_only_12_22(game, u):
            carry.refuse(
                Violation(
                    "12.22",
                    f"{u} arrives aboard its carrier: on Combat Air Patrol over it or in its "
                    f"holding box, not in {h} [9.61]",
                    code="aboard-only",
                    word=h,
                    unit=u,
                    hint=f"place {u} cap {cv} or place {u} box {cv}"
                    if (cv := next(iter(carriers_ready_12_22(game, st, u)), None))
                    else "no carrier of its nation is in play: it cannot arrive",
                ),
                o,
            )
            continue
        if h not in ok:
            carry.refuse(
                Violation(
                    r.rule or "12.2",
                    f"{u} may not be placed in {h}",
                    code="not-an-entry-hex",
                    word=h,
                    unit=u,
                    hint=("legal: " + " ".join(ok)) if ok else "no legal hex",
                ),
                o,
            )
            continue
        carry.state = move_piece(game, st, u, h)
        carry.events.append(
            Event("reinforce", r.rule or "12.2", f"{u} arrives in {h}", {"unit": u, "hex": h})
        )
    for u, r in sorted(due.items()):
        aboard = aboard_only_12_22(game, u) and carriers_ready_12_22(game, carry.state, u)
        if u not in placed and (aboard or entry_hexes_12_2(game, carry.state, u, r)):
            carry.refuse(
                Violation(
                    "12.2",
                    f"{u} must be placed now (reinforcements may not be delayed)",
                    code="delayed",
                    word=None,
                    unit=u,
                    hint=f"place {u} HEX",
                )
            )
    for o in orders:
        if o.verb == "stack":
            stack_order_7_42(game, carry, side, o)
    return carry


def check_reinforcement(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> list[Violation]:
    return reinforcement_12_2(game, state, side, orders).problems


def carry_out_reinforcement(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...], events: list[Event]
) -> GameState:
    carry = reinforcement_12_2(game, state, side, orders)
    events.extend(carry.events)
    return push_front(carry.state, [{"t": "end_phase"}])
