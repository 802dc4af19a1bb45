"""The ``--png`` preview of ``referee map-from-geo``: does the fit put the land where it is?

Drawn on the hex grid: each hex filled with its classification, the real coastline from the
land mask traced over it at a few pixels' resolution, a latitude/longitude graticule, every
anchor as a red dot at the place the fit puts it joined to the centre of its hex, and every
unmet expectation outlined in red. A designer looks at it once and sees a wrong anchor (a
long red line) or a wrong orientation (the coast in the wrong place).
"""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw

from referee.geo.classify import Classified
from referee.geo.fit import GridFit
from referee.geo.landmask import LandMask
from referee.geo.projection import wrap_longitude
from referee.geo.spec import Expectation
from referee.render.fonts import pil_font

FILL = {"sea": (169, 204, 227), "coastal": (217, 232, 184), "land": (201, 183, 140)}
COAST = (70, 50, 30)
GRID = (120, 120, 120)
GRATICULE = (40, 90, 160)
ANCHOR = (200, 20, 20)
MARGIN = 24
COAST_STEP = 2  # pixels between coastline samples


def page_outline(fit: GridFit, step: float = 0.25) -> list[tuple[float, float]]:
    """Places along the edge of the page (hex width 1, plus a one-hex margin), for the land
    mask band to cover everything the preview draws."""
    w, h = fit.grid.pixel_size()
    out = []
    n_x, n_y = int((w + 2) / step) + 1, int((h + 2) / step) + 1
    for i in range(n_x + 1):
        x = -1 + i * (w + 2) / n_x
        out += [fit.latlon_of(x, -1), fit.latlon_of(x, h + 1)]
    for j in range(n_y + 1):
        y = -1 + j * (h + 2) / n_y
        out += [fit.latlon_of(-1, y), fit.latlon_of(w + 1, y)]
    return out


def preview_png(
    fit: GridFit,
    classified: Classified,
    mask: LandMask,
    expectations: tuple[Expectation, ...] = (),
    hex_px: int = 40,
) -> bytes:
    """The preview image as PNG bytes (no metadata: byte-identical for the same inputs)."""
    grid = fit.grid.scaled(float(hex_px), margin=MARGIN)
    w, h = grid.pixel_size()
    footer = 22
    img = Image.new("RGB", (math.ceil(w), math.ceil(h) + footer), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for hex_id in grid.all_ids():
        draw.polygon(grid.corners(hex_id), fill=FILL[classified.terrain[hex_id]])

    def place(px: float, py: float) -> tuple[float, float]:
        return fit.latlon_of((px - MARGIN) / hex_px, (py - MARGIN) / hex_px)

    _coastline(draw, place, mask, int(w), int(h))
    _graticule(draw, fit, hex_px)
    small = pil_font("regular", max(7, hex_px // 5))
    for hex_id in grid.all_ids():
        draw.polygon(grid.corners(hex_id), outline=GRID)
        cx, cy = grid.centre(hex_id)
        draw.text((cx, cy - hex_px * 0.28), hex_id, fill=(60, 60, 60), font=small, anchor="mm")
    for e in expectations:
        if classified.terrain[e.hex] != e.terrain:
            draw.polygon(grid.corners(e.hex), outline=ANCHOR, width=3)
    label = pil_font("bold", max(8, hex_px // 4))
    for r in fit.residuals:
        px, py = fit.page_of(r.anchor.lat, r.anchor.lon)
        ax, ay = MARGIN + px * hex_px, MARGIN + py * hex_px
        cx, cy = grid.centre(r.anchor.hex)
        draw.line([(cx, cy), (ax, ay)], fill=ANCHOR, width=2)
        draw.ellipse([ax - 4, ay - 4, ax + 4, ay + 4], fill=ANCHOR, outline=(255, 255, 255))
        draw.text((ax + 6, ay), r.anchor.name or r.anchor.hex, fill=ANCHOR, font=label, anchor="lm")
    caption = (
        f"{fit.projection.kind} {fit.model} fit: hex {fit.hex_width_km():.1f} km "
        f"({fit.hex_width_nm():.1f} nm), north {fit.north_bearing():.1f} deg; "
        f"worst anchor {max((r.hexes for r in fit.residuals), default=0.0):.2f} hex"
    )
    draw.text((MARGIN, h + 2), caption, fill=(0, 0, 0), font=pil_font("regular", 12))
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def _coastline(draw: ImageDraw.ImageDraw, place, mask: LandMask, w: int, h: int) -> None:
    """Dark pixels where land meets sea, sampled every few pixels."""
    s = COAST_STEP
    xs = range(0, w, s)
    prev: list[bool] | None = None
    for y in range(0, h, s):
        row = [mask.is_land(*place(x + s / 2, y + s / 2)) for x in xs]
        for i, x in enumerate(xs):
            edge = (i + 1 < len(row) and row[i] != row[i + 1]) or (
                prev is not None and prev[i] != row[i]
            )
            if edge:
                draw.rectangle([x, y, x + s - 1, y + s - 1], fill=COAST)
        prev = row


def _graticule(draw: ImageDraw.ImageDraw, fit: GridFit, hex_px: int) -> None:
    """Parallels every 5 degrees and meridians every 10 degrees, as thin lines."""
    outline = page_outline(fit, step=1.0)
    lon0 = fit.projection.lon0
    lats = [la for la, _ in outline]
    rel = [wrap_longitude(lo - lon0) for _, lo in outline]
    lat_lo, lat_hi = max(-85, math.floor(min(lats) / 5) * 5), min(85, math.ceil(max(lats) / 5) * 5)
    rel_lo, rel_hi = min(rel) - 10, max(rel) + 10

    def pix(lat: float, lon: float) -> tuple[float, float]:
        px, py = fit.page_of(lat, lon)
        return MARGIN + px * hex_px, MARGIN + py * hex_px

    for lat in range(lat_lo, lat_hi + 1, 5):
        pts = [pix(lat, lon0 + rel_lo + k * 0.5) for k in range(int((rel_hi - rel_lo) / 0.5) + 1)]
        draw.line(pts, fill=GRATICULE, width=1)
    first = math.ceil((lon0 + rel_lo) / 10) * 10
    for lon in range(first, math.floor(lon0 + rel_hi) + 1, 10):
        pts = [pix(lat_lo + k * 0.25, lon) for k in range(int((lat_hi - lat_lo) / 0.25) + 1)]
        draw.line(pts, fill=GRATICULE, width=1)
