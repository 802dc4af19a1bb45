"""Read any module's grids and name a board point the way VASSAL does.

A VASSAL Board names a point with its grid (``MapGrid.locationName``). This module reads the
grid elements of a buildFile and transcribes, from VASSAL 3.7's source, how each kind names a
point, so that ``show-vsav --vmod`` and ``referee log`` print the very names VASSAL prints:

* ``HexGrid`` with ``HexGridNumbering`` or ``ObliqueHexGridNumbering``
  (``HexGrid.getRawColumn/getRawRow``, ``HexGridNumbering.getRow/getColumn`` with
  descending directions, stagger and sideways grids; the oblique ``slantRow``);
* ``SquareGrid`` with ``SquareGridNumbering`` (``SquareGridNumbering.getRow/getColumn``; note
  VASSAL floors the column but truncates the row toward zero);
* ``RegionGrid``: the region whose origin is nearest (``RegionGrid.doSnap``; ties go to the
  first region in Java ``HashMap`` order, which :func:`_java_hashmap_order` reproduces);
* ``ZonedGrid``: the first zone whose polygon contains the point (``java.awt.Polygon``'s
  even-odd crossing test, transcribed in :func:`polygon_contains`), named by the zone's
  ``locationFormat`` with ``$name$`` and ``$gridLocation$`` from the zone's own grid (or the
  board's background grid with ``useParentGrid``); elsewhere the background grid.

Numbering names go through ``RegularGridNumbering.getName`` (alphabetic or zero-padded
numbers, negative values with ``-``) and the location format through VASSAL's old-style
formatted strings (:func:`expand_format`). A grid of any other kind (a class from a
module's own jar) is kept as :class:`UnsupportedGrid`, which names itself in the error raised
when a location on it is asked for. Everything here is pure; sizes come from the caller.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Protocol

from lxml import etree

from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.sequence import SequenceDecoder
from referee.vassal.module.grid import HEXGRID, raw_index

__all__ = [
    "BOARD_GRIDS",
    "GridSpec",
    "HexGridSpec",
    "Numbering",
    "RegionGridSpec",
    "SquareGridSpec",
    "UnsupportedGrid",
    "UnsupportedGridError",
    "ZoneSpec",
    "ZonedGridSpec",
    "expand_format",
    "polygon_contains",
    "read_grid",
]

_PKG: Final = "VASSAL.build.module.map.boardPicker.board."
HEX_GRID: Final = _PKG + "HexGrid"
SQUARE_GRID: Final = _PKG + "SquareGrid"
REGION_GRID: Final = _PKG + "RegionGrid"
ZONED_GRID: Final = _PKG + "ZonedGrid"
REGION: Final = _PKG + "Region"
ZONE: Final = _PKG + "mapgrid.Zone"
HEX_NUMBERING: Final = _PKG + "mapgrid.HexGridNumbering"
OBLIQUE_NUMBERING: Final = _PKG + "mapgrid.ObliqueHexGridNumbering"
SQUARE_NUMBERING: Final = _PKG + "mapgrid.SquareGridNumbering"
BOARD_GRIDS: Final = frozenset({HEX_GRID, SQUARE_GRID, REGION_GRID, ZONED_GRID})
"""The grid kinds VASSAL itself provides, all of which are read here."""

_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_SQRT3_2: Final = math.sqrt(3) / 2
_HEX_DEFAULT_DY: Final = 64.0
_HEX_DEFAULT_DX: Final = _SQRT3_2 * _HEX_DEFAULT_DY  # HexGrid.DEFAULT_WIDTH


class UnsupportedGridError(VassalFormatError):
    """A location was asked for on a grid kind referee does not know."""


Size = tuple[int, int]
"""``(width, height)`` of a grid's container: the board image, or a zone's bounding box."""


class GridSpec(Protocol):
    """One grid of a board or zone, as VASSAL names its points."""

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        """``MapGrid.locationName`` of board point ``(x, y)``; ``None`` if it has no name."""
        ...


# ---- attribute parsing (Java's Integer/Double/Boolean.valueOf) -----------------------------


def _int(el: etree._Element, key: str, default: int, source: str) -> int:
    text = el.get(key)
    if text is None:
        return default
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()):  # Integer.valueOf: no spaces, no decimals
        raise VassalFormatError(
            f"{source}:{el.sourceline}", f"attribute {key}={text!r} is not a whole number"
        )
    return int(text)


def _float(el: etree._Element, key: str, default: float, source: str) -> float:
    text = el.get(key)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise VassalFormatError(
            f"{source}:{el.sourceline}", f"attribute {key}={text!r} is not a number"
        ) from None
    if not math.isfinite(value) or value == 0:
        raise VassalFormatError(
            f"{source}:{el.sourceline}", f"attribute {key}={text!r} is not a usable grid step"
        )
    return value


def _bool(el: etree._Element, key: str, default: bool) -> bool:
    text = el.get(key)
    return default if text is None else text.lower() == "true"


def _char(el: etree._Element, key: str, default: str) -> str:
    text = el.get(key)
    return default if not text else text[0]


# ---- RegularGridNumbering ------------------------------------------------------------------


def _name(n: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName(int, char, int)``."""
    out = "-" if n < 0 else ""
    n = abs(n)
    if kind == "A":
        while True:
            out += _ALPHABET[n % 26]
            n -= 26
            if n < 0:
                return out
    while leading > 0 and n < 10.0**leading:
        out += "0"
        leading -= 1
    return out + str(n)


def expand_format(fmt: str, props: Mapping[str, str | None], *, localized: bool) -> str:
    """Evaluate a location format as VASSAL's ``Expression.createExpression`` does.

    ``$name$`` takes ``props[name]``; a name missing from ``props`` gives nothing when
    ``localized`` (the grid numbering's ``getLocalizedText``) and the bare name otherwise
    (a zone's ``getText``). A BeanShell format ``{...}`` cannot be evaluated here.
    """
    if not fmt or not fmt.strip():
        return ""
    t = fmt.strip()
    if t.startswith("{") and t.endswith("}"):
        raise UnsupportedGridError(
            "locationFormat", f"BeanShell location format {fmt!r} cannot be evaluated by referee"
        )
    body = t[1:] if t[:1] in "+-" else t
    if body.isascii() and body.isdigit() and -(2**31) <= int(t) < 2**31:
        return str(int(t))  # an IntExpression
    if "$" not in t:
        return fmt  # a StringExpression keeps the untrimmed text
    out: list[str] = []
    decoder = SequenceDecoder(t, "$")
    is_property = True
    while decoder.has_more():
        token = decoder.next_token()
        is_property = not is_property
        if not token:
            continue
        if not is_property or not decoder.has_more():
            out.append(token)
        elif token in props:
            value = props[token]
            if value is not None:
                out.append(value)
        elif not localized:
            out.append(token)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Numbering:
    """A ``RegularGridNumbering``'s attributes (defaults as in VASSAL's field initialisers)."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    oblique: bool = False
    location_format: str = "$gridLocation$"

    @classmethod
    def read(cls, el: etree._Element, source: str) -> Numbering:
        return cls(
            first=_char(el, "first", "H"),
            sep=el.get("sep", ""),
            h_type=_char(el, "hType", "N"),
            v_type=_char(el, "vType", "N"),
            h_leading=_int(el, "hLeading", 1, source),
            v_leading=_int(el, "vLeading", 1, source),
            h_off=_int(el, "hOff", 1, source),
            v_off=_int(el, "vOff", 1, source),
            h_descend=_bool(el, "hDescend", False),
            v_descend=_bool(el, "vDescend", False),
            stagger=_bool(el, "stagger", True),
            oblique=el.tag == OBLIQUE_NUMBERING,
            location_format=el.get("locationFormat", "$gridLocation$"),
        )

    def name(self, row: int, col: int, props: Mapping[str, str]) -> str:
        """``RegularGridNumbering.locationName`` once the row and column are known."""
        row_name = _name(row + self.v_off, self.v_type, self.v_leading)
        col_name = _name(col + self.h_off, self.h_type, self.h_leading)
        grid = (
            col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name
        )
        values: dict[str, str | None] = dict(props)
        values.update({"gridLocation": grid, "row": row_name, "column": col_name})
        return expand_format(self.location_format, values, localized=True)


# ---- the grid kinds ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HexGridSpec:
    """``HexGrid``: ``dx`` is the column spacing ("hex width"), ``dy`` the hex height."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool
    numbering: Numbering | None

    def raw(self, x: int, y: int) -> tuple[int, int]:
        attrs = {
            HEXGRID: {
                "dx": repr(self.dx),
                "dy": repr(self.dy),
                "x0": str(self.x0),
                "y0": str(self.y0),
                "sideways": "true" if self.sideways else "false",
            }
        }
        return raw_index(attrs, x, y)

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        n = self.numbering
        if n is None:
            return None
        w, h = size
        max_rows = math.floor(h / self.dx + 0.5)
        max_columns = math.floor(w / self.dy + 0.5)
        raw_col, raw_row = self.raw(x, y)
        col = raw_col
        if n.v_descend and self.sideways:
            col = max_rows - col
        if n.h_descend and not self.sideways:
            col = max_columns - col
        row = raw_row
        if n.v_descend and not self.sideways:
            row = max_rows - row
        if n.h_descend and self.sideways:
            row = max_columns - row
        if n.stagger and raw_col % 2 != 0:
            descend = n.h_descend if self.sideways else n.v_descend
            row = row - 1 if descend else row + 1
        if n.oblique:  # ObliqueHexGridNumbering.slantRow; Java int division truncates
            half = int(col / 2)
            row = half + row if n.stagger else row - half + 1
        return n.name(row, col, props)


@dataclass(frozen=True, slots=True)
class SquareGridSpec:
    dx: float
    dy: float
    x0: int
    y0: int
    numbering: Numbering | None

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        n = self.numbering
        if n is None:
            return None
        w, h = size
        col = math.floor((x - self.x0) / self.dx + 0.5)
        row = int((y - self.y0) / self.dy + 0.5)  # (int) cast: toward zero
        if n.h_descend:
            col = int(w / self.dx + 0.5) - col
        if n.v_descend:
            row = int(h / self.dy + 0.5) - row
        return n.name(row, col, props)


def _java_int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _point_hash(x: int, y: int) -> int:
    """``java.awt.geom.Point2D.hashCode`` of an integer point."""

    def bits(v: float) -> int:
        return struct.unpack(">q", struct.pack(">d", v))[0]

    b = bits(float(x)) ^ ((bits(float(y)) * 31) & 0xFFFFFFFFFFFFFFFF)
    b &= 0xFFFFFFFFFFFFFFFF
    return _java_int32((b & 0xFFFFFFFF) ^ (b >> 32))


def _java_hashmap_order(keys: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Iteration order of a ``java.util.HashMap`` filled with ``keys`` in this order.

    Buckets by ``(h ^ h >>> 16) & (capacity - 1)``, insertion order within a bucket; the
    table doubles from 16 when it holds more than 3/4 of its capacity. (Tree bins, used for
    buckets of 8 or more keys, are not modelled; they need thousands of regions.)
    """
    capacity = 16
    while len(keys) > capacity * 3 // 4:
        capacity *= 2
    buckets: dict[int, list[tuple[int, int]]] = {}
    for key in keys:
        h = _point_hash(*key) & 0xFFFFFFFF
        spread = (h ^ (h >> 16)) & (capacity - 1)
        buckets.setdefault(spread, []).append(key)
    return [k for b in sorted(buckets) for k in buckets[b]]


@dataclass(frozen=True, slots=True)
class RegionGridSpec:
    """``RegionGrid``: named points; a point takes the name of the nearest region origin."""

    origins: tuple[tuple[int, int], ...]  # in VASSAL's HashMap iteration order
    names: Mapping[tuple[int, int], str]

    @classmethod
    def build(cls, regions: list[tuple[str, int, int]]) -> RegionGridSpec:
        names: dict[tuple[int, int], str] = {}
        keys: list[tuple[int, int]] = []
        for name, x, y in regions:
            if (x, y) not in names:
                keys.append((x, y))
            names[(x, y)] = name  # HashMap.put: the last region at an origin wins
        return cls(tuple(_java_hashmap_order(keys)), names)

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        if not self.origins:
            return None
        best = None
        best_d = math.inf
        for ox, oy in self.origins:
            d = _java_int32((x - ox) * (x - ox) + (y - oy) * (y - oy))
            if d < best_d:
                best, best_d = (ox, oy), d
        return self.names.get(best) if best is not None else None


def polygon_contains(points: tuple[tuple[int, int], ...], x: float, y: float) -> bool:
    """``java.awt.Polygon.contains(double, double)``: even-odd crossings, bounding box first."""
    n = len(points)
    if n <= 2:
        return False
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    bx, by = min(xs), min(ys)
    if not (bx <= x < max(xs) and by <= y < max(ys)):
        return False
    hits = 0
    lastx, lasty = points[-1]
    for curx, cury in points:
        px, py = lastx, lasty
        lastx, lasty = curx, cury
        if cury == py:
            continue
        if curx < px:
            if x >= px:
                continue
            leftx = curx
        else:
            if x >= curx:
                continue
            leftx = px
        if cury < py:
            if y < cury or y >= py:
                continue
            if x < leftx:
                hits += 1
                continue
            test1 = x - curx
            test2 = y - cury
        else:
            if y < py or y >= cury:
                continue
            if x < leftx:
                hits += 1
                continue
            test1 = x - px
            test2 = y - py
        if test1 < (test2 / (py - cury) * (px - curx)):
            hits += 1
    return (hits & 1) != 0


@dataclass(frozen=True, slots=True)
class ZoneSpec:
    name: str
    polygon: tuple[tuple[int, int], ...]
    location_format: str
    use_parent_grid: bool
    grid: GridSpec | None

    @property
    def size(self) -> Size:
        """``Zone.getSize``: the polygon's bounding box (the container of the zone's grid)."""
        if not self.polygon:
            return (0, 0)
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True, slots=True)
class ZonedGridSpec:
    zones: tuple[ZoneSpec, ...]
    background: GridSpec | None

    def zone_at(self, x: int, y: int) -> ZoneSpec | None:
        for zone in self.zones:
            if polygon_contains(zone.polygon, x, y):
                return zone
        return None

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        zone = self.zone_at(x, y)
        if zone is not None:
            grid = self.background if zone.use_parent_grid else zone.grid
            # A zone's own grid is sized by the zone; the parent grid by the board.
            grid_size = size if zone.use_parent_grid else zone.size
            grid_location = grid.location_name(x, y, grid_size, props) if grid else None
            values: dict[str, str | None] = dict(props)
            values.update({"name": zone.name, "gridLocation": grid_location})
            return expand_format(zone.location_format, values, localized=False)
        if self.background is not None:
            return self.background.location_name(x, y, size, props)
        return None


@dataclass(frozen=True, slots=True)
class UnsupportedGrid:
    """A grid element of a kind VASSAL does not provide (a class from the module's jar)."""

    kind: str
    where: str

    def location_name(self, x: int, y: int, size: Size, props: Mapping[str, str]) -> str | None:
        raise UnsupportedGridError(
            self.where,
            f"grid kind {self.kind} is not supported: referee cannot name locations on it",
            "only VASSAL's own HexGrid, SquareGrid, RegionGrid and ZonedGrid are read",
        )


# ---- reading the elements ------------------------------------------------------------------


def _is_grid_tag(tag: str) -> bool:
    return tag in BOARD_GRIDS or tag.endswith("Grid")


def _child_grid(el: etree._Element, source: str) -> GridSpec | None:
    for child in el:
        if isinstance(child.tag, str) and _is_grid_tag(child.tag) and child.tag != ZONE:
            return read_grid(child, source)
    return None


def _numbering(el: etree._Element, source: str, kinds: tuple[str, ...]) -> Numbering | None:
    for child in el:
        if isinstance(child.tag, str) and child.tag in kinds:
            return Numbering.read(child, source)
    return None


def _polygon(text: str) -> tuple[tuple[int, int], ...]:
    """``PolygonEditor.parseString``: ``x,y;x,y;...``, unreadable points skipped."""
    points: list[tuple[int, int]] = []
    for token in SequenceDecoder(text, ";") if text else ():
        parts = SequenceDecoder(token, ",")
        if not parts.has_more():
            continue
        try:
            x = int(parts.next_token().strip())
            if parts.has_more():
                points.append((x, int(parts.next_token().strip())))
        except ValueError:
            continue
    return tuple(points)


def read_grid(el: etree._Element, source: str) -> GridSpec:
    """The grid of one grid element (a Board's, a ZonedGrid's background or a Zone's)."""
    tag = el.tag
    where = f"{source}:{el.sourceline}"
    if tag == HEX_GRID:
        dx = _HEX_DEFAULT_DX
        dy = _HEX_DEFAULT_DY
        for key in el.attrib:  # HexGrid.setAttribute, in document order
            if key == "dy":
                dy = _float(el, "dy", dy, source)
                if dx == _HEX_DEFAULT_DX:
                    dx = _SQRT3_2 * dy
            elif key == "dx":
                dx = _float(el, "dx", dx, source)
        return HexGridSpec(
            dx=dx,
            dy=dy,
            x0=_int(el, "x0", 0, source),
            y0=_int(el, "y0", 32, source),
            sideways=_bool(el, "sideways", False),
            numbering=_numbering(el, source, (HEX_NUMBERING, OBLIQUE_NUMBERING)),
        )
    if tag == SQUARE_GRID:
        return SquareGridSpec(
            dx=_float(el, "dx", 48.0, source),
            dy=_float(el, "dy", 48.0, source),
            x0=_int(el, "x0", 24, source),
            y0=_int(el, "y0", 24, source),
            numbering=_numbering(el, source, (SQUARE_NUMBERING,)),
        )
    if tag == REGION_GRID:
        regions = [
            (r.get("name", ""), _int(r, "originx", 0, source), _int(r, "originy", 0, source))
            for r in el
            if r.tag == REGION and r.get("name") is not None
        ]
        return RegionGridSpec.build(regions)
    if tag == ZONED_GRID:
        zones = []
        for z in el:
            if z.tag != ZONE:
                continue
            zones.append(
                ZoneSpec(
                    name=z.get("name", ""),
                    polygon=_polygon(z.get("path", "")),
                    location_format=z.get("locationFormat", "$name$"),
                    use_parent_grid=_bool(z, "useParentGrid", False),
                    grid=_child_grid(z, source),
                )
            )
        return ZonedGridSpec(tuple(zones), _child_grid(el, source))
    return UnsupportedGrid(str(tag), where)
