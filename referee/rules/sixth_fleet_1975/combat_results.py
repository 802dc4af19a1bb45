"""Carrying out combat results: retreats and displacement [8.71]-[8.73], the air units that
cannot retreat [8.72], and the retreats owed under 8.24.

Each handler moves one unit. The hex is its owner's choice: his written order, his standing
orders, a single legal option, or else a pending decision (:mod:`decisions`). Which hexes are
legal is :mod:`retreat`; what follows an 8.24 retreat is :func:`mandatory.after_retreat_8_24`.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState
from referee.engine.driver import Task, push_front
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.decisions import pend, preferred
from referee.rules.sixth_fleet_1975.mandatory import after_retreat_8_24
from referee.rules.sixth_fleet_1975.position import eliminate, move_piece
from referee.rules.sixth_fleet_1975.retreat import (
    RetreatCause,
    displace_hexes_8_71,
    displacement_hexes_8_71,
    retreat_hexes_8_71,
)


def retreat(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """One unit retreats one hex, chosen by its owner [8.71]; air units are eliminated
    [8.72]; no retreat: eliminated [8.71]; displacement as a last resort [8.71]. A unit that
    could not make its mandatory attack retreats the same way, under [8.24]."""
    unit = str(task["unit"])
    u = state.units[unit]
    if u.location is None:
        return state
    cause = RetreatCause.of(task)
    if game.is_air(unit):
        return eliminate(game, state, unit, "8.72", "air units cannot retreat", ev)
    options = retreat_hexes_8_71(game, state, unit)
    displacing = False
    if not options:
        options = displacement_hexes_8_71(game, state, unit)
        displacing = True
        if not options:
            return eliminate(game, state, unit, "8.71", f"no legal retreat from {u.location}", ev)
    choice = _choose(state, task, u.side, "retreat", unit, u.location, options)
    if choice is None:
        how = " (each choice displaces the enemy units there [8.71])" if displacing else ""
        return pend(
            state,
            task,
            side=u.side,
            kind="retreat",
            rule=cause.rule,
            prompt=f"Retreat {unit} from {u.location} one hex{how}: choose the hex",
            options=options,
        )
    if displacing:
        occupants = list(state.stacks.get(choice, ()))
        tasks = [{"t": "displace", "unit": e, "avoid": u.location} for e in occupants]
        tasks.append(
            {"t": "finish_retreat", "unit": unit, "hex": choice, "cause": task.get("cause")}
        )
        return push_front(state, tasks)
    return _do_retreat(game, state, unit, choice, cause, ev)


def _choose(
    state: GameState,
    task: Task,
    side: str,
    verb: str,
    unit: str,
    here: str | None,
    options: list[str],
) -> str | None:
    if task.get("choice") in options:
        return str(task["choice"])
    pick, _ = preferred(state, side, verb, unit, here, options)
    if pick is not None:
        return pick
    if len(options) == 1:
        return options[0]
    return None


def _do_retreat(
    game: Game, state: GameState, unit: str, to: str, cause: RetreatCause, ev: list[Event]
) -> GameState:
    u = state.units[unit]
    frm = u.location
    assert frm is not None
    state = move_piece(game, state, unit, to)
    ev.append(
        Event(
            "retreat",
            cause.rule,
            f"{unit} retreats {frm} -> {to}",
            {"unit": unit, "from": frm, "to": to},
        )
    )
    if cause is RetreatCause.MANDATORY_8_24:
        state = after_retreat_8_24(game, state, unit, frm)
    return state


def displace(game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]) -> GameState:
    """An enemy unit in the hex a retreating unit must enter is displaced by its owner into
    an adjacent hex [8.71]."""
    unit = str(task["unit"])
    u = state.units[unit]
    if u.location is None:
        return state
    options = displace_hexes_8_71(game, state, unit, avoid=task.get("avoid"))
    if not options:
        ev.append(Event("displace-failed", "8.71", f"{unit} cannot be displaced", {"unit": unit}))
        return state
    choice = _choose(state, task, u.side, "displace", unit, u.location, options)
    if choice is None:
        return pend(
            state,
            task,
            side=u.side,
            kind="displace",
            rule="8.71",
            prompt=f"{unit} is displaced from {u.location}: choose the hex",
            options=options,
        )
    frm = u.location
    state = move_piece(game, state, unit, choice)
    ev.append(
        Event(
            "displace",
            "8.71",
            f"{unit} displaced {frm} -> {choice}",
            {"unit": unit, "from": frm, "to": choice},
        )
    )
    return state


def finish_retreat(
    game: Game, state: GameState, task: Task, dice: Dice, ev: list[Event]
) -> GameState:
    """The retreat into a hex whose enemy units were displaced; if they could not all be,
    the retreating unit is eliminated instead [8.71]."""
    unit, to = str(task["unit"]), str(task["hex"])
    u = state.units[unit]
    if u.location is None:
        return state
    if any(state.units[e].side != u.side for e in state.stacks.get(to, ())):
        return eliminate(game, state, unit, "8.71", f"the units in {to} could not be displaced", ev)
    return _do_retreat(game, state, unit, to, RetreatCause.of(task), ev)
