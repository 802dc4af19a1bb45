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
from collections.abc import Callable

from PIL import Image, ImageDraw

from referee.geo.classify import Classified, unmet
from referee.geo.fit import GridFit, offset_of
from referee.geo.landmask import LandMask
from referee.geo.projection import wrap_longitude
from referee.geo.spec import Expectation
from referee.hexgrid import HexGrid
from referee.render.fonts import pil_font

FILL = {"sea": (169, 204, 227), "coastal": (217, 232, 184), "land": (201, 183, 140)}
COAST = (70, 50, 30)
GRID = (120, 120, 120)
GRATICULE = (40, 90, 160)
ANCHOR = (200, 20, 20)
MARGIN = 24
COAST_STEP = 2  # pixels between coastline samples


def _margin(fit: GridFit, hex_px: int) -> float:
    """Room around the grid: enough to show an off-map anchor (and its label) too."""
    w, h = fit.grid.pixel_size()
    need = 0.0
    for r in fit.residuals:
        px, py = fit.page_of(r.anchor.lat, r.anchor.lon)
        need = max(need, -px, -py, px - w, py - h)
    return float(MARGIN + (math.ceil(need * hex_px) + 20 if need > 0 else 0))


def page_places(fit: GridFit, step: float = 0.5) -> list[tuple[float, float]]:
    """Places on a lattice over the whole page (hex width 1, plus a one-hex margin), for the
    land-mask band to cover everything the preview draws, even a map around a pole."""
    w, h = fit.grid.pixel_size()
    n_x, n_y = int((w + 2) / step) + 1, int((h + 2) / step) + 1
    return [
        fit.latlon_of(-1 + i * (w + 2) / n_x, -1 + j * (h + 2) / n_y)
        for j in range(n_y + 1)
        for i in range(n_x + 1)
    ]


def preview_png(
    fit: GridFit,
    classified: Classified,
    mask: LandMask,
    expectations: tuple[Expectation, ...] = (),
    hex_px: int = 40,
) -> bytes:
    """The preview image as PNG bytes (no metadata: byte-identical for the same inputs)."""
    margin = _margin(fit, hex_px)
    grid = fit.grid.scaled(float(hex_px), margin=margin)
    w, h = grid.pixel_size()
    footer = 22
    img = Image.new("RGB", (math.ceil(w), math.ceil(h) + footer), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for hex_id in grid.all_ids():
        draw.polygon(grid.corners(hex_id), fill=FILL[classified.terrain[hex_id]])

    def place(px: float, py: float) -> tuple[float, float]:
        return fit.latlon_of((px - margin) / hex_px, (py - margin) / hex_px)

    _coastline(draw, place, mask, grid, classified)
    _graticule(draw, fit, hex_px, margin)
    small = pil_font("regular", max(7, hex_px // 5))
    for hex_id in grid.all_ids():
        draw.polygon(grid.corners(hex_id), outline=GRID)
        cx, cy = grid.centre(hex_id)
        draw.text((cx, cy - hex_px * 0.28), hex_id, fill=(60, 60, 60), font=small, anchor="mm")
    for e, _ in unmet(fit, classified, expectations):
        draw.polygon(grid.corners(e.hex), outline=ANCHOR, width=3)
    label = pil_font("bold", max(8, hex_px // 4))
    for r in fit.residuals:
        px, py = fit.page_of(r.anchor.lat, r.anchor.lon)
        ax, ay = margin + px * hex_px, margin + py * hex_px
        cx, cy = grid.centre_of(*offset_of(grid, r.anchor.hex))
        draw.line([(cx, cy), (ax, ay)], fill=ANCHOR, width=2)
        draw.ellipse([ax - 4, ay - 4, ax + 4, ay + 4], fill=ANCHOR, outline=(255, 255, 255))
        if px > fit.grid.pixel_size()[0]:  # beyond the east edge: label to the left
            draw.text(
                (ax - 6, ay), r.anchor.name or r.anchor.hex, fill=ANCHOR, font=label, anchor="rm"
            )
        else:
            draw.text(
                (ax + 6, ay), r.anchor.name or r.anchor.hex, fill=ANCHOR, font=label, anchor="lm"
            )
    caption = (
        f"{fit.projection.kind} {fit.model} fit: hex {fit.hex_width_km():.1f} km "
        f"({fit.hex_width_nm():.1f} nm), north {fit.north_bearing():.1f} deg; "
        f"worst anchor {max((r.hexes for r in fit.residuals), default=0.0):.2f} hex"
    )
    draw.text((margin, h + 2), caption, fill=(0, 0, 0), font=pil_font("regular", 12))
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def _coastline(
    draw: ImageDraw.ImageDraw,
    place: Callable[[float, float], tuple[float, float]],
    mask: LandMask,
    grid: HexGrid,
    classified: Classified,
) -> None:
    """Dark pixels where land meets sea, sampled every few pixels inside the hexes whose sample
    points were neither all land nor all sea (elsewhere there is no coast to draw)."""
    s = COAST_STEP
    cells: set[tuple[int, int]] = set()
    for hex_id, f in classified.fraction.items():
        if 0.0 < f < 1.0:
            xs = [p[0] for p in grid.corners(hex_id)]
            ys = [p[1] for p in grid.corners(hex_id)]
            for cy in range(int(min(ys)) // s - 1, int(max(ys)) // s + 2):
                for cx in range(int(min(xs)) // s - 1, int(max(xs)) // s + 2):
                    cells.add((cx, cy))
    land = {c: mask.is_land(*place(c[0] * s + s / 2, c[1] * s + s / 2)) for c in sorted(cells)}
    for (cx, cy), here in land.items():
        right, below = land.get((cx + 1, cy), here), land.get((cx, cy + 1), here)
        if right != here or below != here:
            draw.rectangle([cx * s, cy * s, cx * s + s - 1, cy * s + s - 1], fill=COAST)


def graticule_step(span_degrees: float) -> float:
    """A round interval giving at most about six lines across ``span_degrees``."""
    for step in (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0):
        if span_degrees / step <= 6:
            return step
    return 45.0


def _graticule(draw: ImageDraw.ImageDraw, fit: GridFit, hex_px: int, margin: float) -> None:
    """Parallels and meridians at round intervals, as thin blue lines."""
    outline = page_places(fit, step=1.0)
    lon0 = fit.projection.lon0
    lats = [la for la, _ in outline]
    rel = [wrap_longitude(lo - lon0) for _, lo in outline]
    lat_step = graticule_step(max(lats) - min(lats))
    lon_step = graticule_step(max(rel) - min(rel))
    lat_lo = max(-85.0, math.floor(min(lats) / lat_step) * lat_step)
    lat_hi = min(85.0, math.ceil(max(lats) / lat_step) * lat_step)
    lon_lo = math.floor((lon0 + min(rel)) / lon_step) * lon_step
    lon_hi = math.ceil((lon0 + max(rel)) / lon_step) * lon_step

    def pix(lat: float, lon: float) -> tuple[float, float]:
        px, py = fit.page_of(lat, lon)
        return margin + px * hex_px, margin + py * hex_px

    n_lon = max(2, int((lon_hi - lon_lo) / lon_step * 40))
    n_lat = max(2, int((lat_hi - lat_lo) / lat_step * 40))
    for i in range(round((lat_hi - lat_lo) / lat_step) + 1):
        lat = lat_lo + i * lat_step
        pts = [pix(lat, lon_lo + k * (lon_hi - lon_lo) / n_lon) for k in range(n_lon + 1)]
        draw.line(pts, fill=GRATICULE, width=1)
    for i in range(round((lon_hi - lon_lo) / lon_step) + 1):
        lon = lon_lo + i * lon_step
        pts = [pix(lat_lo + k * (lat_hi - lat_lo) / n_lat, lon) for k in range(n_lat + 1)]
        draw.line(pts, fill=GRATICULE, width=1)
