"""Westpac's victory point values [DTP 11.5091, 11.50921, 11.5124, 11.5126], as pure answers.

- Every ship, sub, base or defended hex scores its ECM value when sunk or destroyed, half at D2,
  a quarter at D1; a 0-ECM unit counts as 1 [11.5124, 11.5126]: the DTP 8.57 fractions
  (``victory.unit_vp_8_57``).
- The command ships LCC #26 Blue Ridge and CCL #13 Admiral Senyavin score double, fractions
  too [11.5091, 11.5124]: 10 and 6 VP sunk (DTP-EX-11.5091; ECM 5 and 3).
- AK and TK convoys score their ECM value (1: their printed ECM is '*') for each three damage
  levels up to D12, plus the fraction of the remaining levels [11.50921, 11.5126]: the Denmark
  Strait convoy's count (``denmark_strait.convoy_vp_11_3_7``).

Which units are command ships is the module's data: the unit types ``LCC`` and ``CCL`` (the
Westpac manifest has one of each [11.5091]).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from referee.rules.sixth_fleet_dtp.denmark_strait import convoy_vp_11_3_7
from referee.rules.sixth_fleet_dtp.victory import unit_vp_8_57
from referee.source.model import Module

COMMAND_SHIP_TYPES = frozenset({"LCC", "CCL"})  # [DTP 11.5091]
COMMAND_SHIP_FACTOR = 2  # "each worth double the usual victory points" [DTP 11.5091]
CONVOY_TYPES = frozenset({"AK", "TK"})  # [DTP 11.5092]


def usual_vp_11_5126(ecm: int, damage: int) -> Fraction:
    """A ship's or sub's usual value [DTP 11.5124, 11.5126]: its ECM sunk (0 ECM = 1 VP), half
    at D2, a quarter at D1."""
    return unit_vp_8_57(max(ecm, 1), damage)


def ship_vp_11_5124(type_code: str, ecm: int, damage: int) -> Fraction:
    """What a ship, sub or convoy scores the enemy for its damage (a sunk ship: damage 3; a
    convoy counts its levels up to 12) [DTP 11.5091, 11.50921, 11.5124]."""
    if type_code in CONVOY_TYPES:
        return convoy_vp_11_3_7(damage, 1)
    usual = usual_vp_11_5126(ecm, damage)
    return COMMAND_SHIP_FACTOR * usual if type_code in COMMAND_SHIP_TYPES else usual


# ---- the awards table as data [DTP 11.5124, 11.5126] ---------------------------------------------
CONVOY_AWARD, AMPHIBIOUS_AWARD = "DTP 11.50922", "DTP 11.50942"
AMPHIBIOUS_TYPES = frozenset({"LHA", "LPH", "LPD", "LST", "LSD", "LSM"})  # [DTP 11.5094]


@dataclass(frozen=True, slots=True)
class Award:
    """One row of ``victory_awards``: ``side`` scores ``vp`` (a whole number, or an ECM rule
    such as ``1/2 ECM`` for the loss rows) ``per`` once, unit, turn or end, at ``hexes`` (hex
    ids, or one victory area), by ``units`` (empty: any) [DTP 11.5124]."""

    id: str
    side: str
    vp: str
    per: str
    hexes: tuple[str, ...]
    units: frozenset[str]
    rule: str

    @property
    def points(self) -> int | None:
        """The whole-number award, or None for an ECM-valued (loss) row."""
        return int(self.vp) if self.vp.isdigit() else None


def awards_11_5124(module: Module) -> list[Award]:
    """The module's awards table, in its order; empty when it has none."""
    t = module.tables.get("victory_awards")
    if t is None:
        return []
    cols = [t.column(c) for c in ("side", "vp", "per", "hexes", "units", "rule")]
    out = []
    for r, k in enumerate(t.row_keys):
        side, vp, per, hexes, units, rule = (str(t.cells[r][c]) for c in cols)
        out.append(
            Award(k.text, side, vp, per, tuple(hexes.split()), frozenset(units.split()), rule)
        )
    return out


def destinations_11_5124(module: Module, unit: str) -> dict[str, Award]:
    """The destination hexes where ``unit`` unloads for points, each with its award: the
    ``once`` and ``unit`` rows that name it [DTP 11.5124, 11.5126]."""
    out: dict[str, Award] = {}
    for a in awards_11_5124(module):
        if unit in a.units and a.per in ("once", "unit") and a.points is not None:
            for h in a.hexes:
                out.setdefault(h, a)
    return out
