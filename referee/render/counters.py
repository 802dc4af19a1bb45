"""Counter faces: the one rendering path for the VASSAL pieces and the printed counter sheet.

A face is drawn from DATA: the module's ``[counter]`` layouts (boxes in fractions of the
counter's side), the roster row and the nationality colours. Classic 1970s style: the
nationality colour as background, text in the nationality's text colour, a thin darker border,
the unit-type silhouette in the middle and the values along the bottom, printed
AA-AS-ASW-MA-DEF-ECM [3.2] (air units print their Range Allowance in the MA place [3.23]).

Text is measured with the shipped fonts and shrunk to fit its box, never clipped. Within one box
of one layout every counter of the mix uses the same type size (the smallest that fits all of
them), so a sheet reads evenly, as die-cut counters do. If a text cannot fit at the legible
minimum (:data:`MIN_TEXT_PT`), rendering stops with an error naming the unit and the box.
"""

from __future__ import annotations

import io
import math
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from referee.errors import UserError
from referee.render.colors import contrast_text, darken, hex_rgb, parse_color
from referee.render.counter_images import fitted_picture, unit_image
from referee.render.drawing import Item, Mark, Picture, Text, Vector
from referee.render.drawing import Rect as Shape
from referee.render.fonts import face_name, pil_font
from referee.render.symbols import CATEGORY_DEFAULT, draw_symbol
from referee.source.memo import per_module
from referee.source.model import CounterLayout, LayoutBox, Module, UnitDef

MIN_TEXT_PT = 4.0  # smallest printed type we accept on a counter (about 1.4 mm)

Rect = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class BoxFit:
    """One text box of one face, measured: ``box`` and ``ink`` are pixel rects (x0, y0, x1,
    y1) in the counter image at ``dpi``. ``fits`` is the promise the renderer keeps."""

    unit: str
    back: bool
    layout: str
    index: int
    template: str
    text: str
    font: str
    size_px: float
    size_pt: float
    dpi: int
    box: Rect
    ink: Rect

    @property
    def fits(self) -> bool:
        bx0, by0, bx1, by1 = self.box
        ix0, iy0, ix1, iy1 = self.ink
        return ix0 >= bx0 and iy0 >= by0 and ix1 <= bx1 and iy1 <= by1

    @property
    def legible(self) -> bool:
        return self.size_pt >= MIN_TEXT_PT - 1e-6


# ---- which layout, which faces ---------------------------------------------------------------
def face_layout(module: Module, unit: UnitDef, back: bool = False) -> CounterLayout:
    """The layout of a face: the category's layout (else ``default``, else the first) on the
    front; the layout ``unit.back`` names on the back."""
    layouts = module.counter.layouts
    if back:
        if unit.back is None:
            raise UserError(f"unit {unit.id} has no back face")
        if unit.back not in layouts:
            raise UserError(
                f"{unit.origin}: unit {unit.id}: back face names unknown counter layout "
                f"{unit.back!r}",
                hint="layouts: " + ", ".join(sorted(layouts)),
            )
        return layouts[unit.back]
    name = module.counter.category_layouts.get(unit.category)
    if name in layouts:
        return layouts[name]
    if "default" in layouts:
        return layouts["default"]
    if not layouts:
        raise UserError("the module declares no counter layout", hint="add [[counter.layout]]")
    return layouts[sorted(layouts)[0]]


def counter_faces(module: Module) -> list[tuple[UnitDef, bool]]:
    """Every face to render, in roster order: each row's front, then its back if it has one."""
    out: list[tuple[UnitDef, bool]] = []
    for u in module.units:
        out.append((u, False))
        if u.has_back:
            out.append((u, True))
    return out


def layout_faces(module: Module) -> list[tuple[UnitDef, bool]]:
    """The faces whose texts a layout prints (their type sizes are worked out together):
    every drawn face, and a face of the designer's art only when its sheet prints the values
    over it (``print_values``) and a layout is named for it (a back needs ``back``)."""
    return [
        (u, b)
        for u, b in counter_faces(module)
        if (not b or u.back is not None) and (u.art is None or u.art.print_values)
    ]


def counter_px(module: Module, dpi: int | None = None) -> int:
    """Side of a counter image in pixels: ``round(size_in * dpi)``."""
    return round(module.counter.size_in * (dpi or module.counter.dpi))


# ---- text -------------------------------------------------------------------------------------
def unit_fields(module: Module, unit: UnitDef) -> dict[str, str]:
    """The values a layout text template may name (``{AA}``, ``{number}``, ``{type}``...)."""
    fields = {v.key: str(unit.values.get(v.key, "")) for v in module.values}
    fields.update(
        id=unit.id,
        number=unit.number,
        name=unit.name,
        type=unit.type,
        nationality=unit.nationality,
        side=unit.side,
        fleet=unit.fleet,
        category=unit.category,
        range_or_ma=str(unit.values.get("MA", "")),
    )
    return fields


def fill_template(template: str, fields: Mapping[str, str], where: str) -> str:
    try:
        return string.Formatter().vformat(template, (), dict(fields)).strip()
    except (KeyError, ValueError, IndexError) as exc:
        raise UserError(
            f"{where}: cannot fill counter text {template!r}: {exc}",
            hint="fields are written {AA}, {number}, {type}, {name}...; "
            "a literal brace is {{ or }}",
        ) from None


def box_shows(box: LayoutBox, unit: UnitDef) -> bool:
    """A box with ``when = "flag"`` shows only on units with that flag (e.g. the daylight band
    [9.52], the carrier "C" [3.2])."""
    return box.when is None or unit.has(box.when)


def box_rect(box: LayoutBox, side: int, offset: int = 0) -> Rect:
    """A layout box in whole pixels, rounded inward so measured ink that fits the rect is
    inside the box the designer drew."""
    eps = 1e-6
    return (
        float(offset + math.ceil(box.x * side - eps)),
        float(offset + math.ceil(box.y * side - eps)),
        float(offset + math.floor((box.x + box.w) * side + eps)),
        float(offset + math.floor((box.y + box.h) * side + eps)),
    )


def text_pad(side: int) -> float:
    return max(1.0, round(side * 0.012))


def _ink(text: str, font: str, size: float) -> Rect:
    return tuple(float(v) for v in pil_font(font, size).getbbox(text, anchor="ls"))  # type: ignore[return-value]


MIN_TYPE_PX = 1.0
"""The smallest type size :func:`max_font_size` tries: text that fits only under one pixel
(a zero-height box, a line far too long for its box) does not fit at all (size 0)."""


@lru_cache(maxsize=65536)
def max_font_size(text: str, font: str, width: float, height: float) -> float:
    """The largest type size (px, 1/8 px steps) whose ink fits ``width`` x ``height``.

    Pure, and asked the same question for every copy of a value line, so it is cached."""
    lo, hi = 0.0, max(1.0, height * 1.6)

    def fits(size: float) -> bool:
        if size < MIN_TYPE_PX:  # FreeType draws nothing under one pixel ("invalid ppem")
            return False
        x0, y0, x1, y1 = _ink(text, font, size)
        return x1 - x0 <= width and y1 - y0 <= height

    if fits(hi):
        return hi
    for _ in range(14):
        mid = (lo + hi) / 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return round(lo * 8 - 0.5) / 8 if lo >= 0.125 else 0.0


def text_boxes(module: Module, unit: UnitDef, back: bool) -> list[tuple[int, LayoutBox, str]]:
    """The text and mark boxes of a face that show, with their filled-in text."""
    layout = face_layout(module, unit, back)
    fields = unit_fields(module, unit)
    out = []
    for i, box in enumerate(layout.boxes):
        if box.kind not in ("text", "mark") or not box_shows(box, unit):
            continue
        where = f"unit {unit.id} ({'back' if back else 'front'}, layout {layout.name!r} box {i})"
        text = fill_template(box.text, fields, where)
        if text:
            out.append((i, box, text))
    return out


@dataclass(frozen=True, slots=True)
class _Sizing:
    font: str
    size_px: float


def counter_sizings(module: Module, dpi: int) -> dict[tuple[str, int], _Sizing]:
    """One type size per (layout, box): the largest that fits every face using that box.

    The box's own font is used unless the condensed face lets the text be at least 5 % larger
    (long value lines on a half-inch counter). Raises a UserError naming the first unit and box
    whose text cannot fit at :data:`MIN_TEXT_PT`.
    """
    return per_module(module, ("counter_sizings", dpi), lambda: _sizings(module, dpi))


def _sizings(module: Module, dpi: int) -> dict[tuple[str, int], _Sizing]:
    side = counter_px(module, dpi)
    pad = text_pad(side)
    min_px = MIN_TEXT_PT * dpi / 72.0
    # (layout, box) -> {font: (size, unit, text)} keeping the most constraining text
    best: dict[tuple[str, int], dict[str, tuple[float, str, str]]] = {}
    for unit, back in layout_faces(module):
        layout = face_layout(module, unit, back)
        for i, box, text in text_boxes(module, unit, back):
            bx0, by0, bx1, by1 = box_rect(box, side)
            w, h = bx1 - bx0 - 2 * pad, by1 - by0
            own = face_name(box.font)
            fonts = [own] if own == "condensed" else [own, "condensed"]
            slot = best.setdefault((layout.name, i), {})
            for f in fonts:
                size = max_font_size(text, f, w, h)
                if f not in slot or size < slot[f][0]:
                    slot[f] = (size, unit.id, text)
    out: dict[tuple[str, int], _Sizing] = {}
    for (lname, i), by_font in sorted(best.items()):
        own = face_name(module.counter.layouts[lname].boxes[i].font)
        font = own
        if "condensed" in by_font and by_font["condensed"][0] > by_font[own][0] * 1.05:
            font = "condensed"
        size, unit_id, text = by_font[font]
        if size < min_px:
            box = module.counter.layouts[lname].boxes[i]
            raise UserError(
                f"unit {unit_id}: text {text!r} does not fit box {i} of counter layout "
                f"{lname!r} ({box.w:.2f} x {box.h:.2f} of a {module.counter.size_in} in "
                f"counter) at the legible minimum of {MIN_TEXT_PT} pt",
                hint="widen or heighten the box in [[counter.layout.box]], shorten the text, "
                "or use a larger counter.size_in",
            )
        out[(lname, i)] = _Sizing(font, size)
    return out


def _placement(
    text: str, font: str, size: float, rect: Rect, align: str, pad: float
) -> tuple[tuple[int, int], Rect]:
    """Where to draw ``text`` (baseline-left origin, whole pixels) so its ink is centred
    vertically and aligned horizontally inside ``rect``; and the ink rect there."""
    x0, y0, x1, y1 = _ink(text, font, size)
    bx0, by0, bx1, by1 = rect
    if align == "left":
        ox = bx0 + pad - x0
    elif align == "right":
        ox = bx1 - pad - x1
    else:
        ox = (bx0 + bx1) / 2 - (x0 + x1) / 2
    oy = (by0 + by1) / 2 - (y0 + y1) / 2
    ix, iy = math.floor(ox + 0.5), math.floor(oy + 0.5)  # not banker's rounding
    # rounding to whole pixels must not push the ink out of the box
    if ix + x0 < bx0:
        ix += 1
    if ix + x1 > bx1:
        ix -= 1
    if iy + y0 < by0:
        iy += 1
    if iy + y1 > by1:
        iy -= 1
    return (ix, iy), (ix + x0, iy + y0, ix + x1, iy + y1)


# ---- drawing ----------------------------------------------------------------------------------
def face_colors(module: Module, unit: UnitDef, layout: CounterLayout) -> tuple[str, str]:
    """Background and default text colour of a face."""
    nat = module.nationalities.get(unit.nationality)
    if layout.background:
        return layout.background, contrast_text(layout.background)
    if nat is None:
        return "#FFFFFF", "#000000"
    return nat.color, nat.text_color


def symbol_key(module: Module, unit: UnitDef) -> str:
    """The silhouette to draw: the unit type's ``symbol`` attribute, else by category."""
    attrs = module.unit_types.get(unit.type, {})
    key = attrs.get("symbol")
    if key:
        return key
    return CATEGORY_DEFAULT.get(unit.category, "destroyer")


def border_px(dpi: int) -> int:
    return max(1, round(dpi / 150))


@dataclass(frozen=True, slots=True)
class FaceArt:
    """One counter face as vector items (:mod:`referee.render.drawing`) in pixels of its
    image at ``dpi``, origin at the image's top-left (bleed included): the one model that
    both back ends draw. :func:`paint_face` rasterises it for VASSAL (whole-pixel boxes,
    Pillow's text, the symbol's anti-aliased mask); the counter sheet places the same items
    in the PDF as vector paths and embedded-font text
    (:func:`referee.render.drawing.transformed`, 72 / ``dpi`` points a pixel)."""

    size_px: int  # the image's side, bleed included
    dpi: int
    items: tuple[Item, ...]


def face_art(
    module: Module,
    unit: UnitDef,
    back: bool = False,
    dpi: int | None = None,
    bleed_px: int = 0,
    *,
    picture_dpi: int | None = None,
) -> FaceArt:
    """The face of ``unit`` (front or ``back``) with ``bleed_px`` of bleed, as a model laid
    out on the pixel grid of ``dpi`` (the module's ``counter.dpi``, as VASSAL's images);
    a roster picture in it is resampled at ``picture_dpi`` (default ``dpi``)."""
    dpi = dpi or module.counter.dpi
    if unit.art is not None:
        return _art_face(module, unit, back, dpi, bleed_px, picture_dpi or dpi)
    layout = face_layout(module, unit, back)
    side = counter_px(module, dpi)
    bg, ink = face_colors(module, unit, layout)
    full = side + 2 * bleed_px
    items: list[Item] = [_area((0.0, 0.0, float(full), float(full)), bg)]
    sizings = counter_sizings(module, dpi)
    texts = {i: text for i, _box, text in text_boxes(module, unit, back)}
    pad = text_pad(side)
    for i, box in enumerate(layout.boxes):
        if not box_shows(box, unit):
            continue
        rect = box_rect(box, side, bleed_px)
        color = _hex(box.color or ink)
        if box.kind == "band":
            fill = box.fill or module.side(unit.side).color
            items.append(_area(_into_bleed(rect, box, full), fill))
        elif box.kind in ("symbol", "image"):
            if box.fill:
                items.append(_area(_into_bleed(rect, box, full), box.fill))
            if unit.image:
                scale = (picture_dpi or dpi) / dpi
                under = _hex(box.fill or bg)
                items.append(fitted_picture(unit_image(module, unit), rect, under, scale))
            else:
                x0, y0, x1, y1 = rect
                items.append(Mark(symbol_key(module, unit), x0, y0, x1 - x0, y1 - y0, color))
        elif i in texts:
            if box.fill:
                items.append(_area(_into_bleed(rect, box, full), box.fill))
            items.append(_text_item(sizings[(layout.name, i)], texts[i], rect, box, pad, color))
    items.append(_border(bg, side, bleed_px, dpi))
    return FaceArt(full, dpi, tuple(items))


def _text_item(
    sizing: _Sizing, text: str, rect: Rect, box: LayoutBox, pad: float, color: str
) -> Text:
    (ox, oy), _ = _placement(text, sizing.font, sizing.size_px, rect, box.align, pad)
    track = _tracking(text, sizing.font, sizing.size_px)
    return Text(ox, oy, text, sizing.font, sizing.size_px, color, "start", track)


def _art_face(
    module: Module, unit: UnitDef, back: bool, dpi: int, bleed_px: int, picture_dpi: int
) -> FaceArt:
    """A face of the designer's art (:mod:`referee.render.counter_art`): the cut picture over
    the whole face and its bleed, and, when the sheet says ``print_values``, the layout's texts
    and marks over it (no background, band, symbol or border: the art has its own)."""
    from referee.render.counter_art import art_picture

    assert unit.art is not None
    cut = unit.art.back if back else unit.art.front
    if cut is None:
        raise UserError(f"unit {unit.id} has no back face")
    side = counter_px(module, dpi)
    full = side + 2 * bleed_px
    items: list[Item] = [art_picture(module, cut, side, bleed_px, picture_dpi / dpi)]
    if unit.art.print_values and (not back or unit.back is not None):
        layout = face_layout(module, unit, back)
        _, ink = face_colors(module, unit, layout)
        sizings = counter_sizings(module, dpi)
        pad = text_pad(side)
        for i, box, text in text_boxes(module, unit, back):
            rect = box_rect(box, side, bleed_px)
            if box.fill:
                items.append(_area(_into_bleed(rect, box, full), box.fill))
            color = _hex(box.color or ink)
            items.append(_text_item(sizings[(layout.name, i)], text, rect, box, pad, color))
    return FaceArt(full, dpi, tuple(items))


@lru_cache(maxsize=4096)
def _tracking(text: str, font: str, size_px: float) -> float:
    """Extra advance per character that spreads ``text`` in the PDF's exact font metrics to
    the width Pillow's hinted layout gives it in the image, so a printed value line lines up
    with the VASSAL picture glyph for glyph (within a pixel) instead of drifting by several."""
    from referee.render.fonts import text_width_pt

    if len(text) < 2:
        return 0.0
    hinted = pil_font(font, size_px).getlength(text)
    exact = text_width_pt(text, font, size_px)
    return round((hinted - exact) / len(text), 4)


def blank_art(module: Module, unit: UnitDef, dpi: int | None = None, bleed_px: int = 0) -> FaceArt:
    """The neutral back of a single-sided counter: its nationality colour and border only."""
    d = dpi or module.counter.dpi
    side = counter_px(module, d)
    nat = module.nationalities.get(unit.nationality)
    bg = nat.color if nat else "#FFFFFF"
    full = side + 2 * bleed_px
    return FaceArt(
        full, d, (_area((0.0, 0.0, float(full), float(full)), bg), _border(bg, side, bleed_px, d))
    )


def _hex(color: str) -> str:
    return hex_rgb(parse_color(color))


def _area(rect: Rect, color: str) -> Shape:
    """A filled box covering the pixels ``x0 <= x < x1``, ``y0 <= y < y1`` (rounded)."""
    x0, y0, x1, y1 = (float(round(v)) for v in rect)
    return Shape(x0, y0, x1 - x0, y1 - y0, _hex(color), None)


def _border(bg: str, side: int, offset: int, dpi: int) -> Shape:
    """The thin darker border, ``border_px`` wide just inside the counter's edge: a stroke
    centred half its width inside the edge."""
    bw = border_px(dpi)
    half = bw / 2
    return Shape(
        offset + half, offset + half, side - bw, side - bw, None, hex_rgb(darken(bg, 0.45)), bw
    )


def paint_face(art: FaceArt) -> Image.Image:
    """Rasterise a face model as the VASSAL images have always been drawn: whole pixels for
    boxes, Pillow's text at whole-pixel baselines, the symbol's anti-aliased mask."""
    img = Image.new("RGB", (art.size_px, art.size_px), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for it in art.items:
        if isinstance(it, Shape) and it.stroke:
            h = it.width / 2
            x0, y0 = round(it.x - h), round(it.y - h)
            x1, y1 = round(it.x + it.w + h) - 1, round(it.y + it.h + h) - 1
            draw.rectangle([x0, y0, x1, y1], outline=parse_color(it.stroke), width=round(it.width))
        elif isinstance(it, Shape) and it.fill:
            draw.rectangle(
                [round(it.x), round(it.y), round(it.x + it.w) - 1, round(it.y + it.h) - 1],
                fill=parse_color(it.fill),
            )
        elif isinstance(it, Mark):
            box = (it.x, it.y, it.x + it.w, it.y + it.h)
            draw_symbol(img, it.key, box, parse_color(it.color))
        elif isinstance(it, Picture | Vector):
            at = (round(it.x), round(it.y))
            pic = it.image if isinstance(it, Picture) else it.fallback
            if pic.size != (round(it.w), round(it.h)):
                pic = pic.resize((round(it.w), round(it.h)), Image.Resampling.LANCZOS)
            img.paste(pic.convert("RGB"), at)
        elif isinstance(it, Text):
            font = pil_font(it.font, it.size)
            draw.text((it.x, it.y), it.text, font=font, fill=parse_color(it.color), anchor="ls")
    return img


def _into_bleed(rect: Rect, box: LayoutBox, full: int) -> Rect:
    """A filled box that touches an edge of the counter runs on to the edge of the image, so
    with bleed the colour band carries into the bleed (a cut a hair outside the line shows the
    band, not the background). Without bleed the image edge is the counter edge: no change."""
    eps = 1e-6
    x0, y0, x1, y1 = rect
    return (
        0.0 if box.x <= eps else x0,
        0.0 if box.y <= eps else y0,
        float(full) if box.x + box.w >= 1 - eps else x1,
        float(full) if box.y + box.h >= 1 - eps else y1,
    )


def render_counter(
    module: Module, unit: UnitDef, *, back: bool = False, dpi: int | None = None
) -> Image.Image:
    """One counter face as an RGB image exactly ``round(size_in * dpi)`` pixels square."""
    return paint_face(face_art(module, unit, back, dpi))


def render_counter_bleed(
    module: Module, unit: UnitDef, *, back: bool = False, dpi: int | None = None, bleed_px: int
) -> Image.Image:
    """The same face with the background carried ``bleed_px`` beyond every edge (for printing
    with bleed): the counter itself sits at ``(bleed_px, bleed_px)``, pixel for pixel the image
    :func:`render_counter` makes."""
    return paint_face(face_art(module, unit, back, dpi, bleed_px))


def render_blank(
    module: Module, unit: UnitDef, *, dpi: int | None = None, bleed_px: int = 0
) -> Image.Image:
    """The neutral back of a single-sided counter as an image (:func:`blank_art`)."""
    return paint_face(blank_art(module, unit, dpi, bleed_px))


def png_bytes(img: Image.Image) -> bytes:
    """Deterministic PNG: fixed compression level, no text chunks, no time, no dpi."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def counter_png(
    module: Module, unit: UnitDef, *, back: bool = False, dpi: int | None = None
) -> bytes:
    return png_bytes(render_counter(module, unit, back=back, dpi=dpi))


def fit_report(module: Module, dpi: int | None = None) -> list[BoxFit]:
    """Every text box of every face, measured where the renderer draws it."""
    d = dpi or module.counter.dpi
    side = counter_px(module, d)
    pad = text_pad(side)
    sizings = counter_sizings(module, d)
    out: list[BoxFit] = []
    for unit, back in counter_faces(module):
        layout = face_layout(module, unit, back)
        for i, box, text in text_boxes(module, unit, back):
            s = sizings[(layout.name, i)]
            rect = box_rect(box, side)
            _, ink = _placement(text, s.font, s.size_px, rect, box.align, pad)
            out.append(
                BoxFit(
                    unit=unit.id,
                    back=back,
                    layout=layout.name,
                    index=i,
                    template=box.text,
                    text=text,
                    font=s.font,
                    size_px=s.size_px,
                    size_pt=s.size_px * 72.0 / d,
                    dpi=d,
                    box=rect,
                    ink=ink,
                )
            )
    return out
