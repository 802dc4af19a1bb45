"""Named tables: any table a rule system reads, with declared keys and lookup rules.

A wargame table is a grid: row keys down the side (an ECM, a die roll, a unit type), column
keys across the top (a combat differential, an odds ratio) and a cell where they meet. Most
printed tables are read "at or below": a differential of 7 uses the 5 column. Some clamp at an
edge (any differential above 40 uses the 40 column) and some refuse (below the lowest column
there is no attack). Die-roll tables key their rows by ranges such as ``1-3``. Each axis of a
:class:`NamedTable` declares which of these it is (:class:`Axis`), so one :meth:`NamedTable.lookup`
serves every ruleset and says how it found the cell ("differential 7 uses column 5 (at or
below) [8.9]"), which reports can quote.

A table whose columns are named fields (``result``, ``units``) rather than keys is a list keyed
by its rows; the same lookup finds a row and reads one of its fields.

This module is pure (no I/O): :mod:`referee.source.table_loader` reads and checks the CSV files,
and the cell grammars are in :mod:`referee.source.cellgrammar`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.numerals import read_whole

KEY_KINDS = ("int", "die", "range", "name")
LOOKUPS = ("exact", "at_or_below", "at_or_above")
EDGES = ("fail", "clamp")


_DIE_RE = re.compile(r"^([0-9]{1,9})(?:\s*-\s*([0-9]{1,9}))?$")


class TableMiss(LookupError):
    """A lookup the table's rules do not answer (below the lowest column, no such row...)."""


@dataclass(frozen=True, slots=True)
class Key:
    """One row or column key as written. ``lo``/``hi`` bound a numeric key (equal for a whole
    number; ``None`` is an open end of a range); ``name`` is a name key's text; ``parts`` are
    the keys of a composite row key; ``blank`` marks a key cell that holds no key (e.g. ``-``
    for a row that needs no die roll), which no lookup ever selects."""

    text: str
    lo: int | None = None
    hi: int | None = None
    name: str | None = None
    parts: tuple[Key, ...] = ()
    blank: bool = False

    @property
    def numeric(self) -> bool:
        return self.name is None and not self.parts and not self.blank

    def contains(self, value: object) -> bool:
        """Whether ``value`` is this key (a name, or a number inside the range)."""
        if self.blank:
            return False
        if self.parts:
            return (
                isinstance(value, tuple)
                and len(value) == len(self.parts)
                and all(p.contains(v) for p, v in zip(self.parts, value, strict=True))
            )
        if self.name is not None:
            return value == self.name
        if not _is_int(value):
            return False
        assert isinstance(value, int)
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def __str__(self) -> str:
        return self.text


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_key(text: str, kind: str) -> Key:
    """One key cell of kind ``int`` (``-3``, ``+6``), ``die`` (``4``, ``1-3``) or ``name``.
    Raises :class:`ValueError` with what was expected."""
    s = text.strip()
    if kind == "int":
        n = read_whole(s, signed=True)
        if n is None:
            raise ValueError("a whole number")
        return Key(s, n, n)
    if kind == "die":
        m = _DIE_RE.match(s)
        if not m:
            raise ValueError("a die roll or a range of rolls like 1-3")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ValueError(f"a range from low to high (not {lo} down to {hi})")
        return Key(s, lo, hi)
    if kind == "name":
        if not s:
            raise ValueError("a name")
        return Key(s, name=s)
    raise ValueError(f"a key of a known kind ({', '.join(KEY_KINDS)})")


def range_key(low: str, high: str) -> Key:
    """A ``range`` key written in two cells (e.g. ``min`` and ``max``); empty is an open end."""
    bounds: list[int | None] = []
    for raw in (low.strip(), high.strip()):
        if raw == "":
            bounds.append(None)
        elif (n := read_whole(raw, signed=True)) is not None:
            bounds.append(n)
        else:
            raise ValueError("a whole number or empty")
    lo, hi = bounds
    if lo is not None and hi is not None and hi < lo:
        raise ValueError(f"a range from low to high (not {lo} down to {hi})")
    text = (
        "any"
        if lo is None and hi is None
        else f"{lo} or more"
        if hi is None
        else f"{hi} or less"
        if lo is None
        else str(lo)
        if lo == hi
        else f"{lo} to {hi}"
    )
    return Key(text, lo, hi)


@dataclass(frozen=True, slots=True)
class Axis:
    """How one axis (the rows or the columns) of a table is keyed and read.

    ``kind``: ``int``, ``die`` (rolls and ranges of rolls), ``range`` (rows only: two columns,
    low and high, either may be open), ``name``, or ``composite`` (rows only: one key per column
    of ``columns``, each of the kind in ``parts``; looked up exactly). ``lookup``: ``exact``,
    ``at_or_below`` (the highest key not above the value) or ``at_or_above``. ``below`` and
    ``above``: what a value beyond the lowest or highest key does, ``fail`` or ``clamp`` (use
    the edge key). ``label`` is the heading printed on charts; ``word`` what messages and
    lookup descriptions call one key ("differential", "ECM"). ``columns`` (rows only) are the
    CSV columns that hold the key. ``blank`` is a key cell that means "no key". ``contiguous``
    asks whole-number keys to leave no gap; ``covers`` asks the keys to cover exactly
    ``lo..hi`` (a die's faces)."""

    kind: str = "name"
    lookup: str = "exact"
    below: str = "fail"
    above: str = "fail"
    label: str = ""
    word: str = ""
    columns: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    blank: str | None = None
    contiguous: bool = False
    covers: tuple[int, int] | None = None

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "die", "range")


@dataclass(frozen=True, slots=True)
class TableDecl:
    """A table as ``module.toml`` (or a ruleset's schema) declares it.

    ``cells`` maps column names or glob patterns (``cost_*``, ``*``) to a cell grammar, first
    match wins; ``notes`` are columns kept with each row but not keyed (``source``);
    ``require`` are columns that must be present; ``rule`` is the case cited when a lookup is
    described; ``short`` is what messages call the table ("CRT"); ``source`` says where the
    data comes from (printed under the chart). A table that is not ``required`` is simply
    absent when its file is."""

    name: str
    file: str
    rows: Axis
    columns: Axis
    title: str = ""
    source: str = ""
    rule: str = ""
    short: str = ""
    cells: tuple[tuple[str, str], ...] = (("*", "text"),)
    notes: tuple[str, ...] = ()
    require: tuple[str, ...] = ()
    required: bool = True
    line: int | None = None  # the declaration's line in module.toml, if declared there

    @property
    def called(self) -> str:
        return self.short or self.name

    def with_file(self, file: str, line: int | None = None) -> TableDecl:
        return TableDecl(
            self.name,
            file,
            self.rows,
            self.columns,
            self.title,
            self.source,
            self.rule,
            self.short,
            self.cells,
            self.notes,
            self.require,
            self.required,
            line,
        )


@dataclass(frozen=True, slots=True)
class Found:
    """A cell found by :meth:`NamedTable.lookup`: its value (parsed by the cell grammar), its
    text as written, the row and column keys used, the row's line, and how they were found."""

    value: Any
    text: str
    row: Key
    column: Key
    line: int
    how: str


@dataclass(frozen=True, slots=True)
class NamedTable:
    """A loaded and checked table. ``cells[r][c]`` is the parsed value of row ``r`` and column
    ``c`` (``texts`` the same as written); ``notes[r]`` the row's note columns; ``lines[r]``
    and ``raw[r]`` its line number and text in ``decl.file`` (so a ruleset's own checks can
    point at a column)."""

    decl: TableDecl
    header: tuple[str, ...]
    row_keys: tuple[Key, ...]
    column_keys: tuple[Key, ...]
    cells: tuple[tuple[Any, ...], ...]
    texts: tuple[tuple[str, ...], ...]
    notes: tuple[dict[str, str], ...] = ()
    lines: tuple[int, ...] = ()
    raw: tuple[str, ...] = field(default=(), repr=False)
    header_line: int = 1

    @property
    def name(self) -> str:
        return self.decl.name

    @property
    def title(self) -> str:
        return self.decl.title or self.decl.name

    @property
    def file(self) -> str:
        return self.decl.file

    def lookup(self, row: object = None, col: object = None) -> Found:
        """The cell for ``row`` and ``col`` under the declared rules; raises
        :class:`TableMiss` with the reason when the rules give no cell. ``col`` may be left
        out when the table has one column; ``row`` when it has one row."""
        ri, rhow = self._pick(self.row_keys, self.decl.rows, row, "row")
        ci, chow = self._pick(self.column_keys, self.decl.columns, col, "column")
        how = "; ".join(h for h in (chow, rhow) if h)
        if self.decl.rule:
            how = f"{how} [{self.decl.rule}]" if how else f"[{self.decl.rule}]"
        return Found(
            self.cells[ri][ci],
            self.texts[ri][ci],
            self.row_keys[ri],
            self.column_keys[ci],
            self.lines[ri] if self.lines else 0,
            how,
        )

    def find(self, row: object = None, col: object = None) -> Found | None:
        """:meth:`lookup`, but ``None`` where the rules give no cell."""
        try:
            return self.lookup(row, col)
        except TableMiss:
            return None

    def _pick(self, keys: tuple[Key, ...], axis: Axis, value: object, what: str) -> tuple[int, str]:
        if value is None:
            if len(keys) == 1:
                return 0, ""
            raise TableMiss(f"table {self.name!r}: give a {what} ({axis.word or what})")
        i, how = resolve(keys, axis, value, what)
        return i, how

    def column(self, name: str) -> int:
        """The index of a named column; raises :class:`KeyError`."""
        for i, k in enumerate(self.column_keys):
            if k.text == name:
                return i
        raise KeyError(name)

    def cell_column(self, r: int, c: int) -> int:
        """The 1-based character column of cell ``c`` of row ``r`` (after the key columns),
        so a ruleset's own check can point at the cell as ``file:line:col``."""
        raw = self.raw[r] if self.raw else ""
        parts = raw.split(",")
        k = len(self.decl.rows.columns or ("key",)) + c
        return sum(len(p) + 1 for p in parts[:k]) + 1

    def record(self, r: int) -> dict[str, Any]:
        """Row ``r`` as ``column text -> parsed value`` (key and note columns left out)."""
        return {k.text: v for k, v in zip(self.column_keys, self.cells[r], strict=True)}

    def rows_where(self, **parts: object) -> tuple[int, ...]:
        """Indexes of the rows whose composite key has these parts (``d6=3``); a part given
        as ``None`` asks for a blank key cell."""
        names = self.decl.rows.columns
        out: list[int] = []
        for i, k in enumerate(self.row_keys):
            ks = k.parts or (k,)
            ok = True
            for col, want in parts.items():
                if col not in names:
                    raise KeyError(col)
                part = ks[names.index(col)]
                ok = ok and (part.blank if want is None else part.contains(want))
            if ok:
                out.append(i)
        return tuple(out)


def _describe(axis: Axis, what: str, value: object, key: Key, why: str) -> str:
    word = axis.word or axis.label or what
    shown = "/".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
    if why == "is" and key.name is not None:
        return "" if what == "column" else f"{what} {key.text}"
    if why == "is":
        return f"{word} {shown} is {what} {key.text}"
    if why == "in":
        return f"{word} {shown} falls in {what} {key.text}"
    return f"{word} {shown} uses {what} {key.text} ({why})"


def resolve(keys: Sequence[Key], axis: Axis, value: object, what: str = "row") -> tuple[int, str]:
    """The index of the key ``value`` selects under ``axis``'s rules, and a description of how
    (``"differential 7 uses column 5 (at or below)"``). Raises :class:`TableMiss`."""
    word = axis.word or axis.label or what
    if axis.kind == "composite" or axis.kind == "name" or not axis.numeric:
        for i, k in enumerate(keys):
            if k.contains(value):
                return i, _describe(axis, what, value, k, "is")
        raise TableMiss(f"no {what} for {word} {value!r}")
    if not _is_int(value):
        raise TableMiss(f"{word} must be a whole number, got {value!r}")
    assert isinstance(value, int)
    live = [(i, k) for i, k in enumerate(keys) if k.numeric]
    if not live:
        raise TableMiss(f"the table has no {what}s")
    lows = [(-(10**18) if k.lo is None else k.lo, i) for i, k in live]
    highs = [(10**18 if k.hi is None else k.hi, i) for i, k in live]
    lowest, lowest_i = min(lows)
    highest, highest_i = max(highs)
    if value < lowest:
        if axis.below == "clamp":
            return lowest_i, _describe(axis, what, value, keys[lowest_i], "the lowest")
        raise TableMiss(f"{word} {value} is below the lowest {what} {keys[lowest_i].text}")
    if value > highest:
        if axis.above == "clamp":
            return highest_i, _describe(axis, what, value, keys[highest_i], "the highest")
        raise TableMiss(f"{word} {value} is above the highest {what} {keys[highest_i].text}")
    for i, k in live:
        if k.contains(value):
            return i, _describe(axis, what, value, k, "is" if k.lo == k.hi else "in")
    if axis.lookup == "at_or_below":
        below = [(k.hi, i) for i, k in live if k.hi is not None and k.hi < value]
        i = max(below)[1]
        return i, _describe(axis, what, value, keys[i], "at or below")
    if axis.lookup == "at_or_above":
        above = [(k.lo, i) for i, k in live if k.lo is not None and k.lo > value]
        i = min(above)[1]
        return i, _describe(axis, what, value, keys[i], "at or above")
    raise TableMiss(f"no {what} for {word} {value}")
