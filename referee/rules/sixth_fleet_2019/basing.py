"""Where an air unit lands when it cannot return to the base or carrier it launched from
[8.3.2]: "they may land on another base or carrier within range, and within capacity", with
the penalty of no further actions this Action Phase; with none, it is eliminated.

The choice is its owner's: his standing ``divert UNIT... -> PLACE...`` (standing.py) names
the places in his order of preference, and the first legal one is taken. An owner who named
none that is legal gets the nearest legal place, then the first in map order -- the declared
reading (docs/interpretations.md, [8.3.2]), said in the event.
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_2019.game import HOLDING, REFIT, Game, aboard
from referee.rules.sixth_fleet_2019.movement import air_distance
from referee.rules.sixth_fleet_2019.stacking import air_capacity_7_1_3, fits_aboard
from referee.rules.sixth_fleet_2019.standing import divert_places


def landing_places_8_3_2(
    game: Game, state: GameState, uid: str, from_zone: str
) -> list[tuple[int, str]]:
    """Every (distance, place) ``uid`` may land on from ``from_zone``: a friendly base with
    room [7.1.3] or a friendly carrier's holding box it fits [8.3.4], within its range
    [8.3.1]; nearest first, then map order."""
    u = state.units[uid]
    rng = game.ma(uid)
    out: list[tuple[int, str]] = []
    for z in game.map_zones():
        d = air_distance(game, from_zone, z)
        if d is None or (rng is not None and d > rng):
            continue
        if game.is_land(z) or game.zone_type(z) == "off_map":
            cap = air_capacity_7_1_3(game, state, z, u.side)
            here = [
                x
                for x, s in state.units.items()
                if s.location == z and s.side == u.side and game.category(x) == "air" and x != uid
            ]
            if cap is None or len(here) < cap:
                out.append((d, z))
        for ship in [
            x
            for x, s in state.units.items()
            if s.location == z and s.side == u.side and game.holding_box(x)
        ]:
            if fits_aboard(game, ship, [*[a for a in aboard(state, ship) if a != uid], uid]):
                out.append((d, HOLDING + ship))
    return sorted(out, key=lambda p: p[0])


def land_elsewhere_8_3_2(
    game: Game, state: GameState, uid: str, from_zone: str, events: list[Event]
) -> GameState:
    """Land ``uid`` where its owner chose, or on the declared default, with the 8.3.2
    penalty; eliminated when no friendly base or carrier is within range and capacity."""
    u = state.units[uid]
    places = landing_places_8_3_2(game, state, uid, from_zone)
    if not places:
        state = state.with_unit(UnitState(uid, u.side, REFIT, None, frozenset()))
        events.append(
            Event(
                "eliminated",
                "8.3.2",
                f"{uid} cannot return to a friendly base or carrier: eliminated",
                {"unit": uid},
            )
        )
        return state
    legal = [p for _, p in places]
    chosen = next((p for p in divert_places(game, state, u.side, uid) if p in legal), None)
    how, by_owner = "as its owner ordered (divert)", chosen is not None
    if chosen is None:
        chosen = legal[0]
        how = (
            "the nearest: its owner named no legal place with `divert` "
            "(docs/interpretations.md, 8.3.2)"
        )
    state = state.with_unit(UnitState(uid, u.side, chosen, None, frozenset({"landed_elsewhere"})))
    events.append(
        Event(
            "landed_elsewhere",
            "8.3.2",
            f"{uid} cannot return to its base and lands at {chosen}, {how}: no further "
            "actions this phase",
            {"unit": uid, "to": chosen, "chosen_by": "owner" if by_owner else "default"},
        )
    )
    return state
