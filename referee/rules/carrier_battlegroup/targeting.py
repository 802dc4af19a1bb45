"""Soviet fire order and target selection [21.3], [21.4].

Firing order: missiles, air units, submarines, surface ships, coastal defense; within a
group the highest EW first, ties random [21.3]. Each firer takes the first priority class
it may fire at that is present, the lowest EW within it, ties random [21.3]; each Soviet
unit must pick a target not yet picked when one is available [21.4]. Ties are broken by
the ruleset's verifiable dice (``tie(n)`` returns 1..n).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

FIRING_GROUPS_21_3 = ("missile", "air", "submarine", "surface", "coastal")
# [21.3] Target Priorities: (class, fire category)
PRIORITIES_21_3: tuple[tuple[frozenset[str] | None, str, str], ...] = (
    (frozenset({"missile"}), "AA", "category"),
    (frozenset({"air"}), "AA", "category"),
    (frozenset({"CVN", "CV"}), "AS", "type"),
    (frozenset({"BBG"}), "AS", "type"),
    (frozenset({"CGN", "CG"}), "AS", "type"),
    (frozenset({"DDG", "DD"}), "AS", "type"),
    (frozenset({"FFG", "FF"}), "AS", "type"),
    (frozenset({"SSGN"}), "ASW", "type"),
    (None, "AS", "other"),
)


@dataclass(frozen=True, slots=True)
class Combatant:
    id: str
    category: str
    type: str
    ew: int
    factors: dict[str, int]


SSGN_LINE = 8
"""The Target Priorities line of SSGN, the list's only anti-submarine target [21.3]."""


def priority_class_21_3(t: Combatant, *, any_submarine: bool = False) -> int:
    """The 1-based Target Priorities line a USN unit belongs to [21.3]. ``any_submarine``
    (the declared reading ``ssn_escort_never_targeted`` off) puts every submarine on the
    SSGN line; by default a USN SSN stands on no line it can be fired at."""
    if any_submarine and t.category == "submarine":
        return SSGN_LINE
    for i, (members, _fire, key) in enumerate(PRIORITIES_21_3, start=1):
        if key == "category" and members is not None and t.category in members:
            return i
        if key == "type" and members is not None and t.type in members:
            return i
    return len(PRIORITIES_21_3)


def _eligible(firer: Combatant, t: Combatant, line: int) -> str | None:
    _members, fire, _key = PRIORITIES_21_3[line - 1]
    if firer.factors.get(fire, 0) <= 0:
        return None
    if line == len(PRIORITIES_21_3) and t.category not in ("surface", "coastal"):
        return None  # "other ships" by anti-surface fire [21.1]
    return fire


def firing_order_21_3(units: Sequence[Combatant], tie: Callable[[int], int]) -> list[Combatant]:
    """[21.3] by group, highest EW first, ties random."""
    out: list[Combatant] = []
    for group in FIRING_GROUPS_21_3:
        members = sorted((u for u in units if u.category == group), key=lambda u: (-u.ew, u.id))
        while members:
            top = [u for u in members if u.ew == members[0].ew]
            pick = top[tie(len(top)) - 1] if len(top) > 1 else top[0]
            out.append(pick)
            members.remove(pick)
    return out


def choose_target_21_3(
    firer: Combatant,
    targets: Sequence[Combatant],
    already: set[str],
    tie: Callable[[int], int],
    fire: str | None = None,
    *,
    any_submarine: bool = False,
) -> tuple[Combatant, str] | None:
    """[21.3], [21.4]: the target and fire category of one Soviet firer, or ``None``.
    ``fire`` limits the choice to one category (the a/b/c step of the zone round);
    ``any_submarine``: see :func:`priority_class_21_3`."""
    for fresh_only in (True, False):
        for line in range(1, len(PRIORITIES_21_3) + 1):
            cands = []
            for t in targets:
                if priority_class_21_3(t, any_submarine=any_submarine) != line:
                    continue
                cat = _eligible(firer, t, line)
                if cat is None or (fire is not None and cat != fire):
                    continue
                if fresh_only and t.id in already:
                    continue
                cands.append(t)
            if cands:
                low = min(t.ew for t in cands)
                lowest = sorted((t for t in cands if t.ew == low), key=lambda t: t.id)
                pick = lowest[tie(len(lowest)) - 1] if len(lowest) > 1 else lowest[0]
                return pick, PRIORITIES_21_3[line - 1][1]
    return None


def deployment_20_2(standoff: bool, roll: int) -> str:
    """[20.2 step 2] a Soviet unit's zone: 1-4 standoff Outer / warship Inner; 5-6 the
    reverse."""
    outer_first = roll <= 4
    if standoff:
        return "Outer" if outer_first else "Inner"
    return "Inner" if outer_first else "Outer"
