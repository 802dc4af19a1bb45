"""Fire [2.2], [21.1]-[21.6]: who may fire at what, and rolling against a strength.

"Roll against" a value means rolling that many dice [2.2]. Each unit fires individually,
never combining [21.2]; a 0 factor may not fire in that category [21.5]; a special crew adds
only to a non-zero factor [21.5]. Each die is read on the Firing Table ("Hit" or "No
Effect"); each Hit is one die on the Hit Table's column for the target type [21.5].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.source.model import Module

# [21.1] the categories each fire may target
TARGETS_21_1: dict[str, tuple[str, ...]] = {
    "AA": ("air", "missile"),
    "AS": ("surface", "coastal"),
    "ASW": ("submarine",),
}


def dice_to_roll_2_2(value: int) -> int:
    """[2.2] roll against a value: that many dice."""
    return max(0, value)


def may_target_21_5(factors: dict[str, int]) -> dict[str, tuple[str, ...]]:
    """[21.5], [21.1]: the target categories each non-zero factor may fire at."""
    return {fire: cats for fire, cats in TARGETS_21_1.items() if factors.get(fire, 0) > 0}


def strength_21_5(factor: int, crew_bonus: int) -> int:
    """[21.5] a special crew adds to a non-zero factor only."""
    return factor + crew_bonus if factor > 0 else 0


def hit_column_21_5(category: str, type_code: str) -> str:
    """The Hit Table column for a target [21.5], [22.2]: carriers have their own column."""
    if type_code in ("CVN", "CV"):
        return "carrier"
    return {
        "surface": "ship",
        "submarine": "submarine",
        "air": "air",
        "missile": "air",
        "coastal": "coastal",
    }[category]


def count_hits_21_5(module: Module, rolls: Sequence[int]) -> int:
    """[21.5] each die read on the Firing Table; the number of "Hit" results."""
    table = module.tables["firing"]
    return sum(1 for r in rolls if str(table.lookup(row=r).value) == "Hit")


def fire_21_5(
    module: Module, strength: int, column: str, roll: Callable[[str], int]
) -> tuple[int, list[str]]:
    """[21.5]: roll ``strength`` dice on the Firing Table, then one die per Hit on the Hit
    Table's ``column``. ``roll(purpose)`` rolls one d6. Returns (hits, outcomes)."""
    rolls = [roll(f"firing die {i + 1} of {strength}") for i in range(dice_to_roll_2_2(strength))]
    hits = count_hits_21_5(module, rolls)
    table = module.tables["hit"]
    outcomes = [
        str(table.lookup(row=roll(f"hit die {i + 1} of {hits}"), col=column).value)
        for i in range(hits)
    ]
    return hits, outcomes
