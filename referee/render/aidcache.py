"""The play aids through the cache (:mod:`referee.cache`): ``referee sheets`` and ``referee
charts`` draw again only what changed.

A chart picture and a PDF are keyed by their vector drawings (every line, box, word and placed
picture: exactly what they show) with the program's fingerprint; a page preview by the bytes
of the PDF it is rasterised from. A placed picture is spelled by the SHA-256 of its pixels,
mode and size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from referee.cache import active, code_fingerprint, digest, valid_png

__all__ = ["cached_pdf", "cached_png", "cached_previews", "spelled"]


def spelled(drawing: object) -> object:
    """``drawing`` with every raster picture replaced by the digest of its pixels, so it can
    go into a key (a Pillow image itself cannot)."""
    from referee.render.drawing import Drawing, Picture, Vector

    assert isinstance(drawing, Drawing)
    items: list[object] = []
    for item in drawing.items:
        if isinstance(item, Picture):
            img = item.image
            pixels = hashlib.sha256(img.tobytes()).hexdigest()
            items.append(("picture", item.x, item.y, item.w, item.h, img.mode, img.size, pixels))
        elif isinstance(item, Vector):  # the SVG by its bytes' digest, and where it goes
            img = item.fallback
            pixels = hashlib.sha256(img.tobytes()).hexdigest()
            items.append(("vector", item.x, item.y, item.w, item.h, item.matrix, item.key, pixels))
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


def cached_previews(pdf: bytes, pages: int, dpi: int) -> list[bytes]:
    """The PNG previews of the ``pages`` pages of ``pdf`` at ``dpi``
    (:func:`referee.render.rasterise.pdf_page_pngs`), keyed by the PDF's bytes: from the
    cache when every page is there, else rasterised and stored."""
    from referee.render.rasterise import pdf_page_pngs

    if not active().enabled:
        return pdf_page_pngs(pdf, dpi)
    cache = active()
    base = hashlib.sha256(pdf).hexdigest()
    if pages:
        keys = [_key(("pdf-page-png", base, dpi, i)) for i in range(pages)]
        got = [cache.get("png", k) if k else None for k in keys]
        if all(g is not None and valid_png(g) for g in got):
            return [g for g in got if g is not None]
    out = pdf_page_pngs(pdf, dpi)
    for i, png in enumerate(out):
        key = _key(("pdf-page-png", base, dpi, i))
        if key:
            cache.put("png", key, png)
    return out
