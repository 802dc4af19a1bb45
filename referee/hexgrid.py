"""Hex geometry: ids, offset/axial/cube coordinates, neighbours, distance, lines, hexsides, pixels.

Everything here is pure. A :class:`HexGrid` describes one rectangular map the way a rulebook
prints it: how many columns and rows, which way the rows run, which rows (or columns) are
shifted half a hex, and how the four-digit hex ids are spelled. Sixth Fleet, for example, uses
``RRCC`` ids with rows growing northward ("Malta 1010, Crete 1022, Bosporus 2025").

Coordinates:

* **offset** ``(col, row)``: the numbers printed in the hex id;
* **axial** ``(q, r)`` and **cube** ``(x, y, z)`` with ``x + y + z == 0``: where neighbour,
  distance and line arithmetic is simple (see Amit Patel's "Hexagonal Grids" for the maths).

The orientation decides which offset axis zig-zags:

* ``pointy``: pointy-topped hexes in horizontal rows; a *shifted* row sits half a hex east.
* ``flat``: flat-topped hexes in vertical columns; a *shifted* column sits half a hex toward
  the higher row numbers (down the page when rows grow south, up when they grow north).

Adjacency does not depend on which way the rows grow on paper (a mirror image of a hex grid
is a hex grid), only on which rows are shifted. Pixel centres do depend on it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

Orientation = Literal["pointy", "flat"]
Parity = Literal["odd", "even"]
Growth = Literal["north", "south"]
IdFormat = Literal["RRCC", "CCRR"]

SQRT3 = math.sqrt(3.0)

# Axial direction vectors, in a fixed order (east first, then anticlockwise in axial space).
AXIAL_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (0, 1),
)


@dataclass(frozen=True, slots=True)
class Cube:
    """A cube coordinate; ``x + y + z == 0`` always holds."""

    x: int
    y: int
    z: int

    def __add__(self, other: Cube) -> Cube:
        return Cube(self.x + other.x, self.y + other.y, self.z + other.z)

    def __sub__(self, other: Cube) -> Cube:
        return Cube(self.x - other.x, self.y - other.y, self.z - other.z)


def cube_distance(a: Cube, b: Cube) -> int:
    """Hexes between two cube coordinates (the number of steps, not counting the start)."""
    return max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))


def axial_to_cube(q: int, r: int) -> Cube:
    return Cube(q, -q - r, r)


def cube_to_axial(c: Cube) -> tuple[int, int]:
    return c.x, c.z


def cube_round(x: float, y: float, z: float) -> Cube:
    """Round fractional cube coordinates to the hex that contains them."""
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return Cube(int(rx), int(ry), int(rz))


def cube_line(a: Cube, b: Cube) -> list[Cube]:
    """Every hex on the straight line from ``a`` to ``b``, both included.

    The endpoints are nudged by a tiny epsilon so that a line running exactly along a hexside
    picks the same side every time (deterministic, as line-of-sight style rules need).
    """
    n = cube_distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    ax, ay, az = a.x + eps, a.y + eps, a.z - 2 * eps
    bx, by, bz = b.x + eps, b.y + eps, b.z - 2 * eps
    out: list[Cube] = []
    for i in range(n + 1):
        t = i / n
        out.append(cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t))
    return out


@dataclass(frozen=True, slots=True)
class HexGrid:
    """The shape of one rectangular hex map and how its hexes are named.

    ``hex_width`` is the distance between the centres of two neighbouring hexes (side to side)
    in whatever unit the caller wants pixels in; :meth:`scaled` makes a copy for another size.
    """

    columns: int
    rows: int
    orientation: Orientation = "pointy"
    shifted: Parity = "even"
    rows_grow: Growth = "north"
    id_format: IdFormat = "RRCC"
    first_column: int = 1
    first_row: int = 1
    hex_width: float = 1.0
    margin: float = 0.0

    # ---- ids -------------------------------------------------------------------------------
    @property
    def last_column(self) -> int:
        return self.first_column + self.columns - 1

    @property
    def last_row(self) -> int:
        return self.first_row + self.rows - 1

    def contains(self, col: int, row: int) -> bool:
        return (
            self.first_column <= col <= self.last_column and self.first_row <= row <= self.last_row
        )

    def hex_id(self, col: int, row: int) -> str:
        """The printed id of an offset coordinate, e.g. ``(23, 14) -> "1423"`` for RRCC."""
        if self.id_format == "RRCC":
            return f"{row:02d}{col:02d}"
        return f"{col:02d}{row:02d}"

    def parse_id(self, hex_id: str) -> tuple[int, int]:
        """Offset ``(col, row)`` of a printed id. Raises ``ValueError`` with a reason."""
        text = hex_id.strip()
        if len(text) != 4 or not text.isdigit() or not text.isascii():
            raise ValueError(f"hex id {hex_id!r} is not four digits")
        a, b = int(text[:2]), int(text[2:])
        col, row = (b, a) if self.id_format == "RRCC" else (a, b)
        if not self.contains(col, row):
            raise ValueError(
                f"hex {text} is off the map (columns {self.first_column:02d}-"
                f"{self.last_column:02d}, rows {self.first_row:02d}-{self.last_row:02d})"
            )
        return col, row

    def is_valid_id(self, hex_id: str) -> bool:
        try:
            self.parse_id(hex_id)
        except ValueError:
            return False
        return True

    def all_ids(self) -> Iterator[str]:
        """Every hex id, row by row from the first row, column by column."""
        for row in range(self.first_row, self.last_row + 1):
            for col in range(self.first_column, self.last_column + 1):
                yield self.hex_id(col, row)

    # ---- offset <-> axial -------------------------------------------------------------------
    def _is_shifted(self, n: int) -> bool:
        return (n % 2 == 1) == (self.shifted == "odd")

    def offset_to_axial(self, col: int, row: int) -> tuple[int, int]:
        p = 1 if self.shifted == "odd" else 0
        if self.orientation == "pointy":
            return col - (row + (1 - p)) // 2, row
        return col, row - (col + (1 - p)) // 2

    def axial_to_offset(self, q: int, r: int) -> tuple[int, int]:
        p = 1 if self.shifted == "odd" else 0
        if self.orientation == "pointy":
            return q + (r + (1 - p)) // 2, r
        return q, r + (q + (1 - p)) // 2

    def to_cube(self, hex_id: str) -> Cube:
        return axial_to_cube(*self.offset_to_axial(*self.parse_id(hex_id)))

    def from_cube(self, c: Cube) -> str | None:
        """The id of a cube coordinate, or ``None`` when it lies off the map."""
        col, row = self.axial_to_offset(*cube_to_axial(c))
        if not self.contains(col, row):
            return None
        return self.hex_id(col, row)

    # ---- topology ---------------------------------------------------------------------------
    def neighbours(self, hex_id: str) -> list[str]:
        """The on-map hexes adjacent to ``hex_id``, in a fixed direction order.

        The same as ``from_cube(axial_to_cube(q + dq, r + dr))`` for each direction, written
        out without the intermediate objects: every board asks it for every hex when it is
        built, on every command that loads a ruleset (start-up time)."""
        q, r = self.offset_to_axial(*self.parse_id(hex_id))
        p = 1 if self.shifted == "odd" else 0
        pointy = self.orientation == "pointy"
        c0, c1, r0, r1 = self.first_column, self.last_column, self.first_row, self.last_row
        rrcc = self.id_format == "RRCC"
        out: list[str] = []
        for dq, dr in AXIAL_DIRECTIONS:
            nq, nr = q + dq, r + dr
            col, row = (nq + (nr + (1 - p)) // 2, nr) if pointy else (nq, nr + (nq + (1 - p)) // 2)
            if c0 <= col <= c1 and r0 <= row <= r1:
                out.append(f"{row:02d}{col:02d}" if rrcc else f"{col:02d}{row:02d}")
        return out

    def is_edge(self, hex_id: str) -> bool:
        """True when the hex has fewer than six on-map neighbours."""
        return len(self.neighbours(hex_id)) < 6

    def distance(self, a: str, b: str) -> int:
        return cube_distance(self.to_cube(a), self.to_cube(b))

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def line(self, a: str, b: str) -> list[str]:
        """The hexes on the straight line between two hexes (both included, all on the map)."""
        ids = [self.from_cube(c) for c in cube_line(self.to_cube(a), self.to_cube(b))]
        return [i for i in ids if i is not None]

    def within(self, centre: str, radius: int) -> list[str]:
        """Every on-map hex at most ``radius`` hexes from ``centre``, sorted by id."""
        c = self.to_cube(centre)
        out: list[str] = []
        for dx in range(-radius, radius + 1):
            for dy in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
                other = self.from_cube(c + Cube(dx, dy, -dx - dy))
                if other is not None:
                    out.append(other)
        return sorted(out)

    # ---- pixels -----------------------------------------------------------------------------
    @property
    def size(self) -> float:
        """Centre-to-corner radius of one hex."""
        return self.hex_width / SQRT3

    def scaled(self, hex_width: float, margin: float = 0.0) -> HexGrid:
        """The same grid drawn at another scale (e.g. pixels at 100 dpi)."""
        return HexGrid(
            columns=self.columns,
            rows=self.rows,
            orientation=self.orientation,
            shifted=self.shifted,
            rows_grow=self.rows_grow,
            id_format=self.id_format,
            first_column=self.first_column,
            first_row=self.first_row,
            hex_width=hex_width,
            margin=margin,
        )

    def _row_index(self, row: int) -> int:
        """0 for the row drawn at the top of the page."""
        return self.last_row - row if self.rows_grow == "north" else row - self.first_row

    def centre(self, hex_id: str) -> tuple[float, float]:
        """Pixel centre of a hex; the page origin is top-left, y grows down the page."""
        col, row = self.parse_id(hex_id)
        return self.centre_of(col, row)

    def centre_of(self, col: int, row: int) -> tuple[float, float]:
        w, s = self.hex_width, self.size
        if self.orientation == "pointy":
            x = self.margin + w / 2 + (col - self.first_column) * w
            if self._is_shifted(row):
                x += w / 2
            y = self.margin + s + self._row_index(row) * 1.5 * s
            return x, y
        # flat: columns vertical, column pitch 1.5*s, row pitch w (side to side vertically).
        # A shifted column sits half a hex toward the higher row numbers (that is what the
        # axial conversion assumes), which is down the page when rows grow south and up the
        # page when they grow north; in the latter case we push the other columns down.
        x = self.margin + s + (col - self.first_column) * 1.5 * s
        y = self.margin + w / 2 + self._row_index(row) * w
        if self._is_shifted(col) == (self.rows_grow == "south"):
            y += w / 2
        return x, y

    def corners(self, hex_id: str) -> list[tuple[float, float]]:
        """The six corners of a hex, clockwise from the top (pointy) or the east (flat)."""
        cx, cy = self.centre(hex_id)
        s = self.size
        start = -90.0 if self.orientation == "pointy" else 0.0
        pts = []
        for i in range(6):
            a = math.radians(start + 60.0 * i)
            pts.append((cx + s * math.cos(a), cy + s * math.sin(a)))
        return pts

    def pixel_size(self) -> tuple[float, float]:
        """Width and height that hold every hex plus the margin on each side."""
        w, s = self.hex_width, self.size
        if self.orientation == "pointy":
            width = self.columns * w + w / 2
            height = 2 * s + (self.rows - 1) * 1.5 * s
        else:
            width = 2 * s + (self.columns - 1) * 1.5 * s
            height = self.rows * w + w / 2
        return width + 2 * self.margin, height + 2 * self.margin

    def hex_at(self, x: float, y: float) -> str | None:
        """The id of the hex containing a pixel, or ``None`` off the grid (exact polygon test)."""
        best: tuple[float, str] | None = None
        for col, row in self._candidates(x, y):
            cx, cy = self.centre_of(col, row)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, self.hex_id(col, row))
        if best is None or best[0] > self.size**2 + 1e-9:
            return None
        return best[1]

    def _candidates(self, x: float, y: float) -> Iterator[tuple[int, int]]:
        s, w = self.size, self.hex_width
        if self.orientation == "pointy":
            ri = (y - self.margin - s) / (1.5 * s)
            ci = (x - self.margin - w / 2) / w
        else:
            ci = (x - self.margin - s) / (1.5 * s)
            ri = (y - self.margin - w / 2) / w
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                idx = round(ri) + dr
                row = (self.last_row - idx) if self.rows_grow == "north" else self.first_row + idx
                col = self.first_column + round(ci) + dc
                if self.contains(col, row):
                    yield col, row


def hexside_key(a: str, b: str) -> tuple[str, str]:
    """A hexside named by the two hexes it separates, order-independent: ``("1311", "1312")``."""
    return (a, b) if a <= b else (b, a)


def hexside_id(a: str, b: str) -> str:
    x, y = hexside_key(a, b)
    return f"{x}/{y}"
