"""[DTP 4.01] the rounding rules, for every table the kit reads (CRT, Detection, Hit Table).

* (a) any halving rounds **down**, to zero if need be (this overrides SPI 9.52's "keep
  fractions");
* (b) a differential between two columns uses the column at or below it;
* (c) above the highest column, the highest column;
* (d) below the lowest column, the action **fails**.

(b)-(d) are the core's lookup rules (``at_or_below``, ``above = "clamp"``, ``below = "fail"``)
declared on each table (``schema.py``); :func:`read` turns the core's answer into a
:class:`Reading` that cites the DTP case instead of SPI's deleted 8.9.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.source.tablemodel import NamedTable, TableMiss


def halve_down_4_01a(value: int) -> int:
    """Half of ``value``, rounded down, to zero if need be [DTP 4.01a]: 5 -> 2, 1 -> 0."""
    return value // 2


@dataclass(frozen=True, slots=True)
class Reading:
    """One table read under [DTP 4.01]: the cell (``None`` when the action fails below the
    lowest column), its text, and how it was found, citing the cases."""

    value: Any
    text: str
    column: str | None
    row: str | None
    how: str

    @property
    def fails(self) -> bool:
        return self.column is None


def read(table: NamedTable, row: object, col: object, rule: str) -> Reading:
    """Read ``table`` at ``row``/``col``; below the lowest column (or row) the action fails
    [DTP 4.01d]. ``rule`` is the case the reading is made under (``"8.8"``: the CRT, which
    DTP keeps; ``"DTP 8.52"``)."""
    try:
        f = table.lookup(row=row, col=col)
    except TableMiss as miss:
        return Reading(None, "", None, None, f"{miss}: the action fails [{rule}, DTP 4.01d]")
    how = f.how.rsplit(" [", 1)[0] if f.how.endswith("]") else f.how
    return Reading(f.value, f.text, f.column.text, f.row.text, f"{how} [{rule}, DTP 4.01]")
