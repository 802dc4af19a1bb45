"""Printable counter sheets: where every counter goes on the page, and the pages themselves.

Counters are printed at their exact size (a 0.5 in counter is 36 pt) edge to edge in a grid,
with thin cut lines on every counter edge, crop marks outside the grid and registration marks
in the corners of the printable area. Margins stay at least 0.5 in, which every home printer
can print. The grid is centred left-to-right, so mirroring a page about its vertical centre
line maps the grid onto itself: a back page, printed long-edge duplex, puts each back exactly
behind its front (:meth:`SheetGeometry.back_origin`).

With bleed, each counter image is carried ``bleed`` beyond its edge on every side (so a cut a
hair off the line shows no white) and the pitch grows by twice the bleed; cut lines stay at the
counter's true edge. The counters are drawn as vector graphics (issue 18 §7: boxes and symbol
outlines as paths, values as text in the embedded fonts, sharp on a 1200 dpi laser) from
:func:`referee.render.counters.face_art`, the same model the VASSAL module's images are
rasterised from; only a roster picture stays an image, at the art's resolution.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from referee.errors import UserError
from referee.render.counters import FaceArt, blank_art, face_art
from referee.render.drawing import Circle, Drawing, Line, Rect, Text, transformed
from referee.source.model import Module, UnitDef

PAPERS: dict[str, tuple[float, float]] = {
    "letter": (612.0, 792.0),
    "a4": (595.2756, 841.8898),  # 210 x 297 mm
}
MARGIN_PT = 36.0  # 0.5 in: printable on any home printer
MARK_BAND_PT = 18.0  # room for crop marks round the grid
HEADER_PT = 16.0
FOOTER_PT = 12.0
CROP_GAP_PT = 3.0
CROP_LEN_PT = 12.0
CUT_LINE = "#8A8A8A"


def paper_size(name: str) -> tuple[float, float]:
    key = name.strip().lower()
    if key not in PAPERS:
        raise UserError(f"unknown paper size {name!r}", hint="use letter or a4")
    return PAPERS[key]


_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*(in|mm|pt|cm)?\s*$")


def parse_length_in(spec: str) -> float:
    """A length such as ``0.0625in``, ``1.5mm``, ``4.5pt`` (inches when no unit), in inches."""
    m = _LENGTH.match(spec or "")
    if not m:
        raise UserError(f"not a length: {spec!r}", hint="write e.g. 0.0625in, 1.5mm or 4.5pt")
    value = float(m.group(1))
    unit = m.group(2) or "in"
    inches = value * {"in": 1.0, "mm": 1 / 25.4, "cm": 1 / 2.54, "pt": 1 / 72.0}[unit]
    if inches > 0.25:
        raise UserError(
            f"bleed {spec!r} is more than 0.25 in", hint="a bleed is usually 1/16 in (0.0625in)"
        )
    return inches


@dataclass(frozen=True, slots=True)
class SheetGeometry:
    """Where counters go on a page, in points from the page's top-left corner (y down)."""

    paper: str
    page_w: float
    page_h: float
    counter_pt: float
    bleed_pt: float
    columns: int
    rows: int
    grid_x: float  # left edge of the first cell (bleed included)
    grid_y: float  # top edge of the first row (bleed included)

    @property
    def pitch(self) -> float:
        return self.counter_pt + 2 * self.bleed_pt

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def grid_w(self) -> float:
        return self.columns * self.pitch

    @property
    def grid_h(self) -> float:
        return self.rows * self.pitch

    def front_origin(self, slot: int) -> tuple[float, float]:
        """Top-left of the counter's true edge in slot ``slot`` (row by row) of a front page."""
        row, col = divmod(slot, self.columns)
        return (
            self.grid_x + col * self.pitch + self.bleed_pt,
            self.grid_y + row * self.pitch + self.bleed_pt,
        )

    def back_origin(self, slot: int) -> tuple[float, float]:
        """Where the back of slot ``slot`` goes on the back page: mirrored about the page's
        vertical centre line, so long-edge duplex lands it behind its front."""
        x, y = self.front_origin(slot)
        return self.page_w - x - self.counter_pt, y

    def bleed_box(self, rows: int) -> tuple[float, float, float, float]:
        """The counter grid of ``rows`` rows with its bleed: what a print shop prints to."""
        return (self.grid_x, self.grid_y, self.grid_w, rows * self.pitch)

    def trim_box(self, rows: int) -> tuple[float, float, float, float]:
        """The outer cut lines of ``rows`` rows: the finished counters' extent (the PDF's
        TrimBox). Cuts between counters lie inside it."""
        b = self.bleed_pt
        return (self.grid_x + b, self.grid_y + b, self.grid_w - 2 * b, rows * self.pitch - 2 * b)

    def cut_positions(self) -> tuple[list[float], list[float]]:
        """x and y of every cut line (the counters' true edges), sorted, de-duplicated."""
        xs: set[float] = set()
        ys: set[float] = set()
        for c in range(self.columns):
            x = self.grid_x + c * self.pitch + self.bleed_pt
            xs.update((round(x, 6), round(x + self.counter_pt, 6)))
        for r in range(self.rows):
            y = self.grid_y + r * self.pitch + self.bleed_pt
            ys.update((round(y, 6), round(y + self.counter_pt, 6)))
        return sorted(xs), sorted(ys)


def sheet_geometry(
    paper: str, counter_in: float, bleed_in: float = 0.0, dpi: int = 300
) -> SheetGeometry:
    """The grid for counters of ``counter_in`` with ``bleed_in`` on ``paper``.

    The bleed is rounded to whole pixels of the counter images (at ``dpi``) so the printed
    bleed and the image agree exactly. Raises a UserError when not one counter fits.
    """
    page_w, page_h = paper_size(paper)
    counter_pt = counter_in * 72.0
    bleed_pt = round(bleed_in * dpi) * 72.0 / dpi
    pitch = counter_pt + 2 * bleed_pt
    avail_w = page_w - 2 * (MARGIN_PT + MARK_BAND_PT)
    avail_h = page_h - 2 * (MARGIN_PT + MARK_BAND_PT) - HEADER_PT - FOOTER_PT
    cols = math.floor(avail_w / pitch + 1e-9)
    rows = math.floor(avail_h / pitch + 1e-9)
    if cols < 1 or rows < 1:
        raise UserError(
            f"a {counter_in:g} in counter (plus {2 * bleed_in:g} in bleed) does not fit the "
            f"printable area of {paper} paper ({avail_w / 72:.2f} x {avail_h / 72:.2f} in "
            "inside the margins and crop marks)",
            hint="use larger paper, a smaller counter.size_in or less bleed",
        )
    grid_x = (page_w - cols * pitch) / 2
    grid_y = MARGIN_PT + HEADER_PT + MARK_BAND_PT
    return SheetGeometry(paper, page_w, page_h, counter_pt, bleed_pt, cols, rows, grid_x, grid_y)


def sheet_pieces(module: Module) -> list[tuple[str, UnitDef]]:
    """Every physical counter in roster order: the counter mix (``unit.count`` copies)."""
    return [(pid, u) for u in module.units for pid in u.piece_ids]


def has_backs(module: Module) -> bool:
    return any(u.has_back for u in module.units)


# ---- marks --------------------------------------------------------------------------------------
def _cut_and_crop(geo: SheetGeometry, rows: int | None = None) -> list[Line]:
    """Cut lines over the first ``rows`` rows (default all) and crop marks round them."""
    used = geo.rows if rows is None else max(1, min(rows, geo.rows))
    xs, ys = geo.cut_positions()
    x0, x1 = geo.grid_x, geo.grid_x + geo.grid_w
    y0, y1 = geo.grid_y, geo.grid_y + used * geo.pitch
    ys = [y for y in ys if y <= y1 + 1e-6]
    out: list[Line] = []
    for x in xs:
        out.append(Line(((x, y0), (x, y1)), CUT_LINE, 0.25))
    for y in ys:
        out.append(Line(((x0, y), (x1, y)), CUT_LINE, 0.25))
    g, n = CROP_GAP_PT, CROP_LEN_PT
    for x in xs:
        out.append(Line(((x, y0 - g - n), (x, y0 - g)), "#000000", 0.4))
        out.append(Line(((x, y1 + g), (x, y1 + g + n)), "#000000", 0.4))
    for y in ys:
        out.append(Line(((x0 - g - n, y), (x0 - g, y)), "#000000", 0.4))
        out.append(Line(((x1 + g, y), (x1 + g + n, y)), "#000000", 0.4))
    return out


def registration_marks(page_w: float, page_h: float) -> list[Circle | Line]:
    """Target marks in the four corners of the printable area; symmetric about the vertical
    centre line, so the front's and the back's coincide when the sheet is held to the light."""
    out: list[Circle | Line] = []
    r = 4.5
    for cx in (MARGIN_PT + 7, page_w - MARGIN_PT - 7):
        for cy in (MARGIN_PT + 7, page_h - MARGIN_PT - 7):
            out.append(Circle(cx, cy, r, None, "#000000", 0.4))
            out.append(Line(((cx - r - 2.5, cy), (cx + r + 2.5, cy)), "#000000", 0.4))
            out.append(Line(((cx, cy - r - 2.5), (cx, cy + r + 2.5)), "#000000", 0.4))
    return out


def _header(geo: SheetGeometry, text: str, note: str) -> list[Text]:
    y = MARGIN_PT + 11
    return [
        Text(MARGIN_PT + 18, y, text, "bold", 9, "#000000"),
        Text(geo.page_w - MARGIN_PT - 18, y, note, "regular", 7, "#333333", "end"),
        Text(
            geo.page_w / 2,
            geo.page_h - MARGIN_PT - 2,
            "Print at 100 % (actual size, no scaling). Double-sided: flip on the long edge.",
            "regular",
            6.5,
            "#333333",
            "middle",
        ),
    ]


# ---- pages -------------------------------------------------------------------------------------
FaceArts = Callable[[UnitDef, bool], FaceArt]


def face_arts(module: Module, bleed_px: int, picture_dpi: int | None = None) -> FaceArts:
    """A memoised face model: ``(unit, back)`` -> its :class:`FaceArt` with ``bleed_px``
    bleed, laid out on the module's ``counter.dpi`` grid as the VASSAL images are, roster
    pictures at ``picture_dpi`` (a single-sided counter's back is its plain
    :func:`blank_art`)."""
    cache: dict[tuple[str, bool], FaceArt] = {}

    def get(unit: UnitDef, back: bool) -> FaceArt:
        key = (unit.id, back)
        if key not in cache:
            if back and not unit.has_back:
                cache[key] = blank_art(module, unit, bleed_px=bleed_px)
            else:
                cache[key] = face_art(module, unit, back, None, bleed_px, picture_dpi=picture_dpi)
        return cache[key]

    return get


def counter_pages(
    module: Module,
    geo: SheetGeometry,
    faces: FaceArts,
    *,
    progress: Callable[[int], None] | None = None,
    picture_dpi: int | None = None,
) -> list[Drawing]:
    """Front pages, each followed by its back page when any counter has a back face (the
    legend's samples show roster pictures at ``picture_dpi``, as ``faces`` does)."""
    pieces = sheet_pieces(module)
    backs = has_backs(module)
    pages: list[Drawing] = []
    n_sheets = max(1, math.ceil(len(pieces) / geo.per_page))
    for sheet in range(n_sheets):
        chunk = pieces[sheet * geo.per_page : (sheet + 1) * geo.per_page]
        sides = [False, True] if backs else [False]
        rows = math.ceil(len(chunk) / geo.columns)
        for back in sides:
            page = Drawing(
                geo.page_w, geo.page_h, trim=geo.trim_box(rows), bleed=geo.bleed_box(rows)
            )
            for slot, (_pid, unit) in enumerate(chunk):
                art = faces(unit, back)
                x, y = geo.back_origin(slot) if back else geo.front_origin(slot)
                b = geo.bleed_pt
                scale = (geo.counter_pt + 2 * b) / art.size_px
                page.extend(transformed(art.items, x - b, y - b, scale))
                if progress is not None:
                    progress(1)
            page.extend(_cut_and_crop(geo, rows))
            page.extend(registration_marks(geo.page_w, geo.page_h))
            title = (
                f"{module.name} {module.version}: counters, sheet {sheet + 1} of {n_sheets}, "
                + ("back" if back else "front")
            )
            note = f"{len(chunk)} counters, {module.counter.size_in:g} in" + (
                f", bleed {geo.bleed_pt / 72:.4g} in" if geo.bleed_pt else ""
            )
            page.extend(_header(geo, title, note))
            pages.append(page)
    _add_legend(module, geo, pages, pieces, picture_dpi)
    return pages


def _add_legend(
    module: Module,
    geo: SheetGeometry,
    pages: list[Drawing],
    pieces: list[tuple[str, UnitDef]],
    picture_dpi: int | None = None,
) -> None:
    """The counter legend (:mod:`referee.render.counter_legend`) below the counters of the
    last front page when it fits there, else on a page of its own at the end."""
    from referee.render.counter_legend import legend_height, legend_items

    if not pieces:
        return
    backs = has_backs(module)
    last_front = len(pages) - (2 if backs else 1)
    on_last = len(pieces) - (math.ceil(len(pieces) / geo.per_page) - 1) * geo.per_page
    used_rows = math.ceil(on_last / geo.columns)
    top = geo.grid_y + used_rows * geo.pitch + CROP_GAP_PT + CROP_LEN_PT + 8
    room = geo.page_h - MARGIN_PT - FOOTER_PT - top
    width = geo.grid_w
    if legend_height(module, width) <= room:
        pages[last_front].extend(
            legend_items(module, geo.grid_x, top, width, picture_dpi=picture_dpi)
        )
        return
    page = Drawing(geo.page_w, geo.page_h)
    page.extend(registration_marks(geo.page_w, geo.page_h))
    page.extend(_header(geo, f"{module.name} {module.version}: counter legend", ""))
    page.extend(legend_items(module, geo.grid_x, geo.grid_y, width, 3.0, picture_dpi))
    pages.append(page)


def alignment_pages(module: Module, geo: SheetGeometry) -> list[Drawing]:
    """One sheet (front and back) to check scaling and duplex alignment before printing
    counters: a ruler, a 1-inch square, and counter-sized squares with crosshairs on both
    sides; held to the light, the back's crosshairs must sit on the front's."""
    pages = []
    for back in (False, True):
        page = Drawing(geo.page_w, geo.page_h)
        slots = min(geo.per_page, geo.columns * min(geo.rows, 3))
        for slot in range(slots):
            x, y = geo.back_origin(slot) if back else geo.front_origin(slot)
            s = geo.counter_pt
            page.add(Rect(x, y, s, s, None, "#000000", 0.3))
            page.add(Line(((x + s / 2, y + 2), (x + s / 2, y + s - 2)), "#000000", 0.3))
            page.add(Line(((x + 2, y + s / 2), (x + s - 2, y + s / 2)), "#000000", 0.3))
        page.extend(_cut_and_crop(geo, math.ceil(slots / geo.columns)))
        page.extend(registration_marks(geo.page_w, geo.page_h))
        side = "back" if back else "front"
        page.extend(_header(geo, f"{module.name}: printer alignment test ({side})", geo.paper))
        top = geo.grid_y + 3 * geo.pitch + 40
        if not back:
            page.extend(_ruler(geo.page_w / 2 - 144, top))
            page.add(Rect(geo.page_w / 2 - 36, top + 60, 72, 72, None, "#000000", 0.5))
            page.add(
                Text(
                    geo.page_w / 2,
                    top + 150,
                    "This square must measure exactly 1 in (25.4 mm) on each side.",
                    "regular",
                    8,
                    "#000000",
                    "middle",
                )
            )
            lines = [
                f"Each square above is one {module.counter.size_in:g} in counter "
                f"({geo.counter_pt:g} pt).",
                "Print double-sided, flip on the long edge; hold the sheet to the light:",
                "the crosshairs on the back must sit on those on the front.",
            ]
            for i, line in enumerate(lines):
                page.add(
                    Text(
                        geo.page_w / 2, top + 168 + 11 * i, line, "regular", 8, "#000000", "middle"
                    )
                )
        pages.append(page)
    return pages


def _ruler(x: float, y: float) -> list[Rect | Line | Text]:
    """A 4-inch ruler with quarter-inch ticks above and centimetre ticks below."""
    out: list[Rect | Line | Text] = [Rect(x, y, 288, 24, None, "#000000", 0.5)]
    for i in range(17):
        tx = x + i * 18
        tall = 10 if i % 4 == 0 else 5
        out.append(Line(((tx, y), (tx, y + tall)), "#000000", 0.4))
        if i % 4 == 0:
            out.append(Text(tx, y - 2, f"{i // 4} in", "regular", 6, "#000000", "middle"))
    cm = 72 / 2.54
    for i in range(11):
        tx = x + i * cm
        out.append(Line(((tx, y + 24), (tx, y + 16)), "#000000", 0.4))
        out.append(Text(tx, y + 32, f"{i}", "regular", 6, "#000000", "middle"))
    out.append(Text(x + 288 + 4, y + 32, "cm", "regular", 6, "#000000"))
    return out


def bleed_pixels(module: Module, bleed_in: float) -> int:
    return round(bleed_in * module.counter.dpi)
