"""PNG previews rasterised from the PDF itself (issue 18 §7): a preview is exactly what prints.

The previews of ``referee sheets --png`` and ``referee charts --png`` are the PDF's own pages
drawn by PDFium (the PDF engine of Chromium) through **pypdfium2**: PyPI wheels that carry the
engine, so no external program is needed, and a pinned engine gives the same pixels on every
machine of one platform (poppler's ``pdftoppm`` would depend on whatever version the system
has, and is missing on most Windows and macOS machines). When the library cannot be imported
(a platform without a wheel) the command stops with a clear message before writing anything.
"""

from __future__ import annotations

from PIL import Image

from referee.errors import UserError


def _pdfium():
    try:
        import pypdfium2
    except ImportError as exc:
        raise UserError(
            f"PNG previews need the pypdfium2 library, which cannot be loaded ({exc})",
            hint="pip install pypdfium2 (a dependency of referee), or leave out --png",
        ) from None
    return pypdfium2


def pdf_page_images(pdf: bytes, dpi: float) -> list[Image.Image]:
    """Every page of ``pdf`` as an RGB image at ``dpi`` (white paper, anti-aliased text and
    paths, as a viewer shows them); a CMYK page is shown through PDFium's own conversion."""
    pdfium = _pdfium()
    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            try:
                bitmap = page.render(scale=dpi / 72.0, may_draw_forms=False)
                out.append(bitmap.to_pil().convert("RGB"))
            finally:
                page.close()
        return out
    finally:
        doc.close()


def pdf_page_pngs(pdf: bytes, dpi: float) -> list[bytes]:
    """Every page of ``pdf`` as deterministic PNG bytes at ``dpi``."""
    from referee.render.counters import png_bytes

    return [png_bytes(img) for img in pdf_page_images(pdf, dpi)]
