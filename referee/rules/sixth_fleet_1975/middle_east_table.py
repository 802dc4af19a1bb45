"""The optional rule [14.3] table, Middle East air forces: what each die roll gives each country.

The table is module data (``tables/middle_east_air.csv``, the rules folder's tables.md §A4): the
named table ``middle_east_air`` that the ruleset's schema declares (``schema.MIDDLE_EAST_AIR``),
loaded and checked like every table by the module loader. Here are the checks that need the
roster and the map (:func:`allotments_14_3`), which ``referee check`` also runs
(:func:`check_table_14_3`, the schema's ``table_checks``). Kept apart from
:mod:`~referee.rules.sixth_fleet_1975.middle_east` so that ``referee check`` does not import the
rules engine.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass

from referee.errors import UserError
from referee.numerals import read_whole
from referee.source.diagnostics import Diagnostic, did_you_mean
from referee.source.memo import per_module
from referee.source.model import Module, UnitDef
from referee.source.tablemodel import NamedTable

TABLE_FILE = "tables/middle_east_air.csv"  # the default file of the named table
TABLE_NAME = "middle_east_air"
HEADER = ["d6", "country", "units"]


@dataclass(frozen=True, slots=True)
class Allotment:
    """One row of the 14.3 table: copies of roster rows for one country, for one die roll
    (``roll``) or for every game (``roll is None``, the Israeli units)."""

    roll: int | None
    country: str  # the map's country code
    name: str  # the country's name, for messages
    units: tuple[tuple[str, int], ...]  # (roster unit id, copies), in the order written
    line: int


@dataclass(frozen=True, slots=True)
class MiddleEastTable:
    file: str
    rows: tuple[Allotment, ...]

    def always(self) -> tuple[Allotment, ...]:
        return tuple(r for r in self.rows if r.roll is None)

    def for_roll(self, roll: int) -> tuple[Allotment, ...]:
        return tuple(r for r in self.rows if r.roll == roll)


class TableProblem(UserError):
    """A 14.3 table the roster or the map cannot use, at ``file:line:col``."""

    def __init__(self, file: str, line: int, col: int, problem: str, hint: str | None) -> None:
        super().__init__(f"{file}:{line}:{col}: {problem}", hint=hint)
        self.file, self.line, self.col, self.problem = file, line, col, problem


# ---- reading the table ---------------------------------------------------------------------


def read_table_14_3(module: Module) -> MiddleEastTable | None:
    """The module's 14.3 table (the named table ``middle_east_air``), or ``None`` when the
    module source has none. A table the roster or the map cannot use raises
    :class:`~referee.errors.UserError` naming ``file:line:col``. Cached per module."""

    def build() -> MiddleEastTable | None:
        named = module.tables.get(TABLE_NAME)
        return None if named is None else allotments_14_3(_rows(named), named.file, module)

    return per_module(module, "sixth_fleet_1975.table_14_3", build)


def _rows(named: NamedTable) -> list[tuple[int, str, list[str]]]:
    """The named table's rows as ``(line, text, [d6, country, units])``."""
    units = named.column("units")
    return [
        (named.lines[i], named.raw[i], [*(p.text for p in key.parts), named.texts[i][units]])
        for i, key in enumerate(named.row_keys)
    ]


def check_table_14_3(module: Module) -> list[Diagnostic]:
    """What ``referee check`` adds to the generic table checks: the roster and map facts of
    :func:`allotments_14_3` (the first problem found) [14.3]. Named in the schema's
    ``table_checks``."""
    named = module.tables.get(TABLE_NAME)
    if named is None:
        return []
    try:
        allotments_14_3(_rows(named), named.file, module)
    except TableProblem as exc:
        return [Diagnostic(exc.file, exc.line, exc.col, exc.problem, exc.hint)]
    return []


def parse_table_14_3(text: str, file: str, module: Module) -> MiddleEastTable:
    """Parse the table's CSV text (a ``d6,country,units`` header, then rows) and check it with
    :func:`allotments_14_3`."""
    rows: list[tuple[int, str, list[str]]] = []
    header_seen = False
    for lnum, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cells = [c.strip() for c in next(csv.reader([raw]))]
        if not header_seen:
            if cells != HEADER:
                raise UserError(
                    f"{file}:{lnum}:1: expected the header {','.join(HEADER)}, found {line!r}"
                )
            header_seen = True
            continue
        rows.append((lnum, raw, cells))
    if not header_seen:
        raise UserError(
            f"{file}:1:1: the table is empty", hint=f"start with the header {','.join(HEADER)}"
        )
    return allotments_14_3(rows, file, module)


def allotments_14_3(
    lines: list[tuple[int, str, list[str]]], file: str, module: Module
) -> MiddleEastTable:
    """Check the table's rows ``(line, text, [d6, country, units])`` against the module:
    ``d6`` is ``-`` (no roll) or 1-6; the country is on the map and has airbases; each unit is
    ``N ROSTER-ID`` naming an air unit of the roster with at least N copies; one side per row;
    every die roll gives a row for the same countries, once each [14.3]."""
    countries = module.map.countries
    roster = {u.id: u for u in module.units}
    rows: list[Allotment] = []
    for lnum, raw, cells in lines:
        if len(cells) != len(HEADER):
            raise TableProblem(
                file,
                lnum,
                1,
                f"expected 3 columns (d6,country,units), found {len(cells)}",
                'quote the units: 1,Syria,"4 SO-M21-SY, 2 SO-Y28-SY"',
            )
        d6, country, units_text = cells
        roll = _roll_cell(file, lnum, d6)
        code = _country_cell(file, lnum, raw, country, module)
        units = _units_cell(file, lnum, raw, units_text, roster)
        if len({roster[uid].side for uid, _ in units}) != 1:
            raise TableProblem(file, lnum, 1, "a row's units must all belong to one side", None)
        if any(r.roll == roll and r.country == code for r in rows):
            raise TableProblem(file, lnum, 1, f"a second row for d6 {d6} and {country}", None)
        rows.append(Allotment(roll, code, countries[code].name, tuple(units), lnum))
    _every_roll_14_3(file, rows, module, roster)
    return MiddleEastTable(file, tuple(rows))


def _roll_cell(file: str, lnum: int, d6: str) -> int | None:
    """The row's die roll: ``-`` (the units come without a roll) or 1-6 [14.3]."""
    if d6 == "-":
        return None
    roll = read_whole(d6, lo=1, hi=6)
    if roll is None:
        raise TableProblem(
            file, lnum, 1, f"d6 must be 1 to 6, or '-' for no roll; found {d6!r}", None
        )
    return roll


def _country_cell(file: str, lnum: int, raw: str, country: str, module: Module) -> str:
    """The row's country (code or name): on the map, with an airbase [14.3]."""
    countries = module.map.countries
    by_name = {c.name.casefold(): c.code for c in countries.values()}
    col = raw.find(country) + 1 if country else 1
    code = country if country in countries else by_name.get(country.casefold())
    if code is None:
        names = [c.name for c in countries.values()]
        raise TableProblem(
            file, lnum, col, f"unknown country {country!r}", did_you_mean(country, names)
        )
    if code not in {module.map.hex(a.hex).country for a in module.map.airbases()}:
        raise TableProblem(file, lnum, col, f"{country} has no airbase on the map", None)
    return code


def _units_cell(
    file: str, lnum: int, raw: str, units_text: str, roster: dict[str, UnitDef]
) -> list[tuple[str, int]]:
    """The row's units, ``N ROSTER-ID`` each: air units of the roster, at most its count of
    each, none twice [14.3]."""
    units: list[tuple[str, int]] = []
    for item in (x.strip() for x in units_text.split(",")):
        icol = raw.find(item) + 1 if item else 1
        parts = item.split()
        n = read_whole(parts[0], lo=1) if len(parts) == 2 else None
        if n is None:
            raise TableProblem(
                file, lnum, icol, f"expected 'N ROSTER-ID', found {item!r}", "e.g. 4 IS-F4"
            )
        uid = parts[1]
        ud = roster.get(uid)
        if ud is None:
            raise TableProblem(
                file, lnum, icol, f"unknown roster unit {uid!r}", did_you_mean(uid, list(roster))
            )
        if ud.category != "air":
            raise TableProblem(
                file, lnum, icol, f"{uid} is not an air unit (14.3 gives air units)", None
            )
        if n > ud.count:
            raise TableProblem(
                file, lnum, icol, f"{n} {uid} asked for; the roster has {ud.count}", None
            )
        if any(u == uid for u, _ in units):
            raise TableProblem(file, lnum, icol, f"{uid} is listed twice in one row", None)
        units.append((uid, n))
    return units


def _every_roll_14_3(
    file: str, rows: list[Allotment], module: Module, roster: dict[str, UnitDef]
) -> None:
    """Every die roll 1-6 gives one row for each of the same countries, and every rolled row
    gives units to the same side [14.3]."""
    rolled = [r for r in rows if r.roll is not None]
    if not rolled:
        return
    countries = module.map.countries
    want = sorted({r.country for r in rolled})
    for roll in range(1, 7):
        got = sorted(r.country for r in rolled if r.roll == roll)
        if got != want:
            names = ", ".join(countries[c].name for c in want)
            raise TableProblem(
                file, 1, 1, f"die roll {roll} needs one row for each of {names}", None
            )
    if len({roster[r.units[0][0]].side for r in rolled}) != 1:
        raise TableProblem(
            file, rolled[0].line, 1, "every rolled row must give units to the same side", None
        )
