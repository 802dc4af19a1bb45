"""``referee check --png``: the designer's art as the tool reads it, to look at before a build.

One picture, top to bottom:

* the **map picture** (``[board] image``) with the fitted hex grid drawn over it in red, every
  hex's id at its centre, and each anchor as a blue ring at the pixel the designer gave (a
  ring far from its hex's centre is a wrong anchor);
* every **counter sheet** (and every roster face picture), front and back side by side, each
  cut outlined in red with the roster id of the counter it makes, so a cut that misses shows
  as art running over the red line.

Each picture is shown at most :data:`PANEL_PX` wide, so the preview of a 300 dpi sheet stays
a few megabytes.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from referee.render.counters import png_bytes
from referee.render.fonts import pil_font
from referee.source.artfiles import open_picture
from referee.source.model import ArtCut, ArtFile, Module

PANEL_PX = 1400
GAP = 24
CUT = (220, 20, 20)
ANCHOR = (20, 60, 220)
LABEL_PX = 16


def _shrunk(img: Image.Image) -> tuple[Image.Image, float]:
    k = min(1.0, PANEL_PX / img.width)
    if k < 1.0:
        img = img.resize((max(1, round(img.width * k)), max(1, round(img.height * k))))
    return img.convert("RGB"), k


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: float) -> None:
    font = pil_font("bold", max(8.0, size))
    draw.text(xy, text, font=font, fill=CUT, anchor="mm", stroke_width=2, stroke_fill="white")


def map_panel(module: Module) -> Image.Image | None:
    """The map picture with the fitted grid, hex ids and anchors."""
    art = module.map.art
    if art is None or art.fit is None or module.map.grid is None:
        return None
    img, k = _shrunk(open_picture(module.root, art.picture))
    draw = ImageDraw.Draw(img)
    unit = module.map.grid.scaled(1.0)
    fit = art.fit
    hex_px = fit.px_per_hex * k
    for hid in unit.all_ids():
        pts = [fit.picture_of(*p) for p in unit.corners(hid)]
        draw.polygon([(x * k, y * k) for x, y in pts], outline=CUT)
        cx, cy = fit.picture_of(*unit.centre(hid))
        _label(draw, (cx * k, cy * k), hid, hex_px * 0.2)
    for a in fit.anchors:
        r = max(4.0, hex_px * 0.12)
        x, y = a.x * k, a.y * k
        draw.ellipse([x - r, y - r, x + r, y + r], outline=ANCHOR, width=3)
    return img


def _cuts(module: Module) -> dict[str, tuple[ArtFile, list[tuple[str, ArtCut]]]]:
    """Every picture counters are cut from, with each cut and its unit id, in roster order."""
    out: dict[str, tuple[ArtFile, list[tuple[str, ArtCut]]]] = {}
    for u in module.units:
        if u.art is None:
            continue
        for cut in (u.art.front, u.art.back):
            if cut is not None:
                out.setdefault(cut.picture.name, (cut.picture, []))[1].append((u.id, cut))
    return out


def sheet_panels(module: Module) -> list[Image.Image]:
    """Each cut picture with its cuts outlined and labelled."""
    panels = []
    for pic, cuts in _cuts(module).values():
        img, k = _shrunk(open_picture(module.root, pic))
        draw = ImageDraw.Draw(img)
        for uid, cut in cuts:
            x0, y0, x1, y1 = (v * k for v in cut.box)
            draw.rectangle([x0, y0, x1, y1], outline=CUT, width=2)
            _label(draw, ((x0 + x1) / 2, (y0 + y1) / 2), uid, (x1 - x0) * 0.14)
        panels.append(img)
    return panels


def art_preview(module: Module) -> Image.Image | None:
    """The whole preview (``None`` when the source has no art)."""
    panels = [p for p in (map_panel(module),) if p is not None] + sheet_panels(module)
    if not panels:
        return None
    rows: list[list[Image.Image]] = []
    for p in panels:  # a sheet's back beside its front: two pictures a row
        if rows and len(rows[-1]) == 1 and rows[-1][0].size == p.size and p is not panels[0]:
            rows[-1].append(p)
        else:
            rows.append([p])
    width = max(sum(p.width for p in r) + GAP * (len(r) - 1) for r in rows) + 2 * GAP
    height = sum(max(p.height for p in r) for r in rows) + GAP * (len(rows) + 1)
    out = Image.new("RGB", (width, height), (240, 240, 240))
    y = GAP
    for r in rows:
        x = GAP
        for p in r:
            out.paste(p, (x, y))
            x += p.width + GAP
        y += max(p.height for p in r) + GAP
    return out


def art_preview_png(module: Module) -> bytes | None:
    img = art_preview(module)
    return None if img is None else png_bytes(img)
