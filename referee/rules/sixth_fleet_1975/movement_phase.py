"""The Movement Phase [5.0]: its orders checked and carried out, and what happens at its start
and end.

At the start: the Soviet First Strike before his first Movement Phase [14.1]; every air unit
of the phasing side not on a base is flagged "returning" [9.22]. The orders (``move``,
``cap``/``box`` [9.62], ``base``, ``stack`` [7.42], ``option 14.2``) are carried out one at a
time on the position (:func:`movement_5_0`): the validator keeps the problems, the resolver
the position. At the end (:func:`end_movement`): air units that did not return to a base are
grounded [9.15] or eliminated [9.22], over-stacked units are removed at the opponent's choice
[7.0] (:func:`overstack`).
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.driver import Task, push_front
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.air import (
    airbase_usable_9_16,
    carrier_of_box,
    closed_without_14_3,
    is_based_9_22,
    unusable_base_rule,
)
from referee.rules.sixth_fleet_1975.carriers import carrier_order_9_62, check_cap_claim_9_62A
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.decisions import elimination_preference, pend
from referee.rules.sixth_fleet_1975.facts import facts_of
from referee.rules.sixth_fleet_1975.movement import (
    check_path_5_0,
    path_after_start,
    reachable,
    start_hex,
)
from referee.rules.sixth_fleet_1975.optional import announce_14_2, first_strike_14_1
from referee.rules.sixth_fleet_1975.position import eliminate, move_piece, set_status
from referee.rules.sixth_fleet_1975.stacking import (
    AIR_LIMIT,
    NAVAL_LIMIT,
    counts,
    overstacked_7_0,
    stack_order_7_42,
)

# ---- the start of the phase -----------------------------------------------------------------


def enter_movement(game: Game, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """The First Strike before the first Soviet Movement Phase [14.1]; the [9.22] flags."""
    side = state.active_side
    assert side is not None
    if (
        "14.1" in state.options
        and side == game.flags.soviet_side
        and not facts_of(state).first_strike_done
    ):
        state = first_strike_14_1(game, state, dice, events)
    return flag_returning_9_22(game, state, side, events)


def flag_returning_9_22(game: Game, state: GameState, side: str, ev: list[Event]) -> GameState:
    """At the start of a friendly Movement Phase, turn over every air unit not on a base
    [9.22]; they must end the phase on one (:func:`end_movement`)."""
    flagged = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if (
            u.side == side
            and u.location is not None
            and game.is_air(u.id)
            and not is_based_9_22(game, state, u.id)
        ):
            state = set_status(state, u.id, u.status | {"returning"})
            flagged.append(u.id)
    if flagged:
        ev.append(
            Event(
                "returning",
                "9.22",
                "must end this phase on a base: " + ", ".join(flagged),
                {"units": flagged},
            )
        )
    return state


# ---- the orders ---------------------------------------------------------------------------


def movement_5_0(game: Game, state: GameState, side: str, orders: tuple[Order, ...]) -> Carry:
    """Carry out a Movement Phase's orders one at a time [5.0], collecting every problem.
    ``option`` first [14.2]; then ``move``, ``cap``, ``box`` in the order written; then the
    claims about the end of the phase (``base`` [9.22], ``cap`` [9.62A]) and ``stack``
    [7.42]; then the grounding rule [9.15] and, with the flag, stacking [7.0]."""
    carry = Carry(state)
    moved: set[str] = set()
    cv_moved: set[str] = set()
    at_end: list[Order] = []
    for o in orders:
        if o.verb == "option":
            announce_14_2(game, carry, side, o)
    for o in orders:
        if o.verb == "move":
            move_order_5_0(game, carry, o, moved, cv_moved)
        elif o.verb in ("cap", "box"):
            carrier_order_9_62(game, carry, o, at_end)
        elif o.verb in ("base", "stack"):
            at_end.append(o)
    for o in at_end:
        if o.verb == "base":
            check_base_claim_9_22(game, carry, o)
        elif o.verb == "cap":
            check_cap_claim_9_62A(carry, o)
        elif o.verb == "stack":
            stack_order_7_42(game, carry, side, o)
    check_grounding_9_15(game, state, carry, side, orders)
    if game.flags.refuse_overstack:
        for h, (n, a) in overstacked_7_0(game, carry.state, side).items():
            carry.refuse(
                Violation(
                    "7.0",
                    f"{h} would hold {n} naval / {a} air units over the limit",
                    code="overstack",
                )
            )
    return carry


def move_order_5_0(game: Game, carry: Carry, o: Order, moved: set[str], cv_moved: set[str]) -> None:
    """``move UNIT PATH``: once per phase [5.1]; air leaving a carrier moves before it [9.63]
    (a flag); the path checked step by step (:func:`movement.check_path_5_0`)."""
    st = carry.state
    u = o.units[0]
    if u not in st.units:
        return
    if u in moved:
        carry.refuse(Violation("5.1", f"{u} has already moved this phase", code="moved", word=u), o)
        return
    moved.add(u)
    cv = carrier_of_box(st.units[u].box)
    if cv and cv in cv_moved and game.flags.carrier_air_moves_first:
        carry.refuse(
            Violation(
                "9.63",
                f"{u} leaves {cv} after {cv} has moved; air units leaving a carrier move before it",
                code="after-carrier",
                word=u,
                hint=f"put this line above the move of {cv}",
            ),
            o,
        )
        return
    if st.units[u].location is None and cv is None:
        carry.refuse(Violation("5.1", f"{u} is not on the map", code="not-on-map", word=u), o)
        return
    probs = check_path_5_0(game, st, u, o.hexes)
    if probs:
        for p in probs:
            carry.refuse(p._replace(unit=u), o)
        return
    frm = start_hex(game, st, u)
    carry.state = move_piece(game, st, u, o.hexes[-1])
    if game.unit(u).type == "CV":
        cv_moved.add(u)
    carry.events.append(
        Event(
            "move",
            "5.0",
            f"{u} {frm} -> {' '.join(path_after_start(frm, o.hexes))}",
            {"unit": u, "from": frm, "path": list(o.hexes)},
        )
    )


def check_base_claim_9_22(game: Game, carry: Carry, o: Order) -> None:
    """``base UNIT HEX``: the unit ends the phase on an airbase it may use [9.22][9.13], or
    the claim is refused, citing the most specific case that forbids the base first
    (:func:`unusable_base_rule`; [14.3] when only that optional rule would open it) and
    [9.22] second."""
    st = carry.state
    u = o.units[0] if o.units else ""
    if u not in st.units:
        return
    h = o.hexes[0]
    if st.units[u].location != h:
        carry.refuse(
            Violation(
                "9.22",
                f"{u} ends its move in {st.units[u].location or 'no hex'}, not {h}",
                code="not-there",
                word=h,
                unit=u,
            ),
            o,
        )
    elif not game.is_air(u) or not airbase_usable_9_16(game, st, u, h):
        if closed_without_14_3(game, st, u, h):
            carry.refuse(
                Violation(
                    "14.3",
                    f"{h} is an airbase of {game.country_name(h)}: used only with optional "
                    "rule 14.3, which this game does not use",
                    code="base-needs-14.3",
                    word=h,
                    unit=u,
                ),
                o,
            )
        else:
            # the case that forbids this base leads (9.16 the other side's or a Destroyed
            # base, 10.48, 9.61, 9.13 another NATO nation's), [9.22] second
            case = (unusable_base_rule(game, st, u, h) if game.is_air(u) else None) or "9.13"
            carry.refuse(
                Violation(
                    case,
                    f"{h} is not an airbase {u} may use [9.22]",
                    code="not-its-base",
                    word=h,
                    unit=u,
                ),
                o,
            )


def check_grounding_9_15(
    game: Game, start: GameState, carry: Carry, side: str, orders: tuple[Order, ...]
) -> None:
    """A NATO air unit may land at another NATO nation's base (and be grounded) only if it
    cannot reach a base of its own nationality [9.15]."""
    if side != game.flags.nato_side:
        return
    st = carry.state
    for o in orders:
        if o.verb != "move" or o.units[0] not in st.units:
            continue
        u = o.units[0]
        loc = st.units[u].location
        if (
            loc is None
            or not game.is_air(u)
            or "returning" not in st.units[u].status
            or airbase_usable_9_16(game, st, u, loc)
            or not airbase_usable_9_16(game, st, u, loc, any_friendly=True)
        ):
            continue
        own = [
            r.hex
            for r in reachable(game, start, u).values()
            if r.may_end and airbase_usable_9_16(game, start, u, r.hex)
        ]
        if own:
            carry.refuse(
                Violation(
                    "9.15",
                    f"{u} can reach a base of its own nationality ({', '.join(own)}); "
                    "it may land at another NATO nation's base only if it cannot",
                    code="own-base-reachable",
                    word=None,
                    unit=u,
                ),
                o,
            )


def carry_out_movement(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...], events: list[Event]
) -> GameState:
    carry = movement_5_0(game, state, side, orders)
    events.extend(carry.events)
    return push_front(carry.state, [{"t": "end_movement"}])


def check_movement(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> list[Violation]:
    return movement_5_0(game, state, side, orders).problems


# ---- the end of the phase -----------------------------------------------------------------


def end_movement(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """End of a Movement Phase: air units that began it off a base and are not on one now are
    grounded [9.15] or eliminated [9.22]; over-stacked units go at the opponent's choice
    [7.0]."""
    side = state.active_side
    assert side is not None
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != side or "returning" not in u.status:
            continue
        state = set_status(state, u.id, u.status - {"returning"})
        if state.units[u.id].location is None:
            continue
        if is_based_9_22(game, state, u.id):
            continue
        loc = state.units[u.id].location
        assert loc is not None
        if side == game.flags.nato_side and airbase_usable_9_16(
            game, state, u.id, loc, any_friendly=True
        ):
            state = eliminate(
                game,
                state,
                u.id,
                "9.15",
                f"landed at {loc}, not its own nation's base",
                ev,
                scores=False,
                box="grounded",
            )
        else:
            # the case that forbade the base it ended on, first; the general 9.22 second
            specific = unusable_base_rule(game, state, u.id, loc)
            state = eliminate(
                game,
                state,
                u.id,
                specific or "9.22",
                f"may not use the base at {loc}: did not return to a base [9.22]"
                if specific
                else "did not return to a base",
                ev,
                scores=game.flags.air_return_losses_score,
            )
    tasks: list[dict[str, Any]] = [
        {"t": "overstack", "hex": h, "side": side} for h in overstacked_7_0(game, state, side)
    ]
    tasks.append({"t": "end_phase"})
    return push_front(state, tasks)


def overstack(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """Over-stacked units are eliminated at once, the opponent choosing which [7.0]."""
    hex_id, side = str(task["hex"]), str(task["side"])
    naval, air = counts(game, state, hex_id, side)
    if naval > NAVAL_LIMIT:
        pool = [
            u
            for u in state.stacks.get(hex_id, ())
            if state.units[u].side == side and not game.is_air(u)
        ]
    elif air > AIR_LIMIT:
        pool = [
            u
            for u in state.stacks.get(hex_id, ())
            if state.units[u].side == side and game.is_air(u)
        ]
    else:
        return state
    pool = sorted(pool)
    decider = game.enemy_of(side)
    choice = task.get("choice") if task.get("choice") in pool else None
    if choice is None:
        choice = elimination_preference(state, decider, pool)
    if choice is None:
        return pend(
            state,
            task,
            side=decider,
            kind="overstack",
            rule="7.0",
            prompt=f"{hex_id} is over-stacked: choose a {side} unit to eliminate",
            options=pool,
        )
    state = eliminate(
        game,
        state,
        str(choice),
        "7.0",
        f"over-stacked in {hex_id}",
        ev,
        scores=game.flags.overstack_losses_score,
    )
    return push_front(state, [{"t": "overstack", "hex": hex_id, "side": side}])
