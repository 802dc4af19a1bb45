"""The Launch Phase [19.0]-[19.2], [15.0]: aircraft from the carrier's hangar (no more than
its Flight Deck, plus a Flight Deck crew), from a NATO base, and cruise missiles from under
their ships, each within its range (doubled for aircraft flying with a refueler [19.2]), at a
space that holds Soviet units to strike [19.1]."""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order, OrdersDoc
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import combat_phase, view
from referee.rules.carrier_battlegroup.movement_phase import space_named
from referee.rules.carrier_battlegroup.problems import at
from referee.source.model import Module

REFUELER = "refueler"


def strike_target_19_1(state: GameState, dest: str) -> bool | None:
    """Whether ``dest`` holds Soviet units to strike [19.1]: a unit there or an SBG marker.
    The player's view (:func:`view.is_player_view`) leaves face-down units out [2.2], so
    where none shows there the answer is ``None``: the referee's, on the full position
    (``validate`` on the view must not refuse what a hidden unit could allow)."""
    if combat_phase.soviet_here(state, dest) or any(
        g["space"] == dest for g in state.data["sbgs"].values()
    ):
        return True
    return None if view.is_player_view(state) else False


def view_notes_19_1(module: Module, seen: GameState, doc: OrdersDoc) -> list[Violation]:
    """On the player's view: each strike at a space where no Soviet unit shows, whose
    target the hidden face-down units decide [19.1][2.2] (said without telling them)."""
    board = PointBoard(module.map)
    out: list[Violation] = []
    for o in doc.orders:
        if o.verb != "strike" or not o.hexes:
            continue
        dest, _hint = match_name(o.hexes[0], board.locations())
        if dest is not None and strike_target_19_1(seen, dest) is None:
            out.append(
                at(
                    o,
                    "19.1",
                    f"no Soviet unit shows in {dest} in your view, and face-down units are "
                    "hidden from it: the referee accepts the strike only if Soviet units "
                    "are there",
                )
            )
    return out


def flight_deck_15_0(state: GameState) -> int:
    """[15.0] launches per phase: the Flight Deck, +1 per Flight Deck crew; a Flight Deck at
    0 "ceases to function for any game purpose" [22.2], so no crew makes it launch."""
    deck = int(state.data["carrier"]["Flight Deck"])
    if deck <= 0:
        return 0
    return deck + sum(1 for c in state.data["crews"] if c.startswith("US-CREW-FD"))


def check_launch_19_0(
    module: Module, state: GameState, board: PointBoard, orders: list[Order]
) -> list[Violation]:
    """[19.0], [19.1] every ``strike`` order; [15.0] the Flight Deck limit."""
    out: list[Violation] = []
    here = state.data["cvbg"]["space"]
    launched: list[str] = []
    for o in orders:
        dest = space_named(board, o, o.hexes[0], out)
        if dest is None:
            continue
        air = [p for p in o.units if module.piece(p).unit.category == "air"]
        refuel = any(REFUELER in module.piece(p).unit.flags for p in air)
        for pid in o.units:
            u = module.piece(pid).unit
            if pid in launched:
                out.append(at(o, "19.0", f"{pid} is launched twice", unit=pid))
                continue
            launched.append(pid)
            where = (
                state.data["air"].get(pid)
                if u.category == "air"
                else (here if pid in state.data["missiles"] else None)
            )
            if where is None:
                out.append(
                    at(
                        o,
                        "19.0",
                        f"{pid} is not aboard the carrier, at a base or under a CVBG ship",
                        unit=pid,
                    )
                )
                continue
            start = here if where == "hangar" else where
            rng = u.values["SPD"] * (
                2 if refuel and u.category == "air" and REFUELER not in u.flags else 1
            )
            d = board.distance(start, dest)
            if d > rng:
                out.append(
                    at(
                        o,
                        "19.1",
                        f"{pid}: {dest} is {d} spaces away; range {rng}",
                        "a refueler doubles aircraft range [19.2]",
                        pid,
                    )
                )
        if strike_target_19_1(state, dest) is False:
            out.append(at(o, "19.1", f"{dest} holds no Soviet units to strike"))
    deck = flight_deck_15_0(state)
    from_carrier = [p for p in launched if state.data["air"].get(p) == "hangar"]
    if len(from_carrier) > deck:
        out.append(
            at(
                orders[0],
                "15.0",
                f"{len(from_carrier)} aircraft launched from the carrier; "
                f"the Flight Deck allows {deck}",
                "see 19.0",
            )
        )
    return out


def launch_phase_19_0(
    board: PointBoard, state: GameState, orders: list[Order], ev: list[Event]
) -> tuple[GameState, dict[str, list[str]]]:
    """[19.1] the launched units fly to their targets; returns the state and the units
    launched at each space (for the Combat Phase)."""
    strikes: dict[str, list[str]] = {}
    for o in orders:
        dest = match_name(o.hexes[0], board.locations())[0] or o.hexes[0]
        strikes.setdefault(dest, []).extend(o.units)
        for pid in o.units:
            state = state.with_unit(UnitState(pid, "USN", dest, None))
        ev.append(
            Event(
                "launch",
                "19.1",
                f"{', '.join(o.units)} launched at {dest}",
                {"units": list(o.units), "to": dest},
            )
        )
    return state, strikes
