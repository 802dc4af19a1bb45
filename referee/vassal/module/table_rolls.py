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
    """The totals whose lines differ: the dice's own range, widened to the table's numeric
    keys on the axis the roll reads when modifiers apply."""
    lo, hi = decl.dice, decl.dice * 6
    if decl.modified:
        keys = table.row_keys if decl.read == "row" else table.column_keys
        nums = [k for k in keys if k.numeric]
        lo = min([lo, *(k.lo for k in nums if k.lo is not None)])
        hi = max([hi, *(k.hi for k in nums if k.hi is not None)])
    return lo, hi


def _row_line(table: NamedTable, total: int) -> str:
    parts = []
    for col in table.column_keys:
        found = table.find(row=total, col=col.text if not col.numeric else col.lo)
        text = found.text if found else "no result"
        parts.append(text if len(table.column_keys) == 1 else f"{col.text} {text}")
    return ", ".join(parts)


def _column_line(table: NamedTable, total: int) -> str:
    word = table.decl.rows.word or table.decl.rows.label or table.header[0]
    parts = []
    for row in table.row_keys:
        found = table.find(row=row.lo if row.numeric else row.text, col=total)
        parts.append(f"{word} {row.text}: {found.text if found else 'no result'}")
    return ", ".join(parts)


def _holds(cell: str, roll: int) -> bool:
    """Whether a die-range cell (``1-3``, ``4``, ``*``) holds ``roll``."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+))?\s*", cell)
    if m is None:
        return False
    lo = int(m[1])
    return lo <= roll <= int(m[2] or m[1])


def _range_line(table: NamedTable, total: int) -> str:
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


READERS: Final = {"row": _row_line, "column": _column_line, "range": _range_line}


def table_buttons(module: Module) -> tuple[TableButton, ...]:
    """The module's table buttons: each declared roll whose table the module has."""
    schema = module.schema
    out = []
    for decl in schema.table_rolls if schema is not None else ():
        table = module.tables.get(decl.table)
        if table is None:
            continue
        lo, hi = _totals(decl, table)
        lines = tuple(READERS[decl.read](table, t)[:MAX_LINE] for t in range(lo, hi + 1))
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
