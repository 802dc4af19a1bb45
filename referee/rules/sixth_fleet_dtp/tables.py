"""The DTP tables' cells as typed values, and ``referee check``'s checks of them.

The kit names the cells but prints none of the tables (``tables.md`` B1-B4), so the module
source holds reconstructions (``module_src/sixth_fleet_dtp/README.md``). The core reads them
under [DTP 4.01]; this module gives the cells their meaning:

* Detection [DTP 6.3, 6.41]: ``D`` automatic, or the lowest d6 roll needed, 1 to 8;
* Hit Table [DTP 8.52 step 4]: ``.`` no effect, ``a-b`` (or ``a``) the d6 rolls that give D1,
  ``D-1``/``D-2``/``D-3`` that damage automatically;
* Readiness [DTP 9.23]: a rating of 1 to 6 for every air unit of the roster;
* Players [DTP 11.0]: A or B for each side, the retreat edge as a range of hex ids.

A malformed cell is reported at its ``file:line:col`` with the case, so nothing reads it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.numerals import read_whole
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module
from referee.source.tablemodel import NamedTable

_DIE_RANGE = re.compile(r"^([1-6])(?:-([1-6]))?$")
_AUTO = re.compile(r"^D-([1-3])$")
_EDGE = re.compile(r"^([0-9]{4})-([0-9]{4})$")


@dataclass(frozen=True, slots=True)
class DetectionEntry:
    """A Detection table cell: automatic [DTP 6.41], or the lowest d6 roll that detects."""

    automatic: bool
    need: int = 0

    def __str__(self) -> str:
        return "D" if self.automatic else str(self.need)


@dataclass(frozen=True, slots=True)
class HitEntry:
    """A Hit Table cell [DTP 8.52]: ``auto`` damage levels given without a roll, or D1 on a d6
    roll from ``lo`` to ``hi``; neither (``lo == 0``, ``auto == 0``) is no effect."""

    auto: int = 0
    lo: int = 0
    hi: int = 0

    def levels(self, roll: int | None) -> int:
        """The damage levels this cell gives for ``roll`` (``None``: no roll made)."""
        if self.auto:
            return self.auto
        return 1 if roll is not None and self.lo <= roll <= self.hi else 0

    @property
    def needs_roll(self) -> bool:
        return self.auto == 0 and self.lo > 0

    def __str__(self) -> str:
        if self.auto:
            return f"D-{self.auto}"
        if self.lo:
            return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"
        return "."


def parse_detection(text: str) -> DetectionEntry | None:
    """``D`` or a whole number 1-8 [DTP 6.3, 6.41]; ``None`` for anything else."""
    s = text.strip()
    if s == "D":
        return DetectionEntry(True)
    n = read_whole(s, lo=1, hi=8)
    return None if n is None else DetectionEntry(False, n)


def parse_hit(text: str) -> HitEntry | None:
    """``.``, ``a-b``/``a`` (d6 faces) or ``D-1``..``D-3`` [DTP 8.52]; ``None`` otherwise."""
    s = text.strip()
    if s == ".":
        return HitEntry()
    m = _AUTO.match(s)
    if m:
        return HitEntry(auto=int(m.group(1)))
    m = _DIE_RANGE.match(s)
    if m:
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        return HitEntry(lo=lo, hi=hi) if lo <= hi else None
    return None


def parse_edge(text: str) -> tuple[str, str] | None:
    """A retreat edge segment ``1301-2101``: its two end hexes [DTP 5.24]."""
    m = _EDGE.match(text.strip())
    return (m.group(1), m.group(2)) if m else None


NO_EDGE = "none"


def parse_edges(text: str) -> list[tuple[str, str]] | None:
    """A side's retreat edge: one or more segments separated by spaces
    (``0116-0124 0124-0924``: NATO's west and south edges in Denmark Strait [DTP 11.3, 5.24]);
    ``none`` for a side that has no retreat edge (the East Block in Westpac [DTP 11.5031]);
    None if the cell is empty or any segment is malformed."""
    if text.strip() == NO_EDGE:
        return []
    parts = text.split()
    ends = [parse_edge(p) for p in parts]
    if not parts or any(e is None for e in ends):
        return None
    return [e for e in ends if e is not None]


def unit_row(nationality: str, type_code: str) -> str:
    """The row name of a unit in the Detection and Readiness tables: ``"So SN"``."""
    return f"{nationality} {type_code}"


# ---- the checks referee check runs (RulesetSchema.table_checks) --------------------------------
def cell_column(t: NamedTable, r: int, c: int) -> int:
    """The 1-based character column of cell ``c`` of row ``r`` (:meth:`NamedTable.cell_column`)."""
    return t.cell_column(r, c)


def _bad_cells(
    t: NamedTable, ok: object, expected: str, hint: str, rule: str
) -> Iterable[Diagnostic]:
    for r, texts in enumerate(t.texts):
        for c, text in enumerate(texts):
            if ok(text) is None:  # type: ignore[operator]
                yield Diagnostic(
                    t.file,
                    t.lines[r] if t.lines else None,
                    cell_column(t, r, c),
                    f"{t.decl.called} cell {text!r} ({t.decl.columns.word or 'column'} "
                    f"{t.column_keys[c].text}, {t.decl.rows.word} {t.row_keys[r].text}) "
                    f"is not {expected} [{rule}]",
                    hint,
                )


def _naval_rows(module: Module) -> set[str]:
    return {
        unit_row(u.nationality, u.type)
        for u in module.units
        if u.category in ("surface", "submarine")
    }


def _air_rows(module: Module) -> set[str]:
    return {unit_row(u.nationality, u.type) for u in module.units if u.category == "air"}


def _missing_rows(t: NamedTable, need: set[str], what: str, rule: str) -> list[Diagnostic]:
    have = {k.text for k in t.row_keys}
    missing = sorted(need - have)
    if not missing:
        return []
    return [
        Diagnostic(
            t.file,
            None,
            None,
            f"{t.decl.called} has no row for {what} {', '.join(missing)} [{rule}]",
            'add a row named "<nationality> <type>", e.g. "So SN"',
        )
    ]


def check_detection_6_3(module: Module) -> list[Diagnostic]:
    """Every cell ``D`` or 1-8, and a row for every naval nationality and type [DTP 6.3]."""
    t = module.tables["detection"]
    out = list(
        _bad_cells(t, parse_detection, "D or a roll of 1 to 8", "write D or 1..8", "DTP 6.41")
    )
    return out + _missing_rows(t, _naval_rows(module), "the naval units", "DTP 6.3")


def check_hit_8_52(module: Module) -> list[Diagnostic]:
    """Every cell ``.``, a d6 range, or ``D-1``..``D-3`` [DTP 8.52 step 4]."""
    t = module.tables["hit"]
    return list(
        _bad_cells(
            t,
            parse_hit,
            "'.', a d6 range or D-1..D-3",
            "e.g. . or 1-4 or D-1",
            "DTP 8.52",
        )
    )


def check_readiness_9_23(module: Module) -> list[Diagnostic]:
    """Ratings 1-6, or 0 for a unit with no rating (the Westpac Z-5: nothing is taken from the
    2d6 [DTP 11.50953]), and one for every air unit of the roster [DTP 8.51, 9.23]."""
    t = module.tables["readiness"]
    c = t.column("rating")
    out: list[Diagnostic] = []
    for r, row in enumerate(t.cells):
        if not 0 <= row[c] <= 6:
            out.append(
                Diagnostic(
                    t.file,
                    t.lines[r] if t.lines else None,
                    cell_column(t, r, c),
                    f"readiness rating {row[c]} of {t.row_keys[r].text} is not 0 to 6 [DTP 9.23]",
                    "a d6 at or below the rating passes, so 1..6; 0: no rating [DTP 11.50953]",
                )
            )
    return out + _missing_rows(t, _air_rows(module), "the air units", "DTP 9.23")


def _base_attack_subs_11_3_4(
    module: Module, t: NamedTable, r: int, row: Sequence[object]
) -> list[Diagnostic]:
    """The optional ``base_attack_subs`` cell: sub types of the module [DTP 11.3 rule 4]."""
    cols = [c.text for c in t.column_keys]
    if "base_attack_subs" not in cols:
        return []
    c = cols.index("base_attack_subs")
    return [
        Diagnostic(
            t.file,
            t.lines[r] if t.lines else None,
            cell_column(t, r, c),
            f"base_attack_subs: {ty!r} is not a unit type of the module [DTP 11.3 rule 4]",
            "sub types separated by spaces, e.g. SG; blank: no sub of the side",
        )
        for ty in str(row[c]).split()
        if ty not in module.unit_types
    ]


def check_players_11_0(module: Module) -> list[Diagnostic]:
    """One A and one B among the sides, each with a retreat edge ``hhhh-hhhh`` [DTP 11.0], and
    the sub types that may attack coastal bases, if the scenario says [DTP 11.3 rule 4]."""
    t = module.tables["players"]
    pc, ec = t.column("player"), t.column("retreat_edge")
    out: list[Diagnostic] = []
    sides = {s.id for s in module.sides}
    for r, row in enumerate(t.cells):
        line = t.lines[r] if t.lines else None
        if row[pc] not in ("A", "B"):
            out.append(
                Diagnostic(
                    t.file,
                    line,
                    cell_column(t, r, pc),
                    f"player {row[pc]!r} is not A or B [DTP 4.1]",
                    "write A or B",
                )
            )
        if parse_edges(row[ec]) is None:
            out.append(
                Diagnostic(
                    t.file,
                    line,
                    cell_column(t, r, ec),
                    f"retreat edge {row[ec]!r} is not a range of hex ids [DTP 5.24]",
                    "e.g. 1301-2101, several separated by spaces: 0116-0124 0124-0924, or none",
                )
            )
        if sides and t.row_keys[r].text not in sides:
            out.append(
                Diagnostic(
                    t.file,
                    line,
                    1,
                    f"unknown side {t.row_keys[r].text!r} [DTP 11.0]",
                    "sides: " + ", ".join(sorted(sides)),
                )
            )
        out += _base_attack_subs_11_3_4(module, t, r, row)
    if "victory" not in module.tables and "victory_levels" not in module.tables:
        out.append(
            Diagnostic(
                t.file,
                None,
                None,
                "the module gives no result bands: SPI's Level of Victory table ([files] "
                "victory) or tables/victory_levels.csv [13.2][DTP 11.3 victory 3]",
                "add one of the two",
            )
        )
    if sorted(str(row[pc]) for row in t.cells) != ["A", "B"]:
        out.append(
            Diagnostic(
                t.file,
                None,
                None,
                "the players table must name one Player A and one Player B [DTP 4.1]",
                "one row A, one row B",
            )
        )
    return out
