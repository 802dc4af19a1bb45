"""CVBG movement [12.0]-[12.4] and the fuel of [5.0 step 3] / [12.2].

A CVBG moves at its slowest ship's speed [12.0]; a nuclear ship always has its maximum speed
(cruise + 2) for free and fuel cannot raise it further [12.2]; conventional ships reach it by
spending one Fuel per CVBG (docs/interpretations.md, CBG 12.2: [12.2] over [5.0]).
A damaged non-carrier ship moves at half speed rounded up, a crippled one not at all [12.3].
"""

from __future__ import annotations

from dataclasses import dataclass

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
