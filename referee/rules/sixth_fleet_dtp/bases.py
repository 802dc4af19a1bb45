"""[DTP 10.4x] bases and Defended hexes as amended.

* [DTP 10.44] attackable once every unit friendly to them is gone from the hex (earlier in the
  same combat phase counts); a hit rolls on the Hit Table with DEF = 2 x ECM (``hits.py``);
  an airbase at D2 is closed to air operations; a *base* (not a bare Defended hex) repairs one
  level at the end of each Night turn on a d6 of 1-3; D3 is permanent;
* [DTP 10.42, 6.43] a base or Defended hex has no detection zone, but enemy surface units next
  to a base are Detected automatically (``detection.py``).
"""

from __future__ import annotations

DESTROYED = 3
REPAIR_ON_10_44 = (1, 2, 3)


def attackable_10_44(friendly_units_in_hex: int) -> bool:
    """A base or Defended hex may be attacked once no unit friendly to it is in its hex."""
    return friendly_units_in_hex == 0


def airbase_closed_10_44(level: int) -> bool:
    """An airbase at D2 (or destroyed) is closed to air operations [DTP 10.44]."""
    return level >= 2


def repair_10_44(level: int, is_base: bool, roll: int | None) -> int:
    """The level after the Night-turn repair roll: one level off on 1-3, for a base only;
    D3 is permanent [DTP 10.44]."""
    if not is_base or level <= 0 or level >= DESTROYED or roll is None:
        return level
    return level - 1 if roll in REPAIR_ON_10_44 else level
