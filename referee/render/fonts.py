"""The three shipped DejaVu faces, for Pillow (counters, board, PNG charts) and reportlab (PDF).

Fonts are part of the output: a system font that differs between machines would change every
counter image and break byte-identical builds. So the program uses only the TTF files shipped
in ``referee/fonts/`` (Bitstream Vera / DejaVu licence, ``LICENSE-DejaVu.txt``), never a font
looked up on the system.

Layout boxes name a face by role: ``bold`` (the default), ``regular`` and ``condensed``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from referee.errors import UserError
from referee.resources import fonts_dir

FACES: dict[str, str] = {
    "bold": "DejaVuSans-Bold.ttf",
    "regular": "DejaVuSans.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
}
ALIASES: dict[str, str] = {"normal": "regular", "plain": "regular", "condensed-bold": "condensed"}

# reportlab font names registered by :func:`register_pdf_fonts`
PDF_NAMES: dict[str, str] = {
    "bold": "Referee-Bold",
    "regular": "Referee-Regular",
    "condensed": "Referee-Condensed",
}


def face_name(name: str) -> str:
    """The canonical face for a layout's ``font`` value; unknown names are a user error."""
    key = ALIASES.get(name, name)
    if key not in FACES:
        raise UserError(
            f"unknown counter font {name!r}",
            hint="fonts: " + ", ".join(sorted(FACES)),
        )
    return key


def font_path(name: str) -> Path:
    path = fonts_dir() / FACES[face_name(name)]
    if not path.is_file():
        raise UserError(
            f"the shipped font {path.name} is missing from {path.parent}",
            hint="reinstall referee; the fonts ship inside the package",
        )
    return path


@lru_cache(maxsize=512)
def pil_font(name: str, size: float) -> ImageFont.FreeTypeFont:
    """A Pillow font of ``size`` pixels (float sizes allowed), cached."""
    return ImageFont.truetype(str(font_path(name)), size=size)


@lru_cache(maxsize=1)
def register_pdf_fonts() -> dict[str, str]:
    """Register the shipped TTFs with reportlab (embedded, subset) and return role -> name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for role, pdf_name in PDF_NAMES.items():
        pdfmetrics.registerFont(TTFont(pdf_name, str(font_path(role))))
    return dict(PDF_NAMES)


def text_width_pt(text: str, font: str, size_pt: float) -> float:
    """Advance width of ``text`` in points, from the TTF metrics (what the PDF will print)."""
    from reportlab.pdfbase import pdfmetrics

    names = register_pdf_fonts()
    return float(pdfmetrics.stringWidth(text, names[face_name(font)], size_pt))


def ascent_descent_pt(font: str, size_pt: float) -> tuple[float, float]:
    """Ascent (positive) and descent (positive) of a face at ``size_pt``."""
    from reportlab.pdfbase import pdfmetrics

    names = register_pdf_fonts()
    asc, desc = pdfmetrics.getAscentDescent(names[face_name(font)], size_pt)
    return float(asc), float(-desc)
