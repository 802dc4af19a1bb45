"""A ruleset's orders vocabulary, declared as data: sections, verbs, argument shapes, locations.

The orders language (``referee/engine/orders.py``, ``docs/orders.md``) has one core syntax for
every game: header lines, ``[section]`` lines, one order per line, ``#`` comments, the
``[standing]`` and ``[answer]`` sections. *What* may be written inside a section is the
ruleset's: which sections its sequence of play has, which verbs it knows, the shape of each
verb's arguments (a unit, a list of units, a location, a path of locations, a target that is a
unit or a location, keywords such as ``->`` or ``prefer``, rule numbers, plain numbers...),
and how a location is written (a hex id of N digits, a zone, space or box name).

A ruleset declares this once, as a :class:`Vocabulary`; the parser, its error messages (usage
lines, "did you mean" for verbs), the ``--json`` form of a parsed file and the verb table of
``docs/orders/<ruleset>.md`` are all made from the declaration. Whether a named zone exists
on the map is the ruleset's business (its board knows the names); :func:`match_name` is the
core's helper for that check: exact or case-insensitive match, else the nearest name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.numerals import is_digits

# Sections every game has: answers to pending decisions, and standing orders.
ANSWER = "answer"
STANDING = "standing"
CORE_SECTIONS = (ANSWER, STANDING)

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
RULE_RE = re.compile(r"^[0-9]+(\.[0-9]+)*[A-Za-z]?$")
NUMBER_RE = re.compile(r"^[0-9]{1,9}$")
BARE_NAME_RE = re.compile(r"^[^\W\d_][\w'.\-]*$")

_DIGIT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True, slots=True)
class Word:
    """One word of an order line: its text (without quotes), its 1-based column, whether it
    was written in double quotes, and the text exactly as written."""

    text: str
    col: int
    quoted: bool = False
    raw: str = ""

    @property
    def written(self) -> str:
        return self.raw or self.text


@dataclass(frozen=True, slots=True)
class LocationSyntax:
    """How one kind of location is written.

    * ``kind="hex"``: ``digits`` decimal digits (``1423``);
    * ``kind="name"``: a name (a zone, a space, a box, a port). A name of one word is written
      as is (it starts with a letter: ``Aegean``); a name with spaces is written in double
      quotes (``"Norwegian Sea 3"``). The parser keeps the name as written; the ruleset
      checks it against its board (see :func:`match_name`).
    """

    kind: str
    noun: str = "hex"
    digits: int = 4

    @staticmethod
    def hex(digits: int = 4) -> LocationSyntax:
        return LocationSyntax("hex", "hex", digits)

    @staticmethod
    def name(noun: str) -> LocationSyntax:
        return LocationSyntax("name", noun, 0)

    def accepts(self, w: Word) -> bool:
        if self.kind == "hex":
            return not w.quoted and len(w.text) == self.digits and is_digits(w.text)
        if w.quoted:
            return bool(w.text.strip())
        return bool(BARE_NAME_RE.match(w.text))

    def describe(self) -> str:
        if self.kind == "hex":
            n = _DIGIT_WORDS.get(self.digits, str(self.digits))
            return f"a {n}-digit hex id"
        return f"a {self.noun} name"

    def label(self) -> str:
        return "HEX" if self.kind == "hex" else self.noun.upper().replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Part:
    """One argument slot of a verb form.

    ``kind`` says what the word is:

    * ``unit``: a unit (piece) id; ``not_location`` refuses a word that reads as a location;
    * ``location``: a location written as the vocabulary's locations are;
    * ``target``: a unit id, or a location written after ``prefix`` (``hex:2025``);
      ``alone`` (a message) refuses a location target listed with other targets;
    * ``rule``: a rule number (``14.2``); ``number``: a whole number; ``word``: any one word,
      or one of ``choices``; ``decision``: a pending decision's id;
    * ``text``: the rest of the line's words, joined by single spaces;
    * ``keyword``: one of ``choices``, matched without regard to case; when ``sets_mode``,
      the keyword (lower case) becomes the order's ``mode``.

    ``role`` names where the value goes in the :class:`~referee.engine.orders.Order`:
    ``units``, ``hexes`` (locations), ``targets``, ``carrier``, ``value``, ``decision``, or
    any other name (then ``Order.named[role]``). ``many`` takes one or more words.
    ``label`` is the word used in usage lines (``UNIT``, ``HEX``, ``CARRIER``).
    """

    kind: str
    role: str = ""
    many: bool = False
    optional: bool = False
    choices: tuple[str, ...] = ()
    sets_mode: bool = False
    label: str = ""
    prefix: str = ""
    alone: str = ""
    not_location: bool = False

    def usage(self, vocab: Vocabulary) -> str:
        if self.kind == "keyword":
            text = "|".join(self.choices)
            return f"[{text}]" if self.optional else text
        lab = self.label or _default_label(self, vocab)
        if self.kind != "text" and self.many:
            lab = f"{lab} [{lab} ...]"
        return f"[{lab}]" if self.optional else lab


def _default_label(p: Part, vocab: Vocabulary) -> str:
    if p.kind == "location":
        return "|".join(dict.fromkeys(s.label() for s in vocab.locations)) or "LOCATION"
    if p.kind == "word" and p.choices:
        return "|".join(p.choices)
    return {
        "unit": "UNIT",
        "target": "TARGET",
        "rule": "RULE",
        "number": "N",
        "word": "WORD",
        "decision": "DECISION-ID",
        "text": "OPTION",
    }.get(p.kind, p.kind.upper())


@dataclass(frozen=True, slots=True)
class Form:
    """One way of writing a verb: its parts in order, the ``mode`` it gives the order (unless
    a keyword sets it), the sections it is limited to (empty: every section of its verb),
    and what it means when that differs from the verb's ``meaning`` (for the docs)."""

    parts: tuple[Part, ...]
    mode: str | None = None
    sections: tuple[str, ...] = ()
    meaning: str = ""


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb: the sections where it may appear, its forms (tried in order; the first form
    whose words all fit wins), what it means (for the documentation), and ``expect``, the
    short description of its shape used in "expected ..." messages when no form fits (by
    default its first form's usage)."""

    name: str
    sections: tuple[str, ...]
    forms: tuple[Form, ...]
    meaning: str = ""
    note: str = ""
    expect: str = ""

    def usage(self, vocab: Vocabulary) -> str:
        lines = [" ".join([self.name, *(p.usage(vocab) for p in f.parts)]) for f in self.forms]
        text = " | ".join(dict.fromkeys(lines))
        return f"{text}   ({self.note})" if self.note else text

    def form_usages(self, vocab: Vocabulary) -> list[tuple[str, tuple[str, ...], str]]:
        """Each form as ``(usage, sections, meaning)``, for the documentation's verb table."""
        out: list[tuple[str, tuple[str, ...], str]] = []
        for f in self.forms:
            text = " ".join([self.name, *(p.usage(vocab) for p in f.parts)])
            out.append((text, f.sections or self.sections, f.meaning or self.meaning))
        return out


# ---- the answer verb every game has --------------------------------------------------------

ANSWER_VERB = Verb(
    "answer",
    (ANSWER,),
    (Form((Part("decision", "decision"), Part("text", "value", many=True))),),
    meaning="the answer to a pending decision",
    expect="a decision id and an option",
)


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Everything a ruleset's orders may say. ``sections`` are the ruleset's step sections in
    the order they are listed to players; ``[answer]`` and ``[standing]`` are added by the
    core. ``verbs`` in the order they are documented; the core's ``answer`` verb is added
    when the ruleset does not declare its own. ``locations`` say how a location is written
    (one or more kinds, e.g. hexes and port names)."""

    ruleset: str
    sections: tuple[str, ...]
    verbs: tuple[Verb, ...]
    locations: tuple[LocationSyntax, ...] = (LocationSyntax.hex(4),)
    unit_noun: str = "unit"
    _by_name: dict[str, Verb] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        verbs = list(self.verbs)
        if not any(v.name == ANSWER_VERB.name for v in verbs):
            verbs.append(ANSWER_VERB)
            object.__setattr__(self, "verbs", tuple(verbs))
        names = [v.name for v in verbs]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.ruleset}: a verb is declared twice: {names}")
        every = set(self.all_sections())
        for v in verbs:
            if v.name != v.name.lower() or not v.name or " " in v.name:
                raise ValueError(f"{self.ruleset}: verb {v.name!r} must be one lower-case word")
            for s in v.sections:
                if s not in every:
                    raise ValueError(f"{self.ruleset}: verb {v.name!r} in unknown section {s!r}")
            for f in v.forms:
                for s in f.sections:
                    if s not in v.sections:
                        raise ValueError(f"{self.ruleset}: {v.name!r} form in section {s!r}")
        self._by_name.update({v.name: v for v in verbs})

    def all_sections(self) -> tuple[str, ...]:
        return (*self.sections, *(s for s in CORE_SECTIONS if s not in self.sections))

    def verb(self, name: str) -> Verb | None:
        return self._by_name.get(name)

    def verb_names(self) -> list[str]:
        return [v.name for v in self.verbs]

    @property
    def quotes(self) -> bool:
        """Double quotes group a name with spaces into one word; only where names are written
        (a hex-only game's words never hold quotes, so its grammar is the plain one)."""
        return any(s.kind == "name" for s in self.locations)

    def describe_location(self) -> str:
        return " or ".join(s.describe() for s in self.locations)

    def is_location(self, w: Word) -> bool:
        return any(s.accepts(w) for s in self.locations)

    def to_json(self) -> dict[str, Any]:
        """The declaration for machines (clients that build orders, editors)."""
        return {
            "ruleset": self.ruleset,
            "sections": list(self.all_sections()),
            "locations": [
                {"kind": s.kind, "noun": s.noun, "digits": s.digits if s.kind == "hex" else None}
                for s in self.locations
            ],
            "quotes": self.quotes,
            "verbs": [
                {
                    "verb": v.name,
                    "sections": list(v.sections),
                    "usage": v.usage(self),
                    "meaning": v.meaning,
                    "forms": [
                        {
                            "mode": f.mode,
                            "sections": list(f.sections or v.sections),
                            "parts": [_part_json(p) for p in f.parts],
                        }
                        for f in v.forms
                    ],
                }
                for v in self.verbs
            ],
        }


def _part_json(p: Part) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": p.kind, "role": p.role or None, "many": p.many}
    if p.choices:
        d["choices"] = list(p.choices)
    if p.optional:
        d["optional"] = True
    if p.prefix:
        d["prefix"] = p.prefix
    return d


# ---- helpers for declaring ------------------------------------------------------------------


def unit(role: str = "units", label: str = "UNIT", **kw: Any) -> Part:
    return Part("unit", role, label=label, **kw)


def units(role: str = "units", label: str = "UNIT", **kw: Any) -> Part:
    return Part("unit", role, many=True, label=label, **kw)


def location(role: str = "hexes", label: str = "", **kw: Any) -> Part:
    return Part("location", role, label=label, **kw)


def path(role: str = "hexes", label: str = "", **kw: Any) -> Part:
    return Part("location", role, many=True, label=label, **kw)


def keyword(*words: str, sets_mode: bool = False, optional: bool = False) -> Part:
    return Part("keyword", choices=words, sets_mode=sets_mode, optional=optional)


def targets(prefix: str = "", alone: str = "", role: str = "targets") -> Part:
    return Part("target", role, many=True, label="TARGET", prefix=prefix, alone=alone)


def form(
    *parts: Part, mode: str | None = None, sections: Sequence[str] = (), meaning: str = ""
) -> Form:
    return Form(tuple(parts), mode, tuple(sections), meaning)


# ---- names: the core's helper for rulesets ---------------------------------------------------


def match_name(written: str, known: Iterable[str]) -> tuple[str | None, str | None]:
    """``(name, None)`` when ``written`` is one of ``known`` (exactly, or ignoring case and
    runs of spaces); otherwise ``(None, hint)`` with the nearest known name(s) as the hint
    ("did you mean 'Norwegian Sea 3'?"). Rulesets call this to check a zone, space or box
    name against their board, so every game answers an unknown name the same way."""
    names = list(known)
    if written in names:
        return written, None
    fold = _fold(written)
    folded = [n for n in names if _fold(n) == fold]
    if len(folded) == 1:
        return folded[0], None
    return None, nearest_names_hint(written, names)


def nearest_names_hint(written: str, names: Sequence[str]) -> str | None:
    """ "did you mean 'X'?" for the closest of ``names`` (by edit distance, ignoring case),
    or ``None`` when nothing is close."""
    import difflib

    by_fold: dict[str, str] = {}
    for n in names:
        by_fold.setdefault(_fold(n), n)
    close = difflib.get_close_matches(_fold(written), list(by_fold), n=2, cutoff=0.6)
    if not close:
        return None
    shown = " or ".join(repr(by_fold[c]) for c in close)
    return f"did you mean {shown}?"


def _fold(s: str) -> str:
    return " ".join(s.split()).casefold()


# ---- documentation ---------------------------------------------------------------------------


def verb_table(vocab: Vocabulary) -> str:
    """The Markdown verb table of ``docs/orders/<ruleset>.md``: one row per verb form, made
    from the declaration (a test checks that the page holds exactly this table)."""
    rows = ["| order | section | meaning |", "|---|---|---|"]
    for v in vocab.verbs:
        seen: dict[tuple[tuple[str, ...], str], list[str]] = {}
        for text, sections, meaning in v.form_usages(vocab):
            texts = seen.setdefault((sections, meaning), [])
            if text not in texts:
                texts.append(text)
        for (sections, meaning), texts in seen.items():
            usage = " / ".join(f"`{t}`" for t in texts)
            note = f" ({v.note})" if v.note else ""
            row = f"| {_cell(usage)} | {', '.join(sections)} | {_cell(meaning + note)} |"
            rows.append(row)
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """A Markdown table cell: a ``|`` inside it (``cap|box``) must be escaped."""
    return text.replace("|", "\\|")
