"""[DTP 11.5095-11.50954] the PRC's Z-5 helicopter air assault in Westpac.

"In any turn in which one of the PRC LSM units (CH #122 & CH #123) enter a destination hex, the
Z-5 may fly from its base to that hex, if it is within the three hex range, during the surface
and sub naval unit movement phase, not during the air movement phase" [11.5095]. "The Z-5 unit
then remains in place through the air movement and combat phases, and may be attacked"
[11.50951]. "If the Z-5 survives the combat phase, it is removed from the map during the Air
unit rebasing and readiness determination phase and set aside, and victory points are accrued
... (regardless of what ultimately happens to the LSM units)" [11.50952].

So in the East Block's ship and sub movement file a ``move CH-Z5-160 ...`` is lawful when it
ends in a hex where a PRC LSM stands in one of its destination hexes (an LSM there in that
phase has just entered it: one that stood there before was set aside as the phase began
[11.50942]); its path is an air path within its allowance (3) [11.5095]. The assault is
``state.data["z5_assault"]`` (hex, Game-Turn); the Z-5 may not move in that turn's air
movement [11.50951]; if it is still in the hex when the rebasing phase begins, it is set aside
and its award recorded like an unload (``westpac_unloading``: ``eb_taiwan_landing``, 10)
[11.50952]. A Z-5 damaged in the combat phase goes through the DTP 8.51 recycling like any air
unit [11.50953]: the assault has failed, and it comes back only while a PRC LSM is on the map,
else it is set aside with no VP to anyone (:func:`no_lsm_left_11_50953`); it never rolls for
readiness (``rebasing.py`` skips it) [11.50954]; its 8.51 delay takes nothing from the 2d6
(rating 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.westpac_unloading import UNLOADED, unloaded_11_50922
from referee.rules.sixth_fleet_dtp.westpac_victory import destinations_11_5124

Z5_TYPE, LSM_TYPE, PRC = "Z5", "LSM", "Ch"
RULE = "DTP 11.5095"
SET_ASIDE = "set_aside"


def is_z5(game: Game, unit: str) -> bool:
    return game.unit(unit).type == Z5_TYPE


def assault_hexes_11_5095(game: Game, state: GameState) -> list[str]:
    """The hexes where a PRC LSM stands in one of its destination hexes now."""
    out = []
    for pid, u in sorted(state.units.items()):
        d = game.unit(pid)
        if u.location is None or d.type != LSM_TYPE or d.nationality != PRC:
            continue
        if u.location in destinations_11_5124(game.module, pid):
            out.append(u.location)
    return out


def assault(state: GameState) -> dict[str, object]:
    return dict(facts_of(state).z5_assault or {})


def move_problem_11_5095(
    game: Game, state: GameState, unit: str, to: str, kind: str
) -> bool | Violation:
    """A Z-5 ``move``: in a ship and sub movement phase True when it ends where a PRC LSM has
    entered a destination hex [11.5095], else a problem; in an air movement phase a problem
    while its assault of this turn holds it [11.50951]; False for any other unit or case (the
    usual rules decide)."""
    if not is_z5(game, unit):
        return False
    if kind == "ship":
        if to in assault_hexes_11_5095(game, state):
            return True
        return Violation(
            RULE,
            f"{unit} flies in the ship and sub movement phase only to a hex where a PRC LSM has "
            f"just entered its destination, not to {to}",
            code="z5-no-landing",
            word=unit,
            unit=unit,
            hint="move the LSM into its Taiwanese destination hex first, above this line",
        )
    held = assault(state)
    if held.get("turn") == state.turn and state.units[unit].location == held.get("hex"):
        return Violation(
            "DTP 11.50951",
            f"{unit} stays in {held['hex']} through the air movement and combat phases of its "
            "air assault",
            code="z5-holds",
            word=unit,
            unit=unit,
        )
    return False


def record_11_5095(
    game: Game, state: GameState, orders: Sequence[Order], events: list[Event]
) -> GameState:
    """After a ship and sub movement file: the Z-5 that flew in it has made its air assault."""
    for o in orders:
        if o.verb == "move" and is_z5(game, o.units[0]):
            here = state.units[o.units[0]].location
            events.append(
                Event(
                    "air-assault",
                    RULE,
                    f"{o.units[0]} lands its air assault in {here} with the PRC LSM",
                    {"unit": o.units[0], "hex": here},
                )
            )
            state = DtpFacts.put(state, z5_assault={"hex": here, "turn": state.turn})
    return state


def assault_done_11_50952(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The rebasing phase begins: a Z-5 still in its assault hex this turn is set aside and
    its award recorded [DTP 11.50952]."""
    held = assault(state)
    if held.get("turn") != state.turn:
        return state
    for pid, u in sorted(state.units.items()):
        if not is_z5(game, pid) or u.location != held.get("hex"):
            continue
        award = destinations_11_5124(game.module, pid).get(u.location)
        if award is None:
            continue
        vp = award.points or 0
        done = unloaded_11_50922(state)
        done.append(
            {"unit": pid, "hex": u.location, "award": award.id, "vp": vp, "turn": state.turn}
        )
        state = DtpFacts.put(state, unloaded=done)
        state = state.with_unit(UnitState(pid, u.side, None, UNLOADED, frozenset()))
        events.append(
            Event(
                "unload",
                "DTP 11.50952",
                f"{pid} survived the combat phase: its air assault in {u.location} scores "
                f"{vp} VP and it is set aside",
                {"unit": pid, "hex": u.location, "award": award.id, "vp": vp},
            )
        )
    return state


def no_lsm_left_11_50953(game: Game, state: GameState, side: str, events: list[Event]) -> GameState:
    """The start of ``side``'s air movement: a damaged Z-5 whose return is due comes back only
    "so long as there is still an active PRC LSM unit in play"; with none on the map it is
    set aside (box ``set_aside``) "and will not count for VP" [DTP 11.50953]."""
    recycle = dict(facts_of(state).recycle)
    for pid in sorted(recycle):
        u = state.units.get(pid)
        if u is None or u.side != side or u.box != "recycle" or not is_z5(game, pid):
            continue
        if int(recycle[pid]) > state.turn or _lsm_in_play(game, state):
            continue
        recycle.pop(pid)
        state = state.with_unit(UnitState(pid, u.side, None, SET_ASIDE, frozenset()))
        state = DtpFacts.put(state, recycle=recycle)
        events.append(
            Event(
                "set-aside",
                "DTP 11.50953",
                f"{pid} is due back but no PRC LSM is left on the map: it is set aside and "
                "does not count for VP",
                {"unit": pid},
            )
        )
    return state


def _lsm_in_play(game: Game, state: GameState) -> bool:
    return any(
        u.location is not None
        and game.unit(pid).type == LSM_TYPE
        and game.unit(pid).nationality == PRC
        for pid, u in state.units.items()
    )
