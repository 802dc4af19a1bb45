"""The Objective Phase [23.0]-[23.2]: shore bombardment of the coastal defense units in the
CVBG's space, all in the Inner Zone with the USN attacking [23.1]; an amphibious landing by
Marines or SEALs where the Orders allow it and no coastal defense unit is left [23.2]. The
landed units leave the carrier and stand in the space (``landed_at``); a Soviet base they
occupy is closed to the Soviet side [23.2]; ``embark`` takes them back aboard the CVBG in
their space on any later turn [23.2]. (A game begun before ``landings_23_2`` only records a
landing.)"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.carrier_battlegroup import combat_phase
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module


def check_objective_23_0(
    module: Module, state: GameState, bombard: list[Order], land: list[Order]
) -> list[Violation]:
    """[23.1] a bombardment needs coastal defense units here; [23.2] a landing needs Orders
    that allow it and Marine or SEAL units aboard."""
    out: list[Violation] = []
    here = facts_of(state).cvbg["space"]
    for o in bombard:
        if here != facts_of(state).mission["objective"] or not facts_of(state).coastal["units"]:
            out.append(
                Violation(
                    "23.1",
                    f"expected coastal defense units in the CVBG's space, found none at {here}",
                    hint="bombard at the Objective while its coastal defense units remain",
                ).at(o)
            )
    mission = facts_of(state).mission
    for o in land:
        if not mission["landing"]:
            out.append(
                Violation(
                    "23.2",
                    f"expected Orders that allow a landing, found {mission['order']} (no landing)",
                    hint="only some missions allow a landing [23.2]",
                ).at(o)
            )
        for pid in o.units:
            if pid not in facts_of(state).crews or module.piece(pid).unit.id not in MARINES:
                out.append(
                    Violation(
                        "23.2",
                        f"expected a Marine or SEAL unit aboard, found {pid}",
                        word=pid,
                        unit=pid,
                        hint="buy US-MEU or US-SEAL in the Logistics Phase [9.1]",
                    ).at(o)
                )
    return out


MARINES = ("US-MEU", "US-SEAL")


def check_embark_23_2(state: GameState, embark: list[Order]) -> list[Violation]:
    """[23.2] "You may re-embark a Marine or SEALs unit onto a CVBG in the same space during
    any subsequent game turn": each unit landed, on an earlier turn, in the CVBG's space."""
    out: list[Violation] = []
    landed = facts_of(state).landed_at or {}
    here = facts_of(state).cvbg["space"]
    for o in embark:
        for pid in o.units:
            got = landed.get(pid)
            if got is None:
                out.append(
                    Violation(
                        "23.2",
                        f"expected a landed Marine or SEAL unit, found {pid}",
                        word=pid,
                        unit=pid,
                        hint="only units landed with `land` on an earlier turn re-embark",
                    ).at(o)
                )
            elif got["space"] != here:
                out.append(
                    Violation(
                        "23.2",
                        f"{pid} is ashore at {got['space']}, the CVBG at {here}",
                        word=pid,
                        unit=pid,
                        hint="move the CVBG to its space first",
                    ).at(o)
                )
            elif got["turn"] >= state.turn:
                out.append(
                    Violation(
                        "23.2",
                        f"{pid} landed this turn: it may re-embark on a later turn",
                        word=pid,
                        unit=pid,
                    ).at(o)
                )
    return out


def objective_phase_23_0(
    module: Module,
    state: GameState,
    bombard: list[Order],
    land: list[Order],
    dice: Dice,
    ev: list[Event],
) -> GameState:
    """[23.1] the bombardments, then [23.2] the landings."""
    for _o in bombard:
        if (
            facts_of(state).coastal["units"]
            and facts_of(state).cvbg["space"] == facts_of(state).coastal["space"]
        ):
            ev.append(
                Event(
                    "bombard",
                    "23.1",
                    "shore bombardment: the USN attacks the coastal defense units",
                )
            )
            state = combat_phase.bombard_23_1(module, state, dice, ev)
    for o in land:
        if (
            not facts_of(state).coastal["units"]
            and facts_of(state).cvbg["space"] == facts_of(state).mission["objective"]
        ):
            state = CbgFacts.put(state, landed=sorted(o.units))
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    f"{', '.join(o.units)} land at {facts_of(state).mission['objective']}",
                )
            )
            if readings_of(state).landings_23_2:
                state = _ashore_23_2(state, list(o.units))
        else:
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    "no landing: coastal defense units remain or the CVBG is not at the Objective",
                )
            )
    return state


def _ashore_23_2(state: GameState, units: list[str]) -> GameState:
    """The landed units leave the carrier's crews and stand in the CVBG's space."""
    here = facts_of(state).cvbg["space"]
    landed = dict(facts_of(state).landed_at or {})
    for pid in units:
        landed[pid] = {"space": here, "turn": state.turn}
        state = state.with_unit(UnitState(pid, "USN", here, None))
    crews = [c for c in facts_of(state).crews if c not in units]
    return CbgFacts.put(state, crews=crews, landed_at=landed)


def embark_23_2(state: GameState, embark: list[Order], ev: list[Event]) -> GameState:
    """[23.2] landed units go back aboard the CVBG in their space (checked before)."""
    if not embark:
        return state
    landed = dict(facts_of(state).landed_at or {})
    crews = list(facts_of(state).crews)
    for o in embark:
        for pid in o.units:
            landed.pop(pid, None)
            crews.append(pid)
            state = state.with_unit(UnitState(pid, "USN", None, f"crew:{CARRIER}"))
        ev.append(
            Event(
                "embark",
                "23.2",
                f"{', '.join(o.units)} re-embark on the CVBG at {facts_of(state).cvbg['space']}",
                {"units": list(o.units)},
            )
        )
    return CbgFacts.put(state, crews=crews, landed_at=landed)
