"""[DTP 6.x] detection, which replaces SPI's zones of control (6.0 deleted).

Every ship and sub is visible, but surface and sub units may attack surface and sub targets
only once they are Detected [DTP 6.0a, 6.51]; air units and bases are always detected
[DTP 6.0b]. The pure rules here take the units' printed values, so the phase code, ``referee
options`` and the golden cases ask the same functions:

* [DTP 6.1] a detection zone is the unit's hex and the six around it;
* [DTP 6.21] a unit may try only if its attack strength against the target type is above 0
  (ASW against subs, AS against surface units: SPI 8.43's choice of strength, reused);
* [DTP 6.22] once per movement phase per detector and target;
* [DTP 6.2b] a hex's air, surface and sub units each attempt separately (one type an attempt);
* [DTP 6.23, 6.24] the detecting stack's ECM: the best ECM among the units able to detect that
  target, +1 for each *other* able unit with ECM > 0, at most +2; the target's ECM: the best
  in its stack among the units of the category being detected (digest 9.8);
* [DTP 6.3, 6.41] the Detection table: row = nationality and type, column = the differential;
  ``D`` automatic; +2 to the roll in Restricted or Coastal water;
* [DTP 6.62-6.65] when Detected markers go, and when they stay (tracking, bases).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.engine.core import Dice, Event, Violation
from referee.rules.sixth_fleet_1975.strengths import attack_key_8_43
from referee.rules.sixth_fleet_dtp.rounding import Reading, read
from referee.rules.sixth_fleet_dtp.tables import DetectionEntry, parse_detection, unit_row
from referee.source.model import Module

COASTAL_BONUS_6_3 = 2
MAX_STACK_BONUS_6_23 = 2
STATUS = {"surface": "detected_surface", "submarine": "detected_sub"}
"""[DTP 6.2a] surface and sub detection are separate, each with its own marker."""


@dataclass(frozen=True, slots=True)
class Unit:
    """What detection needs of a unit: id, category and printed values."""

    id: str
    category: str
    values: Mapping[str, int]
    nationality: str = ""
    type: str = ""
    flags: frozenset[str] = frozenset()

    def value(self, key: str) -> int:
        return int(self.values.get(key, 0))


def may_attempt_6_21(detector: Unit, target_category: str) -> bool:
    """[DTP 6.21] a unit may try to detect a target only with an attack strength > 0 against
    that target type (a CA with ASW 0 cannot detect subs)."""
    return detector.value(attack_key_8_43(target_category)) > 0


@dataclass(frozen=True, slots=True)
class StackEcm:
    """The detecting stack's ECM [DTP 6.23]: the best able unit's ECM plus the bonus."""

    ecm: int
    best: str | None
    bonus: int
    able: tuple[str, ...]


def stack_ecm_6_23(detectors: Sequence[Unit], target_category: str) -> StackEcm:
    """The best ECM among the units able to detect the target [DTP 6.21], +1 for each other
    able unit with ECM > 0 [DTP 6.24], at most +2 [DTP 6.23]. No able unit: no attempt."""
    able = [u for u in detectors if may_attempt_6_21(u, target_category)]
    if not able:
        return StackEcm(0, None, 0, ())
    best = max(able, key=lambda u: (u.value("ECM"), -detectors.index(u)))
    others = sum(1 for u in able if u is not best and u.value("ECM") > 0)
    bonus = min(MAX_STACK_BONUS_6_23, others)
    return StackEcm(best.value("ECM") + bonus, best.id, bonus, tuple(u.id for u in able))


def target_ecm_6_23(targets: Sequence[Unit], target_category: str) -> int:
    """The target stack's ECM: the highest among its units of the category being detected
    [DTP 6.23; digest 9.8]."""
    return max((u.value("ECM") for u in targets if u.category == target_category), default=0)


@dataclass(frozen=True, slots=True)
class DetectionRoll:
    """One detection attempt [DTP 6.3]."""

    detector_ecm: int
    target_ecm: int
    differential: int
    reading: Reading
    entry: DetectionEntry | None
    roll: int | None
    modifier: int
    detected: bool

    @property
    def needs_roll(self) -> bool:
        return self.entry is not None and not self.entry.automatic


def detection_6_3(
    module: Module,
    detector_ecm: int,
    target_ecm: int,
    target: Unit,
    restricted_or_coastal: bool,
    roll: int | None,
) -> DetectionRoll:
    """[DTP 6.3] differential = detector ECM - target ECM, read on the target's row; ``D``
    detects with no roll [DTP 6.41]; otherwise the d6, +2 in Restricted or Coastal water,
    must reach the entry (so a 7 or 8 fails in open water) [DTP 6.41]; below column -6 the
    attempt fails [DTP 4.01d]."""
    diff = detector_ecm - target_ecm
    row = unit_row(target.nationality, target.type)
    reading = read(module.tables["detection"], row, diff, "DTP 6.3")
    entry = None if reading.fails else parse_detection(reading.text)
    mod = COASTAL_BONUS_6_3 if restricted_or_coastal else 0
    if entry is None:
        ok = False
    elif entry.automatic:
        ok = True
    else:
        ok = roll is not None and roll + mod >= entry.need
    return DetectionRoll(detector_ecm, target_ecm, diff, reading, entry, roll, mod, ok)


def certain_6_41(entry: DetectionEntry, restricted_or_coastal: bool) -> bool | None:
    """Whether the attempt is decided before the die: ``True`` for ``D``, or an entry of 1-2
    in Restricted or Coastal water; ``False`` for 7-8 in open water [DTP 6.41]; else ``None``."""
    if entry.automatic:
        return True
    best = 6 + (COASTAL_BONUS_6_3 if restricted_or_coastal else 0)
    worst = 1 + (COASTAL_BONUS_6_3 if restricted_or_coastal else 0)
    if worst >= entry.need:
        return True
    if best < entry.need:
        return False
    return None


def surface_removal_due_6_62(night: bool) -> bool:
    """Surface Detected markers go in phase 7 of Night turns only [DTP 6.62, 4.1]."""
    return night


def keeps_detection_6_64(
    target_category: str,
    trackers: Sequence[Unit],
    adjacent_enemy_base: bool,
) -> tuple[bool, str]:
    """At removal time a Detected unit stays Detected, with no roll, while it is in the
    detection zone of an enemy unit able to detect it [DTP 6.64] (air units cannot track:
    they are back at base by then), or, for a surface unit, next to an enemy base
    [DTP 6.65]. ``trackers`` are the enemy non-air units within one hex. Returns the answer
    and the case."""
    if any(u.category != "air" and may_attempt_6_21(u, target_category) for u in trackers):
        return True, "DTP 6.64"
    if target_category == "surface" and adjacent_enemy_base:
        return True, "DTP 6.65"
    return False, "DTP 6.62" if target_category == "surface" else "DTP 6.63"


def max_rolls_6_2(detecting_categories: Sequence[str], target_categories: Sequence[str]) -> int:
    """How many attempts a hex can make on a hex: each detecting category (air, surface, sub)
    tries separately [DTP 6.2b] against each target category (surface, sub) [DTP 6.2a]."""
    return len(set(detecting_categories)) * len(set(target_categories))


def in_zone_6_1(distance: int) -> bool:
    """A unit's detection zone is its own hex and the six adjacent hexes [DTP 6.1]."""
    return 0 <= distance <= 1


def attempt_problems_6_2(
    detectors: Sequence[Unit],
    target_category: str,
    distance: int,
    tried: Sequence[tuple[str, str]],
    target_key: str,
) -> list[Violation]:
    """Why a detection attempt may not be made, each with its case: no unit with a strength
    above 0 against the target type [DTP 6.21]; the target outside the detection zone
    [DTP 6.1, 6.2]; this detector already tried this target this movement phase [DTP 6.22]
    (``tried`` holds ``(detector id, target key)`` pairs of the phase)."""
    probs: list[Violation] = []
    kinds = attempt_groups_6_2b(detectors)
    if len(kinds) > 1:
        probs.append(
            Violation(
                "DTP 6.2b",
                "air, surface and sub units attempt detection separately: "
                + "; ".join(f"{', '.join(u.id for u in us)} ({c})" for c, us in kinds.items()),
                code="detect-mixed-types",
                word=detectors[0].id,
                hint="one `detect` line per type of detecting unit",
            )
        )
    key = attack_key_8_43(target_category)
    if not any(may_attempt_6_21(u, target_category) for u in detectors):
        names = ", ".join(u.id for u in detectors)
        probs.append(
            Violation(
                "DTP 6.21",
                f"{names} cannot detect {target_category} units: {key} is 0",
                code="detect-strength-0",
                word=detectors[0].id if detectors else None,
                hint=f"only a unit with {key} above 0 may try to detect {target_category} units",
            )
        )
    if not in_zone_6_1(distance):
        probs.append(
            Violation(
                "DTP 6.1",
                f"the target is {distance} hexes away, outside the detection zone",
                code="detect-out-of-zone",
                hint="a detection zone is the unit's hex and the six around it",
            )
        )
    again = [u.id for u in detectors if (u.id, target_key) in set(tried)]
    if again:
        probs.append(
            Violation(
                "DTP 6.22",
                f"{', '.join(again)} already tried to detect {target_key} this movement phase",
                code="detect-twice",
                word=again[0],
                hint="once per movement phase per detector and target; other units may try",
            )
        )
    return probs


def attempt_groups_6_2b(detectors: Sequence[Unit]) -> dict[str, list[Unit]]:
    """The detectors by type: in a detecting hex the air, surface and sub units each attempt
    separately [DTP 6.2b] ("Air units in a hex perform detection attempts separately to
    surface units, which perform them separately to sub units"), so one attempt's units and
    its stack bonus [DTP 6.23] come from one of these groups. Air, surface, sub order."""
    out: dict[str, list[Unit]] = {}
    for kind in ("air", "surface", "submarine"):
        group = [u for u in detectors if u.category == kind]
        if group:
            out[kind] = group
    return out


def base_detects_6_43(target_category: str, adjacent_to_enemy_base: bool) -> bool:
    """Bases have no detection zone, but an enemy surface unit next to a base is Detected
    automatically [DTP 6.43]."""
    return target_category == "surface" and adjacent_to_enemy_base


def attempt_6_3(
    module: Module,
    detectors: Sequence[Unit],
    targets: Sequence[Unit],
    target_category: str,
    restricted_or_coastal: bool,
    dice: Dice,
) -> tuple[DetectionRoll, tuple[Event, ...]]:
    """One whole detection attempt [DTP 6.3]: the stack ECM of the able detectors [DTP 6.23],
    the target's best ECM of the category [DTP 6.23], the table row of the target named by
    its best-ECM unit of that category, a d6 only when the entry needs one [DTP 6.41]. The
    caller has checked :func:`attempt_problems_6_2`."""
    sec = stack_ecm_6_23(detectors, target_category)
    of_cat = [t for t in targets if t.category == target_category]
    tecm = target_ecm_6_23(targets, target_category)
    row_unit = max(of_cat, key=lambda t: (t.value("ECM"), -of_cat.index(t)))
    pre = detection_6_3(module, sec.ecm, tecm, row_unit, restricted_or_coastal, None)
    roll = None
    if pre.entry is not None and not pre.entry.automatic:
        roll = dice.roll(6, f"detection of {row_unit.id}", "DTP 6.3")
    res = detection_6_3(module, sec.ecm, tecm, row_unit, restricted_or_coastal, roll)
    text = (
        f"{', '.join(sec.able)} try to detect {', '.join(t.id for t in of_cat)}: ECM "
        f"{sec.ecm} (+{sec.bonus} stack) against {tecm}, {res.reading.how}"
    )
    if res.entry is not None and res.entry.automatic:
        text += ": automatic [DTP 6.41]"
    elif roll is not None:
        text += f": rolled {roll}" + (f" + {res.modifier}" if res.modifier else "")
    text += "; Detected" if res.detected else "; not detected"
    ev = Event(
        "detect",
        "DTP 6.3",
        text,
        {"units": [t.id for t in of_cat], "detected": res.detected, "roll": roll},
    )
    return res, (ev,)
