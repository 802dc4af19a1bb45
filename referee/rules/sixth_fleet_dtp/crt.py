"""[8.0], [8.8] the Combat Results Table, which DTP keeps [DTP 100.1d], read under
[DTP 4.01] instead of SPI's deleted 8.9.

Only the reading changes: the differential is attack total minus defense total (whole numbers,
since every halving rounds down [DTP 4.01a]); Restricted Water still doubles a naval
defender's DEF for the CRT [8.44] (but not for the Hit Table [DTP 8.52]); the row is the
highest ECM among the defenders [8.32]; a roll at or below the entry succeeds [8.8]. Which
strength attacks which target is SPI's [8.43], reused from the SPI ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.rules.sixth_fleet_1975.strengths import attack_key_8_43
from referee.rules.sixth_fleet_dtp.rounding import Reading, read
from referee.source.model import Module

__all__ = ["CrtResult", "attack_key_8_43", "crt_8_0", "crt_defense_8_44"]


def crt_defense_8_44(defenses: Sequence[int], naval: bool, restricted: bool) -> int:
    """The defense total for the CRT: naval defenders in Restricted Water doubled [8.44]."""
    total = sum(defenses)
    return total * 2 if naval and restricted else total


@dataclass(frozen=True, slots=True)
class CrtResult:
    """One CRT resolution [8.0]: the totals, the reading, the roll and whether it hit."""

    attack_total: int
    defense_total: int
    differential: int
    ecm_row: int
    reading: Reading
    roll: int | None
    success: bool

    @property
    def chance_in_6(self) -> int:
        """How many d6 faces succeed (0 for ``*`` or a failed reading)."""
        if self.reading.fails or self.reading.value == (None, None):
            return 0
        lo, hi = self.reading.value
        return hi - lo + 1


def crt_8_0(
    module: Module, attack_total: int, defense_total: int, ecm: int, roll: int | None
) -> CrtResult:
    """Resolve one attack on the CRT [8.0]: a roll at or below the entry succeeds [8.8]; below
    the lowest column the attack fails [DTP 4.01d]; ``*`` means no effect, no roll [8.8]."""
    diff = attack_total - defense_total
    reading = read(module.tables["crt"], ecm, diff, "8.8")
    ok = False
    if not reading.fails and reading.value != (None, None) and roll is not None:
        lo, hi = reading.value
        ok = lo <= roll <= hi
    return CrtResult(attack_total, defense_total, diff, ecm, reading, roll, ok)
