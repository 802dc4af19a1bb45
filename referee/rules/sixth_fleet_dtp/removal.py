"""[DTP 6.61-6.65] taking Detected markers off the map at their removal times.

* [DTP 6.62] surface units: in phase 7 of Night turns only (a unit detected in the AM turn
  stays Detected through PM and Night);
* [DTP 6.63] submarines: at the start of the sub owner's ship and sub movement phase, every
  turn (digest 9.1: "that player's" is the sub's owner);
* [DTP 6.64] a unit inside the detection zone of an enemy unit able to detect it keeps its
  marker, no roll (tracking); air units never track, being back at base by then;
* [DTP 6.65] a surface unit next to an enemy base keeps its marker.

The position facts are the engine's: the markers are the unit statuses ``detected_surface``
and ``detected_sub`` (``detection.STATUS``); the board and roster come from the SPI context,
which DTP keeps (the map and counters are SPI's).
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.denmark_strait import may_reach_under_ice_11_3_6
from referee.rules.sixth_fleet_dtp.detection import STATUS, Unit, keeps_detection_6_64
from referee.rules.sixth_fleet_dtp.facts import facts_of


def unit_of(game: Game, pid: str) -> Unit:
    """A piece's printed values as the detection rules read them."""
    d = game.unit(pid)
    return Unit(pid, d.category, dict(d.values), d.nationality, d.type, d.flags)


def enemy_base_adjacent(game: Game, state: GameState, hex_id: str, side: str) -> bool:
    """Is ``hex_id`` next to an airbase of the enemy of ``side`` that is not destroyed? (A
    surface unit there is Detected [DTP 6.43] and keeps its marker [DTP 6.65].)"""
    destroyed = {h for h, lvl in facts_of(state).base_damage.items() if lvl >= 3}
    for h in game.board.neighbours(hex_id):
        base = game.board.airbase(h)
        if base is None or h in destroyed:
            continue
        nat = game.module.nationalities.get(base.nationality)
        if nat is not None and nat.side != side:
            return True
    return False


def _remove(
    game: Game, state: GameState, category: str, owner: str | None, events: list[Event]
) -> GameState:
    marker = STATUS[category]
    for pid in sorted(state.units):
        u = state.units[pid]
        if marker not in u.status or u.location is None:
            continue
        if owner is not None and u.side != owner:
            continue
        here = game.board.terrain(u.location)
        near = [
            (o, h)
            for h in game.board.within(u.location, 1)
            for o in state.stacks.get(h, ())
            if state.units[o].side != u.side
        ]
        # under pack ice only a nuclear sub under the ice or in an adjacent ocean hex reaches
        # (so tracks) a sub [DTP 11.3 rule 6]
        trackers = [
            unit_of(game, o)
            for o, h in near
            if may_reach_under_ice_11_3_6(
                here, game.unit(o).type, game.board.terrain(h), 0 if h == u.location else 1
            )
        ]
        keep, rule = keeps_detection_6_64(
            category, trackers, enemy_base_adjacent(game, state, u.location, u.side)
        )
        if (
            not keep
            and keeps_detection_6_64(category, [unit_of(game, o) for o, _ in near], False)[0]
        ):
            rule = "DTP 11.3 rule 6"  # tracked but for the ice
        if keep:
            events.append(
                Event("detected", rule, f"{pid} stays Detected in {u.location}", {"unit": pid})
            )
            continue
        state = state.with_unit(UnitState(u.id, u.side, u.location, u.box, u.status - {marker}))
        events.append(Event("undetected", rule, f"{pid} is no longer Detected", {"unit": pid}))
    return state


def night_removal_6_62(game: Game, state: GameState, events: list[Event]) -> GameState:
    """Phase 7 of a Night turn: surface Detected markers go, unless tracked or next to an
    enemy base [DTP 6.62, 6.64, 6.65]."""
    return _remove(game, state, "surface", None, events)


def sub_removal_6_63(game: Game, state: GameState, owner: str, events: list[Event]) -> GameState:
    """The start of ``owner``'s ship and sub movement phase: that side's subs' Detected
    markers go, unless tracked [DTP 6.63, 6.64] (under pack ice only by a nuclear sub that
    could reach it [DTP 11.3 rule 6])."""
    return _remove(game, state, "submarine", owner, events)
