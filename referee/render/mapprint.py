"""The printed map: the board at its exact physical size, tiled across pages.

A map sheet is larger than any home printer's paper (Sixth Fleet's is 31 x 21 in), so the
board picture (:func:`referee.render.board.render_board`, the same picture the VASSAL module
and the reports use) is cut into tiles that print at 100 % and are trimmed and glued into one
map. Everything is decided in whole pixels of that picture, so a point of the map lands at
exactly one place on exactly the tiles that show it:

* **Scale.** The module source declares the map's size: a hex map its ``hex_width_in``
  (the printed distance between neighbouring hex centres), an area or point-to-point map its
  ``[board]`` in inches, millimetres or pixels at a ``dpi``. The picture is drawn at
  ``art_dpi`` and placed at :attr:`MapGeometry.pt_per_px` points per pixel, which is
  ``72 / BoardLayout.scale``: a hex's centre-to-centre distance prints as exactly
  ``hex_width_in`` (the picture's even whole-pixel hex width is what is scaled), a board inch
  as exactly one inch. Title band and legend print at the same scale.
* **Tiles.** Each page shows a window of the picture inside 0.5 in margins (printable on any
  home printer), under a header line and over a footer. Neighbouring tiles share an
  **overlap strip** (``overlap``, 0.5 in unless asked otherwise). The tiles are labelled by
  row letter and column number (``B3``: second row, third column), and the orientation
  (portrait or landscape) is the one that needs fewer pages (portrait on a tie).
* **Assembly.** Down the middle of every overlap strip runs a **cut line**, dashed on the tile
  whose left or top edge it is (trim that edge on it) and dotted on the tile it is laid over;
  **registration crosses** sit on it at the same map points on both tiles, so the half
  crosses left on the trimmed edge meet the whole crosses below. A first **assembly page**
  (when there is more than one tile) shows the whole map with every tile's outline and label.
* **Print conventions** as the counter sheet and the charts (:func:`referee.render.drawing.
  pdf_bytes`): ``/PrintScaling /None``, here ``/Duplex /Simplex`` (tiles print one-sided),
  TrimBox and BleedBox on the tile's picture, font subsets named per document, byte-identical
  output for the same inputs. Each footer carries a 2 in / 5 cm check bar to measure.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from PIL import Image

from referee.errors import UserError
from referee.render.drawing import Circle, Drawing, Item, Line, Picture, Rect, Text, Vector
from referee.render.sheets import MARGIN_PT, paper_size
from referee.source.model import Module

HEADER_PT = 16.0
FOOTER_PT = 32.0
DEFAULT_OVERLAP = "0.5in"
OVERLAP_MIN_IN = 0.25
OVERLAP_MAX_IN = 2.0
ART_DPI = 150  # the board picture's resolution in the PDF (hex numbers stay sharp)
INDEX_DPI = 100  # the assembly page's reduced picture
CUT = "#000000"
HALO = "#FFFFFF"

_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(in|mm|pt|cm)?\s*$")


def parse_overlap_in(spec: str) -> float:
    """The overlap strip ``spec`` (``0.5in``, ``12mm``, ``36pt``; inches when no unit), in
    inches, between :data:`OVERLAP_MIN_IN` (room for the crosses) and
    :data:`OVERLAP_MAX_IN`."""
    m = _LENGTH.match(spec or "")
    if not m:
        raise UserError(f"not a length: {spec!r}", hint="write e.g. 0.5in, 12mm or 36pt")
    unit = m.group(2) or "in"
    inches = float(m.group(1)) * {"in": 1.0, "mm": 1 / 25.4, "cm": 1 / 2.54, "pt": 1 / 72.0}[unit]
    if not OVERLAP_MIN_IN - 1e-9 <= inches <= OVERLAP_MAX_IN + 1e-9:
        raise UserError(
            f"overlap {spec!r} is outside {OVERLAP_MIN_IN}..{OVERLAP_MAX_IN} in",
            hint="0.5in is usual: wide enough for the registration crosses and for glue",
        )
    return inches


def row_letters(i: int) -> str:
    """Row ``i`` (0-based) as letters: A..Z, then AA, AB..."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


@dataclass(frozen=True, slots=True)
class Tile:
    """One page's window on the board picture: ``x0, y0`` (inclusive) to ``x1, y1``
    (exclusive) in picture pixels."""

    row: int
    col: int
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def label(self) -> str:
        return f"{row_letters(self.row)}{self.col + 1}"


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """How the board picture is cut into tiles and where each pixel lands on its pages
    (points from a page's top-left corner, y down)."""

    paper: str
    orientation: str  # portrait | landscape
    page_w: float
    page_h: float
    pt_per_px: float
    image_w: int
    image_h: int
    tile_w: int  # the largest tile, in picture pixels
    tile_h: int
    overlap: int  # picture pixels shared by neighbouring tiles
    columns: int
    rows: int

    @property
    def window(self) -> tuple[float, float]:
        """Top-left corner of the picture window on every tile page."""
        return MARGIN_PT, MARGIN_PT + HEADER_PT

    @property
    def pages(self) -> int:
        """Tile pages, plus the assembly page when there is more than one tile."""
        n = self.rows * self.columns
        return n + 1 if n > 1 else n

    def _span(self, i: int, step: int, size: int, total: int) -> tuple[int, int]:
        start = i * step
        return start, min(total, start + size)

    def tile(self, row: int, col: int) -> Tile:
        x0, x1 = self._span(col, self.tile_w - self.overlap, self.tile_w, self.image_w)
        y0, y1 = self._span(row, self.tile_h - self.overlap, self.tile_h, self.image_h)
        return Tile(row, col, x0, y0, x1, y1)

    def tiles(self) -> list[Tile]:
        return [self.tile(r, c) for r in range(self.rows) for c in range(self.columns)]

    def tiles_at(self, x: float, y: float) -> list[Tile]:
        """Every tile whose window holds picture pixel ``(x, y)``."""
        return [t for t in self.tiles() if t.x0 <= x < t.x1 and t.y0 <= y < t.y1]

    def page_point(self, tile: Tile, x: float, y: float) -> tuple[float, float]:
        """Where picture pixel ``(x, y)`` prints on ``tile``'s page, in points."""
        wx, wy = self.window
        return wx + (x - tile.x0) * self.pt_per_px, wy + (y - tile.y0) * self.pt_per_px

    def map_point_in(self, x: float, y: float) -> tuple[float, float]:
        """Picture pixel ``(x, y)`` in inches from the printed board's top-left corner."""
        return x * self.pt_per_px / 72.0, y * self.pt_per_px / 72.0


def map_geometry(
    paper: str, image_w: int, image_h: int, pt_per_px: float, overlap_in: float
) -> MapGeometry:
    """The tiling of an ``image_w`` x ``image_h`` picture printed at ``pt_per_px`` on
    ``paper``: the orientation with fewer pages (portrait on a tie)."""
    pw, ph = paper_size(paper)
    options = []
    for orientation, (w, h) in (("portrait", (pw, ph)), ("landscape", (ph, pw))):
        tw = math.floor((w - 2 * MARGIN_PT) / pt_per_px)
        th = math.floor((h - 2 * MARGIN_PT - HEADER_PT - FOOTER_PT) / pt_per_px)
        ov = round(overlap_in * 72.0 / pt_per_px)
        if ov * 3 > min(tw, th):
            raise UserError(
                f"an overlap of {overlap_in:g} in leaves too little of a {paper} page",
                hint="use 0.5in",
            )
        cols = 1 if image_w <= tw else math.ceil((image_w - tw) / (tw - ov)) + 1
        rows = 1 if image_h <= th else math.ceil((image_h - th) / (th - ov)) + 1
        options.append(
            (rows * cols, len(options), MapGeometry(
                paper.strip().lower(), orientation, w, h, pt_per_px, image_w, image_h,
                tw, th, ov, cols, rows,
            ))
        )  # fmt: skip
    return min(options, key=lambda o: (o[0], o[1]))[2]


# ---- pages -------------------------------------------------------------------------------------
def _cross(x: float, y: float) -> list[Item]:
    """A registration cross in a circle, black on a white halo (it reads on sea and land)."""
    r, arm = 5.0, 8.0
    out: list[Item] = []
    for color, width in ((HALO, 1.6), (CUT, 0.45)):
        out.append(Circle(x, y, r, None, color, width))
        out.append(Line(((x - arm, y), (x + arm, y)), color, width))
        out.append(Line(((x, y - arm), (x, y + arm)), color, width))
    return out


def _cut_line(a: tuple[float, float], b: tuple[float, float], trimmed: bool) -> list[Item]:
    """The middle of an overlap strip: dashed where this edge is trimmed, dotted where the
    neighbour is laid over it."""
    dash = (4.0, 3.0) if trimmed else (1.0, 2.5)
    return [Line((a, b), HALO, 1.4), Line((a, b), CUT, 0.5, dash)]


def _seam_marks(geo: MapGeometry, t: Tile) -> list[Item]:
    """Cut lines and registration crosses on every side of ``t`` that has a neighbour. The
    crosses sit at a quarter and three quarters of the shared edge, in picture pixels, so the
    two tiles draw them at the same map points."""
    out: list[Item] = []
    half = geo.overlap / 2
    sides = []
    if t.col > 0:
        sides.append(("v", t.x0 + half, True))
    if t.col < geo.columns - 1:
        sides.append(("v", t.x1 - half, False))
    if t.row > 0:
        sides.append(("h", t.y0 + half, True))
    if t.row < geo.rows - 1:
        sides.append(("h", t.y1 - half, False))
    for axis, at, trimmed in sides:
        if axis == "v":
            a, b = geo.page_point(t, at, t.y0), geo.page_point(t, at, t.y1)
            marks = [geo.page_point(t, at, t.y0 + (t.y1 - t.y0) * f) for f in (0.25, 0.75)]
        else:
            a, b = geo.page_point(t, t.x0, at), geo.page_point(t, t.x1, at)
            marks = [geo.page_point(t, t.x0 + (t.x1 - t.x0) * f, at) for f in (0.25, 0.75)]
        out.extend(_cut_line(a, b, trimmed))
        for x, y in marks:
            out.extend(_cross(x, y))
    return out


def _check_bar(x: float, y: float) -> list[Item]:
    """A 2 in bar over a 5 cm bar ending at ``x``: measure them to check the print is 100 %."""
    out: list[Item] = []
    for length, ticks, label, dy in ((144.0, 8, "2 in", 0.0), (5 / 2.54 * 72, 5, "5 cm", 11.0)):
        x0 = x - length
        out.append(Line(((x0, y + dy), (x, y + dy)), CUT, 0.6))
        for i in range(ticks + 1):
            tx = x0 + length * i / ticks
            out.append(Line(((tx, y + dy - 3), (tx, y + dy)), CUT, 0.4))
        out.append(Text(x0 - 3, y + dy, label, "regular", 6, CUT, "end"))
    return out


def _neighbours(geo: MapGeometry, t: Tile) -> str:
    parts = []
    for name, r, c in (
        ("above", t.row - 1, t.col),
        ("left", t.row, t.col - 1),
        ("right", t.row, t.col + 1),
        ("below", t.row + 1, t.col),
    ):
        if 0 <= r < geo.rows and 0 <= c < geo.columns:
            parts.append(f"{name} {geo.tile(r, c).label}")
    return ", ".join(parts) if parts else "none"


def _frame(geo: MapGeometry, title: str, note: str, lines: list[str]) -> list[Item]:
    """Header and footer of a page: title and note, two lines of instructions, check bar."""
    top = MARGIN_PT + 11
    right = geo.page_w - MARGIN_PT
    foot = geo.page_h - MARGIN_PT - FOOTER_PT + 10
    out: list[Item] = [
        Text(MARGIN_PT, top, title, "bold", 9, "#000000"),
        Text(right, top, note, "regular", 7, "#333333", "end"),
    ]
    room = right - 144.0 - 24.0 - MARGIN_PT  # left of the check bar and its label
    for i, line in enumerate(_wrap(" ".join(lines), room, 6.5)[:3]):
        out.append(Text(MARGIN_PT, foot + i * 8.5, line, "regular", 6.5, "#333333"))
    out.extend(_check_bar(right, foot))
    return out


def _wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points (measured in the font)."""
    from referee.render.fonts import text_width_pt

    lines: list[str] = []
    for word in text.split():
        if lines and text_width_pt(f"{lines[-1]} {word}", "regular", size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


VectorMap = tuple[tuple[float, float, float, float, float, float], str, object]
"""An SVG map picture: the matrix from its pixels to the board's, its digest, its drawing
(:func:`referee.render.map_art.vector_map`)."""


def tile_page(
    module: Module,
    geo: MapGeometry,
    image: Image.Image,
    t: Tile,
    scale_note: str,
    vector: VectorMap | None = None,
) -> Drawing:
    """The page of tile ``t``: its window of the picture at exact size (an SVG map picture
    as vectors, clipped to the window), the seam marks, and the labels saying where it goes."""
    wx, wy = geo.window
    w, h = (t.x1 - t.x0) * geo.pt_per_px, (t.y1 - t.y0) * geo.pt_per_px
    box = (wx, wy, w, h)
    page = Drawing(geo.page_w, geo.page_h, trim=box, bleed=box)
    crop = image.crop((t.x0, t.y0, t.x1, t.y1))
    if vector is None:
        page.add(Picture(wx, wy, w, h, crop))
    else:
        (a, b, c, d, e, f), key, drawing = vector
        k = geo.pt_per_px
        m = (a * k, b * k, c * k, d * k, wx + (e - t.x0) * k, wy + (f - t.y0) * k)
        page.add(Vector(wx, wy, w, h, m, key, drawing, crop))
    page.add(Rect(wx, wy, w, h, None, "#9A9A9A", 0.3))
    page.extend(_seam_marks(geo, t))
    trims = [n for n, ok in (("left", t.col > 0), ("top", t.row > 0)) if ok]
    under = [
        geo.tile(r, c).label
        for r, c, ok in ((t.row, t.col - 1, t.col > 0), (t.row - 1, t.col, t.row > 0))
        if ok
    ]
    howto = (
        f"Trim the {' and '.join(trims)} edge on the dashed line and lay this tile over "
        f"{' and '.join(under)} so the crosses meet."
        if trims
        else "The top-left tile: lay the others over its dotted lines."
        if geo.rows * geo.columns > 1
        else "The whole map fits on this page."
    )
    page.extend(
        _frame(
            geo,
            f"{module.name}: map tile {t.label}",
            f"row {row_letters(t.row)} of {row_letters(geo.rows - 1)}, column {t.col + 1} of "
            f"{geo.columns} · neighbours: {_neighbours(geo, t)}",
            [
                f"Print at 100 % (actual size), one-sided. {scale_note}",
                howto,
            ],
        )
    )
    return page


def index_page(module: Module, geo: MapGeometry, image: Image.Image, scale_note: str) -> Drawing:
    """The assembly page: the whole map reduced, with every tile's outline and label."""
    page = Drawing(geo.page_w, geo.page_h)
    wx, wy = geo.window
    aw = geo.page_w - 2 * MARGIN_PT
    ah = geo.page_h - 2 * MARGIN_PT - HEADER_PT - FOOTER_PT
    k = min(aw / image.width, ah / image.height)  # points per picture pixel here
    w, h = image.width * k, image.height * k
    x0, y0 = wx + (aw - w) / 2, wy
    small = image.resize(
        (max(1, round(w * INDEX_DPI / 72)), max(1, round(h * INDEX_DPI / 72))),
        Image.Resampling.LANCZOS,
    )
    page.add(Picture(x0, y0, w, h, small))
    for t in geo.tiles():
        rx, ry = x0 + t.x0 * k, y0 + t.y0 * k
        rw, rh = (t.x1 - t.x0) * k, (t.y1 - t.y0) * k
        page.add(Rect(rx, ry, rw, rh, None, HALO, 2.0), Rect(rx, ry, rw, rh, None, CUT, 0.8))
        size = max(7.0, min(28.0, rh / 4, rw / 3))
        cx, cy = rx + rw / 2, ry + rh / 2 + size / 3
        page.add(
            Text(cx + 0.6, cy + 0.6, t.label, "bold", size, HALO, "middle"),
            Text(cx, cy, t.label, "bold", size, CUT, "middle"),
        )
    mw, mh = geo.map_point_in(geo.image_w, geo.image_h)
    page.extend(
        _frame(
            geo,
            f"{module.name}: printed map, assembly",
            f"{geo.rows * geo.columns} tiles ({geo.rows} rows x {geo.columns} columns), "
            f"{geo.paper} {geo.orientation}",
            [
                f"Printed size {mw:.2f} x {mh:.2f} in ({mw * 2.54:.1f} x {mh * 2.54:.1f} cm). "
                f"{scale_note}",
                "Print at 100 %. Start with A1; trim each other tile's left and top edges on "
                "the dashed lines and lay it over its neighbours, crosses on crosses.",
            ],
        )
    )
    return page


def scale_note(module: Module) -> str:
    """The scale the module source declares, as printed in the footers."""
    g = module.map.grid
    if g is not None:
        return f"Hexes {g.hex_width:g} in ({g.hex_width * 25.4:.1f} mm) centre to centre."
    canvas = module.map.canvas
    assert canvas is not None
    return f"Board {canvas.width:.2f} x {canvas.height:.2f} in inside its margin."


def map_pages(
    module: Module,
    image: Image.Image,
    pt_per_px: float,
    paper: str,
    overlap_in: float,
    vector: VectorMap | None = None,
) -> tuple[MapGeometry, list[Drawing]]:
    """Every page of the printed map: the assembly page (more than one tile), then the tiles
    row by row (``vector``: an SVG map picture, drawn as vectors on the tiles)."""
    geo = map_geometry(paper, image.width, image.height, pt_per_px, overlap_in)
    note = scale_note(module)
    pages = [tile_page(module, geo, image, t, note, vector) for t in geo.tiles()]
    if len(pages) > 1:
        pages.insert(0, index_page(module, geo, image, note))
    return geo, pages
