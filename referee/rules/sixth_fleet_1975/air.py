"""Air units: bases [9.1x], returning to base [9.22], grounding [9.15], carriers [9.6x].

An air unit is *based* when it is on an airbase it may use [9.12][9.13][9.16][9.17][10.48],
on CAP over a carrier of its nationality [9.62A], or in that carrier's holding box [9.62B].
Based units are exempt from [9.22]; any other unit that began a friendly Movement Phase away
from a base must end it on one, or it is eliminated.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import facts_of
from referee.source.boxes import carrier_of as carrier_of_box
from referee.source.boxes import holding_box

HOLDING_BOX_LIMIT = 6  # [9.62B]


def airbase_usable_9_16(
    game: Game, state: GameState, unit: str, hex_id: str, *, any_friendly: bool = False
) -> bool:
    """Whether air ``unit`` may use the airbase in ``hex_id``: the base's side is the unit's
    [9.16]; it is not destroyed [9.16][10.48]; NATO units use bases of their own nationality
    [9.13] (``any_friendly``: any NATO base, the grounding case [9.15]); Soviet units use any
    Soviet base [9.12]; French carrier air uses only its carrier [9.61]; bases in the Middle
    East countries only with optional rule 14.3 [14.3][11.2]."""
    base = game.board.airbase(hex_id)
    if base is None:
        return False
    if hex_id in game.destroyed_defended(state) or hex_id in (
        facts_of(state).destroyed_bases or ()
    ):
        return False
    ud = game.unit(unit)
    nat = game.module.nationalities.get(base.nationality)
    base_side = nat.side if nat is not None else None
    if base_side != ud.side:
        return False
    if ud.nationality in game.flags.carrier_only_nationalities and not any_friendly:
        return False
    if "14.3" not in state.options and in_middle_east_14_3(game, hex_id):
        return False
    if ud.side == game.flags.soviet_side or any_friendly:
        return True
    return base.nationality == ud.nationality


def unusable_base_rule(game: Game, state: GameState, unit: str, hex_id: str) -> str | None:
    """The most specific case that keeps air ``unit`` from using an airbase in ``hex_id``
    (``None``: no airbase there, or it may use it). Cited first when the unit is lost for
    not returning to a base, with the general [9.22] second."""
    base = game.board.airbase(hex_id)
    if base is None or airbase_usable_9_16(game, state, unit, hex_id):
        return None
    if hex_id in game.destroyed_defended(state):
        return "10.48"
    if hex_id in (facts_of(state).destroyed_bases or ()):
        return "9.16"
    ud = game.unit(unit)
    nat = game.module.nationalities.get(base.nationality)
    if (nat.side if nat is not None else None) != ud.side:
        return "9.16"
    if ud.nationality in game.flags.carrier_only_nationalities:
        return "9.61"
    if "14.3" not in state.options and in_middle_east_14_3(game, hex_id):
        return "14.3"
    return "9.13"


def in_middle_east_14_3(game: Game, hex_id: str) -> bool:
    """An airbase of Syria, Egypt or Israel: usable only with optional rule 14.3 [14.3]
    (countries matched by code or by name, as ``flags.middle_east_countries`` lists them)."""
    code = game.board.country(hex_id)
    name = game.country_name(hex_id) or ""
    return any(m == code or m in name for m in game.flags.middle_east_countries)


def closed_without_14_3(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    """The base would be usable but for optional rule 14.3 being off: a Middle East base
    [14.3][9.13][11.2]. Lets a violation cite 14.3 rather than 9.13."""
    if "14.3" in state.options or not in_middle_east_14_3(game, hex_id):
        return False
    with_14_3 = state.evolve(options=tuple(sorted({*state.options, "14.3"})))
    return game.is_air(unit) and airbase_usable_9_16(game, with_14_3, unit, hex_id)


def carrier_here_9_62(game: Game, state: GameState, unit: str, hex_id: str) -> str | None:
    """A carrier (CV) of the air unit's nationality in ``hex_id``, for a carrier-based unit
    [9.11][9.17][9.62A]; land-based air never uses carriers [9.17]."""
    ud = game.unit(unit)
    if not ud.has("carrier"):
        return None
    for u in state.stacks.get(hex_id, ()):
        cd = game.unit(u)
        if cd.type == "CV" and cd.nationality == ud.nationality and state.units[u].side == ud.side:
            return u
    return None


def is_based_9_22(game: Game, state: GameState, unit: str) -> bool:
    """On a usable airbase, on CAP over its carrier, or in a holding box [9.22][9.43][9.62]."""
    u = state.units[unit]
    if carrier_of_box(u.box) is not None:
        return True
    if u.location is None:
        return False
    if airbase_usable_9_16(game, state, unit, u.location):
        return True
    return carrier_here_9_62(game, state, unit, u.location) is not None


def box_contents(state: GameState, cv: str) -> list[str]:
    box = holding_box(cv)
    return sorted(u.id for u in state.units.values() if u.box == box)
