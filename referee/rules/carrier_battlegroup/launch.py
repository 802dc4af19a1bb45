"""The Launch Phase [19.0]-[19.2], [15.0]: aircraft from the carrier's hangar (no more than
its Flight Deck, plus a Flight Deck crew), from a NATO base, and cruise missiles from under
their ships, each within its range (doubled for aircraft flying with a refueler [19.2]), at a
space that holds Soviet units to strike [19.1]."""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order, OrdersDoc
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import combat_phase, view
from referee.rules.carrier_battlegroup.facts import facts_of
from referee.rules.carrier_battlegroup.movement_phase import space_named
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.source.model import Module

REFUELER = "refueler"


def strike_target_19_1(state: GameState, dest: str) -> bool | None:
    """Whether ``dest`` holds Soviet units to strike [19.1]: a unit there or an SBG marker.
    The player's view (:func:`view.is_player_view`) leaves face-down units out [2.2], so
    where none shows there the answer is ``None``: the referee's, on the full position
    (``validate`` on the view must not refuse what a hidden unit could allow)."""
    if combat_phase.soviet_here(state, dest) or any(
        g["space"] == dest for g in facts_of(state).sbgs.values()
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
                Violation(
                    "19.1",
                    f"no Soviet unit shows in {dest} in your view, and face-down units are "
                    "hidden from it: the referee accepts the strike only if Soviet units "
                    "are there",
                ).at(o)
            )
    return out


def flight_deck_15_0(state: GameState) -> int:
    """[15.0] launches per phase: the Flight Deck, +1 per Flight Deck crew; a Flight Deck at
    0 "ceases to function for any game purpose" [22.2], so no crew makes it launch."""
    deck = int(facts_of(state).carrier["Flight Deck"])
    if deck <= 0:
        return 0
    return deck + sum(1 for c in facts_of(state).crews if c.startswith("US-CREW-FD"))


def range_19_2(module: Module, pid: str, *, refueled: bool) -> int:
    """A standoff unit's range in spaces [19.1]: its printed range (SPD), doubled for an
    aircraft flying with a refueler, never for a missile or the refueler itself [19.2]."""
    u = module.piece(pid).unit
    double = refueled and u.category == "air" and REFUELER not in u.flags
    return int(u.values["SPD"]) * (2 if double else 1)


def start_19_1(state: GameState, pid: str) -> str:
    """Where a launched unit takes off: the CVBG's space (the hangar, or under a ship), or
    the NATO base it is based on."""
    where = facts_of(state).air.get(pid)
    return facts_of(state).cvbg["space"] if where in (None, "hangar") else str(where)


def _distance_avoiding(board: PointBoard, a: str, b: str, avoid: set[str]) -> int | None:
    """The fewest spaces from ``a`` to ``b`` entering none of ``avoid`` on the way."""
    seen, frontier, d = {a}, [a], 0
    while frontier:
        if b in frontier:
            return d
        d += 1
        nxt = sorted(
            {n for s in frontier for n in board.neighbours(s) if n not in seen} - (avoid - {b})
        )
        seen.update(nxt)
        frontier = nxt
    return None


def stops_12_4(board: PointBoard, state: GameState, start: str, dest: str, rng: int) -> list[str]:
    """[12.4] "SBG: You can enter these, but you must stop there (including Standoff units,
    unless no contact occurs, in which case Standoff units may continue to move)": the SBG
    spaces a standoff unit flying from ``start`` to ``dest`` must stop at on the way, in
    order (empty: it reaches ``dest``; a game begun before the ruling keeps its older play,
    switch ``strikes_stop_at_sbgs``). The unit takes a route within its range that passes
    no SBG when there is one (the player's best choice); else the shortest route
    (``PointBoard.path``: ties to the alphabetically first space)."""
    sbgs = {g["space"] for g in facts_of(state).sbgs.values()} - {start, dest}
    if not sbgs or not readings_of(state).strikes_stop_at_sbgs:
        return []
    clear = _distance_avoiding(board, start, dest, sbgs)
    if clear is not None and clear <= rng:
        return []
    path = board.path(start, dest) or []
    return [s for s in path[1:-1] if s in sbgs]


def check_launch_19_0(
    module: Module, state: GameState, board: PointBoard, orders: list[Order]
) -> list[Violation]:
    """[19.0], [19.1] every ``strike`` order; [15.0] the Flight Deck limit."""
    out: list[Violation] = []
    here = facts_of(state).cvbg["space"]
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
                out.append(
                    Violation(
                        "19.0",
                        f"expected each unit launched once, found {pid} twice",
                        word=pid,
                        unit=pid,
                        hint="name it in one strike",
                    ).at(o)
                )
                continue
            launched.append(pid)
            where = (
                facts_of(state).air.get(pid)
                if u.category == "air"
                else (here if pid in facts_of(state).missiles else None)
            )
            if where is None:
                out.append(
                    Violation(
                        "19.0",
                        f"expected a unit aboard the carrier, at a NATO base or under a CVBG "
                        f"ship, found {pid} in {state.units[pid].box or state.units[pid].location}",
                        word=pid,
                        unit=pid,
                        hint="buy it first [9.1]; launched aircraft are back after Recovery [15.2]",
                    ).at(o)
                )
                continue
            start = here if where == "hangar" else where
            rng = range_19_2(module, pid, refueled=refuel)
            d = board.distance(start, dest)
            if d > rng:
                out.append(
                    Violation(
                        "19.1",
                        f"expected a target within {pid}'s range {rng}, found {dest} {d} "
                        "spaces away",
                        word=pid,
                        unit=pid,
                        hint="a refueler doubles aircraft range [19.2]",
                    ).at(o)
                )
        if strike_target_19_1(state, dest) is False:
            out.append(
                Violation(
                    "19.1",
                    f"expected a space holding Soviet units, found {dest}: it holds no Soviet "
                    "units to strike",
                    hint="strike an SBG's space or one where Soviet units are",
                ).at(o)
            )
    deck = flight_deck_15_0(state)
    from_carrier = [p for p in launched if facts_of(state).air.get(p) == "hangar"]
    if len(from_carrier) > deck:
        out.append(
            Violation(
                "15.0",
                f"expected at most {deck} aircraft launched from the carrier (its Flight "
                f"Deck), found {len(from_carrier)}",
                hint="see 19.0; a Flight Deck crew launches one more [15.0]",
            ).at(orders[0])
        )
    return out


@dataclass(frozen=True, slots=True)
class Flights:
    """The Launch Phase's standoff units for the Combat Phase: the units at each space they
    stopped at, and for each unit stopped short by an SBG [12.4] the spaces it still has to
    fly to (the next SBG on the way, then its target)."""

    at: dict[str, list[str]]
    onward: dict[str, list[str]]


def launch_phase_19_0(
    module: Module, board: PointBoard, state: GameState, orders: list[Order], ev: list[Event]
) -> tuple[GameState, Flights]:
    """[19.1] the launched units fly to their targets, each stopping at the first SBG on
    its way [12.4]; returns the state and where each unit is (for the Combat Phase)."""
    strikes: dict[str, list[str]] = {}
    onward: dict[str, list[str]] = {}
    for o in orders:
        dest = match_name(o.hexes[0], board.locations())[0] or o.hexes[0]
        refuel = any(REFUELER in module.piece(p).unit.flags for p in o.units)
        ev.append(
            Event(
                "launch",
                "19.1",
                f"{', '.join(o.units)} launched at {dest}",
                {"units": list(o.units), "to": dest},
            )
        )
        for pid in o.units:
            start = start_19_1(state, pid)
            rng = range_19_2(module, pid, refueled=refuel)
            stops = stops_12_4(board, state, start, dest, rng) if start in board.locations() else []
            first = stops[0] if stops else dest
            if stops:
                onward[pid] = [*stops[1:], dest]
                ev.append(
                    Event(
                        "strike_stop",
                        "12.4",
                        f"{pid} must stop at {first}: an SBG is on its way to {dest} "
                        "(it flies on only if no contact occurs there) [12.4]",
                        {"unit": pid, "at": first, "to": dest},
                    )
                )
            strikes.setdefault(first, []).append(pid)
            state = state.with_unit(UnitState(pid, "USN", first, None))
    return state, Flights(strikes, onward)
