"""Escort selection [4.0 step 7].

The Escort Selection Table gives a count per class; the player picks the ships within the
class ("2 x destroyer" = two of DDG/DD) but never more than one Aegis CG per task force.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

CLASSES_4_0: dict[str, tuple[str, ...]] = {
    "cruiser": ("CGN", "CG", "CG Aegis"),
    "destroyer": ("DDG", "DD"),
    "frigate": ("FFG",),
    "submarine": ("SSN",),
}
AEGIS_LIMIT = 1  # [4.0 step 7] exception


def choices_4_0_7(klass: str, count: int) -> list[tuple[str, ...]]:
    """Every lawful pick of ``count`` ships of ``klass`` (types sorted within a pick)."""
    picks = combinations_with_replacement(CLASSES_4_0[klass], count)
    return [p for p in picks if p.count("CG Aegis") <= AEGIS_LIMIT]


def aegis_ok_4_0_7(types: list[str]) -> bool:
    """[4.0 step 7] at most one Aegis CG per task force."""
    return types.count("CG Aegis") <= AEGIS_LIMIT
