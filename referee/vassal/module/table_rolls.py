"""Table buttons: where a rule resolves a roll on a table, a VASSAL Dice Button that rolls
the table's dice and reports the table's result line in the chat, so players at one table
read the same line the referee would (``RulesetSchema.table_rolls``).

The result lines are read here, from the module's own table with its declared lookup
(``NamedTable.find``: at or below, clamped at the edges), for every total the button can
report; the button's report is a VASSAL BeanShell expression choosing among those lines by
``result`` (as the best community modules' table rolls do). A roll read with modifiers
(``modified``) prompts for them first (VASSAL's *Add to total*), and a total past the
table's keys reads its edge line, as the table's lookup does.

Three ways a roll meets a table (``TableRollDecl.read``):

* ``row``: the total picks the row; the line lists each column's cell (the naval loss table
  [27.2]: ``Regular -, Air Interdiction AD1, ...``);
* ``column``: the total picks the column; the line lists each row's cell (a strike's hits
  for each total factor);
* ``range``: the cells are die ranges (``1-3``, ``*`` for no roll); the line says, row by
  row, the first column whose range holds the roll: the defender retreats at that
  differential and above (the CRT [8.8]: ``ECM 2: differential 5+``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lxml import etree

from referee.source.model import Module
from referee.source.schema import TableRollDecl
from referee.source.tablemodel import NamedTable

__all__ = ["TABLES_MENU", "TableButton", "table_buttons", "tables_menu"]

M: Final = "VASSAL.build.module."
TABLES_MENU: Final = "Tables"
MAX_LINE: Final = 400  # characters of one result line, so a chat line stays readable


@dataclass(frozen=True, slots=True)
class TableButton:
    """One table button: its name, dice, rule, and the result line of each total
    ``lo..hi`` (``lines[0]`` for ``lo`` and below, the last for ``hi`` and above)."""

    name: str
    dice: int
    rule: str
    modified: bool
    lo: int
    lines: tuple[str, ...]

    def report_format(self) -> str:
        """The BeanShell report: ``** NAME (2d6 [rule]) = 7: LINE *** <player>``. The line
        is chosen by a balanced tree of ``?:`` over the runs of equal lines, a few levels
        deep however long the table (a chain of ``?:`` nested twenty deep did not finish in
        real VASSAL within 15 minutes, and VASSAL's expressions refuse arrays)."""
        runs: list[tuple[int, str]] = []  # (first total, line) of each run of equal lines
        for i, line in enumerate(self.lines):
            if not runs or runs[-1][1] != line:
                runs.append((self.lo + i, line))
        head = _quote(f"** {self.name} ({self.dice}d6 [{self.rule}]) = ")
        tail = '" *** <" + PlayerName + ">"'
        return "{" + f'{head} + result + ": " + {_choose(runs)} + {tail}' + "}"


def _choose(runs: list[tuple[int, str]]) -> str:
    """``(result < FIRST ? LEFT : RIGHT)`` split at the middle run, down to one line."""
    if len(runs) == 1:
        return _quote(runs[0][1])
    mid = len(runs) // 2
    return f"(result < {runs[mid][0]} ? {_choose(runs[:mid])} : {_choose(runs[mid:])})"


def _quote(text: str) -> str:
    """A BeanShell string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _int(text: str) -> int | None:
    return int(text) if re.fullmatch(r"-?\d+", text.strip()) else None


def _totals(decl: TableRollDecl, table: NamedTable) -> tuple[int, int]:
    """The totals whose lines differ: the dice's own range, widened when modifiers apply to
    the table's numeric keys on the axis the roll reads (``row``, ``column``), or to the
    rolls its cells name (``at_least``, ``outcome``: one below the lowest, where nothing but
    an automatic result stands, up to the highest)."""
    lo, hi = decl.dice, decl.dice * 6
    if not decl.modified:
        return lo, hi
    if decl.read == "minus" and decl.modified:  # each rating's floor, up to no floor at all
        nums = [n for row in table.texts for cell in row for n in _cell_rolls(cell)[:1]]
        floor = decl.floor if decl.floor is not None else lo
        return min([lo, floor + min(nums, default=0)]), max([hi, hi + 6])
    if decl.read in ("at_least", "outcome", "range", "at_most"):
        nums = [n for row in table.texts for cell in row for n in _cell_rolls(cell)]
        up = 1 if decl.read == "at_most" else 0  # past the highest rating nobody passes
        return min([lo, *(n - 1 for n in nums)]), max([hi, *(n + up for n in nums)])
    keys = table.row_keys if decl.read == "row" else table.column_keys
    nums = [k for k in keys if k.numeric]
    lo = min([lo, *(k.lo for k in nums if k.lo is not None)])
    hi = max([hi, *(k.hi for k in nums if k.hi is not None)])
    return lo, hi


def _cell_rolls(cell: str) -> tuple[int, ...]:
    """The rolls a cell names (``3``, ``1-4``), none for any other cell."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", cell)
    return () if m is None else (int(m[1]), int(m[2] or m[1]))


def _result_columns(table: NamedTable) -> list[int]:
    """The columns a row line lists: the one players read when the table has one (``result``,
    or the ``text`` of the 2019 Random Events Tables [5.1], whose other columns are the
    referee's codes), every one otherwise."""
    names = [c.text for c in table.column_keys]
    read = next((n for n in ("result", "text") if n in names), None)
    return [names.index(read)] if read else list(range(len(names)))


def _row_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    if decl.times:
        return _times_line(decl, table, total)
    return _one_row(decl, table, total)


def _one_row(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    cols = table.column_keys
    shown = _result_columns(table)
    parts = []
    row: object = total if table.decl.rows.numeric else str(total)  # rolls named "1".."6"
    for i in shown:
        col = cols[i]
        found = table.find(row=row, col=col.text if not col.numeric else col.lo)
        text = (found.text.strip() or "-") if found else "no result"
        parts.append(text if len(shown) == 1 else f"{col.text} {text}")
    return ", ".join(parts)


def _times_line(decl: TableRollDecl, table: NamedTable, roll: int) -> str:
    """[11.1] d6 times EW: the result for every multiplier 1, 2, ... up to the one whose
    product reads the table's top row (every larger one reads it too), runs of equal results
    joined (``EW 1-2: No effect, EW 3+: Reveal one SBG``)."""
    top = max((k.lo for k in table.row_keys if k.numeric and k.lo is not None), default=1)
    runs: list[tuple[int, int, str]] = []  # (first multiplier, last, result)
    m = 1
    while True:
        text = _one_row(decl, table, roll * m)
        if runs and runs[-1][2] == text:
            runs[-1] = (runs[-1][0], m, text)
        else:
            runs.append((m, m, text))
        if roll <= 0 or roll * m >= top:
            break
        m += 1
    out = []
    for i, (a, b, text) in enumerate(runs):
        span = f"{a}+" if i == len(runs) - 1 else (f"{a}" if a == b else f"{a}-{b}")
        out.append(f"{decl.times} {span}: {text}")
    return ", ".join(out)


def _column_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    word = table.decl.rows.word or table.decl.rows.label or table.header[0]
    parts = []
    for row in table.row_keys:
        found = table.find(row=row.lo if row.numeric else row.text, col=total)
        parts.append(f"{word} {row.text}: {found.text if found else 'no result'}")
    return ", ".join(parts)


def _holds(cell: str, roll: int) -> bool:
    """Whether a die-range cell (``1-3``, ``4``, ``*``) holds ``roll``."""
    rolls = _cell_rolls(cell)
    return bool(rolls) and rolls[0] <= roll <= rolls[1]


def _range_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    word = table.decl.rows.word or table.decl.rows.label or table.header[0]
    col_word = table.decl.columns.word or "column"
    parts = []
    for r, row in enumerate(table.row_keys):
        first = next(
            (c.text for c, cell in zip(table.column_keys, table.texts[r], strict=True)
             if _holds(cell, total)),
            None,
        )  # fmt: skip
        parts.append(f"{word} {row.text}: " + (f"{col_word} {first}+" if first else "no effect"))
    return ", ".join(parts)


BLANK: Final = frozenset({"", ".", "-", "*"})


def _at_least(cell: str, roll: int) -> str | None:
    """``at_least``: a number is the lowest roll that succeeds; a letter (DTP's ``D``) an
    automatic success; a blank no success."""
    text = cell.strip()
    if text in BLANK:
        return None
    rolls = _cell_rolls(text)
    return "yes" if not rolls or roll >= rolls[0] else None


def _outcome(cell: str, roll: int, success: str) -> str | None:
    """``outcome``: a die range gives ``success`` on a roll inside it; any other written cell
    is its own automatic result (DTP's ``D-2`` [DTP 8.52]); a blank nothing."""
    text = cell.strip()
    if text in BLANK:
        return None
    rolls = _cell_rolls(text)
    if not rolls:
        return text
    return success if rolls[0] <= roll <= rolls[1] else None


def _row_spans(table: NamedTable) -> list[str]:
    """Each row's label: a name row's name, a numeric row read at or below the values it
    covers (``6-7``: 7 reads the 6 row; ``16+`` at the top when the table clamps there)."""
    rows, axis = table.row_keys, table.decl.rows
    if not (axis.numeric and axis.lookup == "at_or_below"):
        return [k.text for k in rows]
    out = []
    for i, k in enumerate(rows):
        nxt = rows[i + 1].lo if i + 1 < len(rows) else None
        if nxt is None:
            out.append(f"{k.lo}+" if axis.above == "clamp" else k.text)
        else:
            out.append(k.text if nxt - 1 == k.lo else f"{k.lo}-{nxt - 1}")
    return out


def _joined(labels: list[str], numeric: bool) -> str:
    """Rows with one result: ``DEF 0-2`` from ``0``, ``1``, ``2`` (numeric), ``Br CG/Fr CG``."""
    if not numeric or len(labels) == 1:
        return "/".join(labels)
    first, last = labels[0].split("-")[0], labels[-1]
    return f"{first}+" if last.endswith("+") else f"{first}-{last.split('-')[-1]}"


def _grouped_line(table: NamedTable, texts: list[str], sep: str = ", ") -> str:
    """One part per run of rows with the same text (numeric rows: runs of neighbours, named
    rows: every row with that text, in first-seen order), joined by ``sep``."""
    axis = table.decl.rows
    labels = _row_spans(table)
    groups: list[tuple[list[str], str]] = []
    for label, text in zip(labels, texts, strict=True):
        if axis.numeric:
            if groups and groups[-1][1] == text:
                groups[-1][0].append(label)
            else:
                groups.append(([label], text))
            continue
        same = next((g for g in groups if g[1] == text), None)
        if same is None:
            groups.append(([label], text))
        else:
            same[0].append(label)
    word = f"{axis.word} " if axis.numeric and axis.word else ""
    return sep.join(f"{word}{_joined(g, axis.numeric)}: {text}" for g, text in groups)


def _at_least_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    """Row by row, the first column where the roll succeeds (columns are read at or below,
    so every column right of it succeeds too): ``Br CG/Fr CG: ECM differential -1+``."""
    col_word = table.decl.columns.word or "column"
    texts = []
    for r in range(len(table.row_keys)):
        first = next(
            (c.text for c, cell in zip(table.column_keys, table.texts[r], strict=True)
             if _at_least(cell, total)),
            None,
        )  # fmt: skip
        texts.append(f"{col_word} {first}+" if first else f"no {decl.success or 'success'}")
    return _grouped_line(table, texts)


def _outcome_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    """Row by row, each column where the result changes: ``DEF 4: 5+ D1, 20+ D-1, 40+ D-2``
    (the columns' word said once, first); ``no effect`` for a row where the roll does
    nothing."""
    col_word = table.decl.columns.word or "column"
    texts = []
    for r in range(len(table.row_keys)):
        changes: list[str] = []
        last: str | None = None
        for c, cell in zip(table.column_keys, table.texts[r], strict=True):
            now = _outcome(cell, total, decl.success or "success")
            if now != last:
                changes.append(f"{c.text}+ {now or 'no effect'}")
                last = now
        if changes and changes[0].endswith(" no effect"):
            changes = changes[1:]
        texts.append(", ".join(changes) if changes else "no effect")
    return f"by {col_word}: " + _grouped_line(table, texts, sep="; ")


def _at_most_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    """``at_most``: each row's number is the highest roll that succeeds (DTP's readiness
    rating: a d6 at or below it keeps the air unit active [DTP 9.23]); the rows grouped by
    what the roll does to them: ``Br NIM/So M23: active, Br LTG/...: not active``."""
    word = decl.success or "success"
    texts = []
    for r in range(len(table.row_keys)):
        rolls = [n for cell in table.texts[r] for n in _cell_rolls(cell)[:1]]
        texts.append(word if rolls and total <= rolls[0] else f"not {word}")
    return _grouped_line(table, texts)


def _minus_line(decl: TableRollDecl, table: NamedTable, total: int) -> str:
    """``minus``: the total less each row's number, at least ``floor`` (an aborted air unit
    is back after 2d6 less its readiness rating turns, at least 2 [DTP 8.51]), the rows
    grouped by the result: ``Br NIM/So M23: 4 turns, Br LTG/...: 5 turns``."""
    texts = []
    for r in range(len(table.row_keys)):
        rolls = [n for cell in table.texts[r] for n in _cell_rolls(cell)[:1]]
        left = total - rolls[0] if rolls else total
        if decl.floor is not None:
            left = max(decl.floor, left)
        texts.append(f"{left} {decl.success}".strip())
    return _grouped_line(table, texts)


READERS: Final = {
    "row": _row_line,
    "column": _column_line,
    "range": _range_line,
    "at_least": _at_least_line,
    "outcome": _outcome_line,
    "at_most": _at_most_line,
    "minus": _minus_line,
}


def table_buttons(module: Module) -> tuple[TableButton, ...]:
    """The module's table buttons: each declared roll whose table the module has."""
    schema = module.schema
    out = []
    for decl in schema.table_rolls if schema is not None else ():
        table = module.tables.get(decl.table)
        if table is None:
            continue
        lo, hi = _totals(decl, table)
        lines = tuple(READERS[decl.read](decl, table, t)[:MAX_LINE] for t in range(lo, hi + 1))
        out.append(TableButton(decl.name, decl.dice, decl.rule, decl.modified, lo, lines))
    return tuple(out)


def _el(parent: etree._Element, tag: str, attrs: Mapping[str, str]) -> etree._Element:
    el = etree.SubElement(parent, tag)
    for key, value in sorted(attrs.items()):
        el.set(key, value)
    return el


def tables_menu(root: etree._Element, module: Module) -> None:
    """The *Tables* toolbar menu and its Dice Buttons (nothing for a module without any)."""
    buttons = table_buttons(module)
    if not buttons:
        return
    _el(
        root,
        M + "ToolbarMenu",
        {"canDisable": "false", "description": "Rolls read on the game's tables",
         "disabledIcon": "", "hideWhenDisabled": "false", "hotkey": "", "icon": "",
         "menuItems": ",".join(b.name for b in buttons), "propertyGate": "",
         "text": TABLES_MENU, "tooltip": "Roll on a table: the chat shows the result line"},
    )  # fmt: skip
    for b in buttons:
        how = " (asks for the modifiers: Add to total)" if b.modified else ""
        _el(
            root,
            M + "DiceButton",
            {"addToTotal": "0", "hotkey": "", "icon": "", "keepCount": "1",
             "keepDice": "false", "keepOption": ">", "lockAdd": "false",
             "lockDice": "true", "lockPlus": "true", "lockSides": "true",
             "nDice": str(b.dice), "nSides": "6", "name": b.name, "plus": "0",
             "prompt": "true" if b.modified else "false", "reportFormat": b.report_format(),
             "reportTotal": "true", "sortDice": "false", "text": b.name,
             "tooltip": f"Roll {b.dice}d6 on the {b.name}{how} [{b.rule}]"},
        )  # fmt: skip
