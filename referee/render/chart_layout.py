"""The print style of every chart: the page widths and type sizes, text measuring and
wrapping, and :class:`Builder`, which lays a chart out top to bottom (title, headings,
paragraphs, ruled tables with fitted column widths) as a :class:`~referee.render.drawing.Drawing`.
Every text cell is measured with the embedded font's metrics and recorded as a
:class:`CellFit`, so tests can check nothing overflows. The charts themselves, made from
module data, are :mod:`referee.render.charts` and :mod:`referee.render.tablechart`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from referee.render.drawing import Drawing, Rect, Text
from referee.render.fonts import text_width_pt

MAX_WIDTH = 540.0  # 7.5 in: the printable width of letter and A4 with 0.5 in margins
MIN_WIDTH = 360.0
MARGIN = 10.0
BODY = 8.0
SMALL = 6.8
MIN_BODY = 6.0
PAD_X = 4.0
PAD_Y = 2.6
LEADING = 1.22
HEADER_FILL = "#D4D4D4"
STRIPE = "#F0F0F0"
NIGHT_FILL = "#A8A8A8"
BLACK = "#000000"
DASH = "\u2013"  # en dash: may not enter / no value
MINUS = "\u2212"


@dataclass(frozen=True, slots=True)
class CellFit:
    """A measured text cell: ``text_w`` of the longest line against the room in its box."""

    chart: str
    where: str
    text: str
    text_w: float
    room_w: float
    text_h: float
    room_h: float

    @property
    def fits(self) -> bool:
        return self.text_w <= self.room_w + 1e-6 and self.text_h <= self.room_h + 1e-6


@dataclass(slots=True)
class Chart:
    name: str
    title: str
    drawing: Drawing
    cells: list[CellFit] = field(default_factory=list)


# ---- text measuring and wrapping ---------------------------------------------------------------
def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to ``width`` points. A word may also break after a slash
    ("Yugoslav/Albanian"); a piece longer than the line stays whole, and the cell is then
    reported as not fitting."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            for k, piece in enumerate(_word_pieces(word)):
                sep = "" if k else " "
                trial = f"{line}{sep}{piece}" if line else piece
                if not line or text_width_pt(trial, font, size) <= width:
                    line = trial
                else:
                    out.append(line)
                    line = piece
        out.append(line)
    return out


def _word_pieces(word: str) -> list[str]:
    """``word`` split after each slash that has a letter after it."""
    return re.split(r"(?<=/)(?=\w)", word)


@dataclass(slots=True)
class Column:
    header: str
    align: str = "center"  # left | center | right
    wrap: bool = False
    max_w: float = 200.0
    font: str = "regular"
    swatch: bool = False


class Builder:
    """Lays a chart out top to bottom at a cursor ``y``."""

    def __init__(self, name: str, title: str, width: float) -> None:
        self.name = name
        self.title = title
        self.width = width
        self.items: list[Any] = []
        self.cells: list[CellFit] = []
        self.y = 0.0

    @property
    def inner(self) -> float:
        return self.width - 2 * MARGIN

    def title_band(self, text: str) -> None:
        """The black title band; a long title is set smaller (down to 7 pt), never clipped."""
        h = 22.0
        room = self.width - 2 * MARGIN
        size = 11.5
        natural = text_width_pt(text, "bold", size)
        if natural > room:
            size = max(7.0, math.floor(size * room / natural * 10) / 10)
        self.items.append(Rect(0, 0, self.width, h, BLACK))
        self.items.append(Text(MARGIN, 11 + size * 0.36, text, "bold", size, "#FFFFFF"))
        self._fit("title", text, "bold", size, room, h)
        self.y = h + 8

    def heading(self, text: str) -> None:
        self.y += 4
        self.items.append(Text(MARGIN, self.y + 9, text, "bold", 9.0, BLACK))
        self._fit("heading", text, "bold", 9.0, self.inner, 12)
        self.y += 13

    def paragraph(
        self, text: str, size: float = BODY, font: str = "regular", indent: float = 0.0
    ) -> None:
        width = self.inner - indent
        for line in wrap(text, font, size, width):
            self.items.append(Text(MARGIN + indent, self.y + size, line, font, size, BLACK))
            self._fit("paragraph", line, font, size, width, size * LEADING)
            self.y += size * LEADING
        self.y += 2

    def notes(self, notes: list[str]) -> None:
        for note in notes:
            self.paragraph(note, SMALL, indent=0)

    def _fit(
        self, where: str, text: str, font: str, size: float, room_w: float, room_h: float
    ) -> None:
        self.cells.append(
            CellFit(
                self.name, where, text, text_width_pt(text, font, size), room_w, size * 1.0, room_h
            )
        )

    def table(
        self,
        columns: list[Column],
        rows: list[list[str]],
        *,
        group: tuple[str, int, int] | None = None,
        swatches: list[str | None] | None = None,
        shade: set[int] | None = None,
        size: float = BODY,
    ) -> None:
        """A ruled table at the cursor: bold header (optionally a group header spanning
        columns ``group[1]..group[2]``), striped rows, wrapped text where a column says so."""
        widths = self._widths(columns, rows, size, swatches)
        total = sum(widths)
        if total > self.inner + 1e-6 and size > MIN_BODY:
            self.table(
                columns,
                rows,
                group=group,
                swatches=swatches,
                shade=shade,
                size=max(MIN_BODY, size - 0.5),
            )
            return
        x0 = (
            MARGIN + max(0.0, (self.inner - total) / 2)
            if not any(c.wrap for c in columns)
            else MARGIN
        )
        xs = [x0]
        for w in widths:
            xs.append(xs[-1] + w)
        hsize = size - 0.3
        lead = size * LEADING
        top = self.y
        if group is not None:
            text, a, b = group
            gh = hsize * LEADING + 2 * PAD_Y
            self.items.append(Rect(xs[a], self.y, xs[b + 1] - xs[a], gh, HEADER_FILL, BLACK, 0.5))
            cx = (xs[a] + xs[b + 1]) / 2
            self.items.append(
                Text(cx, self.y + PAD_Y + hsize, text, "bold", hsize, BLACK, "middle")
            )
            self._fit(f"group {text}", text, "bold", hsize, xs[b + 1] - xs[a] - 2 * PAD_X, gh)
            self.y += gh
        # header
        head_lines = [c.header.split("\n") for c in columns]
        hh = max(len(ls) for ls in head_lines) * hsize * LEADING + 2 * PAD_Y
        for i in range(len(columns)):
            self.items.append(Rect(xs[i], self.y, widths[i], hh, HEADER_FILL, BLACK, 0.5))
            lines = head_lines[i]
            y = self.y + PAD_Y + hsize + (hh - 2 * PAD_Y - len(lines) * hsize * LEADING) / 2
            for ln in lines:
                self._cell_text(xs[i], widths[i], y, ln, "bold", hsize, "center")
                self._fit(f"header {i}", ln, "bold", hsize, widths[i] - 2 * PAD_X, hh)
                y += hsize * LEADING
        self.y += hh
        # body
        for r, row in enumerate(rows):
            wrapped = []
            for i, c in enumerate(columns):
                room = widths[i] - 2 * PAD_X - (12.0 if c.swatch else 0.0)
                lines = wrap(row[i], c.font, size, room) if c.wrap else [row[i]]
                wrapped.append((lines, room))
            rh = max(len(ls) for ls, _ in wrapped) * lead + 2 * PAD_Y
            fill = NIGHT_FILL if shade and r in shade else (STRIPE if r % 2 else "#FFFFFF")
            for i, c in enumerate(columns):
                self.items.append(Rect(xs[i], self.y, widths[i], rh, fill, BLACK, 0.5))
                lines, room = wrapped[i]
                x = xs[i]
                w = widths[i]
                if c.swatch and swatches and swatches[r]:
                    self.items.append(
                        Rect(x + PAD_X, self.y + PAD_Y + 1, 9, 9, swatches[r], BLACK, 0.4)
                    )
                    x += 12.0
                    w -= 12.0
                y = self.y + PAD_Y + size * 0.95
                if not c.wrap:
                    y = self.y + (rh - size * LEADING) / 2 + size * 0.95
                for ln in lines:
                    self._cell_text(x, w, y, ln, c.font, size, c.align)
                    self._fit(f"row {r} col {i}", ln, c.font, size, room, rh)
                    y += lead
            self.y += rh
        # heavy outer rule
        self.items.append(Rect(xs[0], top, total, self.y - top, None, BLACK, 1.0))
        self.y += 6

    def _cell_text(
        self, x: float, w: float, y: float, text: str, font: str, size: float, align: str
    ) -> None:
        if align == "left":
            self.items.append(Text(x + PAD_X, y, text, font, size, BLACK, "start"))
        elif align == "right":
            self.items.append(Text(x + w - PAD_X, y, text, font, size, BLACK, "end"))
        else:
            self.items.append(Text(x + w / 2, y, text, font, size, BLACK, "middle"))

    def _widths(
        self,
        columns: list[Column],
        rows: list[list[str]],
        size: float,
        swatches: list[str | None] | None,
    ) -> list[float]:
        hsize = size - 0.3
        fixed: list[float] = []
        for i, c in enumerate(columns):
            head = max(text_width_pt(ln, "bold", hsize) for ln in c.header.split("\n"))
            extra = 12.0 if c.swatch else 0.0
            if c.wrap:
                fixed.append(0.0)
                continue
            body = max([text_width_pt(r[i], c.font, size) for r in rows] or [0.0])
            fixed.append(max(head, body + extra) + 2 * PAD_X + 2)
        room = self.inner - sum(fixed)
        wraps = [i for i, c in enumerate(columns) if c.wrap]
        out = list(fixed)
        # each wrapped column wants its natural width (capped at max_w); when they do not all
        # fit, the room is shared in proportion to what each wants, so a long Notes column
        # is not squeezed while a short Terrain column keeps space it does not need
        want: dict[int, float] = {}
        least: dict[int, float] = {}
        for i in wraps:
            c = columns[i]
            natural = max([text_width_pt(r[i], c.font, size) for r in rows] or [0.0])
            head = max(text_width_pt(ln, "bold", hsize) for ln in c.header.split("\n"))
            extra = 12.0 if c.swatch else 0.0
            want[i] = min(natural + extra + 2 * PAD_X + 2, c.max_w)
            longest_word = max(
                [
                    text_width_pt(piece, c.font, size)
                    for r in rows
                    for w in r[i].split()
                    for piece in _word_pieces(w)
                ]
                or [0.0]
            )
            least[i] = max(head + 2 * PAD_X + 2, 40.0 + extra, longest_word + extra + 2 * PAD_X + 2)
        if sum(max(want[i], least[i]) for i in wraps) <= room:
            for i in wraps:
                out[i] = max(want[i], least[i])
            return out
        # each gets its least, then the rest of the room in proportion to what it still wants
        spare = max(0.0, room - sum(least.values()))
        more = {i: max(0.0, want[i] - least[i]) for i in wraps}
        total = sum(more.values()) or 1.0
        for i in wraps:
            out[i] = least[i] + spare * more[i] / total
        return out

    def finish(self) -> Chart:
        height = self.y + MARGIN - 4
        d = Drawing(self.width, height)
        d.add(Rect(0, 0, self.width, height, "#FFFFFF", None))
        d.extend(self.items)
        d.add(Rect(0.5, 0.5, self.width - 1, height - 1, None, BLACK, 1.0))
        return Chart(self.name, self.title, d, self.cells)
