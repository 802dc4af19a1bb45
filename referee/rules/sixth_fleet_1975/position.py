"""Changing the position: moving, eliminating and grounding pieces, with their events."""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.air import box_contents, holding_box
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.stacking import normalise


def place(game: Game, state: GameState, unit: str, hex_id: str, *, top: bool = True) -> GameState:
    """Put a piece in a hex (air units kept above naval units [7.43])."""
    u = state.units[unit]
    state = state.with_unit(
        UnitState(u.id, u.side, hex_id, None, u.status),
        top=top,
    )
    return normalise(game, state, hex_id)


def to_box(state: GameState, unit: str, cv: str) -> GameState:
    u = state.units[unit]
    return state.with_unit(UnitState(u.id, u.side, None, holding_box(cv), u.status))


def set_status(state: GameState, unit: str, status: frozenset[str]) -> GameState:
    u = state.units[unit]
    units = dict(state.units)
    units[unit] = UnitState(u.id, u.side, u.location, u.box, status)
    return state.evolve(units=units)


def eliminate(
    game: Game,
    state: GameState,
    unit: str,
    rule: str,
    why: str,
    events: list[Event],
    *,
    scores: bool = True,
    box: str = "eliminated",
) -> GameState:
    """Remove a piece for good and record the loss for victory points [13.0]; a carrier's
    holding box goes with it [9.62B]. ``box="grounded"`` records a [9.15] grounding (no VP)."""
    u = state.units[unit]
    if u.box in ("eliminated", "grounded"):
        return state
    where = u.location or u.box or ""
    state = state.with_unit(UnitState(u.id, u.side, None, box, frozenset()))
    losses = list(facts_of(state).losses or ())
    losses.append(
        {"unit": unit, "side": u.side, "turn": state.turn, "rule": rule, "scores": scores}
    )
    state = SixthFleetFacts.put(state, losses=losses)
    kind = "ground" if box == "grounded" else "eliminate"
    events.append(
        Event(
            kind,
            rule,
            f"{unit} {'grounded' if box == 'grounded' else 'eliminated'} ({why})",
            {"unit": unit, "hex": where, "scores": scores},
        )
    )
    if game.unit(unit).type == "CV":
        for a in box_contents(state, unit):
            state = eliminate(game, state, a, "9.62", f"in the holding box of {unit}", events)
    return state


def move_piece(game: Game, state: GameState, unit: str, hex_id: str) -> GameState:
    """Move a piece to a hex (to the top of the stack) keeping air above naval [7.43]."""
    u = state.units[unit]
    old = u.location
    state = state.with_unit(UnitState(u.id, u.side, hex_id, None, u.status), top=True)
    state = normalise(game, state, hex_id)
    if old is not None:
        state = normalise(game, state, old)
    return state
