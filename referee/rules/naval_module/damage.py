"""Damage, sinking and the transport cadre [27.31]-[27.36], [32.12].

Pure: takes the ships' facts and the units' boxes as plain data and returns the new facts and
the events, each citing its case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.rules.naval_module.ships import Ship, sinks_at
from referee.source.model import Module

CADRE = "cadre"
ELIMINATED = "eliminated"


@dataclass(frozen=True, slots=True)
class DamageResult:
    """What ``points`` of damage did to one ship."""

    damage: int
    sunk: bool
    destination: str | None  # "eliminated", "cadre", or None (still afloat)
    passengers_eliminated: tuple[str, ...] = ()
    events: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)  # (kind, rule, text)


def apply_damage(s: Ship, points: int, cargo: tuple[str, ...] = ()) -> DamageResult:
    """Damage goes on the ship, never on its passengers or another ship [27.31]. A ship with
    damage above its protection is sunk to the Eliminated Box [27.31], a transport to the Cadre
    Box with 3 damage [27.32]; its passengers are eliminated [27.33]. A flotilla sinks at 3
    [32.12]."""
    if points <= 0:
        return DamageResult(s.damage, False, None)
    total = s.damage + points
    name = s.unit.name
    events: list[tuple[str, str, str]] = [
        ("damage", "27.31", f"{name} takes {points} damage point(s): {total} in all")
    ]
    if total < sinks_at(s):
        if total * 2 > s.protection and not s.is_flotilla and s.damage * 2 <= s.protection:
            events.append(
                (
                    "crippled",
                    "27.36",
                    f"{name} has more damage than half its protection: -1 NMP, half artillery",
                )
            )
        return DamageResult(total, False, None, (), tuple(events))
    rule = "32.12" if s.is_flotilla else "27.31"
    if s.is_transport:
        events.append(("sunk", "27.32", f"{name} is sunk: to the Cadre Box with 3 damage points"))
        dest, dmg = CADRE, 3
    else:
        events.append(("sunk", rule, f"{name} is sunk: to the Eliminated Box for good [25.23]"))
        dest, dmg = ELIMINATED, total
    if cargo:
        events.append(
            ("passengers_lost", "27.33", f"{name}'s passengers are eliminated: {', '.join(cargo)}")
        )
    return DamageResult(dmg, True, dest, tuple(cargo), tuple(events))


def half_protection_effects(s: Ship) -> dict[str, Any]:
    """The 27.36 figures, for reports: NMP and artillery now, capacity unchanged."""
    return {"nmp": s.nmp, "artillery": s.artillery, "capacity": s.capacity, "aa": s.has_aa}


def damage_piece(module: Module, piece_id: str, damage: int, points: int) -> DamageResult:
    """``points`` more damage on a roster piece that already has ``damage`` [27.31]."""
    unit = module.piece(piece_id).unit
    return apply_damage(Ship(piece_id, unit, damage, "ready"), points)
