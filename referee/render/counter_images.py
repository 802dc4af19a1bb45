"""Roster pictures on counters: a unit's ``image`` (PNG or JPEG inside the source folder),
loaded with limits and fitted into its layout box.

A roster picture is the one genuinely raster part of a counter face: it is scaled once to
whole pixels of the face at the art's resolution (``sheets --art-dpi``, the module's
``counter.dpi`` for VASSAL), so the PDF embeds exactly the pixels the VASSAL image shows.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from referee.errors import UserError
from referee.render.drawing import Picture
from referee.source.model import Module, UnitDef

MAX_IMAGE_PIXELS = 4096  # per side
MAX_IMAGE_BYTES = 8 * 1024 * 1024
IMAGE_FORMATS = ("PNG", "JPEG")

Rect = tuple[float, float, float, float]


def image_path(module: Module, unit: UnitDef) -> Path:
    """The roster picture's file, which must lie inside the module source folder."""
    from referee.safeio import UnsafeInput, resolve_inside

    assert unit.image is not None
    try:
        return resolve_inside(module.root, unit.image, what="image")
    except UnsafeInput as exc:
        raise UserError(f"{unit.origin}: unit {unit.id}: {exc.message}", hint=exc.hint) from None


@lru_cache(maxsize=64)
def _load_image(path: str, mtime_ns: int, size: int, where: str) -> Image.Image:
    if size > MAX_IMAGE_BYTES:
        raise UserError(
            f"{where}: image {Path(path).name} is {size:,} bytes; the limit is {MAX_IMAGE_BYTES:,}",
            hint="use a small PNG or JPEG (a counter is half an inch)",
        )
    try:
        with Image.open(path) as im:
            if im.format not in IMAGE_FORMATS:
                raise UserError(
                    f"{where}: {Path(path).name} is a {im.format} image; only PNG and JPEG "
                    "are accepted",
                    hint="convert it to PNG",
                )
            if max(im.size) > MAX_IMAGE_PIXELS:
                raise UserError(
                    f"{where}: image {Path(path).name} is {im.size[0]} x {im.size[1]} px; "
                    f"the limit is {MAX_IMAGE_PIXELS} px a side",
                    hint="scale it down; 300 px is plenty for a half-inch counter",
                )
            im.load()
            return im.convert("RGBA")
    except UserError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as exc:
        raise UserError(
            f"{where}: {Path(path).name} is not a readable PNG or JPEG image ({exc})",
            hint="name a PNG or JPEG file in the units.csv image column",
        ) from None


def unit_image(module: Module, unit: UnitDef) -> Image.Image:
    """The roster's picture for a unit, checked: PNG/JPEG, at most 4096 px a side and 8 MB."""
    path = image_path(module, unit)
    where = f"{unit.origin}: unit {unit.id}"
    try:
        st = path.stat()
    except OSError:
        raise UserError(
            f"{where}: image {unit.image!r} not found", hint="check the image column"
        ) from None
    if not path.is_file():
        raise UserError(f"{where}: image {unit.image!r} is not a file")
    return _load_image(str(path), st.st_mtime_ns, st.st_size, where)


def fitted_picture(picture: Image.Image, rect: Rect, under: str, scale: float = 1.0) -> Picture:
    """The roster picture centred in ``rect`` (pixels of the face) at its own aspect, in a
    box of whole face pixels, its image resampled (Lanczos) to ``scale`` image pixels per face
    pixel: 1 for the VASSAL image, ``art_dpi / counter.dpi`` for the sheet
    (``sheets --art-dpi``), so the printed picture is sharper in exactly the same place.

    A transparent picture is composited on ``under`` (the colour of its box) here, once:
    the same pixels as pasting it with its alpha on the face, and an opaque image that the
    PDF carries as it is, in RGB or converted to a print shop's CMYK (no soft mask)."""
    from referee.render.symbols import fit_rect

    x0, y0, x1, y1 = fit_rect(rect, picture.width / picture.height)
    w, h = max(1, round(x1 - x0)), max(1, round(y1 - y0))
    pw, ph = max(1, round(w * scale)), max(1, round(h * scale))
    return Picture(round(x0), round(y0), w, h, _scaled(picture, pw, ph, under))


_SCALED: dict[tuple[int, int, int, str], tuple[Image.Image, Image.Image]] = {}


def _scaled(picture: Image.Image, w: int, h: int, under: str) -> Image.Image:
    """``picture`` resized to ``w`` x ``h`` and flattened on ``under``, once per picture,
    size and colour (a roster picture is shared by every copy of its unit; the entry keeps
    the source alive, so its id stays its own)."""
    from referee.render.colors import parse_color

    key = (id(picture), w, h, under)
    hit = _SCALED.get(key)
    if hit is not None and hit[0] is picture:
        return hit[1]
    if len(_SCALED) > 256:
        _SCALED.clear()
    scaled = picture.resize((w, h), Image.Resampling.LANCZOS)
    out = Image.new("RGB", (w, h), parse_color(under))
    if scaled.mode == "RGBA":
        out.paste(scaled, (0, 0), scaled)
    else:
        out.paste(scaled.convert("RGB"), (0, 0))
    _SCALED[key] = (picture, out)
    return out
