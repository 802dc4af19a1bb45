"""Contact [18.0]-[18.3].

USN rating: CIC Leadership (CAG for a standoff-only attack) plus the EW of one USN unit on
the Tactical Display (the ruleset takes the highest, the player's best choice) [18.1 1].
Soviet rating: the highest EW of a Soviet ship or aloft air unit, plus the Alert level
[18.1 2]. (USN - Soviet) + 1d6 is read on the Contact Chart [18.1 3-4]. A Contact chit makes
contact automatic, the USN attacking [18.0], [20.1].
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules.carrier_battlegroup.rows import row_record


@dataclass(frozen=True, slots=True)
class ContactResult:
    contact: bool
    edge: str  # "USN", "Soviet" or "none"
    total: int
    how: str


def usn_rating_18_1(cic: int, cag: int, ews: list[int], *, standoff_only: bool) -> int:
    """[18.1 step 1]."""
    return (cag if standoff_only else cic) + (max(ews) if ews else 0)


def soviet_rating_18_1(ews: list[int], alert: int) -> int:
    """[18.1 step 2]: only aloft air units add their EW (a CVL's aircraft aboard do not)."""
    return (max(ews) if ews else 0) + alert


def read_chart_18_1(module: object, usn: int, soviet: int, roll: int) -> ContactResult:
    """[18.1 steps 3-4] the Contact Chart at (USN - Soviet) + d6."""
    total = usn - soviet + roll
    v, how = row_record(module.tables["contact"], total)  # type: ignore[attr-defined]
    return ContactResult(bool(v["contact"]), str(v["edge"]), total, how)


def may_break_off_18_2(
    edge: str, *, cruise_missiles_only: bool, fuel: int, needs_fuel: bool
) -> bool:
    """[18.2]: only with the Edge; cruise missiles never; 1 Fuel if non-nuclear ships."""
    if edge != "USN" or cruise_missiles_only:
        return False
    return fuel >= 1 or not needs_fuel
