"""[DTP 8.57] victory points with fractions, and SPI's levels of victory [13.2] as half-open
bands (digest 9.10).

A ship, sub or base scores its full value when sunk or destroyed, 1/4 of it at D1 and 1/2 at
D2; an air unit not back on the map counts as eliminated (units unable to rebase, NATO units
diverted to another NATO nation's base); all fractions are kept [DTP 8.57]. The full value is
SPI's [13.0] (reused from the SPI ruleset through the module's roster: the ECM).
"""

from __future__ import annotations

from fractions import Fraction

from referee.source.model import Module

DAMAGE_SHARE_8_57 = {0: Fraction(0), 1: Fraction(1, 4), 2: Fraction(1, 2)}


def unit_vp_8_57(full_value: int, damage: int, sunk_at: int = 3) -> Fraction:
    """The VP a damaged or sunk unit scores [DTP 8.57]."""
    if damage >= sunk_at:
        return Fraction(full_value)
    return full_value * DAMAGE_SHARE_8_57.get(damage, Fraction(0))


def base_vp_8_57(ecm: int, level: int) -> Fraction:
    """The VP a damaged or destroyed base or Defended hex scores [DTP 8.57]: 1/4 at D1, 1/2
    at D2, the full value at D3. Its full value is its ECM, an ECM-0 base 1: the kit's only
    schedule that values bases, Westpac's [11.5121] ("destroyed base or defended hex: ECM
    value (0 ECM = 1vp)"; D2 1/2 ECM; D1 1/4 ECM), with the ECM-0 value also halved and
    quartered (interpretation DTP-43). The Med's [13.0], Denmark Strait's and Iceland's
    schedules give bases no points, so their score does not add it."""
    return unit_vp_8_57(max(ecm, 1), level)


def level_13_2(module: Module, net: Fraction) -> str:
    """The level of victory for a net VP (Soviet minus NATO), SPI's whole-number bands read
    as half-open: a band ``min..max`` holds ``min <= net < max + 1`` (digest 9.10: a Draw is
    >= 0 and < 21; NATO Marginal -15..-1 is >= -15 and < 0, so -15.5 is NATO Substantive).
    The bands are the module's victory table [13.2]."""
    t = module.tables["victory"]
    rc = t.column("result")
    for r, key in enumerate(t.row_keys):
        lo, hi = key.lo, key.hi
        if (lo is None or net >= lo) and (hi is None or net < hi + 1):
            return str(t.cells[r][rc])
    raise ValueError(f"net VP {net} is in no band of the victory table")
