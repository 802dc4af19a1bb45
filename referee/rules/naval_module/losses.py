"""The Naval Movement Loss Table [27.1]-[27.2], [27.32], [26.12b], [30.2x], [31.14].

The table itself is the module's named table ``nmlt`` (rows: the modified roll, columns the four
of [27.2]); its DRMs are the named table ``nmlt_drms``. The die is two six-sided dice: the 27.2
example rolls a 10 on one throw, which one d6 cannot (docs/interpretations.md, NM-1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.source.model import Module

REGULAR = "Regular"
AIR = "Air Interdiction"
CD = "CD Artillery"
BOTH = "Both"

_RESULT = re.compile(r"^(A)?(?:D([0-9]{1,9}))?$")


@dataclass(frozen=True, slots=True)
class LossResult:
    """A table entry: ``abort`` (A) and ``damage`` (Dn); ``-`` is neither."""

    abort: bool
    damage: int
    text: str


def parse_result(text: str) -> LossResult:
    t = text.strip()
    if t in ("-", ""):
        return LossResult(False, 0, "-")
    m = _RESULT.match(t)
    if m is None or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a loss-table result: {text!r} (expected -, A, Dn or ADn)")
    return LossResult(bool(m.group(1)), int(m.group(2) or 0), t)


def column_27_2(interdiction_level: int, cd_points: int) -> tuple[str, str]:
    """The column and the case that picks it: Air Interdiction when a marker is in the box
    [27.21], CD Artillery when an enemy CD unit is in range at the start, on the way or at the
    end [27.22], Both when both apply [27.24], else Regular [27.25]."""
    air, cd = interdiction_level > 0, cd_points > 0
    if air and cd:
        return BOTH, "27.24"
    if air:
        return AIR, "27.21"
    if cd:
        return CD, "27.22"
    return REGULAR, "27.25"


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Why the roll is modified: each (rule, amount, reason)."""

    items: tuple[tuple[str, int, str], ...]

    @property
    def total(self) -> int:
        return sum(a for _, a, _ in self.items)

    @property
    def storm_only(self) -> bool:
        """The Storm DRM is the only one [27.32a]."""
        return bool(self.items) and all(r == "storm" for r, _, _ in self.items)


def drm_value(module: Module, condition: str, default: int) -> int:
    table = module.tables.get("nmlt_drms")
    if table is None:
        return default
    found = table.find(row=condition, col="drm")
    return int(found.value) if found is not None else default


def modifiers_27_2(
    module: Module,
    *,
    interdiction_level: int,
    cd_points: int,
    forced_sortie_sailed: bool = False,
    storm: bool = False,
) -> Modifiers:
    """+1 for a Level 2 interdiction marker [27.21], [31.14]; +1 per CD support point after
    the first [27.23] (``cd_points`` already counts CD in a Defender hex double [30.24]); +3
    for a Sailed unit forced to sortie [26.12b]; the Storm DRM [26.12b note]."""
    items: list[tuple[str, int, str]] = []
    if interdiction_level >= 2:
        items.append(("27.21", drm_value(module, "interdiction level 2", 1), "Level 2 marker"))
    if cd_points > 1:
        per = drm_value(module, "each CD support point after the first", 1)
        items.append(("27.23", per * (cd_points - 1), f"{cd_points} CD support points"))
    if forced_sortie_sailed:
        items.append(("26.12b", drm_value(module, "Sailed unit forced to sortie", 3), "Sailed"))
    if storm:
        items.append(("storm", drm_value(module, "storm", 1), "Storm weather"))
    return Modifiers(tuple(items))


def lookup_27_2(module: Module, column: str, modified_roll: int) -> tuple[LossResult, str]:
    """The entry and how it was found (for the report)."""
    found = module.tables["nmlt"].lookup(row=modified_roll, col=column)
    return parse_result(str(found.text)), found.how


@dataclass(frozen=True, slots=True)
class Applied:
    """What a loss result does to one ship: ``damage`` points, and whether the owner must
    choose between returning and one more damage point (``abort_choice``)."""

    damage: int
    abort_choice: bool
    rule: str
    note: str


def apply_27_32(
    result: LossResult, *, started_at_sea: bool, forced_sortie: bool, storm_only: bool
) -> Applied:
    """[27.32a] Storm alone: at most 1 damage. [27.32b] Abort: the owner returns to the
    departure port or takes one more damage point. [27.32c] a unit that started at sea, and
    [26.12b] a forced sortie, take the Abort as one more damage point."""
    dmg = result.damage
    rule, note = "27.2", ""
    if result.abort and (started_at_sea or forced_sortie):
        dmg += 1
        rule = "26.12b" if forced_sortie else "27.32c"
        note = "Abort taken as one more damage point"
        result = LossResult(False, result.damage, result.text)
    if storm_only and dmg > 1:
        dmg, rule, note = 1, "27.32a", "Storm the only DRM: at most 1 damage"
    return Applied(dmg, result.abort, rule, note)


def cd_points_30_24(in_range: list[tuple[int, bool]]) -> int:
    """Total CD support points against one naval Target Hex: each in-range CD unit's strength,
    doubled if it is in a Defender hex [30.24]; one CD unit counts against every Target Hex it
    reaches [30.22]."""
    return sum(points * (2 if in_defender_hex else 1) for points, in_defender_hex in in_range)
