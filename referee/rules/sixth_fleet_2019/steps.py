"""One orders file: check it, then carry it out (the same walk for ``validate`` and
``carry_out``).

An events file holds ``roll`` [5.1]; an action file holds one order per action [6.5], [6.6],
no more than the phase's actions [6.1]. Validation walks the orders on a copy of the position,
carrying out each legal one with the dice withheld (:mod:`referee.engine.steps`: an attack as
if it scored no hit, nothing rolled), so a later order is judged where the earlier ones leave
the force. Resolution checks each order
again just before carrying it out: if a die has made it impossible it is void, not applied.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation, refusals
from referee.engine.orders import Order, OrdersDoc
from referee.engine.steps import WithheldDice, checking
from referee.rules.sixth_fleet_2019.amphibious import carry_out_landing, check_embark, check_land
from referee.rules.sixth_fleet_2019.combat import carry_out_attack, check_attack
from referee.rules.sixth_fleet_2019.events import random_event_5_1
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import Game, zone_of
from referee.rules.sixth_fleet_2019.movement import carry_out_move, check_move
from referee.rules.sixth_fleet_2019.overstacking import enforce_7_2
from referee.rules.sixth_fleet_2019.patrol import carry_out_patrol, check_patrol
from referee.rules.sixth_fleet_2019.refit import carry_out_refit, check_refit
from referee.rules.sixth_fleet_2019.reinforce import carry_out_reinforce, check_reinforce
from referee.rules.sixth_fleet_2019.sequence import (
    BY_ID,
    OVER,
    after_step,
    end_action_phase,
    is_actions,
    is_events,
    start_action_phase_6_1,
    track_markers_6_0,
)
from referee.rules.sixth_fleet_2019.standing import apply_standing, check_standing
from referee.rules.sixth_fleet_2019.strike import carry_out_play, check_play, draw_markers, marker


def header_problems(state: GameState, doc: OrdersDoc) -> list[Violation]:
    if state.phase == OVER:
        return [Violation("4.0", "the game is over")]
    want = BY_ID[state.phase].side
    out = []
    if doc.side is not None and doc.side != want:
        out.append(
            Violation(
                "5.0",
                f"it is the {BY_ID[state.phase].title} of turn {state.turn}: {want}'s orders "
                f"are due, not {doc.side}'s",
                doc.header_pos.get("side"),
                hint=f"side: {want}",
            )
        )
    if doc.turn is not None and doc.turn != state.turn:
        out.append(
            Violation(
                "5.0",
                f"the game is in turn {state.turn}, the orders are for turn {doc.turn}",
                doc.header_pos.get("turn"),
                hint=f"turn: {state.turn}",
            )
        )
    return out


def one_order(
    game: Game, state: GameState, side: str, order: Order, dice: Dice, events: list[Event]
) -> tuple[list[Violation], GameState]:
    """Check one action and, when legal, carry it out."""
    if order.verb == "move":
        bad, mv = check_move(game, state, side, order)
        if bad or mv is None:
            return refusals(bad), state
        touched = {mv.start, *mv.path}
        state = carry_out_move(_off_patrol(state, order.units), mv)
        events.append(
            Event(
                "move",
                "8.1",
                f"{', '.join(mv.units)} move from {mv.start}"
                + (f" via {', '.join(mv.path)}" if mv.path else "")
                + (f" to {mv.box}" if mv.box else ""),
                {"units": list(mv.units), "path": [mv.start, *mv.path], "box": mv.box},
            )
        )
    elif order.verb == "attack":
        bad, atk = check_attack(game, state, side, order)
        if bad or atk is None:
            return refusals(bad), state
        touched = {atk.zone, atk.start}
        state = carry_out_attack(game, _off_patrol(state, order.units), side, atk, dice, events)
    elif order.verb in ("land", "embark"):
        bad, ld = (check_land if order.verb == "land" else check_embark)(game, state, side, order)
        if bad or ld is None:
            return refusals(bad), state
        touched = {ld.zone}
        state = carry_out_landing(_off_patrol(state, order.units), ld)
        rule = "7.1.2" if order.verb == "land" else "8.5.1"
        events.append(
            Event(
                order.verb,
                rule,
                f"{', '.join(ld.units)} "
                + (
                    f"land in {ld.zone} (amphibious assault)"
                    if order.verb == "land"
                    else f"embark: {ld.box}"
                )
                + " (provisional: not from the rulebook)",
                {"units": list(ld.units), "to": ld.box or ld.zone},
            )
        )
    elif order.verb == "patrol":
        bad, pt = check_patrol(game, state, side, order)
        if bad or pt is None:
            return refusals(bad), state
        touched = {pt.zone}
        state = _off_patrol(state, order.units)
        state = carry_out_patrol(state, pt)
        events.append(
            Event(
                "patrol",
                "8.4",
                f"{', '.join(pt.units)} on patrol in {pt.zone} "
                "(provisional: not from the rulebook; 15.0 is not in the seed)",
                {"units": list(pt.units), "zone": pt.zone, "provisional": True},
            )
        )
    elif order.verb == "refit":
        bad, rf = check_refit(game, state, side, order)
        if bad or rf is None:
            return refusals(bad), state
        touched = {rf.zone}
        state = carry_out_refit(state, rf)
        events.append(
            Event(
                "refit",
                "6.4",
                f"{', '.join(rf.units)} refit: from the Refit Box to {rf.zone} "
                "(provisional: not from the rulebook; 11.0 is not in the seed)",
                {"units": list(rf.units), "zone": rf.zone, "provisional": True},
            )
        )
    elif order.verb == "reinforce":
        bad, rn = check_reinforce(game, state, side, order)
        if bad or rn is None:
            return refusals(bad), state
        touched = {rn.zone}
        state = carry_out_reinforce(state, rn)
        events.append(
            Event(
                "reinforce",
                "6.4",
                f"{', '.join(rn.units)} "
                + (
                    "arrive as reinforcements"
                    if len(rn.units) > 1
                    else "arrives as a reinforcement"
                )
                + f" at {rn.zone} "
                "(provisional: not from the rulebook; 10.0 is not in the seed)",
                {"units": list(rn.units), "zone": rn.zone, "provisional": True},
            )
        )
    elif order.verb == "play":
        bad, pl = check_play(game, state, side, order)
        if bad or pl is None:
            return refusals(bad), state
        touched = {pl.attack.zone} if pl.attack else set()
        state = carry_out_play(game, state, side, pl, dice, events)
    else:
        return [Violation("6.7", f"{order.verb!r} is not an action").at(order)], state
    touched |= {z for z in (zone_of(game, state, u) for u in order.units if u in state.units) if z}
    # control first [3.2.1]: who may base where follows it, and so over-stacking [7.2]
    return [], enforce_7_2(game, after_step(game, state, touched, events), events)


def _off_patrol(state: GameState, units: tuple[str, ...]) -> GameState:
    """A unit that acts again is no longer on patrol (provisional 15.0)."""
    patrol = facts_of(state).patrol
    if not any(u in patrol for u in units):
        return state
    return SixthFleet2019Facts.put(state, patrol=[u for u in patrol if u not in units])


def run(
    game: Game, state: GameState, doc: OrdersDoc, dice: Dice, events: list[Event]
) -> tuple[list[Violation], GameState]:
    """Walk a whole orders file (:func:`_walk`), then set the track markers [6.0]."""
    bad, after = _walk(game, state, doc, dice, events)
    return bad, track_markers_6_0(game, after)


def _walk(
    game: Game, state: GameState, doc: OrdersDoc, dice: Dice, events: list[Event]
) -> tuple[list[Violation], GameState]:
    """Walk a whole orders file. With the dice withheld (``validate``,
    :func:`referee.engine.steps.checking`): collect every violation; with dice (after a
    clean check): apply, voiding an order a die roll has made impossible."""
    check = checking(dice)
    out = header_problems(state, doc)
    if out:
        return out, state
    side = BY_ID[state.phase].side
    assert side is not None
    if check:
        out += check_standing(game, state, side, doc)
    state = apply_standing(state, side, doc)
    if is_events(state):
        rolls = [o for o in doc.orders if o.verb == "roll"]
        others = [o for o in doc.orders if o.verb != "roll"]
        if out:
            return out, state
        if others or len(rolls) != 1:
            where = others[0].pos if others else None
            return [
                Violation(
                    "5.1",
                    f"this is the {BY_ID[state.phase].title}: the orders are one `roll` in "
                    "[events]",
                    where,
                )
            ], state
        state = random_event_5_1(game, state, side, dice, events)
        state = after_step(game, state, {z for z in game.map_zones() if game.is_land(z)}, events)
        # an event can change who may base where [3.2.1]: over-stacking is checked [7.2]
        state = enforce_7_2(game, state, events)
        if state.phase == OVER:
            return [], state
        state = state.evolve(phase=state.phase.replace("_events", "_actions"))
        state = start_action_phase_6_1(game, state, events)
        return [], draw_markers(game, state, side, dice, events)
    assert is_actions(state)
    acts = [o for o in doc.orders if o.verb != "pass"]
    if any(o.verb == "roll" for o in doc.orders):
        return [
            Violation(
                "5.1",
                "the Random Events Phase is over: this is the Action Phase",
                doc.orders[0].pos,
            )
        ], state
    used = 0
    for order in acts:
        if state.phase == OVER:
            events.append(
                Event(
                    "void",
                    "4.0",
                    f"line {order.pos.line}: the game ended by sudden death before this action",
                    {"line": order.pos.line},
                )
            )
            break
        cost, left = _cost(game, order), int(facts_of(state).actions_left)
        if cost > left:
            out.append(_beyond(game, used + left, order, acts))
            break
        bad, state = one_order(game, state, side, order, dice, events)
        if bad:
            if check:
                out.extend(bad)
                # an action ordered is counted even when it is wrong, so that "N actions
                # ordered, M available" [6.1] shows in the same run as the other mistakes
                state = SixthFleet2019Facts.put(state, actions_left=left - cost)
                used += cost
            else:
                events.append(
                    Event(
                        "void",
                        bad[0].rule,
                        f"line {order.pos.line}: the action is void after the dice: "
                        f"{bad[0].message}",
                        {"line": order.pos.line},
                    )
                )
            continue
        state = SixthFleet2019Facts.put(
            state, actions_left=int(facts_of(state).actions_left) - cost
        )
        used += cost
    if out or state.phase == OVER:
        return out, state
    return [], end_action_phase(game, state, events)


def _cost(game: Game, order: Order) -> int:
    """Actions an order uses: one [6.1], or what its strike marker's row says (an EW marker
    uses none; provisional 17.0)."""
    if order.verb == "play":
        mid = order.arg("marker")[0]
        if mid in game.roster and game.category(mid) == "strike":
            return marker(game, mid).cost
    return 1


def _beyond(game: Game, n: int, order: Order, acts: list[Order]) -> Violation:
    """The first order beyond the phase's ``n`` actions (EW-generated ones included) [6.1];
    the orders after it are not read."""
    ordered = sum(_cost(game, o) for o in acts)
    return Violation(
        "6.1",
        f"{ordered} actions ordered, {n} available this phase: the action on this line is "
        "beyond those available",
        hint="each player has one action plus the extras 6.2/6.3, events and played EW markers "
        "give, fixed at the start of his Action Phase",
        code="beyond-actions",
    ).at(order)


def validate(game: Game, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """Every violation of ``doc``: the file carried out with the dice withheld."""
    bad, _ = run(game, state, doc, WithheldDice(), [])
    return bad
