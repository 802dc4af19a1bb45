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
    "DEFAULT_BAND",
    "HOLDING_CAPACITY",
    "Band",
    "HoldingBox",
    "HoldingLayout",
    "about_png",
    "attacked_overlay_png",
    "holding_board_png",
    "holding_layout",
    "level_badge_png",
    "level_counter_png",
    "marker_png",
    "moved_marker_png",
    "returning_overlay_png",
    "status_band",
    "tag_overlay_png",
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


Band = tuple[float, float, float, float]
"""Where a counter's status marks go, as fractions of its side (x0, y0, x1, y1): the box its
picture takes on every counter layout (``status_band``), so no mark hides a printed value."""

DEFAULT_BAND: Final[Band] = (0.08, 0.32, 0.68, 0.59)


def status_band(boxes: Sequence[Band]) -> Band:
    """The part every layout's picture box (x0, y0, x1, y1) shares: a status mark drawn there
    covers a silhouette on every counter, never its id, nationality or values (issue 27)."""
    if not boxes:
        return DEFAULT_BAND
    band = (max(b[0] for b in boxes), max(b[1] for b in boxes),
            min(b[2] for b in boxes), min(b[3] for b in boxes))  # fmt: skip
    return band if band[2] - band[0] > 0.3 and band[3] - band[1] > 0.15 else DEFAULT_BAND


def _band_px(side: int, band: Band) -> tuple[int, int, int, int, int]:
    """The band in pixels, and the y where its upper half (Detected, damage) ends and its
    lower half (Attacked) begins."""
    x0, y0, x1, y1 = (round(v * side) for v in band)
    return x0, y0, x1, y1, (y0 + y1) // 2


def attacked_overlay_png(side: int, band: Band = DEFAULT_BAND) -> bytes:
    """Layer image for a unit attacked this Combat Phase [7.44]: a thin red frame and a red
    tag on the lower half of the picture band, clear of every printed value."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    red = (*parse_color("#D01818"), 255)
    w = max(2, side // 32)
    draw.rectangle((0, 0, side - 1, side - 1), outline=red, width=w)
    x0, _, x1, y1, mid = _band_px(side, band)
    draw.rectangle((x0, mid + 1, x1, y1), fill=red)
    _centred_text(draw, "ATTACKED", (x0 + 1, mid + 2, x1 - 1, y1 - 1), "#FFFFFF")
    return png_bytes(img)


def tag_overlay_png(side: int, text: str, fill: str, band: Band = DEFAULT_BAND) -> bytes:
    """Layer image of a ruleset-declared unit marker: a coloured frame inside the Attacked
    frame and a tag on the upper left of the picture band (Attacked takes the lower half,
    a damage badge the upper right), so every marker of a counter shows at once and none
    hides a printed value."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    colour = (*parse_color(fill), 255)
    w = max(2, side // 32)
    draw.rectangle((w, w, side - 1 - w, side - 1 - w), outline=colour, width=w)
    x0, y0, x1, _, mid = _band_px(side, band)
    split = x0 + round((x1 - x0) * 0.58)
    draw.rectangle((x0, y0, split, mid), fill=colour, outline=(255, 255, 255, 255))
    word = text.split(" (")[0].upper()  # "Detected (surface)": the frame says which
    if _fit_font(word, "bold", split - x0 - 4, mid - y0 - 3)[0] < 6:
        word = word[:3]  # "DET": legible at 100 %; the stack viewer names the layer in full
    _centred_text(draw, word, (x0 + 2, y0 + 2, split - 2, mid - 1), "#FFFFFF")
    return png_bytes(img)


def level_badge_png(side: int, text: str, fill: str, band: Band = DEFAULT_BAND) -> bytes:
    """Layer image of one value of a unit marker with levels (``D3`` [DTP 8.54]): a badge on
    the upper right of the picture band, beside a Detected tag and above the Attacked one,
    so every marker of a counter shows at once and none hides a printed value."""
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    colour = (*parse_color(fill), 255)
    x0, y0, x1, _, mid = _band_px(side, band)
    split = x0 + round((x1 - x0) * 0.58) + 1
    draw.rectangle((split, y0, x1, mid), fill=colour, outline=(255, 255, 255, 255))
    _centred_text(draw, text, (split + 1, y0 + 1, x1 - 1, mid - 1), "#FFFFFF")
    return png_bytes(img)


def level_counter_png(side: int, title: str, value: str, fill: str) -> bytes:
    """One value of a place's marker with levels (a port's capacity left [26.25]): a whole
    marker counter, the value large under a small title, drawn over the marker's face."""
    img = Image.new("RGB", (side, side), parse_color(PAPER))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, side - 1, side - 1), outline=parse_color(fill), width=max(2, side // 16))
    _centred_text(draw, title.upper(), (4, side * 0.08, side - 4, side * 0.3), fill)
    _centred_text(draw, value, (4, side * 0.36, side - 4, side * 0.88), INK)
    return png_bytes(img)


def moved_marker_png(size: int) -> bytes:
    """The small "moved" flag VASSAL draws on a counter that moved (mark moved)."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, size - 1, size - 1), fill=(*parse_color("#F2C200"), 255),
                 outline=(*parse_color(INK), 255), width=max(1, size // 12))  # fmt: skip
    _centred_text(draw, "M", (size * 0.2, size * 0.2, size * 0.8, size * 0.8), INK)
    return png_bytes(img)


def about_png(title: str, lines: Sequence[str], width: int = 640) -> bytes:
    """The About screen: the module's name large, then a few lines of facts."""
    line_h = width // 22
    height = width // 6 + line_h * (len(lines) + 1)
    img = Image.new("RGB", (width, height), parse_color(PAPER))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, width - 1, height - 1), outline=parse_color(INK), width=3)
    _centred_text(draw, title, (16, 12, width - 16, width // 8), INK)
    y = width // 6
    for line in lines:
        _centred_text(draw, line, (16, y, width - 16, y + line_h * 0.8), INK, "regular")
        y += line_h
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


def holding_layout(
    carriers: Sequence[tuple[str, str]],
    counter_px: int,
    *,
    zone_format: str = "Holding box {}",
    across: int = 3,
    down: int = 2,
) -> HoldingLayout:
    """Place one box per carrier ``(piece_id, title)``, three boxes to a row.

    A box is sized for its six air units [9.62B] laid out three by two (``across`` by
    ``down`` counters for other boxes, such as a side's dead pile), with a title band.
    """
    pad = max(8, counter_px // 4)
    band = max(18, counter_px // 2)
    inner_w = across * counter_px + (across + 1) * pad
    inner_h = down * counter_px + (down + 1) * pad
    per_row = min(3, max(1, len(carriers)))
    title_h = band + pad
    boxes: list[HoldingBox] = []
    for i, (pid, title) in enumerate(carriers):
        col, row = i % per_row, i // per_row
        x0 = pad + col * (inner_w + pad)
        y0 = title_h + pad + row * (inner_h + band + pad) + band
        boxes.append(
            HoldingBox(pid, title, zone_format.format(pid), (x0, y0, x0 + inner_w, y0 + inner_h))
        )
    rows = (len(carriers) + per_row - 1) // per_row
    width = max(pad + per_row * (inner_w + pad), 7 * counter_px)  # room for the title line
    height = title_h + pad + rows * (inner_h + band + pad)
    return HoldingLayout(width, height, title_h, band, tuple(boxes))


def holding_board_png(layout: HoldingLayout, title: str | None = None) -> bytes:
    """The holding-box board: a title, and a labelled frame for each box (also drawn for
    the Eliminated map's dead piles, with their own ``title``)."""
    img = Image.new("RGB", (layout.width, layout.height), parse_color(PAPER))
    draw = ImageDraw.Draw(img)
    ink = parse_color(INK)
    _centred_text(
        draw,
        title or f"Carrier holding boxes: at most {HOLDING_CAPACITY} air units each [9.62B]",
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
