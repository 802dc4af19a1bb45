"""[DTP 11.50922, 11.50941, 11.50942] convoys docking and amphibious units landing at their
destination hexes in Westpac.

"Once an AK or TK unit reaches a destination hex it remains in place until the next friendly
surface and sub movement phase. At the beginning of that phase it is removed from the map and
set aside, and victory points earned are recorded. The phasing player should remove the
'docked' units before moving any still at sea" [11.50922]; the amphibious units the same, with
"used" for "docked" [11.50942]. "The amphibious units may only land in a hex that contains no
enemy units, or base, or is a defended hex, unless the base or defended hex is at D3 status"
[11.50941].

So at the start of each side's ship and sub movement phase, before any file, each of its
convoys and amphibious units that stands in one of its destination hexes (the awards table's
``once`` and ``unit`` rows that name it [11.5124]) is set aside in the box ``unloaded`` and
its points recorded in ``state.data["unloaded"]`` (unit, hex, award, points, Game-Turn): an
AK destination scores once, "there is no point sending more than one convoy to the same
destination" (a second AK there scores 0), while TKs and amphibious units score per unit
[11.5126]. Each destination hex is a destination of its own: the East Block has "one more AK
unit than there are destinations" (five AKs, four hexes), so the hexes of one row are not one
destination. A USN amphibious unit may not land in a Taiwanese hex where the PRC has already
landed [11.5126]. An amphibious unit barred from landing stays where it is (event
``unload-barred``). Points are awarded "regardless of their damage state" [11.5126]; a damaged
unit's damage still scores for the enemy.

What the Z-5 air assault adds [11.5095] and what delayed hostilities and the PRC's entry forbid
[11.5102, 11.51022] are not here.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.base_combat import base_at
from referee.rules.sixth_fleet_dtp.bases import DESTROYED
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.westpac_hostilities import TAIWAN, at_war, prc_at_war
from referee.rules.sixth_fleet_dtp.westpac_korea import nationality_of
from referee.rules.sixth_fleet_dtp.westpac_victory import (
    AMPHIBIOUS_AWARD,
    AMPHIBIOUS_TYPES,
    CONVOY_AWARD,
    CONVOY_TYPES,
    Award,
    destinations_11_5124,
)

UNLOADED = "unloaded"
LANDING_RULE = "DTP 11.50941"
PRC = "Ch"


def unloaded_11_50922(state: GameState) -> list[dict[str, Any]]:
    """The units set aside so far, in order: unit, hex, award, vp, turn."""
    return [dict(x) for x in facts_of(state).unloaded]


def _landing_barred_11_50941(game: Game, state: GameState, unit: str, hex_id: str) -> str | None:
    """Why an amphibious unit may not land in ``hex_id``, or None [DTP 11.50941, 11.5126]."""
    side = state.units[unit].side
    if any(state.units[o].side != side for o in state.stacks.get(hex_id, ())):
        return "enemy units are there"
    base = base_at(game, state, hex_id)
    if base is not None and base.side != side and base.level < DESTROYED:
        return "an enemy base or defended hex there is not destroyed (D3)"
    if game.unit(unit).nationality == "US" and any(
        x["hex"] == hex_id and game.unit(x["unit"]).nationality == PRC
        for x in unloaded_11_50922(state)
    ):
        return "the PRC has invaded and unloaded there [DTP 11.5126]"
    return None


def barred_by_the_war_11_510(
    game: Game, state: GameState, unit: str, hex_id: str, amphibious: bool
) -> tuple[str, str] | None:
    """The case and the reason an AK, TK or amphibious unit may not unload in ``hex_id`` yet,
    or None: no amphibious landing before hostilities commence [DTP 11.5102]; no SEATO AK or
    amphibious unit unloading in Taiwan before the PRC commences hostilities [DTP 11.51022]
    (an East Block unit is the PRC's own invasion, which 11.51022 does not limit)."""
    if amphibious and not at_war(game, state):
        return "DTP 11.5102", "no amphibious landing before hostilities commence"
    prc = game.module.nationalities.get(PRC)
    seato = prc is None or state.units[unit].side != prc.side
    if seato and nationality_of(game.module.map, hex_id) == TAIWAN and not prc_at_war(game, state):
        return (
            "DTP 11.51022",
            "SEATO AK and amphibious units may not unload in Taiwan before the PRC commences "
            "hostilities",
        )
    return None


def _unload_barred(
    game: Game, state: GameState, unit: str, hex_id: str, convoy: bool
) -> tuple[str, str] | None:
    """The case and the reason ``unit`` may not unload in ``hex_id`` this turn, or None: the
    war's limits first (the more specific cases), then a landing's own [DTP 11.50941]."""
    barred = barred_by_the_war_11_510(game, state, unit, hex_id, not convoy)
    if barred is not None or convoy:
        return barred
    why = _landing_barred_11_50941(game, state, unit, hex_id)
    return (LANDING_RULE, why) if why is not None else None


def _points(award: Award, hex_id: str, done: list[dict[str, Any]]) -> int:
    """An award's points for one more unit unloading at ``hex_id``: a ``once`` destination
    scores for the first unit only [DTP 11.5126]."""
    if award.per == "once" and any(x["award"] == award.id and x["hex"] == hex_id for x in done):
        return 0
    return award.points or 0


def unload_11_50922(game: Game, state: GameState, side: str, events: list[Event]) -> GameState:
    """The start of ``side``'s ship and sub movement phase: its convoys and amphibious units
    in their destination hexes are set aside and their points recorded [DTP 11.50922,
    11.50942]."""
    done = unloaded_11_50922(state)
    before = len(done)
    for pid in sorted(state.units):
        u = state.units[pid]
        kind = game.unit(pid).type
        if u.side != side or u.location is None or kind not in CONVOY_TYPES | AMPHIBIOUS_TYPES:
            continue
        award = destinations_11_5124(game.module, pid).get(u.location)
        if award is None:
            continue
        here = u.location
        rule = CONVOY_AWARD if kind in CONVOY_TYPES else AMPHIBIOUS_AWARD
        barred = _unload_barred(game, state, pid, here, kind in CONVOY_TYPES)
        if barred is not None:
            case, why = barred
            verb = "unload" if kind in CONVOY_TYPES else "land"
            events.append(
                Event(
                    "unload-barred",
                    case,
                    f"{pid} may not {verb} in {here}: {why}",
                    {"unit": pid, "hex": here},
                )
            )
            continue
        vp = _points(award, here, done)
        done.append({"unit": pid, "hex": here, "award": award.id, "vp": vp, "turn": state.turn})
        state = state.with_unit(UnitState(pid, u.side, None, UNLOADED, frozenset()))
        what = "docks" if kind in CONVOY_TYPES else "lands its troops"
        gain = f"{side} +{vp} VP ({award.id})" if vp else f"no VP: {award.id} already scored"
        events.append(
            Event(
                "unload",
                rule,
                f"{pid} {what} at {here} and is set aside: {gain}",
                {"unit": pid, "hex": here, "award": award.id, "vp": vp},
            )
        )
    return DtpFacts.put(state, unloaded=done) if len(done) > before else state
