"""Readiness and repair in the Naval Readiness Phase [25.3x], [27.35], [27.4x].

A d6 plus the DRMs of the Readiness and Repair Chart (the named table ``readiness_repair``),
at or below the Recovery rating, succeeds [25.32b], [27.42].
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class Check:
    roll: int
    drm: int
    recovery: int
    passed: bool
    reasons: tuple[str, ...]

    @property
    def modified(self) -> int:
        return self.roll + self.drm


def _drm(module: Module, condition: str, default: int) -> int:
    table = module.tables.get("readiness_repair")
    if table is None:
        return default
    found = table.find(row=condition, col="drm")
    return int(found.value) if found is not None else default


def readiness_drm(module: Module, *, damaged: bool, interdiction_level: int) -> tuple[int, list]:
    """+1 per level of air interdiction on the port [25.33]; +1 when damaged [27.35]."""
    reasons: list[str] = []
    drm = 0
    if interdiction_level:
        drm += _drm(module, "air interdiction level", 1) * interdiction_level
        reasons.append(f"+{interdiction_level} interdiction [25.33]")
    if damaged:
        drm += _drm(module, "damaged", 1)
        reasons.append("+1 damaged [27.35]")
    return drm, reasons


def repair_drm(module: Module, *, interdiction_level: int) -> tuple[int, list]:
    """+1 per level of air interdiction [27.42]."""
    if not interdiction_level:
        return 0, []
    per = _drm(module, "air interdiction level", 1)
    return per * interdiction_level, [f"+{interdiction_level} interdiction [27.42]"]


def check_25_32(roll: int, drm: int, recovery: int, reasons: list[str]) -> Check:
    """Modified roll at or below Recovery passes [25.32b], [27.42]."""
    return Check(roll, drm, recovery, roll + drm <= recovery, tuple(reasons))
