"""Naval transport and evacuation [28.1x], [28.2x], [30.3].

Capacity points [28.13b]: one per non-motorized stacking point, one for a zero-stacking unit,
an HQ or an Attack Supply Point; two per motorized stacking point, all on one ship [28.13c].
Ships never pool capacity, so a unit is carried whole by one ship.
"""

from __future__ import annotations

from referee.engine.core import Violation
from referee.source.model import UnitDef

NOT_TRANSPORTABLE = {
    "AT": "an armoured train",
    "CD": "coast artillery",
    "RRA": "railroad artillery",
    "SHA": "super-heavy artillery",
}  # [28.13d]
ONE_POINT_TYPES = ("HQ", "ASP")  # [28.13b]


def points_28_13(unit: UnitDef) -> int:
    """The capacity points a ground unit needs [28.13b], [28.13c]."""
    stk = unit.values.get("STK", 0)
    if unit.type in ONE_POINT_TYPES:
        return 1
    if "motorized" in unit.flags:
        return 2 * max(1, stk)
    return max(1, stk)


def load_problems(
    ship_name: str, capacity: int, aboard: list[UnitDef], adding: list[tuple[str, UnitDef]]
) -> list[Violation]:
    """Why ``adding`` cannot go aboard a ship of ``capacity`` that already carries
    ``aboard``."""
    out: list[Violation] = []
    if capacity <= 0:
        out.append(Violation("28.13a", f"{ship_name} has no transport capacity"))
        return out
    used = sum(points_28_13(u) for u in aboard)
    for pid, u in adding:
        if u.category != "ground":
            out.append(Violation("28.12", f"{pid} is not a ground unit", unit=pid))
            continue
        if u.type in NOT_TRANSPORTABLE:
            out.append(
                Violation(
                    "28.13d",
                    f"{pid} is {NOT_TRANSPORTABLE[u.type]}: never carried by sea",
                    unit=pid,
                )
            )
            continue
        need = points_28_13(u)
        if "motorized" in u.flags and need > capacity:
            out.append(
                Violation(
                    "28.13c",
                    f"{pid} is motorized and needs {need} capacity points on one ship; "
                    f"{ship_name} has {capacity}",
                    unit=pid,
                    hint="naval units cannot combine to carry a unit: use a larger ship",
                )
            )
            continue
        if used + need > capacity:
            out.append(
                Violation(
                    "28.13b",
                    f"{pid} needs {need} capacity point(s); {ship_name} has "
                    f"{capacity - used} of {capacity} left",
                    unit=pid,
                )
            )
            continue
        used += need
    return out


def do_not_move_after_engineering(markers: dict[str, int]) -> dict[str, int]:
    """The Engineering Phase of the landing turn turns "Do Not Move 2 GTs" into "1 GT"
    [28.24 example]."""
    return {u: (1 if n == 2 else n) for u, n in markers.items()}


def do_not_move_at_turn_end(markers: dict[str, int], landed_this_turn: set[str]) -> dict[str, int]:
    """At the end of the next Game-Turn the "1 GT" marker goes [28.24 example]: markers placed
    this turn stay."""
    return {u: n for u, n in markers.items() if u in landed_this_turn or n > 1}
