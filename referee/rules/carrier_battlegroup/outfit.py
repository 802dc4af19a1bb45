"""Outfitting [4.0 steps 7-9]: the escorts picked within the rolled classes, the purchases
with the mission's LP, and the task force placed where the scenario starts it: the NATO Base
Area [4.0 step 9a], or at sea, where the purchases need no NATO base all the same: "If a
scenario starts the task force at sea, it is not required to be in a NATO base for its
logistics" [8.1] (hence ``at_base=True`` wherever the CVBG is).
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.orders import OrdersDoc
from referee.rules.carrier_battlegroup import cargo, escorts
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.named_units import named_units_2_2, standing_units_2_2
from referee.rules.carrier_battlegroup.setup import CARRIER, NATO_BASE
from referee.source.model import Module


def class_of(module: Module, pid: str) -> tuple[str | None, str]:
    """(the Escort Selection class, the type as 4.0 names it) of a USN ship."""
    u = module.piece(pid).unit
    if u.side != "USN" or "optional" in u.flags or pid == CARRIER:
        return None, u.type
    t = "CG Aegis" if "aegis" in u.flags else u.type
    for k, types in escorts.CLASSES_4_0.items():
        if t in types:
            return k, t
    return None, t


def check_outfit(module: Module, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """Every independent problem of the outfit orders in one run: unknown or Soviet pieces
    [2.2], the escorts against the classes rolled [4.0 step 7], the purchases against the
    LP and the room aboard [9.1], [9.2] (each check on the words the others accepted)."""
    out: list[Violation] = []
    esc = [o for o in doc.orders if o.verb == "escort"]
    picks: list[str] = []
    for o in doc.orders:
        out += named_units_2_2(module, o)
    out += standing_units_2_2(module, doc.standing)
    usn = {p for p, u in state.units.items() if u.side == "USN"}
    if not esc:
        out.append(
            Violation(
                "4.0",
                "pick the escorts: `escort UNIT ...` in [outfit]",
                hint="the classes rolled: "
                + ", ".join(f"{v} x {k}" for k, v in facts_of(state).escort_classes.items() if v),
            ).at(None)
        )
    escorts_ok = True  # the escort words all known and escorts: then check them together
    for o in esc:
        for pid in o.units:
            if pid not in usn:
                escorts_ok = False  # named above
                continue
            k, t = class_of(module, pid)
            if k is None:
                escorts_ok = False
                out.append(
                    Violation(
                        "4.0",
                        f"expected an escort of a rolled class, found {pid} ({t}), of none",
                        word=pid,
                        unit=pid,
                        hint="the classes: cruiser, destroyer, frigate, submarine",
                    ).at(o)
                )
            picks.append(pid)
    if esc and escorts_ok:
        want = {k: v for k, v in facts_of(state).escort_classes.items() if v}
        got: dict[str, int] = {}
        for pid in picks:
            k = class_of(module, pid)[0] or ""
            got[k] = got.get(k, 0) + 1
        if got != want:
            out.append(
                Violation(
                    "4.0",
                    "the escorts do not match the roll: expected "
                    + ", ".join(f"{v} x {k}" for k, v in sorted(want.items()))
                    + ", got "
                    + ", ".join(f"{v} x {k}" for k, v in sorted(got.items())),
                    hint="pick within each class, e.g. 2 x destroyer = DDG and/or DD",
                ).at(esc[0])
            )
        if not escorts.aegis_ok_4_0_7([class_of(module, p)[1] for p in picks]):
            out.append(
                Violation(
                    "4.0",
                    "expected at most one Aegis CG per task force, found more than one",
                    hint="pick another cruiser",
                ).at(esc[0])
            )
        if len(set(picks)) != len(picks):
            twice = sorted({p for p in picks if picks.count(p) > 1})
            out.append(
                Violation(
                    "4.0",
                    f"expected each ship picked once, found {', '.join(twice)} twice",
                    hint="name each escort once",
                ).at(esc[0])
            )
    buys = [o for o in doc.orders if o.verb == "buy"]
    if buys:
        # [8.1]: the initial deployment's logistics need no base
        _b, errs = cargo.check_buys(module, state, buys, [CARRIER, *picks], at_base=True)
        out += errs
    return out


def carry_out_outfit(
    module: Module, state: GameState, doc: OrdersDoc
) -> tuple[GameState, list[Event]]:
    ev: list[Event] = []
    picks = [p for o in doc.orders if o.verb == "escort" for p in o.units]
    ships = [CARRIER, *picks]
    start = facts_of(state).cvbg["space"]  # where the scenario starts it [4.0 step 9a], [8.1]
    for pid in picks:
        state = state.with_unit(UnitState(pid, "USN", start, None))
    state = CbgFacts.put(state, cvbg={"space": start, "ships": ships})
    ev.append(Event("escorts", "4.0", "the CVBG: " + ", ".join(ships), {"ships": ships}))
    buys = [o for o in doc.orders if o.verb == "buy"]
    if buys:
        b, _ = cargo.check_buys(module, state, buys, ships, at_base=True)  # [8.1]
        state = cargo.carry_out_buys(module, state, b, ships)
        ev.append(
            Event(
                "outfit",
                "4.0",
                f"bought for {b.lp} LP: "
                + ", ".join([*b.pieces, *(f"{n} {k}" for k, n in sorted(b.tracks.items()))])
                + f"; {facts_of(state).lp} LP left",
                {"lp": b.lp},
            )
        )
    if start == NATO_BASE:
        ev.append(Event("place", "4.0", f"the task force is at {NATO_BASE}"))
    else:
        ev.append(
            Event(
                "place",
                "8.1",
                f"the task force starts at sea at {start}: its logistics were done before the "
                "mission, no NATO base needed",
                {"space": start},
            )
        )
    state = state.evolve(phase="turn", turn=1)
    ev.append(Event("phase", "5.0", "turn 1 begins"))
    return state, ev
