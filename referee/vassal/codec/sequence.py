"""VASSAL's SequenceEncoder: the single escaping scheme behind every compound string.

Piece types and states, commands, string arrays and grid formats are all SequenceEncoder
sequences (vassal-format.md §1), and almost every broken save comes from a mistake here,
so this module is a line-by-line port of ``VASSAL/tools/SequenceEncoder.java`` rather than
a re-imagining of it.

Encoding a token list with delimiter ``d`` (§1.1):

* tokens are joined with ``d``; a ``None`` token is an empty string between delimiters;
* inside a token a single ``\\`` goes before every ``d`` and nothing else is escaped;
* a token that **ends** with ``\\``, or both starts and ends with ``'``, is wrapped in a pair
  of single quotes. (§1.1 step 3 says "starts with ``\\``"; the Java source, at every
  version we checked, tests ``endsWith("\\\\")``. We follow the Java: it is what makes a
  token ending in a backslash survive, so the "known ambiguity" of §1.2 does not arise.)
* a sequence with no tokens at all is ``None`` (Java ``null``), not ``""``.

Decoding (§1.2) cuts at the first delimiter not immediately preceded by ``\\``, drops that
one backslash per escaped delimiter, and strips one pair of surrounding quotes. Nested
sequences (§1.3) are undone one level per :meth:`SequenceDecoder.next_token`; never split a
nested string in one go.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Final, TypeVar, overload

__all__ = [
    "ESC",
    "TAB",
    "SequenceDecoder",
    "SequenceEncoder",
    "decode_sequence",
    "decode_string_array",
    "encode_sequence",
    "encode_string_array",
    "java_double_str",
]

ESC: Final = "\x1b"
"""Delimiter between commands in a command stream (§6.3)."""
TAB: Final = "\t"
"""Delimiter between the levels of a decorator chain (§5.2) and many command fields."""

# SE's "UGLY" characters: if the delimiter is one of them, numbers and booleans must be
# escaped like strings because their text could contain the delimiter (§1.1 step 4).
_UGLY: Final = "-.0123456789EINaefilnrstuy"

_INT_RE: Final = re.compile(r"[+-]?[0-9]+")
_DOUBLE_RE: Final = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)"
)
_INT_RANGE: Final = (-(2**31), 2**31 - 1)
_LONG_RANGE: Final = (-(2**63), 2**63 - 1)

_T = TypeVar("_T")
_MISSING: Final = object()


def java_double_str(value: float) -> str:
    """Java's ``String.valueOf(double)``: ``1.0``, ``0.001``, ``1.0E7``, ``NaN``.

    Needed because SE appends doubles with Java's formatting (§1.1 step 4), which differs
    from Python's ``repr`` (``1e-05`` against ``1.0E-5``).
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e7:
        text = repr(value)
        return text if "." in text else text + ".0"
    _sign, digits, exponent = Decimal(repr(magnitude)).normalize().as_tuple()
    assert isinstance(exponent, int)
    mantissa_digits = "".join(map(str, digits))
    sci_exponent = len(digits) - 1 + exponent
    mantissa = mantissa_digits[0] + "." + (mantissa_digits[1:] or "0")
    return f"{'-' if value < 0 else ''}{mantissa}E{sci_exponent}"


class SequenceEncoder:
    """Builds one SE sequence token by token, exactly like ``SequenceEncoder.append``.

    ``append`` accepts what the Java overloads accept: ``str`` (``None`` = empty token),
    ``bool``, ``int`` and ``float``. Numbers and booleans are written with Java's
    ``String.valueOf`` and are not escaped unless the delimiter is an "ugly" one (§1.1).
    """

    __slots__ = ("_delimiter", "_parts", "_ugly")

    def __init__(self, delimiter: str) -> None:
        if len(delimiter) != 1:
            raise ValueError(f"delimiter must be one character, got {delimiter!r}")
        self._delimiter = delimiter
        self._parts: list[str] | None = None
        self._ugly = delimiter in _UGLY

    def append(self, token: str | bool | int | float | None) -> SequenceEncoder:
        """Append one token (see the class docstring for the accepted types)."""
        if isinstance(token, bool):
            number = "true" if token else "false"
        elif isinstance(token, int):
            number = str(token)
        elif isinstance(token, float):
            number = java_double_str(token)
        else:
            self._add(_escape(token, self._delimiter) if token is not None else "")
            return self
        self._add(_escape(number, self._delimiter) if self._ugly else number)
        return self

    def extend(self, tokens: Iterable[str | bool | int | float | None]) -> SequenceEncoder:
        """Append every token of ``tokens`` in order."""
        for token in tokens:
            self.append(token)
        return self

    @property
    def value(self) -> str | None:
        """The encoded sequence; ``None`` when nothing was appended (SE ``getValue``)."""
        return None if self._parts is None else self._delimiter.join(self._parts)

    def _add(self, encoded: str) -> None:
        if self._parts is None:
            self._parts = []
        self._parts.append(encoded)


def _escape(token: str, delimiter: str) -> str:
    """One token as SE ``append(String)`` writes it: escape ``d``, quote-wrap if needed."""
    escaped = token.replace(delimiter, "\\" + delimiter) if delimiter in token else token
    if token.endswith("\\") or (token.startswith("'") and token.endswith("'")):
        return "'" + escaped + "'"
    return escaped


def encode_sequence(
    tokens: Iterable[str | bool | int | float | None], delimiter: str
) -> str | None:
    """Encode ``tokens`` with ``delimiter`` (§1.1); ``None`` if ``tokens`` is empty."""
    return SequenceEncoder(delimiter).extend(tokens).value


def decode_sequence(text: str | None, delimiter: str) -> list[str]:
    """Decode every token of one SE level (§1.2); ``None`` decodes to ``[]``."""
    return list(SequenceDecoder(text, delimiter))


def encode_string_array(items: Iterable[str | None]) -> str:
    """``StringArrayConfigurer.arrayToString`` (§1.4): SE with ``,``; empty array is ``""``."""
    return encode_sequence(("" if item is None else item for item in items), ",") or ""


def decode_string_array(text: str | None) -> list[str]:
    """``StringArrayConfigurer.stringToArray`` (§1.4): ``""`` and ``None`` give ``[]``."""
    return decode_sequence(text, ",") if text else []


class SequenceDecoder(Iterator[str]):
    """Reads one SE level token by token, a port of ``SequenceEncoder.Decoder`` (§1.2).

    The typed readers (``next_int`` and friends) return their default when the sequence
    is exhausted or the token does not parse, which is how VASSAL reads old files with
    fewer fields. Note that a failed parse still consumes the token, as in Java.
    """

    __slots__ = ("_delimiter", "_end", "_pos", "_text")

    def __init__(self, text: str | None, delimiter: str) -> None:
        if len(delimiter) != 1:
            raise ValueError(f"delimiter must be one character, got {delimiter!r}")
        self._text = text or ""
        self._pos: int | None = None if text is None else 0  # None once exhausted
        self._delimiter = delimiter
        self._end = _unescaped(delimiter)

    def has_more(self) -> bool:
        """True while a token can still be read (an empty remainder still yields ``""``)."""
        return self._pos is not None

    @property
    def remainder(self) -> str | None:
        """The undecoded rest of the sequence (``None`` once exhausted)."""
        return None if self._pos is None else self._text[self._pos :]

    def __iter__(self) -> SequenceDecoder:
        return self

    def __next__(self) -> str:
        if self._pos is None:
            raise StopIteration
        return self._next()

    @overload
    def next_token(self) -> str: ...

    @overload
    def next_token(self, default: _T) -> str | _T: ...

    def next_token(self, default: object = _MISSING) -> object:
        """The next token; ``default`` when exhausted (``IndexError`` if no default given)."""
        if self._pos is None:
            if default is _MISSING:
                raise IndexError("sequence exhausted")
            return default
        return self._next()

    def next_int(self, default: int) -> int:
        """``nextInt``: a 32-bit Java ``Integer.parseInt`` of the next token, else ``default``."""
        return self._next_integer(default, _INT_RANGE)

    def next_long(self, default: int) -> int:
        """``nextLong``: a 64-bit Java ``Long.parseLong`` of the next token, else ``default``."""
        return self._next_integer(default, _LONG_RANGE)

    def next_float(self, default: float) -> float:
        """``nextDouble``: Java ``Double.parseDouble`` of the next token, else ``default``."""
        if self._pos is None:
            return default
        token = self._next().strip()
        if not _DOUBLE_RE.fullmatch(token):
            return default
        return float(token.rstrip("fFdD").replace("Infinity", "inf").replace("NaN", "nan"))

    def next_bool(self, default: bool) -> bool:
        """``nextBoolean``: true only for the exact text ``true``; ``default`` if exhausted."""
        return self._next() == "true" if self._pos is not None else default

    def next_char(self, default: str) -> str:
        """``nextChar``: the first character of the next token, ``default`` if empty."""
        if self._pos is None:
            return default
        token = self._next()
        return token[0] if token else default

    def next_string_array(self, min_length: int = 0) -> list[str]:
        """``nextStringArray``: the next token as a §1.4 string array, padded with ``""``."""
        items = decode_string_array(self._next()) if self._pos is not None else []
        return items + [""] * (min_length - len(items))

    def _next_integer(self, default: int, bounds: tuple[int, int]) -> int:
        if self._pos is None:
            return default
        token = self._next()
        if not _INT_RE.fullmatch(token):
            return default
        number = int(token)
        return number if bounds[0] <= number <= bounds[1] else default

    def _next(self) -> str:
        """``Decoder.nextToken`` for a non-exhausted decoder.

        Java scans for the first delimiter whose preceding raw character is not ``\\``
        and removes the one backslash in front of every escaped delimiter before it.
        Since every delimiter inside the token is escaped, one ``replace`` removes exactly
        those backslashes. The decoder keeps the whole text and a position: the search
        (:func:`_unescaped`, in C) and the token's slice cost the token's length, never
        the rest's, so a sequence of any length decodes in linear time (issue 31: a
        mutated save of many escaped tokens took seconds when each token copied or
        counted the whole rest).
        """
        pos = self._pos
        assert pos is not None
        text, delimiter = self._text, self._delimiter
        found = self._end.search(text, pos)
        if found is None:
            value = text[pos:]
            self._pos = None
        else:
            value = text[pos : found.start()]
            self._pos = found.start() + 1
        if delimiter in value:
            value = value.replace("\\" + delimiter, delimiter)
        if len(value) > 1 and value[0] == "'" and value[-1] == "'":
            value = value[1:-1]
        return value


@functools.cache
def _unescaped(delimiter: str) -> re.Pattern[str]:
    """The delimiter where the raw character before it is not a backslash (at the start of
    the text, or right after the previous delimiter, it never is)."""
    return re.compile(r"(?<!\\)" + re.escape(delimiter))
