"""Amphibious assault and special transport [30.1x], [30.3].

The referee checks who may assault, where they wait and what they attack, and hands the
combat to the host game (the ground combat rules are the host series').
"""

from __future__ import annotations

from referee.engine.core import Violation
from referee.source.model import UnitDef

ASSAULT_TYPES = {
    "INF": "infantry",
    "MTN": "mountain infantry",
    "ABN": "airborne",
    "ENG": "engineer",
}


def eligible_30_13a(pid: str, unit: UnitDef) -> Violation | None:
    """Only infantry, mountain infantry, airborne and non-motorized engineers [30.13a]."""
    if unit.type in ASSAULT_TYPES and "motorized" not in unit.flags:
        return None
    return Violation(
        "30.13a",
        f"{pid} ({unit.type}) may not make an amphibious assault",
        unit=pid,
        hint="only infantry, mountain infantry, airborne and non-motorized engineers assault",
    )


def special_transport_30_3(pid: str, unit: UnitDef, friendly_in_target: bool) -> Violation | None:
    """An MSU or HQ lands only on a coastal hex friendly units already hold [30.3]."""
    if unit.type not in ("MSU", "HQ"):
        return None
    if friendly_in_target:
        return None
    return Violation(
        "30.3",
        f"{pid} ({unit.type}) may land only on a coastal hex already held by friendly units",
        unit=pid,
    )
