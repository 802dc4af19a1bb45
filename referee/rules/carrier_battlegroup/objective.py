"""The Objective Phase [23.0]-[23.2]: shore bombardment of the coastal defense units in the
CVBG's space, all in the Inner Zone with the USN attacking [23.1]; an amphibious landing by
Marines or SEALs where the Orders allow it and no coastal defense unit is left [23.2]."""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.orders import Order
from referee.rules.carrier_battlegroup import combat_phase
from referee.rules.carrier_battlegroup.problems import at
from referee.source.model import Module


def check_objective_23_0(
    module: Module, state: GameState, bombard: list[Order], land: list[Order]
) -> list[Violation]:
    """[23.1] a bombardment needs coastal defense units here; [23.2] a landing needs Orders
    that allow it and Marine or SEAL units aboard."""
    out: list[Violation] = []
    here = state.data["cvbg"]["space"]
    for o in bombard:
        if here != state.data["mission"]["objective"] or not state.data["coastal"]["units"]:
            out.append(at(o, "23.1", "no coastal defense units in the CVBG's space"))
    for o in land:
        if not state.data["mission"]["landing"]:
            out.append(at(o, "23.2", "these Orders allow no landing"))
        for pid in o.units:
            if pid not in state.data["crews"] or module.piece(pid).unit.id not in (
                "US-MEU",
                "US-SEAL",
            ):
                out.append(at(o, "23.2", f"{pid} is not a Marine or SEAL unit aboard", unit=pid))
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
            state.data["coastal"]["units"]
            and state.data["cvbg"]["space"] == state.data["coastal"]["space"]
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
            not state.data["coastal"]["units"]
            and state.data["cvbg"]["space"] == state.data["mission"]["objective"]
        ):
            state = state.with_data(landed=sorted(o.units))
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    f"{', '.join(o.units)} land at {state.data['mission']['objective']}",
                )
            )
        else:
            ev.append(
                Event(
                    "landing",
                    "23.2",
                    "no landing: coastal defense units remain or the CVBG is not at the Objective",
                )
            )
    return state
