"""Unit-type symbols, drawn by the program: ship silhouettes (side view, bow to the right) and
aircraft pictograms (top view, nose up), in the style of 1970s hex-and-counter games.

The silhouettes are data: a few polygons, ellipses and rectangles in a unit box, with the
symbol's natural aspect ratio. Drawing scales them into any box keeping that aspect, draws them
four times oversize on a mask and shrinks the mask (Lanczos) for smooth edges; the result is the
same pixels on every machine. The types are those of Sixth Fleet [3.24] (CV, CH, CG/CA, DD, DE,
SS/SG/SN) and its aircraft roles (fighter, attack, bomber, patrol, helicopter).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from referee.errors import UserError

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Shape:
    """One filled part of a symbol in unit coordinates (0..1 both ways, y down)."""

    kind: str  # poly | ellipse | rect | line
    points: tuple[Point, ...]
    width: float = 0.0  # line width, in units of the symbol's height


@dataclass(frozen=True, slots=True)
class Symbol:
    key: str
    aspect: float  # natural width / height
    shapes: tuple[Shape, ...]


def _poly(*pts: Point) -> Shape:
    return Shape("poly", tuple(pts))


def _rect(x0: float, y0: float, x1: float, y1: float) -> Shape:
    return Shape("rect", ((x0, y0), (x1, y1)))


def _ellipse(x0: float, y0: float, x1: float, y1: float) -> Shape:
    return Shape("ellipse", ((x0, y0), (x1, y1)))


def _line(x0: float, y0: float, x1: float, y1: float, width: float) -> Shape:
    return Shape("line", ((x0, y0), (x1, y1)), width)


def _mirrored(*right_half: Point) -> Shape:
    """An aircraft outline from its right half (nose first), mirrored about x = 0.5."""
    left = [(1.0 - x, y) for x, y in reversed(right_half)]
    return _poly(*right_half, *left)


def _hull(deck: float, keel: float, stern: float = 0.03, bow: float = 0.93) -> Shape:
    """A ship's hull below the main deck: raked bow to the right, near-vertical stern."""
    return _poly((0.0, deck), (1.0, deck), (bow, keel), (stern, keel))


SYMBOLS: dict[str, Symbol] = {
    s.key: s
    for s in (
        Symbol(
            "carrier",
            3.4,
            (
                _poly((0.0, 0.44), (1.0, 0.44), (0.98, 0.56), (0.02, 0.56)),  # flight deck
                _hull(0.56, 0.88, stern=0.08, bow=0.9),
                _rect(0.60, 0.14, 0.74, 0.44),  # island
                _line(0.67, 0.0, 0.67, 0.14, 0.05),  # mast
            ),
        ),
        Symbol(
            "helicopter_carrier",
            3.4,
            (
                _hull(0.56, 0.9),
                _rect(0.52, 0.30, 0.84, 0.56),  # forward superstructure
                _rect(0.60, 0.14, 0.74, 0.30),  # bridge
                _line(0.67, 0.0, 0.67, 0.14, 0.05),
                _rect(0.06, 0.48, 0.46, 0.56),  # flat helicopter deck aft
            ),
        ),
        Symbol(
            "cruiser",
            3.6,
            (
                _hull(0.6, 0.9),
                _rect(0.32, 0.36, 0.66, 0.6),
                _rect(0.56, 0.2, 0.68, 0.36),  # bridge
                _line(0.44, 0.04, 0.44, 0.36, 0.05),
                _line(0.62, 0.0, 0.62, 0.2, 0.05),
                _rect(0.76, 0.5, 0.86, 0.6),  # forward launcher
                _line(0.8, 0.5, 0.9, 0.4, 0.05),
                _rect(0.1, 0.5, 0.2, 0.6),  # aft launcher
                _line(0.16, 0.5, 0.06, 0.4, 0.05),
            ),
        ),
        Symbol(
            "destroyer",
            3.4,
            (
                _hull(0.6, 0.9),
                _rect(0.36, 0.38, 0.64, 0.6),
                _rect(0.42, 0.2, 0.5, 0.38),  # funnel
                _line(0.58, 0.04, 0.58, 0.38, 0.06),
                _rect(0.74, 0.5, 0.81, 0.6),  # gun
                _line(0.8, 0.53, 0.9, 0.5, 0.05),
                _rect(0.14, 0.5, 0.21, 0.6),
            ),
        ),
        Symbol(
            "escort",
            3.0,
            (
                _hull(0.62, 0.9, bow=0.92),
                _rect(0.38, 0.4, 0.62, 0.62),
                _line(0.52, 0.1, 0.52, 0.4, 0.06),
                _rect(0.72, 0.53, 0.78, 0.62),
                _line(0.77, 0.56, 0.86, 0.53, 0.05),
            ),
        ),
        Symbol(
            "submarine",
            3.6,
            (
                _ellipse(0.0, 0.5, 1.0, 0.9),
                _poly((0.56, 0.56), (0.58, 0.22), (0.69, 0.22), (0.72, 0.56)),  # sail
                _poly((0.0, 0.62), (0.04, 0.48), (0.07, 0.62)),  # rudder
            ),
        ),
        Symbol(
            "missile_submarine",
            3.6,
            (
                _ellipse(0.0, 0.5, 1.0, 0.9),
                _poly((0.6, 0.56), (0.62, 0.22), (0.73, 0.22), (0.76, 0.56)),
                _poly((0.26, 0.56), (0.3, 0.36), (0.58, 0.36), (0.6, 0.56)),  # missile deck
                _poly((0.0, 0.62), (0.04, 0.48), (0.07, 0.62)),
            ),
        ),
        Symbol(
            "fighter",
            1.0,
            (
                _mirrored(
                    (0.5, 0.0),
                    (0.54, 0.14),
                    (0.55, 0.36),
                    (0.93, 0.68),
                    (0.93, 0.76),
                    (0.56, 0.70),
                    (0.56, 0.83),
                    (0.75, 0.95),
                    (0.75, 1.0),
                    (0.52, 0.98),
                ),
            ),
        ),
        Symbol(
            "attack",
            1.0,
            (
                _mirrored(
                    (0.5, 0.0),
                    (0.55, 0.12),
                    (0.56, 0.34),
                    (0.9, 0.54),
                    (0.9, 0.62),
                    (0.57, 0.6),
                    (0.57, 0.8),
                    (0.73, 0.9),
                    (0.73, 0.96),
                    (0.52, 0.95),
                ),
                _ellipse(0.66, 0.62, 0.72, 0.8),  # underwing stores
                _ellipse(0.28, 0.62, 0.34, 0.8),
            ),
        ),
        Symbol(
            "bomber",
            1.0,
            (
                _mirrored(
                    (0.5, 0.0),
                    (0.535, 0.07),
                    (0.54, 0.34),
                    (0.98, 0.6),
                    (0.98, 0.66),
                    (0.56, 0.58),
                    (0.55, 0.82),
                    (0.76, 0.93),
                    (0.76, 0.98),
                    (0.52, 0.97),
                ),
                _rect(0.555, 0.3, 0.63, 0.62),  # engines at the wing roots
                _rect(0.37, 0.3, 0.445, 0.62),
            ),
        ),
        Symbol(
            "patrol",
            1.0,
            (
                _mirrored(
                    (0.5, 0.0),
                    (0.54, 0.06),
                    (0.55, 0.32),
                    (0.98, 0.36),
                    (0.98, 0.44),
                    (0.55, 0.46),
                    (0.54, 0.84),
                    (0.7, 0.88),
                    (0.7, 0.95),
                    (0.52, 0.95),
                ),
                _rect(0.63, 0.25, 0.69, 0.42),  # four turboprops
                _rect(0.78, 0.27, 0.84, 0.42),
                _rect(0.31, 0.25, 0.37, 0.42),
                _rect(0.16, 0.27, 0.22, 0.42),
            ),
        ),
        Symbol(
            "helicopter",
            1.0,
            (
                _line(0.08, 0.08, 0.92, 0.72, 0.06),  # rotor blades
                _line(0.92, 0.08, 0.08, 0.72, 0.06),
                _ellipse(0.38, 0.16, 0.62, 0.62),  # cabin
                _rect(0.47, 0.55, 0.53, 0.94),  # tail boom
                _rect(0.38, 0.9, 0.62, 0.96),  # tail rotor
            ),
        ),
    )
}

# The symbol drawn when a unit type names none: by category (Sixth Fleet [3.2]).
CATEGORY_DEFAULT: dict[str, str] = {
    "surface": "destroyer",
    "submarine": "submarine",
    "air": "fighter",
}

SUPERSAMPLE = 4


def symbol(key: str) -> Symbol:
    try:
        return SYMBOLS[key]
    except KeyError:
        raise UserError(
            f"unknown unit symbol {key!r}",
            hint="symbols the program draws: " + ", ".join(sorted(SYMBOLS)),
        ) from None


def fit_rect(
    box: tuple[float, float, float, float], aspect: float
) -> tuple[float, float, float, float]:
    """The largest rectangle of ``aspect`` (w/h) centred in ``box`` = (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    if bw / max(bh, 1e-9) > aspect:
        w, h = bh * aspect, bh
    else:
        w, h = bw, bw / aspect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def symbol_mask(key: str, width: int, height: int) -> Image.Image:
    """An anti-aliased ``L`` mask of the symbol, ``width`` x ``height`` pixels, filled (255)
    where the symbol is. The symbol keeps its aspect and is centred."""
    sym = symbol(key)
    ss = SUPERSAMPLE
    big = Image.new("L", (max(1, width * ss), max(1, height * ss)), 0)
    draw = ImageDraw.Draw(big)
    x0, y0, x1, y1 = fit_rect((0.0, 0.0, width * ss, height * ss), sym.aspect)
    sw, sh = x1 - x0, y1 - y0

    def px(p: Point) -> tuple[float, float]:
        return x0 + p[0] * sw, y0 + p[1] * sh

    for shape in sym.shapes:
        pts = [px(p) for p in shape.points]
        if shape.kind == "poly":
            draw.polygon(pts, fill=255)
        elif shape.kind == "rect":
            draw.rectangle([pts[0], pts[1]], fill=255)
        elif shape.kind == "ellipse":
            draw.ellipse([pts[0], pts[1]], fill=255)
        elif shape.kind == "line":
            draw.line(pts, fill=255, width=max(1, round(shape.width * sh)))
    return big.resize((max(1, width), max(1, height)), Image.Resampling.LANCZOS)


def draw_symbol(
    image: Image.Image,
    key: str,
    box: tuple[float, float, float, float],
    color: str | tuple[int, int, int],
) -> None:
    """Paint symbol ``key`` in ``color`` into ``box`` (pixel rect x0, y0, x1, y1) of ``image``."""
    x0, y0 = round(box[0]), round(box[1])
    w, h = round(box[2]) - x0, round(box[3]) - y0
    if w <= 0 or h <= 0:
        return
    mask = symbol_mask(key, w, h)
    image.paste(color, (x0, y0, x0 + w, y0 + h), mask)
