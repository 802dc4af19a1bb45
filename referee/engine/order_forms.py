"""Reading one order line's words against its verb's declared forms.

A verb (:class:`~referee.engine.vocabulary.Verb`) has one or more forms, each a sequence of
parts. Matching has two stages, so that a message points at the right word:

1. **shape**: every way the words can be split over a form's parts (keywords in place, each
   part one word or, for a list, one or more) -- a handful of splits for any real line;
2. **words**: each split's words checked against their parts (a unit id, a location as the
   vocabulary writes it, a rule number...).

The first split whose words all fit wins, in form order (so ``retreat 1423 prefer 1524``
reads the hex form before the unit form). When none fits, the split with the fewest bad
words is reported (counting at most :data:`PROBLEMS_KEPT`, so a hostile line of hundreds of
``->`` costs about what a real one does); when no split has the right shape, the verb's
``expect`` is. Messages carry the verb's usage line as their hint.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from referee.engine.vocabulary import (
    ID_RE,
    NUMBER_RE,
    RULE_RE,
    Form,
    Part,
    Verb,
    Vocabulary,
    Word,
)

MAX_SPLITS = 16  # splits examined per line; a real order has one or two
PROBLEMS_KEPT = 6  # per reading: a line of garbage is not worth a message per word

# Order fields a part's role may fill directly; any other role goes to Order.named.
FIELD_ROLES = ("units", "hexes", "targets", "carrier", "value", "decision")


@dataclass(slots=True)
class Reading:
    """A form applied to a line: the argument values by role, the mode, the argument words
    with their columns, and the problems found (column, message)."""

    form: Form
    roles: dict[str, list[str]] = field(default_factory=dict)
    mode: str | None = None
    cols: list[tuple[str, int]] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)


def _min_words(p: Part) -> int:
    return 0 if p.optional else 1


def _splits(parts: tuple[Part, ...], words: list[Word]) -> Iterator[list[list[Word]]]:
    """Every assignment of ``words`` to ``parts`` that respects keywords and counts."""
    yield from _Splitter(parts, words).go(0, 0)


class _Splitter:
    """The search of :func:`_splits`: part ``i`` takes words from ``j`` on, the rest of the
    parts the words after them."""

    def __init__(self, parts: tuple[Part, ...], words: list[Word]) -> None:
        self.parts, self.words = parts, words
        self.need = [0] * (len(parts) + 1)  # the fewest words parts i.. can take
        for i in range(len(parts) - 1, -1, -1):
            self.need[i] = self.need[i + 1] + _min_words(parts[i])

    def go(self, i: int, j: int) -> Iterator[list[list[Word]]]:
        parts, words = self.parts, self.words
        if i == len(parts):
            if j == len(words):
                yield []
            return
        p = parts[i]
        if p.kind == "keyword":
            yield from self._keyword(i, j)
            return
        left = len(words) - j
        most = left - self.need[i + 1] if p.many or p.kind == "text" else 1
        fewest = max(1, left) if i == len(parts) - 1 else 1  # the last part takes every word
        anchor = self._anchor(i)
        for k in range(fewest, min(most, left) + 1):
            if anchor is not None and (
                j + k >= len(words) or words[j + k].text.lower() not in anchor
            ):
                continue  # the keyword that must follow is not there: no split here
            for rest in self.go(i + 1, j + k):
                yield [words[j : j + k], *rest]
        if p.optional:  # an optional part may also take no word
            for rest in self.go(i + 1, j):
                yield [[], *rest]

    def _keyword(self, i: int, j: int) -> Iterator[list[list[Word]]]:
        """A keyword part takes the one word it names (or, if optional, none)."""
        p, words = self.parts[i], self.words
        w = words[j] if j < len(words) else None
        if w is not None and not w.quoted and w.text.lower() in (c.lower() for c in p.choices):
            for rest in self.go(i + 1, j + 1):
                yield [[w], *rest]
        if p.optional:
            for rest in self.go(i + 1, j):
                yield [[], *rest]

    def _anchor(self, i: int) -> set[str] | None:
        """The words of the keyword that must follow part ``i``, if one must."""
        after = self.parts[i + 1] if i + 1 < len(self.parts) else None
        if after is not None and after.kind == "keyword" and not after.optional:
            return {c.lower() for c in after.choices}
        return None


def read_order(
    vocab: Vocabulary, verb: Verb, section: str, words: list[Word]
) -> tuple[Reading | None, list[tuple[int, str]]]:
    """The reading of ``words`` as an order of ``verb`` in ``section``, or ``(None,
    problems)`` with the problems of the closest reading (column, message)."""
    best: Reading | None = None
    seen = 0
    memo: _Memo = {}
    for f in verb.forms:
        elsewhere = _elsewhere(vocab, verb, f, section)
        for split in _splits(f.parts, words):
            seen += 1
            enough = min(len(best.problems), PROBLEMS_KEPT) if best else PROBLEMS_KEPT
            r = _check(vocab, f, split, elsewhere, memo, enough)
            if not r.problems:
                return r, []
            if best is None or len(r.problems) < len(best.problems):
                best = r
            if seen >= MAX_SPLITS:
                break
        if seen >= MAX_SPLITS:
            break
    if best is not None:
        return None, best.problems
    shape = verb.expect or _shape(vocab, verb)
    if not shape:  # a verb of no words (``roll``, ``pass``) given some
        got = " ".join(w.written for w in words)
        return None, [(words[0].col, f"expected nothing after {verb.name!r}, got {got!r}")]
    got = " ".join(w.written for w in words)
    found = f"got {got!r}" if got else "got nothing after it"
    return None, [(_shape_col(verb, words), f"expected {shape}, {found}")]


def _elsewhere(vocab: Vocabulary, verb: Verb, f: Form, section: str) -> str | None:
    """The message for a form written outside the sections it is limited to, naming the
    forms this section does take (``advance ... -> HEX when-vacated`` in [standing])."""
    if not f.sections or section in f.sections:
        return None
    usage = " ".join([verb.name, *(p.usage(vocab) for p in f.parts)])
    where = ", ".join(f"[{s}]" for s in f.sections)
    here = [
        " ".join([verb.name, *(p.usage(vocab) for p in g.parts)])
        for g in verb.forms
        if not g.sections or section in g.sections
    ]
    also = f"; in [{section}] write {' | '.join(here)}" if here else ""
    return f"expected '{usage}' only in {where}{also}"


def _shape(vocab: Vocabulary, verb: Verb) -> str:
    f = verb.forms[0]
    return " ".join(p.usage(vocab) for p in f.parts)


def _shape_col(verb: Verb, words: list[Word]) -> int:
    """Where the shape went wrong: after the last word when there are too few, else at the
    first word no form has room for, else after the last word (a missing keyword)."""
    fewest = min(sum(_min_words(p) for p in f.parts) for f in verb.forms)
    end = words[-1].col + len(words[-1].written) if words else 0
    if len(words) < fewest:
        return end
    first = verb.forms[0].parts
    if all(not p.many and p.kind != "text" for p in first) and len(words) > len(first):
        return words[len(first)].col
    return end


# (part, word) -> (value, problems): a word is checked once per part however many splits
# put it there, so a hostile line of many "->" costs little more than a real one.
_Memo = dict[tuple[int, int], tuple[str | None, tuple[int, str] | None]]


def _check(
    vocab: Vocabulary,
    f: Form,
    split: list[list[Word]],
    elsewhere: str | None,
    memo: _Memo,
    enough: int | None = None,
) -> Reading:
    """Check one split's words; stop early once it has ``enough`` problems (a reading with
    more problems than the best so far is never reported)."""
    r = Reading(f, mode=f.mode)
    if elsewhere is not None:
        first = next((ws[0].col for ws in split if ws), 1)
        r.problems.append((first, elsewhere))
    for p, ws in zip(f.parts, split, strict=True):
        if p.kind == "keyword":
            if ws and p.sets_mode:
                r.mode = ws[0].text.lower()
            continue
        if p.kind == "text":
            _put(r, p, " ".join(w.text for w in ws))
            r.cols.extend((w.text, w.col) for w in ws)
            continue
        for w in ws:
            key = (id(p), id(w))
            found = memo.get(key)
            if found is None:
                found = memo[key] = _word(vocab, p, w)
            value, problem = found
            if problem is not None:
                r.problems.append(problem)
            if enough is not None and len(r.problems) >= enough:
                return r
            r.cols.append((w.text, w.col))
            if value is not None:
                _put(r, p, value)
        if p.kind == "target" and p.alone and len(ws) > 1 and _any_location(vocab, p, ws):
            r.problems.append((ws[0].col, f"expected {p.alone}"))
    return r


def _put(r: Reading, p: Part, value: str) -> None:
    r.roles.setdefault(p.role or p.kind, []).append(value)


def _any_location(vocab: Vocabulary, p: Part, ws: list[Word]) -> bool:
    return any(_is_location_target(vocab, p, w) for w in ws)


def _is_location_target(vocab: Vocabulary, p: Part, w: Word) -> bool:
    return bool(p.prefix) and w.text.lower().startswith(p.prefix.lower())


def _word(vocab: Vocabulary, p: Part, w: Word) -> tuple[str | None, tuple[int, str] | None]:
    """The value of one word for part ``p``, or ``None`` and the problem (column, message)."""
    read = _WORD_KINDS.get(p.kind)
    if read is not None:
        return read(vocab, p, w)
    if p.kind == "word" and p.choices:
        low = w.text.lower()
        if w.quoted or low not in (c.lower() for c in p.choices):
            return None, (w.col, f"expected one of {', '.join(p.choices)}, got {w.written!r}")
        return low, None
    return w.text, None  # word, decision: any word


_WordValue = tuple[str | None, tuple[int, str] | None]


def _unit_word(vocab: Vocabulary, p: Part, w: Word) -> _WordValue:
    """A unit id (never quoted; not a location where the part says so)."""
    if w.quoted or not ID_RE.match(w.text):
        return None, (w.col, f"expected a {vocab.unit_noun} id, got {w.written!r}")
    if p.not_location and vocab.is_location(w):
        return None, (w.col, f"expected a {vocab.unit_noun} id, not a location, got {w.written!r}")
    return w.text, None


def _location_word(vocab: Vocabulary, p: Part, w: Word) -> _WordValue:
    if not vocab.is_location(w):
        return None, (w.col, f"expected {vocab.describe_location()}, got {w.written!r}")
    return w.text, None


def _target_word(vocab: Vocabulary, p: Part, w: Word) -> _WordValue:
    """A unit id, or a location (written after the part's prefix where it has one)."""
    if _is_location_target(vocab, p, w):
        rest = Word(w.text[len(p.prefix) :], w.col + len(p.prefix))
        if not vocab.is_location(rest):
            got = f", got {rest.text!r}"
            return None, (rest.col, f"expected {vocab.describe_location()}{got}")
        return p.prefix.lower() + rest.text, None
    if not w.quoted and ID_RE.match(w.text):
        return w.text, None
    if not p.prefix and vocab.is_location(w):
        return w.text, None
    what = f"a {vocab.unit_noun} id" + (
        f" or {p.prefix}LOCATION" if p.prefix else f" or {vocab.describe_location()}"
    )
    return None, (w.col, f"expected {what}, got {w.written!r}")


def _rule_word(vocab: Vocabulary, p: Part, w: Word) -> _WordValue:
    if w.quoted or not RULE_RE.match(w.text):
        return None, (w.col, f"expected a rule number, got {w.written!r}")
    return w.text, None


def _number_word(vocab: Vocabulary, p: Part, w: Word) -> _WordValue:
    if w.quoted or not NUMBER_RE.match(w.text):
        return None, (w.col, f"expected a whole number, got {w.written!r}")
    return w.text, None


_WORD_KINDS = {
    "unit": _unit_word,
    "location": _location_word,
    "target": _target_word,
    "rule": _rule_word,
    "number": _number_word,
}
