"""The play aids through the cache (:mod:`referee.cache`): ``referee sheets`` and ``referee
charts`` draw again only what changed.

A chart picture, a sheet preview and a PDF are keyed by their vector drawings (every line,
box, word and placed picture: exactly what they show) with the program's fingerprint; a
counter face on the sheet by its face key (:mod:`referee.render.artcache`) and the bleed.
A placed picture is spelled by the SHA-256 of its pixels, mode and size.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable

from referee.cache import active, code_fingerprint, digest, valid_png
from referee.source.model import Module, UnitDef

__all__ = ["cached_faces", "cached_pdf", "cached_png", "spelled"]

FaceImages = Callable[[UnitDef, bool], object]


def spelled(drawing: object) -> object:
    """``drawing`` with every raster picture replaced by the digest of its pixels, so it can
    go into a key (a Pillow image itself cannot)."""
    from referee.render.drawing import Drawing, Picture

    assert isinstance(drawing, Drawing)
    items: list[object] = []
    for item in drawing.items:
        if isinstance(item, Picture):
            img = item.image
            pixels = hashlib.sha256(img.tobytes()).hexdigest()
            items.append(("picture", item.x, item.y, item.w, item.h, img.mode, img.size, pixels))
        else:
            items.append(item)
    return (drawing.width, drawing.height, drawing.trim, drawing.bleed, items)


def _key(parts: tuple[object, ...]) -> str | None:
    """``None`` when the cache is off or a part cannot be spelled in a key."""
    if not active().enabled:
        return None
    try:
        return digest(code_fingerprint(), *parts)
    except TypeError:
        return None


def cached_png(parts: tuple[object, ...], draw: Callable[[], bytes]) -> bytes:
    """A picture drawn from ``parts`` alone: from the cache, else ``draw()`` (stored)."""
    key = _key(parts)
    return draw() if key is None else active().fetch("png", key, draw, valid_png)


def cached_pdf(
    parts: tuple[object, ...], make: Callable[[], tuple[bytes, int]]
) -> tuple[bytes, int]:
    """A PDF and its page count, from the cache when these drawings were printed before (the
    entry is the page count on a line, then the PDF)."""
    key = _key(parts)
    if key is None:
        return make()
    cache = active()
    data = cache.get("pdf", key)
    if data is not None:
        head, _, pdf = data.partition(b"\n")
        if head.isdigit() and pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF"):
            return pdf, int(head)
        cache.stats.refused += 1
    pdf, pages = make()
    cache.put("pdf", key, b"%d\n" % pages + pdf)
    return pdf, pages


def cached_faces(
    module: Module, bleed_px: int, face_images: Callable[[Module, int], FaceImages]
) -> FaceImages:
    """:func:`referee.render.sheets.face_images` answering from the cache: each face (or
    blank back) by its face key and the bleed, drawn from the module narrowed to what that
    key covers; one that reads more is drawn from the whole module and not stored."""
    cache = active()
    if not cache.enabled:
        return face_images(module, bleed_px)
    from PIL import Image

    from referee.render.artcache import FACE_DRAW_READS, NotDeclared, face_context, narrowed
    from referee.render.artcache import face_key as key_of
    from referee.render.counters import png_bytes

    dpi = module.counter.dpi
    narrow = narrowed(module, FACE_DRAW_READS)
    context = face_context(narrow, dpi)
    draw_narrow = face_images(narrow, bleed_px)
    draw_whole = face_images(module, bleed_px)
    memo: dict[tuple[str, bool], object] = {}

    def get(unit: UnitDef, back: bool) -> object:
        if (unit.id, back) in memo:
            return memo[(unit.id, back)]
        blank = back and not unit.back
        key = digest("sheet-face", key_of(module, context, unit, back), blank, bleed_px)
        data = cache.get("png", key)
        img = None
        if data is not None and valid_png(data):
            try:
                with Image.open(io.BytesIO(data)) as im:
                    im.load()
                    img = im.copy()
            except (OSError, ValueError, Image.DecompressionBombError):
                img = None
        if img is None:
            try:
                img = draw_narrow(unit, back)
                cache.put("png", key, png_bytes(img))  # type: ignore[arg-type]
            except NotDeclared:
                img = draw_whole(unit, back)
        memo[(unit.id, back)] = img
        return img

    return get
