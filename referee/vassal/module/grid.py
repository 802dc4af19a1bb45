"""VASSAL's hex grid and hex numbering, matched to our rendered board.

A VASSAL Board names every point with a ``HexGrid`` and its ``HexGridNumbering`` child
(vassal-format.md §4). For a module to be usable, the location VASSAL reports when a counter
is dropped in a hex must be the rulebook's id of the hex drawn under it ("moves 1422 ->
1423"), and pieces must snap to the drawn centres. This module does two things, both pure:

* :func:`vassal_grid_for` chooses the grid and numbering attributes for a rendered board
  (anything with the :class:`BoardGeometry` shape, e.g. ``referee.render.board.BoardLayout``);
* :func:`vassal_label`, :func:`vassal_centre` and friends transcribe VASSAL's own formulas
  (§4.3 snapping centre, §4.4 raw index, §4.5 label) so tests can check the choice against
  every hex, and so the save-game writer can place pieces by label (:func:`label_centres`).

How the attributes are chosen (§4.2, §4.5, §4.7):

* Pointy-topped hexes in horizontal rows are VASSAL's ``sideways="true"`` grid: the grid is
  transposed, so VASSAL's raw *columns* ``nx`` are our rows (``dx`` = row pitch 1.5·size, and
  ``x0`` offsets screen **y**) and its raw *rows* ``ny`` run along our rows (``dy`` = hex
  width, ``y0`` offsets screen **x**). Flat-topped hexes in columns are the plain grid.
* VASSAL shifts odd raw columns half a hex (toward +v). Our shifted rows/columns are shifted
  the same way, so the origin is moved back one pitch when the first drawn line is a shifted
  one; that makes raw parity and our parity agree.
* ``stagger="false"``: the raw index along a line is already our column (row) number minus
  the first one, so no stagger correction is wanted. This also avoids quirk §4.7.2, which only
  bites with stagger *and* a descending direction.
* Rows that grow northward (Sixth Fleet: row 01 at the bottom of the page) count against the
  raw index, so that direction is descending (``vDescend`` for a sideways grid, which VASSAL
  applies to its column there). VASSAL then counts down from ``maxRows = floor(H/dx + 0.5)``
  (or ``maxColumns = floor(W/dy + 0.5)``), which depends on the **board image size**; the
  offset (``hOff``/``vOff``) absorbs it, so the board size must be the real image size.
* ``x0``/``y0`` are integers in VASSAL and it truncates ``dx*nx + x0`` and ``dy/2``; our
  centres are fractional. The origin is the integer that keeps the worst stored centre
  closest to the drawn one: at most 1.5 px off (labels are exact regardless).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Protocol

from referee.hexgrid import HexGrid

__all__ = [
    "HEXGRID",
    "NUMBERING",
    "BoardGeometry",
    "GridAttrs",
    "label_centres",
    "raw_centre",
    "raw_index",
    "vassal_centre",
    "vassal_grid_for",
    "vassal_label",
]

HEXGRID: Final = "HexGrid"
"""Key of the ``HexGrid`` element's attributes in a :data:`GridAttrs` dict."""
NUMBERING: Final = "HexGridNumbering"
"""Key of the ``HexGridNumbering`` element's attributes in a :data:`GridAttrs` dict."""

GridAttrs = dict[str, dict[str, str]]
"""``{"HexGrid": {...}, "HexGridNumbering": {...}}``: XML attribute values, as written."""

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# VASSAL's defaults for attributes a buildFile leaves out (§4.1, §4.7 quirk 3).
_GRID_DEFAULTS: Final[Mapping[str, str]] = {
    "dy": "64.0",
    "dx": repr(math.sqrt(3) / 2 * 64.0),
    "x0": "0",
    "y0": "32",
    "sideways": "false",
}
_NUMBERING_DEFAULTS: Final[Mapping[str, str]] = {
    "first": "H",
    "sep": "",
    "hType": "N",
    "hLeading": "1",
    "hOff": "1",
    "hDescend": "false",
    "vType": "N",
    "vLeading": "1",
    "vOff": "1",
    "vDescend": "false",
    "stagger": "true",
    "locationFormat": "$gridLocation$",
}


class BoardGeometry(Protocol):
    """What :func:`vassal_grid_for` needs from a rendered board (``BoardLayout`` has it)."""

    @property
    def grid(self) -> HexGrid: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    def pixel_centre(self, hex_id: str) -> tuple[float, float]: ...


# ---- choosing the attributes ---------------------------------------------------------------


def vassal_grid_for(layout: BoardGeometry) -> GridAttrs:
    """HexGrid and HexGridNumbering attributes that name every drawn hex by its own id.

    ``layout.grid`` is the map's :class:`HexGrid` scaled to board pixels (its orientation,
    hex width and id format are used); ``pixel_centre`` gives each hex's centre on the board
    image, which is ``layout.width`` x ``layout.height`` pixels (the Board's size in VASSAL).
    The geometry is read from the drawn centres, not re-derived, so the attributes follow
    whatever margins, title bands and shift conventions the renderer uses. Raises
    ``ValueError`` if the drawn centres are not a regular hex grid VASSAL can number.
    """
    g = layout.grid
    sideways = g.orientation == "pointy"
    dy = float(g.hex_width)  # spacing along a line (VASSAL's raw row)
    dx = 1.5 * g.size  # spacing between lines (VASSAL's raw column): sqrt(3)/2 * dy
    cells = _cells(layout, sideways, dx, dy)
    x0, y0 = _best_origin(cells, dx, dy)
    board_w, board_h = layout.width, layout.height
    max_rows = math.floor(board_h / dx + 0.5)  # HGN.getMaxRows (odd pairing, §4.5)
    max_columns = math.floor(board_w / dy + 0.5)  # HGN.getMaxColumns
    line_start, line_step = _fit([(c.nx, c.line) for c in cells], "line")
    along_start, along_step = _fit([(c.ny, c.along) for c in cells], "position along a line")
    # VASSAL's "column" part is the raw column (a line); its "row" part runs along a line.
    line_max = max_rows if sideways else max_columns
    along_max = max_columns if sideways else max_rows
    line_desc, along_desc = line_step < 0, along_step < 0
    # ascending: label = n + off; descending: label = (max - n) + off; both equal start+step*n
    line_off = line_start - line_max if line_desc else line_start
    along_off = along_start - along_max if along_desc else along_start
    h_descend, v_descend = (along_desc, line_desc) if sideways else (line_desc, along_desc)
    line_is_row = sideways
    first = "H" if (g.id_format == "RRCC") == line_is_row else "V"
    grid = {
        "color": "0,0,0",
        "cornersLegal": "false",
        "dotsVisible": "false",
        "dx": repr(dx),
        "dy": repr(dy),
        "edgesLegal": "false",
        "sideways": "true" if sideways else "false",
        "snapTo": "true",
        "visible": "false",
        "x0": str(x0),
        "y0": str(y0),
    }
    numbering = {
        "color": "0,0,0",
        "first": first,
        "fontSize": "9",
        "hDescend": "true" if h_descend else "false",
        "hDrawOff": "0",
        "hLeading": "1",
        "hOff": str(line_off),
        "hType": "N",
        "locationFormat": "$gridLocation$",
        "rotateText": "0",
        "sep": "",
        "stagger": "false",
        "vDescend": "true" if v_descend else "false",
        "vDrawOff": "0",
        "vLeading": "1",
        "vOff": str(along_off),
        "vType": "N",
        "visible": "false",
    }
    return {HEXGRID: grid, NUMBERING: numbering}


@dataclass(frozen=True, slots=True)
class _Cell:
    """One drawn hex in VASSAL's rotated frame: raw index, drawn centre, our numbers."""

    nx: int
    ny: int
    u: float
    v: float
    line: int  # our row (pointy) or column (flat) number
    along: int  # our column (pointy) or row (flat) number


def _cells(layout: BoardGeometry, sideways: bool, dx: float, dy: float) -> list[_Cell]:
    """Assign each drawn hex its VASSAL raw index.

    Lines are numbered from the first one on the page; VASSAL draws odd raw lines half a hex
    toward +v, so when the first line is the "high" one it becomes raw line 1 (``k = 1``).
    """
    g = layout.grid
    drawn: list[tuple[float, float, int, int]] = []
    for hid in g.all_ids():
        col, row = g.parse_id(hid)
        x, y = layout.pixel_centre(hid)
        u, v = (y, x) if sideways else (x, y)
        drawn.append((u, v, row if sideways else col, col if sideways else row))
    u_min = min(d[0] for d in drawn)
    line_low: dict[int, float] = {}
    for u, v, _, _ in drawn:
        p = round((u - u_min) / dx)
        line_low[p] = min(v, line_low.get(p, v))
    v_min = min(line_low.values())
    high = {p: (((lv - v_min) / dy) % 1.0) > 0.25 for p, lv in line_low.items()}
    k = 1 if high.get(0, False) else 0
    cells: list[_Cell] = []
    for u, v, line, along in drawn:
        nx = round((u - u_min) / dx) + k
        if high[nx - k] != (nx % 2 == 1):
            raise ValueError("the drawn hexes do not alternate like a hex grid")
        ny = round((v - v_min - (dy / 2 if nx % 2 else 0.0)) / dy)
        cells.append(_Cell(nx, ny, u - (u_min - k * dx), v - v_min, line, along))
    # Keep the true centres (u, v) relative to the raw origin, plus the origin itself.
    return [_Cell(c.nx, c.ny, c.u + (u_min - k * dx), c.v + v_min, c.line, c.along) for c in cells]


def _fit(pairs: list[tuple[int, int]], what: str) -> tuple[int, int]:
    """``(start, step)`` with ``number == start + step * raw`` for every pair; step is ±1."""
    raws = sorted({r for r, _ in pairs})
    step = 1
    if len(raws) > 1:
        by_raw = dict(pairs)
        step = by_raw[raws[1]] - by_raw[raws[0]]
        if step not in (1, -1):
            raise ValueError(f"hex numbers do not step by one per {what}")
    start = pairs[0][1] - step * pairs[0][0]
    if any(n != start + step * r for r, n in pairs):
        raise ValueError(f"hex numbers are not regular along each {what}")
    return start, step


def _best_origin(cells: list[_Cell], dx: float, dy: float) -> tuple[int, int]:
    """Integer ``x0``/``y0`` whose §4.3 centres stray least from the drawn centres.

    VASSAL truncates ``dx*nx + x0`` (and adds a truncated ``dy/2`` on odd columns), so plain
    rounding of the true origin can be 1.5 px off; trying the neighbouring integers and keeping
    the one with the smallest worst error over all hexes keeps stored centres within 1.5 px.
    """
    half = int(dy / 2)
    u0 = min(c.u - dx * c.nx for c in cells)
    v0 = min(c.v - dy * c.ny - (dy / 2 if c.nx % 2 else 0.0) for c in cells)

    def worst_u(x0: int) -> float:
        return max(abs(int(dx * c.nx + x0) - c.u) for c in cells)

    def worst_v(y0: int) -> float:
        return max(abs(int(dy * c.ny + (half if c.nx % 2 else 0) + y0) - c.v) for c in cells)

    bu, bv = math.floor(u0), math.floor(v0)
    x0 = min(range(bu - 1, bu + 3), key=lambda c: (worst_u(c), c))
    y0 = min(range(bv - 1, bv + 3), key=lambda c: (worst_v(c), c))
    return x0, y0


# ---- VASSAL's formulas (transcribed from §4.3-§4.5) ----------------------------------------


class _Grid:
    """The parsed attributes, with VASSAL's defaults for missing ones."""

    __slots__ = (
        "dx",
        "dy",
        "first",
        "fmt",
        "h_descend",
        "h_leading",
        "h_off",
        "h_type",
        "sep",
        "sideways",
        "stagger",
        "v_descend",
        "v_leading",
        "v_off",
        "v_type",
        "x0",
        "y0",
    )

    def __init__(self, attrs: Mapping[str, Mapping[str, str]]) -> None:
        ga = {**_GRID_DEFAULTS, **attrs.get(HEXGRID, {})}
        na = {**_NUMBERING_DEFAULTS, **attrs.get(NUMBERING, {})}
        self.dy = float(ga["dy"])
        self.dx = float(ga["dx"])
        self.x0 = int(ga["x0"])
        self.y0 = int(ga["y0"])
        self.sideways = ga["sideways"] == "true"
        self.first = na["first"][:1] or "H"
        self.sep = na["sep"]
        self.h_type = na["hType"][:1] or "N"
        self.v_type = na["vType"][:1] or "N"
        self.h_leading = int(na["hLeading"])
        self.v_leading = int(na["vLeading"])
        self.h_off = int(na["hOff"])
        self.v_off = int(na["vOff"])
        self.h_descend = na["hDescend"] == "true"
        self.v_descend = na["vDescend"] == "true"
        self.stagger = na["stagger"] == "true"
        self.fmt = na["locationFormat"]

    def rotate(self, x: float, y: float) -> tuple[float, float]:
        return (y, x) if self.sideways else (x, y)


def raw_index(attrs: Mapping[str, Mapping[str, str]], x: float, y: float) -> tuple[int, int]:
    """``HexGrid.getRawColumn``/``getRawRow`` (§4.4): the rounding test, not the polygon."""
    return _raw_index(_Grid(attrs), x, y)


def _raw_index(g: _Grid, x: float, y: float) -> tuple[int, int]:
    u, v = g.rotate(x, y)
    nx = math.floor((u - g.x0) / g.dx + 0.5)
    if nx % 2 != 0:
        ny = math.floor((v - g.y0 - g.dy / 2) / g.dy + 0.5)
    else:
        ny = math.floor((v - g.y0) / g.dy + 0.5)
    return nx, ny


def raw_centre(attrs: Mapping[str, Mapping[str, str]], nx: int, ny: int) -> tuple[int, int]:
    """``HexGrid.hexPointCenterFromRawIndex`` (§4.3): where a snapped piece is stored."""
    return _raw_centre(_Grid(attrs), nx, ny)


def _raw_centre(g: _Grid, nx: int, ny: int) -> tuple[int, int]:
    u = int(g.dx * nx + g.x0)
    if nx % 2 != 0:
        v = int(g.dy * ny + int(g.dy / 2) + g.y0)
    else:
        v = int(g.dy * ny + g.y0)
    return (v, u) if g.sideways else (u, v)


def vassal_centre(attrs: Mapping[str, Mapping[str, str]], x: float, y: float) -> tuple[int, int]:
    """The stored position of a piece dropped at ``(x, y)``: the §4.3 centre of its hex.

    VASSAL's snap uses a polygon test; away from hex corners it picks the same hex as the
    §4.4 rounding test used here (drop points in tests are well inside their hex).
    """
    g = _Grid(attrs)
    return _raw_centre(g, *_raw_index(g, x, y))


def _name(n: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName(int, type, leading)`` (§4.5)."""
    out = ""
    if n < 0:
        out = "-"
        n = -n
    if kind == "A":
        while True:
            out += ALPHABET[n % 26]
            n -= 26
            if n < 0:
                return out
    while leading > 0 and n < 10**leading:
        out += "0"
        leading -= 1
    return out + str(n)


def vassal_label(
    attrs: Mapping[str, Mapping[str, str]], board_w: int, board_h: int, x: float, y: float
) -> str:
    """The location name VASSAL reports for board point ``(x, y)`` (§4.5).

    ``board_w`` x ``board_h`` is the Board's size (its image size), which enters the
    descending-numbering constants ``maxRows = floor(H/dx + 0.5)`` and
    ``maxColumns = floor(W/dy + 0.5)``.
    """
    g = _Grid(attrs)
    nx, ny = _raw_index(g, x, y)
    return _label(g, board_w, board_h, nx, ny)


def _label(g: _Grid, board_w: int, board_h: int, nx: int, ny: int) -> str:
    max_rows = math.floor(board_h / g.dx + 0.5)
    max_columns = math.floor(board_w / g.dy + 0.5)
    c = nx
    if g.sideways and g.v_descend:
        c = max_rows - c
    elif not g.sideways and g.h_descend:
        c = max_columns - c
    r = ny
    if not g.sideways and g.v_descend:
        r = max_rows - r
    if g.sideways and g.h_descend:
        r = max_columns - r
    if g.stagger and nx % 2 != 0:
        descend = g.h_descend if g.sideways else g.v_descend
        r = r - 1 if descend else r + 1
    col_name = _name(c + g.h_off, g.h_type, g.h_leading)
    row_name = _name(r + g.v_off, g.v_type, g.v_leading)
    grid_location = col_name + g.sep + row_name if g.first == "H" else row_name + g.sep + col_name
    return (
        g.fmt.replace("$gridLocation$", grid_location)
        .replace("$row$", row_name)
        .replace("$column$", col_name)
    )


def label_centres(
    attrs: Mapping[str, Mapping[str, str]],
    board_w: int,
    board_h: int,
    wanted: Iterable[str] | None = None,
) -> dict[str, tuple[int, int]]:
    """``label -> stored centre`` for every raw hex whose centre lies on the board.

    This is the robust way to place pieces by label that §4.7 recommends: enumerate raw
    indices, take each §4.3 centre and its §4.5 label. When two raw hexes share a label (only
    possible with odd attribute choices) the first in raw order wins. ``wanted`` limits the
    result to those labels.
    """
    g = _Grid(attrs)
    want = set(wanted) if wanted is not None else None
    u_span, v_span = (board_h, board_w) if g.sideways else (board_w, board_h)
    out: dict[str, tuple[int, int]] = {}
    nx_hi = math.ceil((u_span - g.x0) / g.dx) + 1
    ny_hi = math.ceil((v_span - g.y0) / g.dy) + 1
    for nx in range(math.floor(-g.x0 / g.dx) - 1, nx_hi + 1):
        for ny in range(math.floor(-g.y0 / g.dy) - 1, ny_hi + 1):
            x, y = _raw_centre(g, nx, ny)
            if not (0 <= x < board_w and 0 <= y < board_h):
                continue
            label = _label(g, board_w, board_h, nx, ny)
            if (want is None or label in want) and label not in out:
                out[label] = (x, y)
    return out
