"""Cargo and Logistics Points [9.0]-[9.3], [8.0].

LP buy Cargo [9.1] at the Cargo Table's prices; Cargo is bought only with the task force at
a NATO base, except land-based aircraft [9.0]; carrier aircraft never exceed the Hangar
[9.1 note]; cruise missiles go under ships that can carry them, up to each ship's capacity
[9.2], [15.1]; buying any Cargo skips the Movement Phase [9.1 note], unless a Cargo
aircraft alone replenished the CVBG [9.3].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import Event, GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module

TRACK_ITEMS = {
    "fuel": "fuel",
    "ammunition": "ammo",
    "ew_enhancement": "EW",
    "air_defense": "Air Defense",
}


def item_of(module: Module, pid: str) -> str | None:
    """The Cargo Table row a piece is bought under [9.2]."""
    u = module.piece(pid).unit
    if u.side != "USN":
        return None
    if u.category == "air":
        return "land_aircraft" if "land" in u.flags else "carrier_aircraft"
    if u.category == "missile":
        return "cruise_missile"
    if u.type == "Crew":
        return "special_crew"
    return None


def price(module: Module, item: str) -> int:
    return int(module.tables["cargo"].lookup(row=item, col="lp").value)


def capacity_of(module: Module, pid: str) -> int:
    """[9.2], [15.1] cruise missiles a ship carries (SSN 0: docs/interpretations.md)."""
    u = module.piece(pid).unit
    key = "CG Aegis" if "aegis" in u.flags else u.type
    t = module.tables["missile_capacity"]
    found = t.find(row=key) or t.lookup(row="other")
    return int(found.value)


@dataclass
class Basket:
    """What one orders file buys."""

    lp: int = 0
    tracks: dict[str, int] = field(default_factory=dict)
    pieces: list[str] = field(default_factory=list)


COD_ITEMS = ("fuel", "ammunition", "cruise_missile", "special_crew")  # [9.3]
AT_SEA_HINT = "or with a Cargo aircraft (COD) aboard within its range of a NATO base [9.3]"


def items_of(module: Module, b: Basket) -> set[str]:
    """The Cargo Table rows a basket buys [9.2]."""
    return {*b.tracks, *(str(item_of(module, p)) for p in b.pieces)}


def by_cod_only_9_3(module: Module, b: Basket, *, cod: bool) -> bool:
    """[9.3]: the whole basket is Fuel, Ammunition, Cruise Missiles or Crews and a COD can
    bring them, so the Movement Phase is not skipped."""
    return cod and bool(b.lp or b.pieces) and items_of(module, b) <= set(COD_ITEMS)


def check_buys(
    module: Module,
    state: GameState,
    orders: list[Order],
    ships: list[str],
    *,
    at_base: bool,
    cod: bool = False,
) -> tuple[Basket, list[Violation]]:
    """[9.0]-[9.3]: every ``buy`` order priced and checked against LP, place and capacity;
    ``cod`` says a Cargo aircraft can replenish the CVBG away from a base [9.3]."""
    out: list[Violation] = []
    b = Basket()
    for o in orders:
        if o.units:
            for pid in o.units:
                if pid not in state.units:
                    continue  # problems.named_units_2_2 names it, with the nearest ids
                item = item_of(module, pid)
                if item is None:
                    out.append(
                        Violation(
                            "9.2",
                            f"expected Cargo the USN can buy, found {pid} "
                            f"({module.piece(pid).unit.category})",
                            word=pid,
                            unit=pid,
                            hint="aircraft, crews and cruise missiles",
                        ).at(o)
                    )
                    continue
                if state.units[pid].box != "available" or pid in b.pieces:
                    out.append(
                        Violation(
                            "9.1",
                            f"expected a counter in the available box, found {pid} "
                            + (
                                "bought twice"
                                if pid in b.pieces
                                else f"in {state.units[pid].box or state.units[pid].location}"
                            ),
                            word=pid,
                            unit=pid,
                            hint="Cargo counters are a design limit",
                        ).at(o)
                    )
                    continue
                if not at_base and item != "land_aircraft" and not (cod and item in COD_ITEMS):
                    out.append(
                        Violation(
                            "9.0",
                            f"expected the CVBG at a NATO base to buy {pid}, found it at "
                            f"{facts_of(state).cvbg['space']}",
                            word=pid,
                            unit=pid,
                            hint=AT_SEA_HINT
                            if item in COD_ITEMS
                            else "Cargo is bought only at a NATO base; land-based aircraft "
                            "anywhere [9.0]",
                        ).at(o)
                    )
                    continue
                b.lp += price(module, item)
                b.pieces.append(pid)
        else:
            item, n = o.arg("item")[0], int(o.arg("count")[0])
            if not at_base and not (cod and item in COD_ITEMS):
                out.append(
                    Violation(
                        "9.0",
                        f"expected the CVBG at a NATO base to buy {item}, found it at "
                        f"{facts_of(state).cvbg['space']}",
                        hint=AT_SEA_HINT
                        if item in COD_ITEMS
                        else "Cargo is bought only at a NATO "
                        "base; land-based aircraft anywhere [9.0]",
                    ).at(o)
                )
                continue
            if n < 1:
                out.append(
                    Violation(
                        "9.1", f"expected a count of 1 or more, found {n}", hint="buy 1 fuel"
                    ).at(o)
                )
                continue
            b.lp += n * price(module, item)
            b.tracks[item] = b.tracks.get(item, 0) + n
    if b.lp > facts_of(state).lp:
        out.append(
            Violation(
                "9.1",
                f"the purchases cost {b.lp} LP: expected at most the {facts_of(state).lp} LP left",
                hint="buy less; unused LP are saved for a later Logistics Phase [9.0]",
            ).at(orders[0] if orders else None)
        )
    air = [p for p in b.pieces if item_of(module, p) == "carrier_aircraft"]
    aboard = sum(1 for v in facts_of(state).air.values() if v == "hangar")
    hangar = facts_of(state).carrier.get("Hangar", 8)
    if air and aboard + len(air) > hangar:
        out.append(
            Violation(
                "9.1",
                f"expected at most {hangar} carrier aircraft aboard (the Hangar), found "
                f"{aboard + len(air)} with these purchases",
                hint="buy fewer carrier aircraft; land-based aircraft go to a NATO base",
            ).at(orders[0])
        )
    missiles = [p for p in b.pieces if item_of(module, p) == "cruise_missile"]
    room = sum(capacity_of(module, s) for s in ships) - len(facts_of(state).missiles)
    if len(missiles) > room:
        out.append(
            Violation(
                "9.2",
                f"expected at most {max(room, 0)} cruise missiles (the room under the CVBG's "
                f"ships), found {len(missiles)}",
                hint="BBG 3, CG Aegis 2, DDG 1, SSGN 2, others 0",
            ).at(orders[0])
        )
    return b, out


def land_base_9_1(module: Module, state: GameState, space: str) -> str:
    """Where a land-based aircraft bought now is placed: "on any NATO base" [9.1], as it
    "can only be based on land" [3.2]: the CVBG's space when it is one, else the nearest
    NATO base, ties by name (docs/interpretations.md, CBG 9.2). A game begun before the
    ruling keeps the older reading, the CVBG's space (switch ``land_aircraft_to_base``)."""
    from referee.engine.graphboard import PointBoard
    from referee.rules.carrier_battlegroup.readings import readings_of

    board = PointBoard(module.map)
    if not readings_of(state).land_aircraft_to_base or board.terrain(space) == "nato_base":
        return space
    bases = [s for s in board.locations() if board.terrain(s) == "nato_base"]
    return min(bases, key=lambda b: (board.distance(space, b), b))


def carry_out_buys(module: Module, state: GameState, b: Basket, ships: list[str]) -> GameState:
    """Place what was bought [9.2], [4.0 step 9]."""
    got = facts_of(state)
    data: dict[str, Any] = {"lp": got.lp - b.lp}
    carrier = dict(got.carrier)
    for item, n in sorted(b.tracks.items()):
        key = TRACK_ITEMS[item]
        if key in ("fuel", "ammo"):
            data[key] = data.get(key, got.fuel if key == "fuel" else got.ammo) + n
        else:
            carrier[key] = carrier.get(key, 0) + n
    data["carrier"] = carrier
    air = dict(got.air)
    missiles = dict(got.missiles)
    crews = list(got.crews)
    space = got.cvbg["space"]
    for pid in b.pieces:
        item = item_of(module, pid)
        side = "USN"
        if item == "carrier_aircraft":
            air[pid] = "hangar"
            state = state.with_unit(UnitState(pid, side, None, f"hangar:{CARRIER}"))
        elif item == "land_aircraft":
            base = land_base_9_1(module, state, space)
            air[pid] = base
            state = state.with_unit(UnitState(pid, side, base, None))
        elif item == "special_crew":
            crews.append(pid)
            state = state.with_unit(UnitState(pid, side, None, f"crew:{CARRIER}"))
        else:
            ship = next(
                s
                for s in ships
                if capacity_of(module, s) > sum(1 for v in missiles.values() if v == s)
            )
            missiles[pid] = ship
            state = state.with_unit(UnitState(pid, side, None, f"carried:{ship}"))
    data.update(air=air, missiles=missiles, crews=sorted(crews))
    return CbgFacts.put(state, **data)


def check_trades(module: Module, state: GameState, orders: list[Order]) -> list[Violation]:
    """[5.0 step 2c] "Switch Cargo markers between ships in the same space (assuming they are
    of the type which can carry the cargoes)": each cruise missile named is carried by a
    ship of the CVBG, the ship named is another ship of the CVBG that can carry it, within
    its capacity once every trade is made [15.1], [9.2]."""
    out: list[Violation] = []
    ships = facts_of(state).cvbg["ships"]
    missiles = dict(facts_of(state).missiles)
    for o in orders:
        ship = (o.arg("carrier") or ("",))[0]
        if ship not in ships:
            out.append(
                Violation(
                    "5.0",
                    f"expected a ship of the CVBG after ->, found {ship!r}",
                    hint=f"trade MISSILE -> SHIP; the CVBG: {' '.join(ships)}",
                ).at(o)
            )
            continue
        for pid in o.units:
            if pid not in missiles:
                out.append(
                    Violation(
                        "5.0",
                        f"expected a cruise missile carried by the CVBG, found {pid}",
                        word=pid,
                        unit=pid,
                        hint="carried now: "
                        + (" ".join(sorted(facts_of(state).missiles)) or "none"),
                    ).at(o)
                )
                continue
            missiles[pid] = ship
        if capacity_of(module, ship) < sum(1 for v in missiles.values() if v == ship):
            out.append(
                Violation(
                    "15.1",
                    f"expected at most {capacity_of(module, ship)} cruise missiles under {ship}, "
                    f"found {sum(1 for v in missiles.values() if v == ship)} after the trades",
                    hint="BBG 3, CG Aegis 2, DDG 1, SSGN 2, others 0",
                ).at(o)
            )
    return out


def carry_out_trades(state: GameState, orders: list[Order], ev: list[Event]) -> GameState:
    """[5.0 step 2c] the cruise missiles go under the ship named."""
    missiles = dict(facts_of(state).missiles)
    for o in orders:
        ship = o.arg("carrier")[0]
        for pid in o.units:
            missiles[pid] = ship
            state = state.with_unit(UnitState(pid, "USN", None, f"carried:{ship}"))
        ev.append(
            Event(
                "trade",
                "5.0",
                f"{', '.join(o.units)} now carried by {ship} (Trade Cargo, step 2c)",
                {"units": list(o.units), "to": ship},
            )
        )
    return CbgFacts.put(state, missiles=missiles)
