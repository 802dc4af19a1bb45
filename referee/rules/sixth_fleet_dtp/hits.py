"""[DTP 8.5x] the effects of a successful attack on ships, subs and bases.

* [DTP 8.52] the Hit Table: column = the attack strength (not minus defense), split evenly over
  several targets with the remainder to the top unit; row = the printed DEF, never doubled;
* [DTP 8.54] damage adds up; [DTP 8.55] D2 halves movement (rounded down [DTP 4.01a]) and sets
  every attack strength to 0, D3 sinks; [DTP 8.56] ships and subs never repair;
* [DTP 10.44] a base or Defended hex uses 2 x its ECM as its Hit Table DEF.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from referee.rules.sixth_fleet_dtp.denmark_strait import allowance_11_3_7
from referee.rules.sixth_fleet_dtp.rounding import Reading, halve_down_4_01a, read
from referee.rules.sixth_fleet_dtp.tables import HitEntry, parse_hit
from referee.source.model import Module

SUNK = 3
"""[DTP 8.55] D3 sinks a ship or sub (the Denmark Strait convoy takes up to D12 [DTP 11.3])."""


def split_8_52(total: int, targets_top_down: Sequence[str]) -> dict[str, int]:
    """The attack strength each target is hit with: an even split, the remainder to the top
    unit [DTP 8.52 step 2; digest 9.4: 38 over 2 = 19 + 19]."""
    if not targets_top_down:
        return {}
    share, rest = divmod(total, len(targets_top_down))
    out = dict.fromkeys(targets_top_down, share)
    out[targets_top_down[0]] += rest
    return out


def base_def_10_44(ecm: int) -> int:
    """A base's or Defended hex's Hit Table DEF: 2 x its ECM [DTP 10.44]."""
    return 2 * ecm


@dataclass(frozen=True, slots=True)
class HitResult:
    """One Hit Table resolution for one target [DTP 8.52]."""

    strength: int
    def_row: int
    reading: Reading
    entry: HitEntry | None
    roll: int | None
    levels: int


def hit_entry_8_52(module: Module, strength: int, def_: int) -> tuple[Reading, HitEntry | None]:
    """The Hit Table cell for ``strength`` against a printed ``def_`` [DTP 8.52]; ``None``
    below the lowest column: the hit has no effect [DTP 4.01d]."""
    reading = read(module.tables["hit"], def_, strength, "DTP 8.52")
    return reading, (None if reading.fails else parse_hit(reading.text))


def hit_8_52(module: Module, strength: int, def_: int, roll: int | None) -> HitResult:
    """Damage levels for one target: automatic entries need no roll; a range gives D1 on a
    roll inside it [DTP 8.52 step 4]."""
    reading, entry = hit_entry_8_52(module, strength, def_)
    levels = entry.levels(roll) if entry is not None else 0
    return HitResult(strength, def_, reading, entry, roll, levels)


def add_damage_8_54(current: int, levels: int, limit: int = SUNK) -> int:
    """Damage adds up (D1 + D1 = D2) [DTP 8.54], up to the level that sinks (D3, or D12 for
    the convoy [DTP 11.3 rule 7]); never decreases [DTP 8.56]."""
    return min(limit, current + max(0, levels))


@dataclass(frozen=True, slots=True)
class DamageEffects:
    """What a damage level does to a ship or sub [DTP 8.55]."""

    level: int
    sunk: bool
    movement: int
    attacks: bool
    carrier_air_ops: bool


ATTACK_STRENGTHS_8_55: Final = ("AA", "AS", "ASW")
"""The attacking combat strengths a D2 ship or sub loses; ECM and DEF stay [DTP 8.55]."""
REDUCED_FROM_8_55: Final = 2
"""The damage level from which a ship's values are reduced [DTP 8.55]."""


def reduced_values_8_55(printed: Mapping[str, int], flags: frozenset[str]) -> dict[str, int]:
    """A ship's or sub's values at D2 and on, as its counter shows them: attack strengths 0,
    MA halved rounded down [DTP 8.55, 4.01a], or 2 MP for the Denmark Strait convoy
    [DTP 11.3 rule 7]; ECM and DEF as printed."""
    out = dict(printed)
    for k in ATTACK_STRENGTHS_8_55:
        if k in out:
            out[k] = 0
    if "MA" in out:
        convoy = allowance_11_3_7(flags, out["MA"], REDUCED_FROM_8_55)
        out["MA"] = convoy if convoy is not None else halve_down_4_01a(out["MA"])
    return out


def effects_8_55(level: int, movement_allowance: int, limit: int = SUNK) -> DamageEffects:
    """D1 nothing; D2 movement halved rounded down [DTP 4.01a], attack strengths 0, a CV
    conducts no air operations; D3 (or the unit's limit) sunk [DTP 8.55]."""
    if level >= limit:
        return DamageEffects(level, True, 0, False, False)
    if level >= 2:
        return DamageEffects(level, False, halve_down_4_01a(movement_allowance), False, False)
    return DamageEffects(level, False, movement_allowance, True, True)
