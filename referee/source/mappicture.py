"""The text picture of the hex map.

A designer draws the map as rows of one-character cells, one line per hex row, in the order the
rows are printed (north at the top for a map whose rows grow northward). Each line starts with
its two-digit row number and a ``|``; cells are separated by single spaces, and shifted rows
may be indented by one more space so the picture looks like the hex grid::

    [terrain]
    25 | # # # ~ ~ . .
    24 |  # # ~ ~ . . .

Several layers share the grid: ``[terrain]`` (required), ``[country]`` and ``[area]``; a hex in
two areas at once (a victory sea that is also above a scenario's light line) takes its second
area from ``[area_overlap]``, which names the same ``[[area]]`` chars.
A line starting with ``#`` or ``;`` is a comment; row lines start with digits, so ``#`` may
still be a cell character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from referee.hexgrid import HexGrid
from referee.source.diagnostics import Diagnostics

ROW_RE = re.compile(r"^\s*([0-9]{1,3})\s*\|(.*)$")
LAYER_RE = re.compile(r"^\s*\[([a-z_]+)\]\s*$")
LAYERS = ("terrain", "country", "area", "area_overlap")
AREA_LAYERS = ("area", "area_overlap")


@dataclass(frozen=True, slots=True)
class Cell:
    char: str
    line: int
    col: int


def parse_map_picture(
    text: str, grid: HexGrid, file: str, diags: Diagnostics
) -> dict[str, dict[str, Cell]]:
    """Return ``layer -> hex id -> Cell``. Problems go to ``diags`` with line and column."""
    pic = _Picture(grid, file, diags)
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        m = LAYER_RE.match(line)
        if m:
            pic.layer_header(m.group(1), lineno)
        else:
            pic.row_line(line, lineno)
    pic.check_complete()
    return pic.layers


class _Picture:
    """A map picture being read: its layers so far, the rows each has drawn, the layer the
    lines now belong to."""

    def __init__(self, grid: HexGrid, file: str, diags: Diagnostics) -> None:
        self.grid, self.file, self.diags = grid, file, diags
        self.layers: dict[str, dict[str, Cell]] = {}
        self.seen_rows: dict[str, dict[int, int]] = {}
        self.current: str | None = None

    def error(self, lineno: int | None, message: str, col: int | None = 1, **kw: Any) -> None:
        self.diags.error(self.file, lineno, message, col=col, **kw)

    def layer_header(self, name: str, lineno: int) -> None:
        """``[terrain]``: the rows that follow belong to that layer (a known one, once)."""
        self.current = name
        if name not in LAYERS:
            self.error(
                lineno,
                f"unknown map layer [{name}]",
                hint="layers are " + ", ".join(f"[{x}]" for x in LAYERS),
            )
            self.current = None
            return
        if name in self.layers:
            self.error(lineno, f"layer [{name}] appears twice")
        self.layers.setdefault(name, {})
        self.seen_rows.setdefault(name, {})

    def row_line(self, line: str, lineno: int) -> None:
        """``25 | . . ~ #``: one row of the current layer, a cell per column."""
        m = ROW_RE.match(line)
        if not m:
            self.error(
                lineno,
                "expected a row line like '25 | . . ~ #'",
                hint="start comments with '# ' (hash and a space) or ';'",
            )
            return
        if self.current is None:
            self.error(
                lineno, "row before any layer header", hint="start the picture with [terrain]"
            )
            return
        row = int(m.group(1))
        if not self._new_row(row, lineno, m.start(1) + 1):
            return
        body_start = m.start(2) + 1
        cells = [(cm.group(0), body_start + cm.start()) for cm in re.finditer(r"\S+", m.group(2))]
        self._cells(row, lineno, body_start, cells)

    def _new_row(self, row: int, lineno: int, row_col: int) -> bool:
        """A row of the grid, not drawn before in this layer."""
        grid, current = self.grid, self.current
        assert current is not None
        if not grid.first_row <= row <= grid.last_row:
            self.error(
                lineno,
                f"row {row:02d} is outside the grid "
                f"(rows {grid.first_row:02d}-{grid.last_row:02d})",
                col=row_col,
            )
            return False
        seen = self.seen_rows[current]
        if row in seen:
            self.error(
                lineno,
                f"row {row:02d} drawn twice in [{current}] (first on line {seen[row]})",
                col=row_col,
            )
            return False
        seen[row] = lineno
        return True

    def _cells(self, row: int, lineno: int, body_start: int, cells: list[tuple[str, int]]) -> None:
        """The row's cells: one character each, as many as the grid has columns."""
        grid, current = self.grid, self.current
        assert current is not None
        for token, col in cells:
            if len(token) != 1:
                self.error(
                    lineno,
                    f"cell {token!r} is more than one character",
                    col=col,
                    hint="separate cells with spaces",
                )
        if len(cells) != grid.columns:
            self.error(
                lineno,
                f"row {row:02d} has {len(cells)} cells; the grid has {grid.columns} columns",
                col=body_start,
            )
        for i, (token, col) in enumerate(cells[: grid.columns]):
            hex_id = grid.hex_id(grid.first_column + i, row)
            self.layers[current][hex_id] = Cell(token[0], lineno, col)

    def check_complete(self) -> None:
        """A [terrain] layer, and every layer drawing every row of the grid."""
        grid = self.grid
        if "terrain" not in self.layers:
            self.diags.error(self.file, None, "the map picture has no [terrain] layer")
        for name, rows in self.seen_rows.items():
            missing = [r for r in range(grid.first_row, grid.last_row + 1) if r not in rows]
            if missing:
                self.diags.error(
                    self.file,
                    None,
                    f"layer [{name}] is missing rows "
                    + ", ".join(f"{r:02d}" for r in missing[:10])
                    + (" ..." if len(missing) > 10 else ""),
                )


def render_map_picture(grid: HexGrid, layers: dict[str, dict[str, str]]) -> str:
    """The inverse of :func:`parse_map_picture` (used by tests and by tools that edit maps)."""
    out: list[str] = []
    rows = list(range(grid.first_row, grid.last_row + 1))
    if grid.rows_grow == "north":
        rows.reverse()
    for name in LAYERS:
        if name not in layers:
            continue
        out.append(f"[{name}]")
        for row in rows:
            shifted = (row % 2 == 1) == (grid.shifted == "odd")
            pad = "  " if shifted and grid.orientation == "pointy" else " "
            cells = [
                layers[name][grid.hex_id(c, row)]
                for c in range(grid.first_column, grid.last_column + 1)
            ]
            out.append(f"{row:02d} |{pad}" + " ".join(cells))
        out.append("")
    return "\n".join(out)
