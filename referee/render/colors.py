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


def contrast_ratio(a: str | RGB, b: str | RGB) -> float:
    """WCAG contrast ratio of two colours, 1 (none) .. 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on_white(value: str | RGB, ratio: float = 4.5) -> RGB:
    """``value`` darkened just enough to read as text on white (WCAG AA, 4.5:1), so a label
    written in a white or pale map colour (a route drawn white on the sea) can be read on
    its white halo; a colour that already reads is returned as it is."""
    rgb = parse_color(value) if isinstance(value, str) else value
    amount = 0.0
    while contrast_ratio(darken(rgb, amount), (255, 255, 255)) < ratio and amount < 1.0:
        amount = min(1.0, amount + 0.05)
    return darken(rgb, amount)


def hex_rgb(rgb: RGB) -> str:
    return "#{:02X}{:02X}{:02X}".format(*rgb)


# ---- colour vision deficiency ----------------------------------------------------------------
# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB: what a viewer with
# protanopia, deuteranopia or tritanopia sees. Used to prove that counter colours stay apart.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _to_linear(c: int) -> float:
    v = c / 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _from_linear(v: float) -> int:
    v = min(1.0, max(0.0, v))
    s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(s * 255)


def simulate_cvd(value: str | RGB, kind: str) -> RGB:
    """``value`` as a viewer with colour vision deficiency ``kind`` (a key of
    :data:`CVD_MATRICES`) sees it; ``"normal"`` returns it unchanged."""
    rgb = parse_color(value) if isinstance(value, str) else value
    if kind == "normal":
        return rgb
    lin = [_to_linear(c) for c in rgb]
    m = CVD_MATRICES[kind]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return _from_linear(out[0]), _from_linear(out[1]), _from_linear(out[2])


def lab(value: str | RGB) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_to_linear(c) for c in (parse_color(value) if isinstance(value, str) else value))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str | RGB, b: str | RGB) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, over 10 is plainly different."""
    la, lb = lab(a), lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


def worst_cvd_difference(a: str | RGB, b: str | RGB) -> tuple[float, str]:
    """The smallest :func:`delta_e` between two colours for a normal viewer and the three
    dichromacies, and for whom."""
    kinds = ("normal", *CVD_MATRICES)
    return min((delta_e(simulate_cvd(a, k), simulate_cvd(b, k)), k) for k in kinds)
