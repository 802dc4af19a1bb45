"""A counter face cut from the designer's art (:mod:`referee.source.load_sheets`): the cut of
the sheet picture, scaled once to the face.

The face model (:class:`referee.render.counters.FaceArt`) gets one picture over the whole
face and its bleed, so the VASSAL image (at ``counter.dpi``) and the printed sheet (at
``sheets --art-dpi``) show the same cut. With bleed the cut is widened by the bleed on every
side, in the sheet's own pixels, so a print shop's cut a hair outside the line still shows
the sheet's art; where the widened cut runs off the picture the missing strip repeats the
cut's edge pixels.
"""

from __future__ import annotations

from PIL import Image

from referee.render.drawing import Picture, Vector
from referee.source.artfiles import open_picture, open_vector
from referee.source.model import ArtCut, ArtFile, Module

_PICTURES: dict[tuple[str, str], Image.Image] = {}


def _sheet(module: Module, pic: ArtFile, scale: float) -> Image.Image:
    """The sheet picture's pixels, read once per build and scale (a sheet holds many
    counters): a raster sheet as it is, an SVG sheet rasterised at ``scale``."""
    scale = 1.0 if pic.kind != "svg" else round(scale, 4)
    key = (str(module.root), pic.sha256, scale)
    hit = _PICTURES.get(key)
    if hit is None:
        if len(_PICTURES) > 8:
            _PICTURES.clear()
        hit = _PICTURES[key] = open_picture(module.root, pic, scale=scale)
    return hit


_VECTORS: dict[tuple[str, str], object] = {}


def _vector(module: Module, pic: ArtFile) -> object:
    """The SVG sheet's drawing, parsed once per build."""
    key = (str(module.root), pic.sha256)
    if key not in _VECTORS:
        if len(_VECTORS) > 8:
            _VECTORS.clear()
        _VECTORS[key] = open_vector(module.root, pic)
    return _VECTORS[key]


def cut_pixels(module: Module, cut: ArtCut, margin: float = 0.0, scale: float = 1.0) -> Image.Image:
    """The cut's pixels widened by ``margin`` sheet pixels each side (edge pixels repeated
    where that runs off the picture); an SVG sheet is rasterised at ``scale`` pixels a sheet
    pixel first (a raster sheet is cut from its own pixels)."""
    img = _sheet(module, cut.picture, scale)
    k = img.width / cut.picture.width
    x0, y0, x1, y1 = (round(v * k) for v in cut.box)
    m = round(margin * k)
    want = (x0 - m, y0 - m, x1 + m, y1 + m)
    inside = (max(0, want[0]), max(0, want[1]), min(img.width, want[2]), min(img.height, want[3]))
    part = img.crop(inside)
    if inside == want:
        return part
    out = part.resize((want[2] - want[0], want[3] - want[1]), Image.Resampling.NEAREST)
    out.paste(part, (inside[0] - want[0], inside[1] - want[1]))
    return out


def art_picture(
    module: Module, cut: ArtCut, side: int, bleed_px: int, scale: float
) -> Picture | Vector:
    """The face picture item: the cut (with bleed) over ``side + 2 * bleed_px`` face pixels,
    resampled (Lanczos) to ``scale`` image pixels a face pixel; a cut of an SVG sheet is a
    :class:`~referee.render.drawing.Vector` of the sheet's drawing (vectors in the PDF), with
    those pixels as its fallback."""
    per_face_px = (cut.box[2] - cut.box[0]) / side
    full = side + 2 * bleed_px
    n = max(1, round(full * scale))
    pixels = cut_pixels(module, cut, bleed_px * per_face_px, n / (full * per_face_px))
    if pixels.size != (n, n):
        pixels = pixels.resize((n, n), Image.Resampling.LANCZOS)
    if cut.picture.kind != "svg":
        return Picture(0, 0, full, full, pixels)
    s = 1.0 / per_face_px  # face pixels a sheet pixel
    matrix = (s, 0.0, 0.0, s, bleed_px - cut.box[0] * s, bleed_px - cut.box[1] * s)
    drawing = _vector(module, cut.picture)
    return Vector(0, 0, full, full, matrix, cut.picture.sha256, drawing, pixels)
