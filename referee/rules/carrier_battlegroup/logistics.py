"""The Logistics Phase's repairs [10.0]-[10.4] and Cargo-aircraft replenishment [9.3].

Repair [10.1]: roll the Repair Chart's dice (more at a NATO base [10.2], one more per Damage
Control or Flight Deck crew [10.4]); each success restores one step of a carrier system,
never above its start value [10.0]. Repairing a carrier system skips the Movement Phase
[10.1 note]; repairing a Damaged aircraft does not [10.3], and a Crippled marker is never
removed [10.0 note].

Cargo aircraft [9.3]: with a COD aboard the carrier and the CVBG within the COD's range of a
NATO base, Fuel, Ammunition, Cruise Missiles and Crews are replenished without the CVBG at
the base; a turn replenished only so keeps its Movement Phase.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import rows
from referee.rules.carrier_battlegroup.damage import CARRIER_SYSTEMS
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module

REPAIR_CREWS = ("US-CREW-DC", "US-CREW-FD")  # [10.4]


def cod_range_9_3(module: Module, state: GameState, board: PointBoard) -> int | None:
    """[9.3] the longest range of a Cargo aircraft aboard the carrier, when the CVBG is within
    it of a NATO base; ``None`` when no COD can replenish the CVBG now."""
    here = facts_of(state).cvbg["space"]
    cods = [
        module.piece(p).unit.values["SPD"]
        for p, w in facts_of(state).air.items()
        if w == "hangar" and "cod" in module.piece(p).unit.flags
    ]
    if not cods:
        return None
    reach = max(cods)
    bases = [s for s in board.locations() if board.terrain(s) == "nato_base"]
    if any(board.distance(here, b) <= reach for b in bases):
        return reach
    return None


def aircraft_to_repair(state: GameState, written: str) -> str | None:
    """The USN aircraft a ``repair`` order names [10.3], or ``None`` (a carrier system)."""
    name = written.strip()
    return name if name in facts_of(state).air else None


def escort_to_repair(state: GameState, written: str) -> str | None:
    """The CVBG escort a ``repair`` order names ("Damaged Repair: ... removing Damaged
    markers" [10.0]), or ``None``."""
    name = written.strip()
    return name if name in facts_of(state).cvbg["ships"] and name != CARRIER else None


def check_repairs(module: Module, state: GameState, orders: list[Order]) -> list[Violation]:
    """[10.0], [10.3]: a repair names a carrier system, a Damaged escort of the CVBG or a
    Damaged USN aircraft; a Crippled marker is never removed."""
    out: list[Violation] = []
    for o in orders:
        written = " ".join(o.arg("system"))
        pid = aircraft_to_repair(state, written) or escort_to_repair(state, written)
        if pid is not None:
            c = facts_of(state).conditions.get(pid, {})
            if c.get("crippled"):
                out.append(
                    Violation(
                        "10.0",
                        f"expected a Damaged unit, found {pid} Crippled: that marker is never "
                        "removed",
                        unit=pid,  # named as the `system`, so placed at the order's start
                        hint="repair a Damaged unit or a carrier system",
                    ).at(o)
                )
            elif not c.get("damage"):
                rule = "10.3" if pid in facts_of(state).air else "10.0"
                out.append(
                    Violation(
                        rule,
                        f"expected a Damaged unit, found {pid} undamaged",
                        hint="repair only damaged units",
                    ).at(o)
                )
            continue
        sysname, hint = match_name(written, CARRIER_SYSTEMS)
        if sysname is None:
            out.append(
                Violation(
                    "10.0",
                    f"no carrier system, CVBG escort or USN aircraft {written!r}",
                    hint=hint
                    or "a carrier system (e.g. Hull), a damaged escort's id [10.0] or a damaged "
                    "aircraft's id [10.3]",
                ).at(o)
            )
    return out


def skips_movement(state: GameState, repairs: list[Order]) -> bool:
    """[10.1 note], [10.3]: repairing a carrier system skips Movement; an aircraft does not."""
    return any(aircraft_to_repair(state, " ".join(o.arg("system"))) is None for o in repairs)


def _dice_10_1(
    module: Module, state: GameState, *, at_base: bool, crews: bool
) -> tuple[int, int, str]:
    """[10.1], [10.2], [10.4]: (dice, success number, the Repair Chart row)."""
    t = module.tables["repair"]
    row, _how = rows.row_record(t, "nato_base" if at_base else "at_sea")
    n = int(row["dice"])
    if crews:
        per = int(t.lookup(row="crew", col="dice").value)
        n += per * sum(1 for c in facts_of(state).crews if c.startswith(REPAIR_CREWS))
    return n, int(row["succeeds"]), str(row["key"])


def repair_10_1(
    module: Module, state: GameState, o: Order, dice: Dice, ev: list[Event]
) -> GameState:
    """Carry out one ``repair`` order: a carrier system [10.1] or a Damaged aircraft [10.3]."""
    board = PointBoard(module.map)
    written = " ".join(o.arg("system"))
    pid = aircraft_to_repair(state, written)
    if pid is not None:
        return _repair_aircraft_10_3(module, state, pid, dice, ev, board)
    ship = escort_to_repair(state, written)
    if ship is not None:
        return _repair_escort_10_0(module, state, ship, dice, ev, board)
    system = match_name(written, CARRIER_SYSTEMS)[0] or ""
    base = board.terrain(facts_of(state).cvbg["space"]) == "nato_base"
    n, succeeds, _row = _dice_10_1(module, state, at_base=base, crews=True)
    rolls = [dice.roll(6, f"repair {system} die {k + 1}", "10.1") for k in range(n)]
    ok = sum(1 for r in rolls if r >= succeeds)
    sysd = dict(facts_of(state).carrier)
    cap = facts_of(state).carrier_start[system]
    new = min(cap, sysd[system] + ok)
    ev.append(
        Event(
            "repair",
            "10.1",
            f"repair {system}: {n} dice {rolls}, {ok} success(es): {sysd[system]} -> {new}",
            {"rolls": rolls},
        )
    )
    sysd[system] = new
    return CbgFacts.put(state, carrier=sysd)


def _repair_escort_10_0(
    module: Module, state: GameState, pid: str, dice: Dice, ev: list[Event], board: PointBoard
) -> GameState:
    """[10.0] "Damaged Repair: This involves removing Damaged markers", per [10.1]: any
    success removes the escort's Damaged marker (all its damage points); the NATO-base bonus
    [10.2] where the CVBG is; the carrier's crews help the carrier only (CBG 21.5). The
    repair skips the Movement Phase [10.1 note] (docs/interpretations.md, CBG 10.0)."""
    base = board.terrain(facts_of(state).cvbg["space"]) == "nato_base"
    n, succeeds, _row = _dice_10_1(module, state, at_base=base, crews=False)
    rolls = [dice.roll(6, f"repair {pid} die {k + 1}", "10.1") for k in range(n)]
    fixed = any(r >= succeeds for r in rolls)
    conds = dict(facts_of(state).conditions)
    if fixed:
        conds.pop(pid, None)
    ev.append(
        Event(
            "repair",
            "10.0",
            f"repair {pid}: {n} dice {rolls}: "
            + ("the Damaged marker is removed" if fixed else "still Damaged"),
            {"unit": pid, "rolls": rolls, "repaired": fixed},
        )
    )
    return CbgFacts.put(state, conditions=conds)


def _repair_aircraft_10_3(
    module: Module, state: GameState, pid: str, dice: Dice, ev: list[Event], board: PointBoard
) -> GameState:
    """[10.3] per [10.1]: any success removes the aircraft's Damaged marker. The NATO-base
    bonus [10.2] applies where the aircraft is based; the carrier's crews help aboard only."""
    where = facts_of(state).air[pid]
    aboard = where == "hangar"
    space = facts_of(state).cvbg["space"] if aboard else where
    base = board.contains(space) and board.terrain(space) == "nato_base"
    n, succeeds, _row = _dice_10_1(module, state, at_base=base, crews=aboard)
    rolls = [dice.roll(6, f"repair {pid} die {k + 1}", "10.3") for k in range(n)]
    fixed = any(r >= succeeds for r in rolls)
    conds = dict(facts_of(state).conditions)
    if fixed:
        conds.pop(pid, None)
    ev.append(
        Event(
            "repair",
            "10.3",
            f"repair {pid}: {n} dice {rolls}: "
            + ("the Damaged marker is removed" if fixed else "still Damaged")
            + "; Movement is not skipped",
            {"unit": pid, "rolls": rolls, "repaired": fixed},
        )
    )
    return CbgFacts.put(state, conditions=conds)
