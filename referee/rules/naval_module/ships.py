"""Naval unit values and condition [25.12], [27.36], [32.12].

A ship's printed values come from the roster; its condition (damage, Ready or Sailed, cargo)
is the position fact ``ships`` (``facts.py``), keyed by piece id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.rules.naval_module.facts import ShipState
from referee.source.model import Module, UnitDef

NAVAL = "naval"
FLOTILLA = "flotilla"
READY = "ready"
SAILED = "sailed"


@dataclass(frozen=True, slots=True)
class Ship:
    """A naval unit (or flotilla) as the rules see it now."""

    id: str
    unit: UnitDef
    damage: int
    status: str

    @property
    def type(self) -> str:
        return self.unit.type

    @property
    def is_flotilla(self) -> bool:
        return self.unit.category == FLOTILLA

    @property
    def is_transport(self) -> bool:
        return self.unit.type == "T"

    @property
    def protection(self) -> int:
        return self.unit.values.get("PROT", 0)

    @property
    def recovery(self) -> int:
        return self.unit.values.get("REC", 0)

    @property
    def capacity(self) -> int:
        """Transport capacity never changes with damage [27.36]."""
        return self.unit.values.get("TC", 0)

    @property
    def badly_damaged(self) -> bool:
        """Damage greater than half the protection rating [27.36]."""
        return self.damage * 2 > self.protection

    @property
    def nmp(self) -> int:
        """The NMP allowance, one less when badly damaged [27.36]."""
        base = self.unit.values.get("NMP", 0)
        return max(0, base - 1) if self.badly_damaged else base

    @property
    def artillery(self) -> int:
        """Artillery support, halved rounding up when badly damaged [27.36]."""
        base = self.unit.values.get("ART", 0)
        return (base + 1) // 2 if self.badly_damaged else base

    @property
    def range(self) -> int:
        return self.unit.values.get("RNG", 0)

    @property
    def has_aa(self) -> bool:
        """Every naval unit but a transport fires AA, for itself only [25.24], [31.25b]."""
        return not self.is_transport and not self.is_flotilla


def is_ship(unit: UnitDef) -> bool:
    return unit.category in (NAVAL, FLOTILLA)


def ship_facts(ships: Mapping[str, ShipState], piece_id: str) -> dict[str, Any]:
    """The mutable facts of one ship (a copy), with defaults (``ships``: the position's
    ``ships`` fact)."""
    f: dict[str, Any] = dict(ships.get(piece_id, {}))
    f.setdefault("status", READY)
    f.setdefault("damage", 0)
    f.setdefault("cargo", [])
    return f


def ship(module: Module, ships: Mapping[str, ShipState], piece_id: str) -> Ship:
    f = ship_facts(ships, piece_id)
    return Ship(piece_id, module.piece(piece_id).unit, int(f["damage"]), str(f["status"]))


def sinks_at(s: Ship) -> int:
    """The damage at which a unit is sunk: more than its protection [27.31]; a flotilla at
    three [32.12]."""
    return 3 if s.is_flotilla else s.protection + 1
