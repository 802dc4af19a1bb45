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
    layers: dict[str, dict[str, Cell]] = {}
    seen_rows: dict[str, dict[int, int]] = {}
    current: str | None = None
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        m = LAYER_RE.match(line)
        if m:
            current = m.group(1)
            if current not in LAYERS:
                diags.error(
                    file,
                    lineno,
                    f"unknown map layer [{current}]",
                    col=1,
                    hint="layers are " + ", ".join(f"[{x}]" for x in LAYERS),
                )
                current = None
                continue
            if current in layers:
                diags.error(file, lineno, f"layer [{current}] appears twice", col=1)
            layers.setdefault(current, {})
            seen_rows.setdefault(current, {})
            continue
        m = ROW_RE.match(line)
        if not m:
            diags.error(
                file,
                lineno,
                "expected a row line like '25 | . . ~ #'",
                col=1,
                hint="start comments with '# ' (hash and a space) or ';'",
            )
            continue
        if current is None:
            diags.error(
                file,
                lineno,
                "row before any layer header",
                col=1,
                hint="start the picture with [terrain]",
            )
            continue
        row = int(m.group(1))
        row_col = m.start(1) + 1
        if not grid.first_row <= row <= grid.last_row:
            diags.error(
                file,
                lineno,
                f"row {row:02d} is outside the grid "
                f"(rows {grid.first_row:02d}-{grid.last_row:02d})",
                col=row_col,
            )
            continue
        if row in seen_rows[current]:
            diags.error(
                file,
                lineno,
                f"row {row:02d} drawn twice in [{current}] "
                f"(first on line {seen_rows[current][row]})",
                col=row_col,
            )
            continue
        seen_rows[current][row] = lineno
        body = m.group(2)
        body_start = m.start(2) + 1
        cells: list[tuple[str, int]] = []
        for cm in re.finditer(r"\S+", body):
            cells.append((cm.group(0), body_start + cm.start()))
        for token, col in cells:
            if len(token) != 1:
                diags.error(
                    file,
                    lineno,
                    f"cell {token!r} is more than one character",
                    col=col,
                    hint="separate cells with spaces",
                )
        if len(cells) != grid.columns:
            diags.error(
                file,
                lineno,
                f"row {row:02d} has {len(cells)} cells; the grid has {grid.columns} columns",
                col=body_start,
            )
        for i, (token, col) in enumerate(cells[: grid.columns]):
            hex_id = grid.hex_id(grid.first_column + i, row)
            layers[current][hex_id] = Cell(token[0], lineno, col)
    if "terrain" not in layers:
        diags.error(file, None, "the map picture has no [terrain] layer")
    for name, rows in seen_rows.items():
        missing = [r for r in range(grid.first_row, grid.last_row + 1) if r not in rows]
        if missing:
            diags.error(
                file,
                None,
                f"layer [{name}] is missing rows "
                + ", ".join(f"{r:02d}" for r in missing[:10])
                + (" ..." if len(missing) > 10 else ""),
            )
    return layers


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
