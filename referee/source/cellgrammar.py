"""Cell grammars of named tables: what a cell may say, and the value it stands for.

A table declares one grammar for all its cells (``cells = "die_or_less"``) or one per column
(``cells = { "cost_*" = "cost", "*" = "text" }``). A grammar name ending in ``?`` also accepts
an empty cell (value ``None``). :func:`parse_cell` raises :class:`ValueError` whose text says
what was expected, so the checker can report the cell as ``file:line:col``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.numerals import read_whole

_NUM = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")
_DIE = re.compile(r"^([0-9]{1,9})(?:\s*-\s*([0-9]{1,9}))?$")
_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_CRT = re.compile(r"^(?:\*|([0-9])(?:-([0-9]))?)$")
_COUNT = re.compile(r"^([0-9]{1,9})\s+(\S+)$")


@dataclass(frozen=True, slots=True)
class Grammar:
    name: str
    expect: str  # "a whole number or '-' (no entry)": used in messages
    hint: str
    parse: Callable[[str], Any]  # raises ValueError


def _text(s: str) -> str:
    return s


def _int(s: str) -> int:
    n = read_whole(s, signed=True)
    if n is None:
        raise ValueError
    return n


def _number(s: str) -> float:
    if not _NUM.match(s):
        raise ValueError
    return float(s)


def _cost(s: str) -> int | None:
    """Movement cost: a whole number, or ``-`` (also ``no``, ``none`` or empty): no entry."""
    if s in ("-", "no", "none", ""):
        return None
    n = read_whole(s)
    if n is None:
        raise ValueError
    return n


def _yes_no(s: str) -> bool:
    low = s.lower()
    if low in ("yes", "true", "1"):
        return True
    if low in ("no", "false", "0", ""):
        return False
    raise ValueError


def _color(s: str) -> str:
    if not _COLOR.match(s):
        raise ValueError
    return s.upper()


def _die_range(s: str) -> tuple[int, int]:
    """``4`` or ``1-3``: a die roll or a range of rolls, low to high."""
    m = _DIE.match(s)
    if not m:
        raise ValueError
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if hi < lo:
        raise ValueError
    return lo, hi


def die_or_less(s: str) -> tuple[int | None, int | None]:
    """A Sixth Fleet-style CRT entry [8.9]: ``*`` (no effect, no roll) is ``(None, None)``;
    ``N`` or ``1-N`` is a roll of N or less, ``(1, N)`` (``0`` is ``(0, 0)``, never)."""
    m = _CRT.match(s.strip())
    if not m:
        raise ValueError
    if s.strip() == "*":
        return None, None
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if m.group(2) is None:
        lo = 1 if hi >= 1 else 0
    if hi > 6 or lo > hi or (m.group(2) and lo != 1):
        raise ValueError
    return lo, hi


def _counts(s: str) -> tuple[tuple[str, int], ...]:
    """``4 SO-M21-SY, 2 SO-Y28-SY``: how many of each named thing, in the order written."""
    out: list[tuple[str, int]] = []
    for item in (x.strip() for x in s.split(",")):
        m = _COUNT.match(item)
        if not m or int(m.group(1)) < 1:
            raise ValueError
        out.append((m.group(2), int(m.group(1))))
    return tuple(out)


GRAMMARS: dict[str, Grammar] = {
    g.name: g
    for g in (
        Grammar("text", "any text", "", _text),
        Grammar("int", "a whole number", "e.g. 3 or -2", _int),
        Grammar("number", "a number", "e.g. 1.5", _number),
        Grammar("cost", "a whole number or '-' (no entry)", "write '-' for no entry", _cost),
        Grammar("yes_no", "yes or no", "write yes or no", _yes_no),
        Grammar("color", "a colour like #A0C4E8", "six hex digits after '#'", _color),
        Grammar("die_range", "a die roll or a range like 1-3", "e.g. 4 or 1-3", _die_range),
        Grammar(
            "die_or_less",
            "'*' or a die roll N or range 1-N (a roll of N or less)",
            "write '*' for no effect, or a die range like 1 or 1-2",
            die_or_less,
        ),
        Grammar(
            "counts",
            "a list like '4 NAME, 2 NAME'",
            'quote it: "4 SO-M21-SY, 2 SO-Y28-SY"',
            _counts,
        ),
    )
}


def grammar_known(name: str) -> bool:
    return name.removesuffix("?") in GRAMMARS


def parse_cell(grammar: str, text: str) -> Any:
    """The value of one cell under ``grammar`` (``int``, ``int?``...); raises ValueError."""
    optional = grammar.endswith("?")
    g = GRAMMARS[grammar.removesuffix("?")]
    s = text.strip()
    if optional and s == "":
        return None
    if s == "" and g.name not in ("text", "cost", "yes_no"):
        raise ValueError(g.expect)
    try:
        return g.parse(s)
    except ValueError:
        raise ValueError(g.expect) from None


def grammar_of(grammar: str) -> Grammar:
    return GRAMMARS[grammar.removesuffix("?")]
