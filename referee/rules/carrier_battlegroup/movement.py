"""CVBG movement [12.0]-[12.4] and the fuel of [5.0 step 3] / [12.2].

A CVBG moves at its slowest ship's speed [12.0]; a nuclear ship always has its maximum speed
(cruise + 2) for free and fuel cannot raise it further [12.2]; conventional ships reach it by
spending one Fuel per CVBG (docs/interpretations.md, CBG 12.2: [12.2] over [5.0]).
A damaged non-carrier ship moves at half speed rounded up, a crippled one not at all [12.3].
The CVBG may leave the Navigation Lines of its Orders; it is then Out of Lane, which the
Incident chits may sanction [12.5] (docs/interpretations.md, CBG 12.5).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from referee.engine.graphboard import PointBoard

MAX_SPEED_BONUS = 2  # [12.2] "two additional spaces"
STOP_TYPES = ("chokepoint", "nato_base", "objective", "soviet_base")  # [12.4]


@dataclass(frozen=True, slots=True)
class Speed:
    """What one ship can do in a Movement Phase [12.2]."""

    cruise: int
    maximum: int
    fuel_for_maximum: int  # Fuel increments the CVBG spends to reach ``maximum``


def ship_speed_12_2(cruise: int, *, nuclear: bool) -> Speed:
    """[12.2]: nuclear ships reach maximum speed for free; the others for one Fuel."""
    return Speed(cruise, cruise + MAX_SPEED_BONUS, 0 if nuclear else 1)


def damaged_speed_12_3(printed: int, *, damaged: bool, crippled: bool) -> int:
    """[12.3], [22.3]: half the printed speed rounded up when damaged; 0 when crippled."""
    if crippled:
        return 0
    return -(-printed // 2) if damaged else printed


def cvbg_allowance_12_1(ships: list[tuple[int, bool]], *, spend_fuel: bool) -> int:
    """[12.1], [12.2]: the slowest ship's allowance; ``ships`` are (speed, nuclear)."""
    if not ships:
        return 0
    out = []
    for cruise, nuclear in ships:
        s = ship_speed_12_2(cruise, nuclear=nuclear)
        out.append(s.maximum if (nuclear or spend_fuel) else s.cruise)
    return min(out)


def must_stop_12_4(space_type: str, *, sbg_here: bool) -> bool:
    """[12.4], [5.0 step 3]: stop on entering a Chokepoint, NATO base, Objective, Soviet
    naval base, or a space with an SBG."""
    return sbg_here or space_type in STOP_TYPES


def lanes_of_orders(raw: str) -> tuple[str, ...]:
    """[12.5] the Navigation Lines of an Orders marker (the Orders Chart's ``lanes``)."""
    return tuple(x.strip() for x in raw.split(";") if x.strip())


def in_lane_step_12_5(board: PointBoard, a: str, b: str, lanes: Iterable[str]) -> bool:
    """[12.5] a step between adjacent spaces follows a lane when a Navigation Line of the
    Orders holds both spaces."""
    return bool(set(board.lines_of(a)) & set(board.lines_of(b)) & set(lanes))


def out_of_lane_12_5(board: PointBoard, route: list[str], lanes: Iterable[str]) -> bool:
    """[12.5] Out of Lane: the CVBG ends on a space of no lane of its Orders, or took a step
    along a line that is not one of them. No lanes (a scenario without Orders) means none."""
    want = set(lanes)
    if not want or not route:
        return False
    if not set(board.lines_of(route[-1])) & want:
        return True
    return any(not in_lane_step_12_5(board, a, b, want) for a, b in itertools.pairwise(route))


def lane_path_12_5(board: PointBoard, a: str, b: str, lanes: Iterable[str]) -> list[str] | None:
    """The shortest route from ``a`` to ``b`` that stays in lane [12.5], or ``None``."""
    want = set(lanes)
    prev: dict[str, str | None] = {a: None}
    todo = deque([a])
    while todo:
        here = todo.popleft()
        if here == b:
            out = [here]
            while (p := prev[out[-1]]) is not None:
                out.append(p)
            return out[::-1]
        for n in sorted(board.neighbours(here)):
            if n not in prev and in_lane_step_12_5(board, here, n, want):
                prev[n] = here
                todo.append(n)
    return None
