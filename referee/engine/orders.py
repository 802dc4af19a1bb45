"""The orders language: what a player types into an email, parsed into :class:`OrdersDoc`.

One core syntax for every game (``docs/orders.md``); the words come from the ruleset's
:class:`~referee.engine.vocabulary.Vocabulary` (``docs/orders/<ruleset>.md``)::

    file      := { line }
    line      := blank | comment | header | section | order
    comment   := "#" text                       (a "#" anywhere starts a comment)
    header    := key ":" value                  (before the first section)
    key       := "game" | "turn" | "side" | "phase" | "previous-report" | "nonce"
                 | "nonce-commit"
    section   := "[" name "]"                   (the ruleset's sections, "answer", "standing")
    order     := verb { word }                  (one per line, words split on spaces; "->" is
                                                 a word of its own; where the vocabulary
                                                 writes names, "a quoted name" is one word)

Each verb's argument shapes are the vocabulary's. This module checks only the *shape* of each
order (does ``move`` have a unit and hexes, is ``2025`` a hex id as the ruleset writes them);
whether the unit exists, belongs to the sender and may do it, or whether a zone name is on
the map, is the ruleset's business (``validate``). Every problem in a file is collected and
reported as ``file:line:col: expected ..., hint ...``; nothing here raises anything but
:class:`OrdersSyntaxError`.

A player's own armoured signature block is skipped: an SSH signature
(``-----BEGIN SSH SIGNATURE-----`` ... ``-----END SSH SIGNATURE-----``) or the old
``-----BEGIN REFEREE SIGNATURE-----`` ... ``-----END REFEREE SIGNATURE-----``. The headers
``nonce:`` and ``nonce-commit:`` carry the player's dice nonces (``docs/dice.md``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import SourcePos
from referee.engine.order_forms import FIELD_ROLES, Reading, read_order
from referee.engine.vocabulary import ANSWER, STANDING, Vocabulary, Word
from referee.numerals import HINT, read_whole, shown, why_not

MAX_ORDERS_BYTES = 1_000_000
MAX_JSON_DEPTH = 20
MAX_LINE_CHARS = 2_000
MAX_PROBLEMS_PER_ORDER = 5  # a line of garbage gets a few messages, not one per word

SIG_BEGIN = "-----BEGIN REFEREE SIGNATURE-----"
SIG_END = "-----END REFEREE SIGNATURE-----"
SSH_SIG_BEGIN = "-----BEGIN SSH SIGNATURE-----"
SSH_SIG_END = "-----END SSH SIGNATURE-----"
_SIG_ENDS = {SIG_BEGIN: SIG_END, SSH_SIG_BEGIN: SSH_SIG_END}

HEADER_KEYS = ("game", "turn", "side", "phase", "previous-report", "nonce", "nonce-commit")
#: What each header line looks like, for the hint when its value is missing.
HEADER_EXAMPLES = {
    "game": "'game: <the game id in state.json>'",
    "turn": "'turn: 3' (the Game-Turn number)",
    "side": "'side: <your side, as in the scenario>'",
    "phase": "'phase: <the phase, as state show names it>'",
    "previous-report": "'previous-report: <the last report's hash>' (pbem fills it in)",
    "nonce": "'nonce: <the nonce your side's previous file committed to>' (pbem fills it in)",
    "nonce-commit": "'nonce-commit: <SHA-256 of a fresh nonce, in hex>' (pbem fills it in)",
}


@dataclass(frozen=True, slots=True)
class OrderError:
    """One problem in an orders file, as ``file:line:col: expected ..., hint ...``."""

    file: str
    line: int
    col: int
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.file}:{self.line}:{self.col}: {self.message}"
        return text + (f" (hint: {self.hint})" if self.hint else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "hint": self.hint,
        }


class OrdersSyntaxError(Exception):
    """The orders file could not be read as orders; ``errors`` lists every problem found."""

    def __init__(self, errors: Sequence[OrderError], partial: OrdersDoc | None = None) -> None:
        self.errors = list(errors)
        # the lines that did parse, so that reference and rule checks can run on them in
        # the same pass (``validate`` reports every problem at once, issue 12 §2)
        self.partial = partial
        super().__init__("\n".join(str(e) for e in self.errors))


@dataclass(frozen=True, slots=True)
class Order:
    """One order line. Arguments are typed by role:

    * ``units``: the unit ids the order is about (the mover, the attackers, the retreater);
    * ``hexes``: a path (``move``), a destination (``advance``, ``retreat ->``), a hex list
      of preferences (``prefer``), or the hex an order is about (``stack``, ``retreat HEX``);
    * ``targets``: attack targets, unit ids or ``hex:NNNN`` for a vacant Defended hex;
    * ``carrier``: the CV of ``cap``/``box``/``place ... cap|box``;
    * ``mode``: ``cap``/``box`` (place), ``prefer`` (standing retreat/displace),
      ``when-vacated`` (standing advance), ``to`` (a definite retreat);
    * ``value``: the rule of ``option``, the chosen option of ``answer``;
    * ``decision``: the decision id an ``answer`` is for;
    * ``named``: the values of any other role a vocabulary declares (``count``, ``item``...),
      read with :meth:`arg`.

    Which field each argument fills is the vocabulary's declaration (a part's ``role``);
    ``hexes`` holds locations however the game writes them (hex ids, zone names...).
    ``cols`` maps each argument word to its column, so a validator can point at the word.
    """

    verb: str
    section: str
    pos: SourcePos
    units: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    carrier: str | None = None
    mode: str | None = None
    value: str | None = None
    decision: str | None = None
    cols: tuple[tuple[str, int], ...] = ()
    text: str = ""
    named: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def locations(self) -> tuple[str, ...]:
        """The order's locations (the ``hexes`` field, named for the hex game it began in)."""
        return self.hexes

    def arg(self, role: str) -> tuple[str, ...]:
        """The values of a role the vocabulary declared (a standard field or a named one)."""
        if role in FIELD_ROLES:
            v = getattr(self, role)
            return v if isinstance(v, tuple) else (() if v is None else (v,))
        return dict(self.named).get(role, ())

    def col_of(self, word: str) -> int:
        for w, c in self.cols:
            if w == word:
                return c
        return self.pos.col

    def pos_of(self, word: str) -> SourcePos:
        return SourcePos(self.pos.file, self.pos.line, self.col_of(word))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "verb": self.verb,
            "section": self.section,
            "pos": self.pos.to_json(),
            "units": list(self.units),
            "hexes": list(self.hexes),
            "targets": list(self.targets),
            "carrier": self.carrier,
            "mode": self.mode,
            "value": self.value,
            "decision": self.decision,
            "cols": [list(c) for c in self.cols],
            "text": self.text,
        }
        if self.named:  # absent when empty, so older records keep their exact form
            d["named"] = {k: list(v) for k, v in self.named}
        return d

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Order:
        p = d.get("pos") or {}
        return Order(
            verb=str(d["verb"]),
            section=str(d.get("section", "")),
            pos=SourcePos(str(p.get("file", "")), int(p.get("line", 0)), int(p.get("col", 1))),
            units=tuple(d.get("units", ())),
            hexes=tuple(d.get("hexes", ())),
            targets=tuple(d.get("targets", ())),
            carrier=d.get("carrier"),
            mode=d.get("mode"),
            value=d.get("value"),
            decision=d.get("decision"),
            cols=tuple((str(a), int(b)) for a, b in d.get("cols", ())),
            text=str(d.get("text", "")),
            named=tuple((str(k), tuple(map(str, v))) for k, v in (d.get("named") or {}).items()),
        )


@dataclass(frozen=True, slots=True)
class OrdersDoc:
    """One parsed orders file. ``orders`` are the step's orders (the set-up, a Combat or
    Movement Phase, a reinforcement placement), ``standing`` the ``[standing]`` section,
    ``answers`` the ``[answer]`` section. ``sections`` names the step sections present."""

    game_id: str | None
    turn: int | None
    side: str | None
    phase: str | None
    previous_report: str | None
    orders: tuple[Order, ...]
    standing: tuple[Order, ...]
    answers: tuple[Order, ...]
    file: str
    sections: tuple[str, ...] = ()
    header_pos: Mapping[str, SourcePos] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "turn": self.turn,
            "side": self.side,
            "phase": self.phase,
            "previous_report": self.previous_report,
            "file": self.file,
            "sections": list(self.sections),
            "orders": [o.to_json() for o in self.orders],
            "standing": [o.to_json() for o in self.standing],
            "answers": [o.to_json() for o in self.answers],
        }


# ---- the text parser -----------------------------------------------------------------------


def _tokens(line: str, quotes: bool) -> tuple[list[Word], int | None]:
    """Words and their 1-based columns; ``->`` is always a word of its own. With ``quotes``
    (a vocabulary that writes names), ``"Norwegian Sea 3"`` is one word. The second value is
    the column of an unclosed quote, if any."""
    out: list[Word] = []
    pattern = r'"[^"]*"|[^\s"]+|"' if quotes else r"\S+"
    for m in re.finditer(pattern, line):
        word, start = m.group(0), m.start()
        if quotes and word.startswith('"'):
            if len(word) < 2 or not word.endswith('"'):
                return out, start + 1
            out.append(Word(word[1:-1].strip(), start + 1, True, word))
            continue
        if "->" not in word:
            out.append(Word(word, start + 1))
            continue
        for part in re.finditer(r"->|(?:(?!->).)+", word):
            out.append(Word(part.group(0), start + part.start() + 1))
    return out, None


_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
"""A control character (any below U+0020 but the tab, and DEL): the first one found is an
error. One search, not a test of each character: a legal-move search parses some thousands
of one-line files a step (``referee options``)."""


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


_READ: dict[tuple[int, str, int, str, str], tuple[Vocabulary, Order]] = {}
"""The order read from a line, by (vocabulary, file name, line number, section, line): an
order is a function of these alone, so a line read before is not read again. A scripted
player checks each candidate file whole (the lines kept so far, which stay where they were,
and one more): a Med Campaign read 78,000 order lines for about 2,000 orders, 30 % of its
CPU. The vocabulary is held, so its ``id`` is not reused while its entries live."""
MAX_READ = 8192  # entries; the whole memo is dropped when full (an order is ~1 kB)


class _Parser:
    def __init__(self, file: str, vocab: Vocabulary) -> None:
        self.file = file
        self.vocab = vocab
        self.section_names = vocab.all_sections()
        self.errors: list[OrderError] = []
        self.header: dict[str, str] = {}
        self.header_pos: dict[str, SourcePos] = {}
        self.section: str | None = None
        self.sections: list[str] = []
        self.orders: list[Order] = []
        self.standing: list[Order] = []
        self.answers: list[Order] = []

    def err(self, line: int, col: int, message: str, hint: str | None = None) -> None:
        self.errors.append(OrderError(self.file, line, col, message, hint))

    # -- lines
    def feed(self, n: int, raw: str) -> None:
        if len(raw) > MAX_LINE_CHARS:
            self.err(n, 1, f"line is {len(raw)} characters long; the limit is {MAX_LINE_CHARS}")
            return
        bad = _CONTROL.search(raw)
        if bad is not None:
            ch = bad.group(0)
            self.err(n, bad.start() + 1, f"control character U+{ord(ch):04X} in an orders file")
            return
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            return
        stripped = line.strip()
        col0 = len(line) - len(line.lstrip()) + 1
        if stripped.startswith("["):
            self.open_section(n, col0, stripped)
            return
        if self.section is None:
            self.header_line(n, col0, stripped)
            return
        self.order_line(n, line)

    def open_section(self, n: int, col: int, text: str) -> None:
        example = f"[{self.vocab.sections[0]}]" if self.vocab.sections else "[standing]"
        if not text.endswith("]"):
            self.err(n, col, f"expected a section such as {example}, got {text!r}")
            return
        name = text[1:-1].strip().lower()
        if name not in self.section_names:
            from referee.source.diagnostics import did_you_mean

            self.err(
                n,
                col + 1,
                f"expected a section name ({', '.join(self.section_names)}), got [{name}]",
                did_you_mean(name, self.section_names),
            )
            self.section = "?"
            return
        self.section = name
        if name not in self.sections:
            self.sections.append(name)
            self.header_pos[f"[{name}]"] = SourcePos(self.file, n, col)

    def header_line(self, n: int, col: int, text: str) -> None:
        if ":" not in text:
            first = text.split()[0].lower()
            verb = self.vocab.verb(first)
            secs = verb.sections if verb is not None else self.vocab.sections
            shown = [f"[{x}]" for x in secs] or ["[standing]"]
            more = f" (or {', '.join(shown[1:3])}...)" if len(shown) > 1 else ""
            self.err(
                n,
                col,
                f"expected a header line 'key: value' or a section such as {shown[0]}",
                f"orders go inside a section; put {shown[0]}{more} above",
            )
            return
        key, _, value = text.partition(":")
        key = key.strip().lower()
        value = value.strip()
        if key not in HEADER_KEYS:
            from referee.source.diagnostics import did_you_mean

            self.err(
                n,
                col,
                f"expected a header key ({', '.join(HEADER_KEYS)}), got {key!r}",
                did_you_mean(key, HEADER_KEYS),
            )
            return
        if key in self.header:
            self.err(n, col, f"header {key!r} given twice", "keep one")
            return
        if not value:
            self.err(
                n,
                col + len(key) + 1,
                f"expected a value after '{key}:', found nothing",
                f"write it on the same line: {HEADER_EXAMPLES[key]}, or delete the line",
            )
            return
        self.header[key] = value
        self.header_pos[key] = SourcePos(self.file, n, col)

    def order_line(self, n: int, line: str) -> None:
        if self.section == "?":
            return  # the unknown section was reported once
        assert self.section is not None
        key = (id(self.vocab), self.file, n, self.section, line)
        known = _READ.get(key)
        if known is not None and known[0] is self.vocab:
            order = known[1]
        else:
            order = self.read_order_line(n, line)
            if order is None:
                return
            if len(_READ) >= MAX_READ:
                _READ.clear()
            _READ[key] = (self.vocab, order)
        if self.section == STANDING:
            self.standing.append(order)
        elif self.section == ANSWER:
            self.answers.append(order)
        else:
            self.orders.append(order)

    def read_order_line(self, n: int, line: str) -> Order | None:
        """The order of line ``n`` of the open section, or None after recording its errors."""
        assert self.section is not None
        toks, open_quote = _tokens(line, self.vocab.quotes)
        if open_quote is not None:
            name = line[open_quote - 1 :].strip()
            self.err(
                n,
                open_quote,
                f"expected a closing '\"' after a quoted name, found the end of the line "
                f"after {shown(name)}",
                'a name with spaces goes between two quotes on one line, e.g. "Norwegian Sea 3"',
            )
            return None
        verb_word, args = toks[0], toks[1:]
        verb_l = verb_word.text.lower()
        vcol = verb_word.col
        pos = SourcePos(self.file, n, vcol)
        verb = None if verb_word.quoted else self.vocab.verb(verb_l)
        if verb is None:
            from referee.source.diagnostics import did_you_mean

            names = self.vocab.verb_names()
            self.err(
                n,
                vcol,
                f"expected an order verb ({', '.join(sorted(names))}), got {verb_word.written!r}",
                did_you_mean(verb_l, names),
            )
            return None
        if self.section not in verb.sections:
            self.err(
                n,
                vcol,
                f"'{verb_l}' is not an order of the [{self.section}] section",
                f"it belongs in: {', '.join('[' + s + ']' for s in verb.sections)}",
            )
            return None
        reading, problems = read_order(self.vocab, verb, self.section, args)
        if reading is None:
            hint = f"usage: {verb.usage(self.vocab)}"
            for col, message in problems[:MAX_PROBLEMS_PER_ORDER]:
                self.err(n, col or vcol + len(verb_l), message, hint)
            if len(problems) > MAX_PROBLEMS_PER_ORDER:
                col = problems[MAX_PROBLEMS_PER_ORDER][0]
                self.err(n, col, "... and more problems in this order", hint)
            return None
        return _order(verb_l, self.section, pos, reading, line.strip())

    # -- the document
    def finish(self) -> OrdersDoc:
        turn: int | None = None
        if "turn" in self.header:
            t = self.header["turn"]
            turn = read_whole(t, hi=9999)
            if turn is None:
                p = self.header_pos["turn"]
                self.err(
                    p.line,
                    p.col,
                    f"expected a Game-Turn number after 'turn:', got {shown(t)}{why_not(t)}",
                    HINT,
                )
        doc = OrdersDoc(
            game_id=self.header.get("game"),
            turn=turn,
            side=self.header.get("side"),
            phase=self.header.get("phase"),
            previous_report=self.header.get("previous-report"),
            orders=tuple(self.orders),
            standing=tuple(self.standing),
            answers=tuple(self.answers),
            file=self.file,
            sections=tuple(s for s in self.sections if s != STANDING),
            header_pos=dict(self.header_pos),
        )
        if self.errors:
            raise OrdersSyntaxError(self.errors, doc)
        return doc


def _order(verb: str, section: str, pos: SourcePos, r: Reading, text: str) -> Order:
    """An :class:`Order` from a reading: the standard roles to their fields, any other role
    to ``named``."""
    roles = r.roles

    def one(role: str) -> str | None:
        vals = roles.get(role)
        return vals[0] if vals else None

    return Order(
        verb=verb,
        section=section,
        pos=pos,
        units=tuple(roles.get("units", ())),
        hexes=tuple(roles.get("hexes", ())),
        targets=tuple(roles.get("targets", ())),
        carrier=one("carrier"),
        mode=r.mode,
        value=one("value"),
        decision=one("decision"),
        cols=tuple(r.cols),
        text=text,
        named=tuple((k, tuple(v)) for k, v in roles.items() if k not in FIELD_ROLES),
    )


def parse_orders(text: str, file: str, vocabulary: Vocabulary) -> OrdersDoc:
    """Parse an orders file written in ``vocabulary``: the one parser of orders, which every
    reader reaches (through :meth:`referee.engine.ruleset.Ruleset.parse_orders`, or a
    ruleset's own scripted player with its vocabulary). JSON when the file looks like JSON
    (starts with ``{``: :func:`parse_orders_json`), the text language otherwise (see the
    module docstring). Raises :class:`OrdersSyntaxError` listing every problem; never
    anything else."""
    if text.lstrip().startswith("{"):
        return parse_orders_json(text, file, vocabulary)
    return _parse_text(text, file, vocabulary)


def _parse_text(text: str, file: str, vocabulary: Vocabulary) -> OrdersDoc:
    """The text language (see the module docstring)."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_ORDERS_BYTES:
        raise OrdersSyntaxError(
            [
                OrderError(
                    file,
                    1,
                    1,
                    f"orders file is {size:,} bytes; the limit is {MAX_ORDERS_BYTES:,}",
                    "is this the right file?",
                )
            ]
        )
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise OrdersSyntaxError(
            [OrderError(file, line, 1, "binary data (a NUL byte) in an orders file")]
        )
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    p = _Parser(file, vocabulary)
    in_sig: str | None = None  # the END line of the open signature block
    for n, raw in enumerate(text.split("\n"), start=1):
        s = raw.strip()
        if in_sig is None and s in _SIG_ENDS:
            in_sig = _SIG_ENDS[s]
            continue
        if in_sig is not None:
            if s == in_sig:
                in_sig = None
            continue
        p.feed(n, raw)
    if in_sig is not None:
        p.err(1, 1, f"expected {in_sig!r} to close the signature block")
    return p.finish()


# ---- machine-made JSON ---------------------------------------------------------------------


def _json_depth(text: str) -> int:
    """Deepest bracket nesting, outside strings, without building anything."""
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def parse_orders_json(text: str | bytes, file: str, vocabulary: Vocabulary) -> OrdersDoc:
    """Machine-made orders: ``{"game": .., "turn": .., "side": .., "phase": ..,
    "previous_report": .., "sections": {"movement": [ORDER, ...], "standing": [...]}}`` where
    an ORDER is a line of the text language (``"move US-CV-1 0203 0204"``) or an object
    ``{"verb": "move", "args": ["US-CV-1", "0203", "0204"]}``. Bounded: at most 1 MB, nesting
    at most 20 deep, UTF-8 only. Where the vocabulary writes names, an argument holding
    spaces (``"Norwegian Sea 3"``) is quoted for the text language."""
    data = _json_object(text, file)
    lines: list[str] = []
    problems: list[OrderError] = []
    _json_header(data, file, lines, problems)
    sections = data.get("sections", {})
    if not isinstance(sections, dict):
        raise _json_fail(
            file, "expected 'sections' to be an object of section name -> list of orders"
        )
    for name, items in sections.items():
        if not isinstance(items, list):
            problems.append(OrderError(file, 1, 1, f"expected a list of orders in {name!r}"))
            continue
        lines.append(f"[{name}]")
        for i, item in enumerate(items):
            line = _json_order(item, f"sections.{name}[{i}]", file, vocabulary, problems)
            if line is not None:
                lines.append(line)
    if problems:
        raise OrdersSyntaxError(problems)
    return _parse_text("\n".join(lines) + "\n", file, vocabulary)


def _json_fail(
    file: str, msg: str, hint: str | None = None, line: int = 1, col: int = 1
) -> OrdersSyntaxError:
    return OrdersSyntaxError([OrderError(file, line, col, msg, hint)])


def _json_object(text: str | bytes, file: str) -> dict[str, Any]:
    """The JSON orders file read within its bounds (size, UTF-8, no NUL, nesting), as an
    object; anything else raises :class:`OrdersSyntaxError`."""
    if isinstance(text, bytes):
        if len(text) > MAX_ORDERS_BYTES:
            raise _json_fail(
                file, f"orders file is {len(text):,} bytes; the limit is {MAX_ORDERS_BYTES:,}"
            )
        if b"\x00" in text:
            raise _json_fail(file, "binary data (a NUL byte) in a JSON orders file")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _json_fail(
                file, f"not valid UTF-8 (byte offset {exc.start})", "save as UTF-8"
            ) from None
    if len(text.encode("utf-8", errors="replace")) > MAX_ORDERS_BYTES:
        raise _json_fail(file, f"orders file is larger than {MAX_ORDERS_BYTES:,} bytes")
    if "\x00" in text:
        raise _json_fail(file, "binary data (a NUL byte) in a JSON orders file")
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise _json_fail(file, f"JSON nested {depth} deep; the limit is {MAX_JSON_DEPTH}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_fail(
            file, f"expected JSON: {exc.msg}", line=exc.lineno, col=exc.colno
        ) from None
    except (ValueError, RecursionError) as exc:
        raise _json_fail(file, f"expected JSON: {exc}") from None
    if not isinstance(data, dict):
        raise _json_fail(file, "expected a JSON object with 'game', 'turn', 'side' and 'sections'")
    return data


_JSON_HEADER = (  # (the text language's header key, the JSON key)
    ("game", "game"),
    ("turn", "turn"),
    ("side", "side"),
    ("phase", "phase"),
    ("previous-report", "previous_report"),
    ("nonce", "nonce"),
    ("nonce-commit", "nonce_commit"),
)


def _json_header(
    data: dict[str, Any], file: str, lines: list[str], problems: list[OrderError]
) -> None:
    """The header lines of the JSON object (a string or number each, one line)."""
    for key, jkey in _JSON_HEADER:
        v = data.get(jkey, data.get(key))
        if v is None:
            continue
        if not isinstance(v, str | int) or isinstance(v, bool) or "\n" in str(v):
            problems.append(OrderError(file, 1, 1, f"expected a string for {jkey!r}"))
            continue
        lines.append(f"{key}: {v}")


def _json_order(
    item: object, where: str, file: str, vocabulary: Vocabulary, problems: list[OrderError]
) -> str | None:
    """One order of a section as a line of the text language: a line as given, or an
    object's verb and arguments (quoted where needed); ``None`` after a problem."""
    if isinstance(item, str):
        if "\n" in item:
            problems.append(OrderError(file, 1, 1, f"{where}: one order per string"))
            return None
        return item
    if not (isinstance(item, dict) and isinstance(item.get("verb"), str)):
        problems.append(
            OrderError(
                file, 1, 1, f"{where}: expected an order line or an object with 'verb' and 'args'"
            )
        )
        return None
    args = item.get("args", [])
    if not isinstance(args, list) or not all(
        isinstance(a, str | int) and not isinstance(a, bool) for a in args
    ):
        problems.append(OrderError(file, 1, 1, f"{where}: 'args' must be strings"))
        return None
    words = [item["verb"], *(_json_word(str(a), vocabulary) for a in args)]
    if any(not w or (any(c.isspace() for c in w) and w[0] != '"') for w in words):
        problems.append(OrderError(file, 1, 1, f"{where}: words may not hold spaces"))
        return None
    return " ".join(words)


def _json_word(arg: str, vocab: Vocabulary) -> str:
    """A JSON argument as a word of the text language: quoted when it holds spaces and the
    vocabulary writes names (a name cannot hold a quote or a comment sign)."""
    spaced = arg.strip() and any(c.isspace() for c in arg)
    if vocab.quotes and spaced and not any(c in arg for c in '"#\n'):
        return f'"{arg}"'
    return arg
