"""Standing orders: the decisions the rulebook leaves to a unit's owner when the dice, not his
own action, call for them, and the readings a game may switch.

Two decisions belong to the owner and may fall due in the other player's Action Phase:

* where an air unit that cannot return to its base or carrier lands, among the bases and
  carriers within range and capacity [8.3.2] ("they may land on another base or carrier");
* which units an over-stacked zone loses [7.2] ("the player must eliminate the number of units
  necessary").

A player writes them in ``[standing]`` (``divert UNIT... -> PLACE...``, ``eliminate UNIT...``);
they replace his earlier standing orders and hold until he writes new ones. Where he wrote
none for the case at hand the referee applies the declared reading (docs/interpretations.md,
[8.3.2] and [7.2]) and says so in the event.

The game's switches (the ``flags`` fact) are declared in readings.py.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState, Violation, refusals
from referee.engine.orders import Order, OrdersDoc
from referee.engine.vocabulary import match_name
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import HOLDING, Game
from referee.rules.sixth_fleet_2019.readings import readings_of

KEY = "standing"


def reading(state: GameState, name: str) -> str:
    """The game's setting of a declared reading (readings.py)."""
    return str(getattr(readings_of(state), name))


def orders_of(state: GameState, side: str) -> list[Order]:
    return [Order.from_json(o) for o in (facts_of(state).standing or {}).get(side, ())]


def apply_standing(state: GameState, side: str, doc: OrdersDoc) -> GameState:
    """A file's ``[standing]`` orders replace its side's earlier ones (none written: the
    earlier ones hold)."""
    if not doc.standing:
        return state
    standing: dict[str, Any] = dict(facts_of(state).standing or {})
    standing[side] = [o.to_json() for o in doc.standing]
    return SixthFleet2019Facts.put(state, **{KEY: standing})


def check_standing(game: Game, state: GameState, side: str, doc: OrdersDoc) -> list[Violation]:
    """Each standing order names the side's own units; ``divert`` names air units and places
    that exist (a zone or a ship's holding box) [8.3.2]; ``eliminate`` names units [7.2]."""
    out = []
    for o in doc.standing:
        rule = "8.3.2" if o.verb == "divert" else "7.2"
        for uid in o.units:
            if uid not in state.units or state.units[uid].side != side:
                hint = match_name(uid, state.units)[1]
                out.append(
                    Violation(rule, f"{uid} is not a {side} unit", word=uid, hint=hint).at(o)
                )
            elif o.verb == "divert" and game.category(uid) != "air":
                out.append(Violation(rule, f"{uid} is not an air unit", word=uid, unit=uid).at(o))
        for written in o.locations:
            name, hint = match_name(written, game.board.zones())
            if name is None:
                out.append(
                    Violation(rule, f"unknown zone {written!r}", word=written, hint=hint).at(o)
                )
    return refusals(out)


def divert_places(game: Game, state: GameState, side: str, uid: str) -> list[str]:
    """The places ``uid``'s owner wrote for it, in his order of preference [8.3.2]."""
    out: list[str] = []
    for o in orders_of(state, side):
        if o.verb == "divert" and uid in o.units:
            for written in o.locations:
                name = match_name(written, game.board.zones())[0]
                if name is not None and name not in out:
                    out.append(name)
    return out


def elimination_order(state: GameState, side: str) -> list[str]:
    """The units ``side`` gives up first when over-stacked, in his order [7.2]."""
    out: list[str] = []
    for o in orders_of(state, side):
        if o.verb == "eliminate":
            out += [u for u in o.units if u not in out]
    return out


def holding_ship(place: str) -> str | None:
    return place[len(HOLDING) :] if place.startswith(HOLDING) else None
