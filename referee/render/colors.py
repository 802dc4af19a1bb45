"""Colour helpers shared by the renderers: parsing ``#RRGGBB``, darkening, contrast, tints."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageColor

from referee.errors import UserError

RGB = tuple[int, int, int]


@lru_cache(maxsize=1024)
def parse_color(value: str) -> RGB:
    """``#RRGGBB``, ``#RGB`` or a CSS colour name, as an RGB triple."""
    try:
        c = ImageColor.getrgb(value)
    except (ValueError, AttributeError):
        raise UserError(
            f"not a colour: {value!r}", hint="write colours as #RRGGBB, e.g. #A8C8F0"
        ) from None
    return c[0], c[1], c[2]


def darken(value: str | RGB, amount: float) -> RGB:
    """``amount`` 0..1 toward black."""
    r, g, b = parse_color(value) if isinstance(value, str) else value
    k = 1.0 - amount
    return round(r * k), round(g * k), round(b * k)


def mix(a: str | RGB, b: str | RGB, t: float) -> RGB:
    """``t`` of the way from ``a`` to ``b``."""
    ra = parse_color(a) if isinstance(a, str) else a
    rb = parse_color(b) if isinstance(b, str) else b
    return tuple(round(x + (y - x) * t) for x, y in zip(ra, rb, strict=True))  # type: ignore[return-value]


def luminance(value: str | RGB) -> float:
    """Relative luminance (WCAG), 0 black .. 1 white."""
    rgb = parse_color(value) if isinstance(value, str) else value

    def lin(c: int) -> float:
        v = c / 255.0
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_text(background: str | RGB) -> str:
    """Black or white, whichever reads better on ``background``."""
    return "#000000" if luminance(background) > 0.179 else "#FFFFFF"


def hex_rgb(rgb: RGB) -> str:
    return "#{:02X}{:02X}{:02X}".format(*rgb)
