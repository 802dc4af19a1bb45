"""The Intelligence Phase [11.0]-[11.2]: one attempt per turn by a ship of the CVBG, d6 times
its intelligence value (its EW [3.1]; the carrier's EW track) read on the Intelligence
Table, the result applied at once: the Alert level, the nearest face-down SBG revealed, a
turn gained."""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order
from referee.rules.carrier_battlegroup import alert, rows, soviet
from referee.rules.carrier_battlegroup.crews import carrier_ew_3_5
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module


def check_intel_11_0(
    module: Module, state: GameState, orders: list[Order], ships: list[str]
) -> list[Violation]:
    """[11.0] one attempt per turn; [11.1] by one named ship of the CVBG; [22.2] not by the
    carrier while its EW system is at 0 (it "ceases to function for any game purpose")."""
    out: list[Violation] = []
    if len(orders) > 1:
        out.append(
            Violation(
                "11.0",
                f"expected one Intelligence attempt per turn, found {len(orders)}",
                hint="keep one intel line",
            ).at(orders[1])
        )
    for o in orders:
        if len(o.units) != 1 or o.units[0] not in ships:
            found = " ".join(o.units) or "no unit"
            first = o.units[0] if o.units else None
            out.append(
                Violation(
                    "11.1",
                    f"expected one ship of the CVBG, found {found}",
                    word=first,
                    unit=first,
                    hint=f"the CVBG: {' '.join(ships)}",
                ).at(o)
            )
        elif o.units[0] == CARRIER and ew_out_22_2(module, state):
            out.append(
                Violation(
                    "22.2",
                    "the carrier's EW system is at 0: it ceases to function, so the carrier "
                    "cannot make the Intelligence attempt [11.1]",
                    word=CARRIER,
                    unit=CARRIER,
                    hint="name an escort of the CVBG, or repair the EW system first [10.0]",
                ).at(o)
            )
    return out


def ew_out_22_2(module: Module, state: GameState) -> bool:
    """[22.2] the carrier's EW system is at 0 and out of action (in a game that records
    ``systems_at_0_22_2``; an older one rolls d6 x 0)."""
    return readings_of(state).systems_at_0_22_2 and carrier_ew_3_5(module, state) <= 0


def intelligence_phase_11_0(
    module: Module,
    state: GameState,
    board: PointBoard,
    orders: list[Order],
    dice: Dice,
    ev: list[Event],
) -> GameState:
    """[11.1] roll and read the table; [11.2] apply the result immediately."""
    for o in orders:
        ew = (
            carrier_ew_3_5(module, state)
            if o.units[0] == CARRIER
            else module.piece(o.units[0]).unit.values["EW"]
        )
        r = dice.roll(6, "Intelligence", "11.1")
        v, _how = rows.row_record(module.tables["intelligence"], r * ew)
        ev.append(
            Event(
                "intel",
                "11.1",
                f"Intelligence by {o.units[0]}: d6 {r} x {ew} = {r * ew}: {v['result']}",
                {"roll": r, "total": r * ew},
            )
        )
        if int(v["alert"]):
            lvl = alert.net_alert_6_1(facts_of(state).alert, [int(v["alert"])])
            state = CbgFacts.put(state, alert=lvl)
            ev.append(Event("alert", "11.2", f"Alert -> {lvl}", {"alert": lvl}))
        if v["reveal"]:
            hidden = sorted(
                (board.distance(facts_of(state).cvbg["space"], g["space"]), n)
                for n, g in facts_of(state).sbgs.items()
                if not g["revealed"]
            )
            if hidden:
                state = soviet.reveal_sbg(state, hidden[0][1], "11.2", ev)
        if int(v["turns"]):
            m = facts_of(state).mission
            state = CbgFacts.put(state, mission={**m, "turns": m["turns"] + int(v["turns"])})
            ev.append(
                Event(
                    "turns",
                    "11.2",
                    f"a turn gained: the mission now ends after turn {m['turns'] + 1}",
                )
            )
    return state
