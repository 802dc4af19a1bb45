"""Control of land zones [3.0] and who may use a base.

Control is decided instantly, by ground units and functional bases only [3.2], [3.2.1]; only
Istanbul, Cyprus, Crete and Malta can change control [3.2.1]; every other land zone keeps the
control its country starts with (a neutral's becomes its side's when it joins [2.3]); sea
zones are never controlled [3.3].
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_2019.facts import facts_of
from referee.rules.sixth_fleet_2019.game import (
    KEY_ZONES,
    NATO,
    NEUTRAL,
    SOVIET,
    Game,
)

CONTESTED, UNCONTROLLED = "contested", "uncontrolled"


def base_owner(game: Game, state: GameState, zone: str) -> str | None:
    """The side whose base a zone's base is: its country's, a neutral's once it has joined
    [2.3]; an off-map base belongs to its side [7.1.3]."""
    if not game.has_base(zone):
        return None
    if game.zone_type(zone) == "off_map":
        return str(game.prop(zone, "side"))
    aff = str(game.prop(zone, "affiliation", NEUTRAL))
    if aff == NEUTRAL:
        return facts_of(state).joined.get(str(game.prop(zone, "nationality")))
    return aff


def functional(game: Game, state: GameState, zone: str) -> bool:
    """A base with no Base Destroyed marker [2.12]."""
    return game.has_base(zone) and zone not in facts_of(state).destroyed_bases


def initial_control(game: Game, state: GameState, zone: str) -> str:
    aff = str(game.prop(zone, "affiliation", NEUTRAL))
    if aff == NEUTRAL:
        return facts_of(state).joined.get(str(game.prop(zone, "nationality")), NEUTRAL)
    return aff


def control_3_2(game: Game, state: GameState, zone: str) -> str:
    """NATO, Soviet, contested, uncontrolled or neutral [3.2]; only the key zones are judged
    from what is in them [3.2.1]."""
    if zone not in KEY_ZONES:
        return initial_control(game, state, zone)
    present = set()
    for uid, u in state.units.items():
        loc = u.location or ""
        if game.category(uid) == "ground" and u.side in (NATO, SOVIET) and loc == zone:
            present.add(u.side)
    owner = base_owner(game, state, zone)
    if owner in (NATO, SOVIET) and functional(game, state, zone):
        present.add(owner)
    if len(present) == 2:
        return CONTESTED
    if present:
        return present.pop()
    return UNCONTROLLED


def all_control(game: Game, state: GameState) -> dict[str, str]:
    """Every land zone's control, computed from scratch."""
    return {z: control_3_2(game, state, z) for z in game.map_zones() if game.is_land(z)}


def controller(state: GameState, zone: str) -> str | None:
    """The recorded control of a zone (the ``control`` fact, kept current after every
    step)."""
    return facts_of(state).control.get(zone)


def straits_problem_3_3_1(game: Game, state: GameState, side: str) -> str | None:
    """Naval units may enter the Turkish Straits only if their side controls Istanbul
    [3.3.1]."""
    if controller(state, "Istanbul") == side:
        return None
    return f"{side} naval units may enter the Turkish Straits only while {side} controls Istanbul"


def may_base(game: Game, state: GameState, zone: str, side: str) -> bool:
    """Whether ``side`` may base units at ``zone``'s base: a functional base in a zone the side
    controls [3.2.1], [2.12], or its own off-map base [7.1.3]."""
    if not functional(game, state, zone):
        return False
    if game.zone_type(zone) == "off_map":
        return game.prop(zone, "side") == side
    return controller(state, zone) == side
