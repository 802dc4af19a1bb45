"""The module's own small pictures: status overlays, marker counters, the holding-box board.

Counter faces, the map and the charts come from :mod:`referee.render`; these are the extra
pictures only the VASSAL module needs. They are drawn with the shipped fonts and saved with
:func:`referee.render.counters.png_bytes`, so they are byte-identical on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from referee.render.colors import parse_color
from referee.render.counters import png_bytes
from referee.render.fonts import pil_font

__all__ = [
    "HOLDING_CAPACITY",
    "HoldingBox",
    "HoldingLayout",
    "attacked_overlay_png",
    "holding_board_png",
    "holding_layout",
    "marker_png",
    "returning_overlay_png",
]

HOLDING_CAPACITY: Final = 6
"""Air units one carrier holding box holds [9.62B]."""

INK: Final = "#1E2328"
PAPER: Final = "#F3EFE2"


def _fit_font(text: str, face: str, width: float, height: float) -> tuple[float, float]:
    """Largest font size (px) whose ink fits ``width`` x ``height``, and its ink width."""
    size = max(height, 4.0)
    while size > 4.0:
        box = pil_font(face, size).getbbox(text)
        if box[2] - box[0] <= width and box[3] - box[1] <= height:
            return size, box[2] - box[0]
        size -= 0.5
    box = pil_font(face, 4.0).getbbox(text)
    return 4.0, box[2] - box[0]


def _centred_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    rect: tuple[float, float, float, float],
    color: str,
    face: str = "bold",
) -> None:
    """Draw ``text`` as large as fits in ``rect`` (x0, y0, x1, y1), centred."""
    x0, y0, x1, y1 = rect
    size, _ = _fit_font(text, face, x1 - x0, y1 - y0)
    draw.text(
        ((x0 + x1) / 2, (y0 + y1) / 2),
        text,
        font=pil_font(face, size),
        fill=parse_color(color),
        anchor="mm",
    )


def attacked_overlay_png(side: int) -> bytes:
    """Layer image for a unit attacked this Combat Phase [7.44]: a red frame and tag."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    red = (*parse_color("#D01818"), 255)
    w = max(2, side // 16)
    draw.rectangle((0, 0, side - 1, side - 1), outline=red, width=w)
    tag_h = max(8, side // 4)
    draw.rectangle((0, side - tag_h, side - 1, side - 1), fill=red)
    _centred_text(draw, "ATTACKED", (w, side - tag_h + 1, side - w, side - 2), "#FFFFFF")
    return png_bytes(img)


def returning_overlay_png(side: int) -> bytes:
    """Layer image for an air unit without a printed back face: "inverted" [9.22]."""
    img = Image.new("RGBA", (side, side), (255, 255, 255, 215))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, side - 1, side - 1), outline=(*parse_color(INK), 255), width=1)
    _centred_text(draw, "RETURNING", (3, side * 0.3, side - 3, side * 0.55), INK)
    _centred_text(draw, "to base", (3, side * 0.58, side - 3, side * 0.75), INK, "regular")
    return png_bytes(img)


def marker_png(side: int, title: str, note: str, fill: str, ink: str) -> bytes:
    """A square marker counter: ``title`` large, ``note`` (the rule case) small."""
    img = Image.new("RGB", (side, side), parse_color(fill))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, side - 1, side - 1), outline=parse_color(ink), width=max(1, side // 40))
    _centred_text(draw, title, (3, side * 0.2, side - 3, side * 0.55), ink)
    _centred_text(draw, note, (3, side * 0.62, side - 3, side * 0.82), ink, "regular")
    return png_bytes(img)


# ---- carrier holding boxes [9.62B] ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HoldingBox:
    """One carrier's holding box on the holding-box board, in board pixels."""

    piece_id: str  # the CV counter's id, e.g. "US-CV-1"
    title: str  # "US-CV-1 Saratoga"
    zone: str  # the Zone name VASSAL reports as the location, e.g. "Holding box US-CV-1"
    rect: tuple[int, int, int, int]  # x0, y0, x1, y1 of the area pieces go in

    @property
    def centre(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.rect
        return (x0 + x1) // 2, (y0 + y1) // 2

    @property
    def path(self) -> str:
        """The Zone's ``path`` attribute: its four corners, ``x,y;x,y;...``."""
        x0, y0, x1, y1 = self.rect
        return f"{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}"


@dataclass(frozen=True, slots=True)
class HoldingLayout:
    width: int
    height: int
    title_height: int
    band: int  # height of each box's title band, drawn above its rect
    boxes: tuple[HoldingBox, ...]


def holding_layout(carriers: Sequence[tuple[str, str]], counter_px: int) -> HoldingLayout:
    """Place one box per carrier ``(piece_id, title)``, three boxes to a row.

    A box is sized for its six air units [9.62B] laid out three by two, with a title band.
    """
    pad = max(8, counter_px // 4)
    band = max(18, counter_px // 2)
    inner_w, inner_h = 3 * counter_px + 4 * pad, 2 * counter_px + 3 * pad
    per_row = min(3, max(1, len(carriers)))
    title_h = band + pad
    boxes: list[HoldingBox] = []
    for i, (pid, title) in enumerate(carriers):
        col, row = i % per_row, i // per_row
        x0 = pad + col * (inner_w + pad)
        y0 = title_h + pad + row * (inner_h + band + pad) + band
        boxes.append(
            HoldingBox(pid, title, f"Holding box {pid}", (x0, y0, x0 + inner_w, y0 + inner_h))
        )
    rows = (len(carriers) + per_row - 1) // per_row
    width = max(pad + per_row * (inner_w + pad), 7 * counter_px)  # room for the title line
    height = title_h + pad + rows * (inner_h + band + pad)
    return HoldingLayout(width, height, title_h, band, tuple(boxes))


def holding_board_png(layout: HoldingLayout) -> bytes:
    """The holding-box board: a title, and a labelled frame for each box."""
    img = Image.new("RGB", (layout.width, layout.height), parse_color(PAPER))
    draw = ImageDraw.Draw(img)
    ink = parse_color(INK)
    _centred_text(
        draw,
        f"Carrier holding boxes: at most {HOLDING_CAPACITY} air units each [9.62B]",
        (8, 4, layout.width - 8, layout.title_height - 4),
        INK,
    )
    for box in layout.boxes:
        x0, y0, x1, y1 = box.rect
        band = layout.band
        draw.rectangle((x0, y0 - band, x1, y1), outline=ink, width=2)
        draw.rectangle((x0, y0 - band, x1, y0), fill=ink)
        text_h = band * 0.6
        top = y0 - band / 2 - text_h / 2
        _centred_text(draw, box.title, (x0 + 4, top, x1 - 4, top + text_h), PAPER)
    return png_bytes(img)
