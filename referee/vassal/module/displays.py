"""The game's displays as VASSAL map windows: a ship's system tracks, a battle display, a
side's boxes (``RulesetSchema.displays``).

Each display is one board of labelled boxes, drawn like the holding-box board, with one Zone
per box, so a counter put in a box reports the box's name as its location (a track marker on
"Hull 9", a warship in the "Soviet Outer Zone").
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.source.schema import DisplayDecl
from referee.vassal.module.artwork import HoldingBox, HoldingLayout

__all__ = ["DisplayPlan", "display_image", "display_layout"]


@dataclass(frozen=True, slots=True)
class DisplayPlan:
    """One display's map window: its declaration, its box layout and its board image."""

    decl: DisplayDecl
    layout: HoldingLayout
    image: str


def display_image(decl: DisplayDecl) -> str:
    """The board image's file name: ``display_ship_display.png``."""
    slug = "".join(c if c.isalnum() else "_" for c in decl.name.lower())
    return f"display_{slug}.png"


def display_layout(decl: DisplayDecl, counter_px: int) -> HoldingLayout:
    """Rows of boxes, left to right, top to bottom; each box ``across`` x ``down`` counters
    with a title band above it naming the box."""
    pad = max(6, counter_px // 5)
    band = max(16, counter_px // 3)
    title_h = band + pad
    boxes: list[HoldingBox] = []
    y = title_h + pad + band
    width = 7 * counter_px
    for row in decl.rows:
        w = row.across * counter_px + (row.across + 1) * pad
        h = row.down * counter_px + (row.down + 1) * pad
        x = pad
        for name in row.boxes:
            boxes.append(HoldingBox(name, name, name, (x, y, x + w, y + h)))
            x += w + pad
        width = max(width, x)
        y += h + band + pad
    return HoldingLayout(width, y - band, title_h, band, tuple(boxes))
