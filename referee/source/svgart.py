"""SVG pictures: read safely, kept as vectors, rasterised where pixels are needed.

An SVG map or counter sheet (drawn in Inkscape or exported from a sheet-making program) is
parsed by svglib into a reportlab drawing: the PDFs (``referee map``, ``referee sheets``)
draw that drawing, so the art stays vector at any print size, and the pixels VASSAL and the
board need are rasterised from the very same drawing (reportlab writes it as a one-page
PDF, pypdfium2 renders that page), so the two can never disagree.

An SVG is a stranger's XML: before svglib sees it, it is parsed here with entities, DTDs and
the network off, and refused if it has a DOCTYPE, refers to anything outside itself (an
``href`` that is not ``#...`` or an inline ``data:`` image, a CSS ``@import`` or ``url()`` of
a file) or has more than :data:`MAX_ELEMENTS` elements. Its size is its ``width`` and
``height`` in CSS pixels (96 an inch), the unit a drawing program shows and anchors are read
in.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image


MAX_SVG_BYTES = 16 * 1024 * 1024
MAX_ELEMENTS = 200_000
PT_PER_PX = 0.75  # CSS: 96 px an inch, 72 pt an inch
_OUTSIDE = re.compile(rb"@import|url\(\s*['\"]?(?!#|data:)", re.I)


class SvgProblem(ValueError):
    """An SVG this reader refuses; the message says why."""


def looks_like_svg(data: bytes) -> bool:
    head = data[:1024].lstrip()
    return head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in data[:4096]


def _check_xml(data: bytes) -> None:
    from lxml import etree

    if len(data) > MAX_SVG_BYTES:
        raise SvgProblem(f"it is {len(data):,} bytes; an SVG may have {MAX_SVG_BYTES:,}")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise SvgProblem("it has a DOCTYPE or entities, which are not read")
    if _OUTSIDE.search(data):
        raise SvgProblem("its style refers to another file (@import or url())")
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SvgProblem(f"it is not well-formed XML ({exc})") from None
    if etree.QName(root).localname != "svg":
        raise SvgProblem("its root element is not <svg>")
    for n, el in enumerate(root.iter()):
        if n > MAX_ELEMENTS:
            raise SvgProblem(f"it has more than {MAX_ELEMENTS:,} elements")
        for key, value in el.attrib.items():
            if etree.QName(key).localname == "href" and not value.startswith(("#", "data:")):
                raise SvgProblem(f"it refers to another file ({value[:60]!r})")


def read_svg(data: bytes) -> tuple[Any, float, float]:
    """The drawing of an SVG and its width and height in CSS pixels."""
    from svglib.svglib import svg2rlg

    _check_xml(data)
    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib raises whatever its parser meets; the file is refused
        raise SvgProblem(f"svglib cannot draw it ({type(exc).__name__}: {exc})") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise SvgProblem("it has no width and height (give the <svg> width, height or viewBox)")
    return drawing, drawing.width / PT_PER_PX, drawing.height / PT_PER_PX


def rasterise(drawing: Any, scale: float) -> Image.Image:
    """The drawing as RGB pixels, ``scale`` pixels a CSS pixel (white under transparency)."""
    import pypdfium2 as pdfium
    from reportlab.graphics import renderPDF

    pdf = renderPDF.drawToString(drawing)
    doc = pdfium.PdfDocument(pdf)
    try:
        bitmap = doc[0].render(scale=scale / PT_PER_PX, fill_color=(255, 255, 255, 255))
        return bitmap.to_pil().convert("RGB")
    finally:
        doc.close()
