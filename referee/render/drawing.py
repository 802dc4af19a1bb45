"""A small vector drawing model with two back ends: PDF (reportlab) and PNG (Pillow).

Charts and counter sheets are described once, as a :class:`Drawing` of rectangles, lines,
circles, polygons, text and pictures in points (1/72 in, origin top-left, y down), and then
drawn by either back end. So the PDF page and its PNG preview come from the same geometry, and
tests can check positions on the drawing itself. The PDF keeps text as text (crisp at any
printer resolution, searchable) in the shipped DejaVu fonts, embedded.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from referee.render.colors import parse_color
from referee.render.fonts import pil_font

if TYPE_CHECKING:
    from referee.render.printcolor import CmykProfile

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.5


@dataclass(frozen=True, slots=True)
class Line:
    points: tuple[Point, ...]
    color: str = "#000000"
    width: float = 0.5
    dash: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = "#000000"
    width: float = 0.5


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.5


@dataclass(frozen=True, slots=True)
class Text:
    """``text`` with its baseline at ``y``; ``anchor`` start|middle|end says what ``x`` is.

    ``tracking`` is extra advance after each character in the PDF (the ``Tc`` operator):
    a counter face sets it so the printed glyphs sit where Pillow's hinted layout put them
    in the VASSAL image (:func:`referee.render.counters.face_art`)."""

    x: float
    y: float
    text: str
    font: str = "regular"
    size: float = 8.0
    color: str = "#000000"
    anchor: str = "start"
    tracking: float = 0.0


@dataclass(frozen=True, slots=True)
class Picture:
    """An opaque raster image placed at ``x, y`` (top-left) and ``w`` x ``h`` points (a
    transparent picture is flattened on its background before it becomes one)."""

    x: float
    y: float
    w: float
    h: float
    image: Image.Image = field(compare=False)


@dataclass(frozen=True, slots=True)
class Mark:
    """A unit-type symbol drawn by the program (:mod:`referee.render.symbols`), kept at its
    own aspect and centred in the box ``x, y, w, h``: outlines in the PDF, the symbol's
    anti-aliased mask in a PNG (the pixels of a VASSAL counter image)."""

    key: str
    x: float
    y: float
    w: float
    h: float
    color: str = "#000000"


@dataclass(frozen=True, slots=True)
class Vector:
    """A vector picture (an SVG's reportlab drawing, :mod:`referee.source.svgart`) clipped to
    the box ``x, y, w, h``. ``matrix`` ``(a, b, c, d, e, f)`` carries a point of the picture
    (CSS px, y down) to the drawing (``x = a px + c py + e``, ``y = b px + d py + f``, y
    down). The PDF draws the SVG's vectors (stored once per document as a form, however many
    counters are cut from one sheet); ``fallback``, the same box in pixels, is what the PNG
    back ends paint and what a CMYK PDF places (reportlab draws an SVG in RGB). ``key`` (the
    SVG's SHA-256) stands for the drawing in cache keys."""

    x: float
    y: float
    w: float
    h: float
    matrix: tuple[float, float, float, float, float, float]
    key: str
    drawing: object = field(compare=False)
    fallback: Image.Image = field(compare=False)


Item = Rect | Line | Circle | Polygon | Text | Picture | Mark | Vector


Box = tuple[float, float, float, float]  # x, y (top-left), w, h in points


@dataclass(slots=True)
class Drawing:
    """One page. ``trim`` is where the finished piece is cut and ``bleed`` how far its art
    runs beyond that (both ``x, y, w, h`` on the page); ``None`` means the whole page, so the
    PDF's TrimBox and BleedBox always say what a print shop may cut and trim away."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    trim: Box | None = None
    bleed: Box | None = None

    def add(self, *items: Item) -> None:
        self.items.extend(items)

    def extend(self, items: Sequence[Item]) -> None:
        self.items.extend(items)

    def placed(self, dx: float, dy: float, scale: float = 1.0) -> list[Item]:
        """This drawing's items moved by ``dx, dy`` after scaling by ``scale`` (for packing
        charts on a page)."""
        return transformed(self.items, dx, dy, scale)


def transformed(items: Sequence[Item], dx: float, dy: float, k: float = 1.0) -> list[Item]:
    """``items`` scaled by ``k`` and then moved by ``dx, dy`` (a counter face drawn in its
    own pixels, placed on a page in points; a chart packed on a page)."""
    return [_transform(it, dx, dy, k) for it in items]


def _transform(it: Item, dx: float, dy: float, k: float) -> Item:
    def p(pt: Point) -> Point:
        return (pt[0] * k + dx, pt[1] * k + dy)

    if isinstance(it, Rect):
        return Rect(
            it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, it.fill, it.stroke, it.width * k
        )
    if isinstance(it, Line):
        dash = (it.dash[0] * k, it.dash[1] * k) if it.dash else None
        return Line(tuple(p(q) for q in it.points), it.color, it.width * k, dash)
    if isinstance(it, Circle):
        return Circle(it.x * k + dx, it.y * k + dy, it.r * k, it.fill, it.stroke, it.width * k)
    if isinstance(it, Polygon):
        return Polygon(tuple(p(q) for q in it.points), it.fill, it.stroke, it.width * k)
    if isinstance(it, Text):
        return Text(
            it.x * k + dx,
            it.y * k + dy,
            it.text,
            it.font,
            it.size * k,
            it.color,
            it.anchor,
            it.tracking * k,
        )
    if isinstance(it, Mark):
        return Mark(it.key, it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, it.color)
    if isinstance(it, Vector):
        a, b, c, d, e, f = it.matrix
        return Vector(
            it.x * k + dx,
            it.y * k + dy,
            it.w * k,
            it.h * k,
            (a * k, b * k, c * k, d * k, e * k + dx, f * k + dy),
            it.key,
            it.drawing,
            it.fallback,
        )
    return Picture(it.x * k + dx, it.y * k + dy, it.w * k, it.h * k, it.image)


# ---- PNG ---------------------------------------------------------------------------------------
def to_image(drawing: Drawing, dpi: float, *, supersample: int = 2) -> Image.Image:
    """Rasterise ``drawing`` at ``dpi`` (RGB, white paper), oversampled for smooth lines.

    The oversized canvas is shrunk by averaging each ``supersample`` x ``supersample`` block
    (:meth:`PIL.Image.Image.reduce`): the classic supersampling filter, several times cheaper
    than a Lanczos resize, with no ringing halo round text and rules.
    """
    k = dpi / 72.0 * supersample
    w = max(1, round(drawing.width * dpi / 72.0))
    h = max(1, round(drawing.height * dpi / 72.0))
    img = Image.new("RGB", (w * supersample, h * supersample), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for it in drawing.items:
        _draw_pil(img, draw, it, k)
    if supersample == 1:
        return img
    return img.reduce(supersample)


def _lw(width: float, k: float) -> int:
    return max(1, round(width * k))


def _draw_pil(img: Image.Image, draw: ImageDraw.ImageDraw, it: Item, k: float) -> None:
    if isinstance(it, Rect):
        box = [it.x * k, it.y * k, (it.x + it.w) * k, (it.y + it.h) * k]
        draw.rectangle(
            box,
            fill=parse_color(it.fill) if it.fill else None,
            outline=parse_color(it.stroke) if it.stroke else None,
            width=_lw(it.width, k) if it.stroke else 0,
        )
    elif isinstance(it, Line):
        pts = [(x * k, y * k) for x, y in it.points]
        if it.dash is None:
            draw.line(pts, fill=parse_color(it.color), width=_lw(it.width, k))
        else:
            for a, b in itertools.pairwise(pts):
                _dash(draw, a, b, it.dash[0] * k, it.dash[1] * k, it.color, _lw(it.width, k))
    elif isinstance(it, Circle):
        r = it.r * k
        draw.ellipse(
            [it.x * k - r, it.y * k - r, it.x * k + r, it.y * k + r],
            fill=parse_color(it.fill) if it.fill else None,
            outline=parse_color(it.stroke) if it.stroke else None,
            width=_lw(it.width, k) if it.stroke else 0,
        )
    elif isinstance(it, Polygon):
        pts = [(x * k, y * k) for x, y in it.points]
        if it.fill:
            draw.polygon(pts, fill=parse_color(it.fill))
        if it.stroke:
            draw.line([*pts, pts[0]], fill=parse_color(it.stroke), width=_lw(it.width, k))
    elif isinstance(it, Text):
        if not it.text:
            return
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[it.anchor]
        draw.text(
            (it.x * k, it.y * k),
            it.text,
            font=pil_font(it.font, it.size * k),
            fill=parse_color(it.color),
            anchor=anchor,
        )
    elif isinstance(it, Picture | Vector):
        image = it.image if isinstance(it, Picture) else it.fallback
        w, h = max(1, round(it.w * k)), max(1, round(it.h * k))
        pic = image if image.size == (w, h) else image.resize((w, h), Image.Resampling.LANCZOS)
        img.paste(pic.convert("RGB"), (round(it.x * k), round(it.y * k)))
    elif isinstance(it, Mark):
        from referee.render.symbols import draw_symbol

        box = (it.x * k, it.y * k, (it.x + it.w) * k, (it.y + it.h) * k)
        draw_symbol(img, it.key, box, parse_color(it.color))


def _dash(
    draw: ImageDraw.ImageDraw, a: Point, b: Point, on: float, off: float, color: str, width: int
) -> None:
    import math

    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    s = 0.0
    while s < length:
        e = min(length, s + on)
        draw.line(
            [(a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)],
            fill=parse_color(color),
            width=width,
        )
        s = e + off


# ---- PDF ---------------------------------------------------------------------------------------
def pdf_bytes(
    pages: Sequence[Drawing],
    *,
    title: str,
    subject: str = "",
    duplex: str = "DuplexFlipLongEdge",
    cmyk: CmykProfile | None = None,
) -> bytes:
    """A PDF with one page per drawing, each page the drawing's size.

    Deterministic: reportlab's invariant mode (fixed dates and document id), fixed metadata,
    the shipped fonts embedded as subsets, identical images stored once.

    Printing right by default: the viewer preferences ask the print dialog for actual size
    (``/PrintScaling /None``, no "fit to page" that would shrink counters) and long-edge
    duplex (fronts and backs of counter sheets line up; ``duplex="Simplex"`` for pages printed
    one-sided, such as map tiles); every page carries a TrimBox and a
    BleedBox (see :class:`Drawing`); the font subsets are named with a prefix drawn from the
    title (:func:`subset_prefix`), so two of our PDFs merged into one never share a subset
    name for different glyphs.

    With ``cmyk`` (issue 18 §8) every colour and picture is written in that output profile's
    CMYK (:mod:`referee.render.printcolor`) and the profile is embedded as the document's
    PDF/X-style OutputIntent, named by the profile's description.
    """
    from reportlab.pdfgen.canvas import Canvas

    from referee.render.fonts import register_pdf_fonts

    names = register_pdf_fonts()
    buf = io.BytesIO()
    first = pages[0] if pages else Drawing(612, 792)
    c = Canvas(
        buf,
        pagesize=(first.width, first.height),
        invariant=1,
        pageCompression=1,
        initialFontName=names["regular"],
        initialFontSize=8,
    )
    c.setTitle(title)
    c.setAuthor("referee")
    c.setCreator("referee")
    c.setSubject(subject)
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", duplex)
    if cmyk is not None:
        _output_intent(c, cmyk)
    paint = _Paint(names, cmyk)
    for page in pages or [first]:
        c.setPageSize((page.width, page.height))
        trim = page.trim or (0.0, 0.0, page.width, page.height)
        bleed = page.bleed or trim
        c.setTrimBox(_pdf_box(trim, page.height))
        c.setBleedBox(_pdf_box(bleed, page.height))
        for it in page.items:
            _draw_pdf(c, it, page.height, paint)
        c.showPage()
    with _subset_names(title):
        c.save()
    return buf.getvalue()


def _pdf_box(box: Box, page_h: float) -> list[float]:
    """``x, y, w, h`` (top-left origin) as a PDF rectangle ``[llx lly urx ury]``."""
    x, y, w, h = box
    return [round(v, 4) for v in (x, page_h - y - h, x + w, page_h - y)]


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def subset_prefix(tag: str, n: int) -> bytes:
    """The six-letter subset tag of font subset ``n`` in the document ``tag``.

    reportlab numbers subsets AAAAAA, AAAAAB, ... in every document, so the counter sheet and
    the charts both hold an ``AAAAAA+DejaVuSans`` with different glyphs, and a PDF merged from
    the two may draw one's text with the other's glyphs. Starting from a number drawn from the
    document's title keeps the tag deterministic, distinct between documents, and still
    distinct between the subsets of one document (consecutive numbers).
    """
    import hashlib

    start = int.from_bytes(hashlib.sha256(tag.encode("utf-8")).digest()[:8], "big")
    v = (start + n) % 26**6
    out = []
    for _ in range(6):
        v, r = divmod(v, 26)
        out.append(_LETTERS[r])
    return "".join(reversed(out)).encode("ascii")


class _subset_names:
    """While the PDF is written, name font subsets by :func:`subset_prefix` (reportlab reads
    the module-level ``SUBSETN`` when it writes its font objects)."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.saved = None

    def __enter__(self) -> None:
        from reportlab.pdfbase import ttfonts

        self.saved = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, *_a: subset_prefix(self.tag, n)

    def __exit__(self, *exc: object) -> None:
        from reportlab.pdfbase import ttfonts

        ttfonts.SUBSETN = self.saved


def _output_intent(c, profile: CmykProfile) -> None:
    """The PDF/X-style ``/OutputIntents`` of the catalogue: the output condition the CMYK
    values were made for, with the ICC profile embedded (``/DestOutputProfile``)."""
    from reportlab.pdfbase.pdfdoc import (
        PDFArray,
        PDFDictionary,
        PDFName,
        PDFStream,
        PDFString,
        PDFZCompress,
    )

    doc = c._doc
    icc = PDFStream(PDFDictionary({"N": 4}), profile.data, [PDFZCompress])
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(profile.name),
            "Info": PDFString(profile.name),
            "RegistryName": PDFString(""),
            "DestOutputProfile": doc.Reference(icc),
        }
    )
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])


class _Paint:
    """What the PDF back end draws with: the registered font names, the colour model (RGB,
    or the CMYK of an output profile) and the pictures already placed (each stored once)."""

    def __init__(self, names: dict[str, str], cmyk: CmykProfile | None) -> None:
        self.names = names
        self.cmyk = cmyk
        self.images: dict[int, object] = {}
        self.forms: set[str] = set()

    def color(self, value: str):
        from reportlab.lib.colors import CMYKColor, Color

        if self.cmyk is not None:
            return CMYKColor(*self.cmyk.color(value))
        r, g, b = parse_color(value)
        return Color(r / 255.0, g / 255.0, b / 255.0)

    def form(self, c, it: Vector) -> str:
        """The name of the PDF form holding the SVG of ``it``, drawn once per document."""
        name = "svg" + it.key[:16]
        if name not in self.forms:
            from reportlab.graphics import renderPDF

            d = it.drawing  # the form's box is the whole drawing (the default is the page)
            c.beginForm(name, 0, 0, d.width, d.height)  # type: ignore[attr-defined]
            renderPDF.draw(d, c, 0, 0)
            c.endForm()
            self.forms.add(name)
        return name

    def picture(self, image: Image.Image) -> object:
        """The image reader of ``image`` (RGB, or the profile's CMYK), made once per image."""
        from reportlab.lib.utils import ImageReader

        hit = self.images.get(id(image))
        if hit is None:
            rgb = image.convert("RGB")
            hit = ImageReader(self.cmyk.image(rgb) if self.cmyk is not None else rgb)
            self.images[id(image)] = hit
        return hit


def _draw_picture(c, it: Picture | Vector, page_h: float, paint: _Paint) -> None:
    """A raster picture; or an SVG's form, clipped to the box, under the matrix (picture px,
    y down) composed with the drawing's own frame (points, y up, ``0.75`` pt a px) and the
    page's (y up); a CMYK PDF places a vector picture's pixels (the form's colours are RGB)."""
    if isinstance(it, Picture) or paint.cmyk is not None:
        image = it.image if isinstance(it, Picture) else it.fallback
        c.drawImage(paint.picture(image), it.x, page_h - it.y - it.h, it.w, it.h)
        return
    from referee.source.svgart import PT_PER_PX

    name = paint.form(c, it)
    a, b, cc, d, e, f = it.matrix
    height = it.drawing.height  # type: ignore[attr-defined]
    k = 1.0 / PT_PER_PX
    c.saveState()
    path = c.beginPath()
    path.rect(it.x, page_h - it.y - it.h, it.w, it.h)
    c.clipPath(path, stroke=0, fill=0)
    c.transform(a * k, -b * k, -cc * k, d * k, cc * height * k + e, page_h - d * height * k - f)
    c.doForm(name)
    c.restoreState()


def _ellipse_path(c, x0: float, y0: float, x1: float, y1: float):
    path = c.beginPath()
    path.ellipse(x0, y0, x1 - x0, y1 - y0)
    return path


def _draw_mark(c, it: Mark, page_h: float, paint: _Paint) -> None:
    """A program-drawn symbol as filled outlines (and stroked masts and rotor blades)."""
    from referee.render.symbols import fit_rect, symbol

    sym = symbol(it.key)
    x0, y0, x1, y1 = fit_rect((it.x, it.y, it.x + it.w, it.y + it.h), sym.aspect)
    sw, sh = x1 - x0, y1 - y0

    def pt(p: Point) -> Point:
        return x0 + p[0] * sw, page_h - (y0 + p[1] * sh)

    color = paint.color(it.color)
    c.setFillColor(color)
    c.setStrokeColor(color)
    for shape in sym.shapes:
        pts = [pt(p) for p in shape.points]
        if shape.kind == "line":
            c.setLineWidth(max(0.05, shape.width * sh))
            c.setLineCap(0)
            c.line(pts[0][0], pts[0][1], pts[1][0], pts[1][1])
            continue
        if shape.kind == "poly":
            path = c.beginPath()
            path.moveTo(*pts[0])
            for q in pts[1:]:
                path.lineTo(*q)
            path.close()
        elif shape.kind == "rect":
            (ax, ay), (bx, by) = pts
            path = c.beginPath()
            path.rect(min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay))
        else:  # ellipse
            (ax, ay), (bx, by) = pts
            path = _ellipse_path(c, min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
        c.drawPath(path, stroke=0, fill=1)


def _draw_pdf(c, it: Item, page_h: float, paint: _Paint) -> None:
    """One item of a page on the PDF canvas ``c`` (PDF's y axis runs up the page)."""
    if isinstance(it, Rect):
        _pdf_rect(c, it, page_h, paint)
    elif isinstance(it, Line):
        _pdf_line(c, it, page_h, paint)
    elif isinstance(it, Circle):
        _pdf_pen(c, it.fill, it.stroke, it.width, paint)
        c.circle(it.x, page_h - it.y, it.r, stroke=1 if it.stroke else 0, fill=1 if it.fill else 0)
    elif isinstance(it, Polygon):
        _pdf_polygon(c, it, page_h, paint)
    elif isinstance(it, Text):
        _pdf_text(c, it, page_h, paint)
    elif isinstance(it, Mark):
        _draw_mark(c, it, page_h, paint)
    elif isinstance(it, Picture | Vector):
        _draw_picture(c, it, page_h, paint)


def _pdf_pen(c, fill: str | None, stroke: str | None, width: float, paint: _Paint) -> None:
    """The fill colour and the stroke colour and width an item asks for."""
    if fill:
        c.setFillColor(paint.color(fill))
    if stroke:
        c.setStrokeColor(paint.color(stroke))
        c.setLineWidth(width)


def _pdf_rect(c, it: Rect, page_h: float, paint: _Paint) -> None:
    _pdf_pen(c, it.fill, it.stroke, it.width, paint)
    c.rect(
        it.x,
        page_h - it.y - it.h,
        it.w,
        it.h,
        stroke=1 if it.stroke else 0,
        fill=1 if it.fill else 0,
    )


def _pdf_path(c, points, page_h: float):  # type: ignore[no-untyped-def]
    """A path through ``points`` (page coordinates, y down)."""
    path = c.beginPath()
    x, y = points[0]
    path.moveTo(x, page_h - y)
    for x, y in points[1:]:
        path.lineTo(x, page_h - y)
    return path


def _pdf_line(c, it: Line, page_h: float, paint: _Paint) -> None:
    c.setStrokeColor(paint.color(it.color))
    c.setLineWidth(it.width)
    c.setDash(list(it.dash) if it.dash else [])
    c.drawPath(_pdf_path(c, it.points, page_h), stroke=1, fill=0)
    if it.dash:
        c.setDash([])


def _pdf_polygon(c, it: Polygon, page_h: float, paint: _Paint) -> None:
    _pdf_pen(c, it.fill, it.stroke, it.width, paint)
    path = _pdf_path(c, it.points, page_h)
    path.close()
    c.drawPath(path, stroke=1 if it.stroke else 0, fill=1 if it.fill else 0)


def _pdf_text(c, it: Text, page_h: float, paint: _Paint) -> None:
    """A line of text at its anchor (start, middle, end), with its letter spacing."""
    from referee.render.fonts import face_name

    if not it.text:
        return
    c.setFillColor(paint.color(it.color))
    c.setFont(paint.names[face_name(it.font)], it.size)
    y = page_h - it.y
    if it.tracking and it.anchor == "start":
        t = c.beginText(it.x, y)
        t.setCharSpace(it.tracking)
        t.textOut(it.text)
        c.drawText(t)
    elif it.anchor == "middle":
        c.drawCentredString(it.x, y, it.text)
    elif it.anchor == "end":
        c.drawRightString(it.x, y, it.text)
    else:
        c.drawString(it.x, y, it.text)
