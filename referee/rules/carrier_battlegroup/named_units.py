"""The units an order names [2.2]: counters of the game, and USN ones (the game runs the
Soviet side); and the case that says which units each verb names."""

from __future__ import annotations

from referee.engine.core import Violation
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.source.model import Module

UNIT_RULE = {
    "intel": "11.1",
    "buy": "9.2",
    "repair": "10.1",
    "trade": "5.0",
    "strike": "19.0",
    "land": "23.2",
    "embark": "23.2",
}
"""The case that says which units an order of each verb names."""

TRACK_CARGO = ("fuel", "ammunition", "ew_enhancement", "air_defense")  # `buy N ITEM` [9.2]


def named_units_2_2(module: Module, o: Order) -> list[Violation]:
    """Every unit an order names is a counter of the game and a USN one: the game runs the
    Soviet side [2.2] (the roster is public, so saying a unit is Soviet reveals nothing,
    even of a unit hidden from the player's view). An unknown one gets the nearest piece
    ids as a hint; ``buy 3 torpedoes`` (a count, then no cargo word) is one problem naming
    the cargo words, not two unknown pieces [9.2]."""
    if o.verb == "buy" and o.units and o.units[0].isascii() and o.units[0].isdigit():
        got = " ".join(o.units[1:])
        return [
            Violation(
                "9.2",
                f"expected `buy {o.units[0]} ITEM` with ITEM one of {', '.join(TRACK_CARGO)}, "
                f"got {got!r}"
                if got
                else f"expected a cargo word after `buy {o.units[0]}`",
                hint="aircraft, crews and cruise missiles are bought by piece id: "
                "buy UNIT [UNIT ...]",
            ).at(o)
        ]
    pieces = module.pieces()
    out: list[Violation] = []
    for pid in o.units:
        if pid not in pieces:
            _got, hint = match_name(pid, pieces)
            out.append(
                Violation(
                    UNIT_RULE.get(o.verb, "2.2"),
                    f"no unit {pid!r}: expected a counter of this game",
                    word=pid,
                    unit=pid,
                    hint=hint or "`referee options` lists the units each order may name",
                ).at(o)
            )
        elif pieces[pid].unit.side != "USN":
            out.append(
                Violation(
                    "2.2",
                    f"{pid} is a Soviet unit: expected a USN unit, the game runs the Soviet side",
                    word=pid,
                    unit=pid,
                    hint="order only USN units",
                ).at(o)
            )
    return out


def standing_units_2_2(module: Module, standing: tuple[Order, ...]) -> list[Violation]:
    """The units the standing orders name: counters of the game and USN ones [2.2], like
    any order's; and ``lose`` names aircraft only, the ones given up first when the carrier
    has no room for them [14.1] (a ship named there would be silently ignored)."""
    pieces = module.pieces()
    out: list[Violation] = []
    for o in standing:
        named = named_units_2_2(module, o)
        out += named
        if o.verb != "lose" or named:
            continue
        for pid in o.units:
            if pieces[pid].unit.category != "air":
                out.append(
                    Violation(
                        "14.1",
                        f"{pid} is not an aircraft: `lose` names the aircraft given up first "
                        "when the carrier has no room for them",
                        word=pid,
                        unit=pid,
                        hint="name the CVBG's aircraft, in the order they are given up",
                    ).at(o)
                )
    return out
