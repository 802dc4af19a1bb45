"""Whole numbers written in the files the tool reads: ASCII digits 0-9, read here and only here.

Python's own tests are wrong for untrusted text: ``str.isdigit`` accepts "²", which ``int``
then refuses (an internal error); ``int`` reads the Arabic-Indic "٣" as 3, accepts " 7 ",
"+7" and "1_000", and past 4,300 digits raises; the regular expression ``\\d`` matches
every Unicode decimal digit. A number in an orders file, a header, a module source, a table
cell or a VASSAL entry is written with the digits 0-9 and nothing else, and every reader
goes through :func:`read_whole` (the number or ``None``) or :func:`whole` (the number or a
:class:`NumberError` that says what was expected and why the text is not it). Patterns that
take numbers apart use :data:`DIGIT` in place of ``\\d``.

The other way, a fraction the rules keep (a quarter and a half point [DTP 8.57, 11.5126]) is
written for people as a mixed number, ``81 3/4`` (:func:`mixed_number`, :func:`mixed_in_text`),
here and only here: the score tables, ``state show``, the viewer and Westpac's result.
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction

#: A regular-expression class for one ASCII digit: use it where ``\d`` would match "٣".
DIGIT = "[0-9]"
#: No number the tool reads needs more digits; longer text is refused before ``int``.
MAX_DIGITS = 18
_UNSIGNED = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(f"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
HINT = "write whole numbers with the ASCII digits 0-9"


class NumberError(ValueError):
    """Text that is not the whole number expected. ``message`` says what was expected and
    what was found; ``hint`` how to write it."""

    def __init__(self, message: str, hint: str = HINT) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def is_digits(text: object) -> bool:
    """``text`` is one to :data:`MAX_DIGITS` ASCII digits (no sign, no spaces)."""
    return isinstance(text, str) and _UNSIGNED.fullmatch(text) is not None


def read_whole(
    text: object, *, signed: bool = False, lo: int | None = None, hi: int | None = None
) -> int | None:
    """The whole number ``text`` writes in ASCII digits (a leading ``+`` or ``-`` only when
    ``signed``), within ``lo..hi``; ``None`` for anything else. A Python ``int`` (not a
    ``bool``) passes through, so a TOML or JSON value may be given as it was read."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        n = text
    elif isinstance(text, str) and (_SIGNED if signed else _UNSIGNED).fullmatch(text):
        n = int(text)
    else:
        return None
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        return None
    return n


def whole(
    text: object,
    *,
    what: str = "a whole number",
    signed: bool = False,
    lo: int | None = None,
    hi: int | None = None,
) -> int:
    """:func:`read_whole`, or a :class:`NumberError` naming ``what`` was expected and why
    ``text`` is not it (a character that is not one of the digits 0-9 is named)."""
    n = read_whole(text, signed=signed)
    if n is None:
        raise NumberError(f"expected {what}, got {shown(text)}{why_not(text)}")
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        raise NumberError(f"expected {what} in {span}, got {n}", hint=f"a number in {span}")
    return n


def shown(text: object) -> str:
    """``text`` as a message shows it: quoted, and cut short when long."""
    r = repr(text)
    return r if len(r) <= 40 else r[:36] + "...'"


def why_not(text: object) -> str:
    """Why ``text`` is not a number in ASCII digits, as a clause to append to a message: the
    first character that only looks like a digit, or that it is too long."""
    if not isinstance(text, str):
        return ""
    for ch in text:
        if ch.isdigit() and not ("0" <= ch <= "9"):
            name = unicodedata.name(ch, f"U+{ord(ch):04X}")
            return f" ({ch!r} is {name}, not one of the digits 0-9)"
    digits = text.lstrip("+-")
    if digits.isascii() and digits.isdigit() and len(digits) > MAX_DIGITS:
        return f" (more than {MAX_DIGITS} digits)"
    return ""


def mixed_number(v: Fraction) -> int | str:
    """A whole number as such; a fraction as the mixed number people read, ``4 3/4``
    (``3/4`` below one, ``-2 1/4`` below zero). ``str(v)`` is the exact ``19/4``."""
    if v.denominator == 1:
        return int(v)
    whole_part, part = divmod(abs(v.numerator), v.denominator)
    sign = "-" if v < 0 else ""
    if whole_part:
        return f"{sign}{whole_part} {part}/{v.denominator}"
    return f"{sign}{part}/{v.denominator}"


# a fraction written in a text: digits, a slash, digits (no date, path or decimal around it)
_FRACTION = re.compile(r"(?<![0-9/.])([0-9]{1,12})/([0-9]{1,12})(?![0-9/])")


def mixed_in_text(text: str) -> str:
    """``text`` with each fraction in it as a mixed number: "wins by 327/4 VP" reads "wins
    by 81 3/4 VP" (a zero denominator is left as written)."""

    def mixed(m: re.Match[str]) -> str:
        if m.group(2) == "0":
            return m.group(0)
        return str(mixed_number(Fraction(int(m.group(1)), int(m.group(2)))))

    return _FRACTION.sub(mixed, text)
