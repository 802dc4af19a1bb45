"""The orders language: what a player types into an email, parsed into :class:`OrdersDoc`.

The grammar (``docs/orders.md`` has it in full, with examples)::

    file      := { line }
    line      := blank | comment | header | section | order
    comment   := "#" text                       (a "#" anywhere starts a comment)
    header    := key ":" value                  (before the first section)
    key       := "game" | "turn" | "side" | "phase" | "previous-report"
    section   := "[" name "]"                   (setup, combat, movement, reinforcement,
                                                 answer, standing)
    order     := verb { arg }                   (one per line, words split on spaces)

Verbs and their arguments are listed in :data:`VERBS`. This module checks only the *shape*
of each order (does ``move`` have a unit and hexes, is ``2025`` four digits); whether the unit
exists, belongs to the sender and may do it is the ruleset's business (``validate``). Every
problem in a file is collected and reported as ``file:line:col: expected ..., hint ...``;
nothing here raises anything but :class:`OrdersSyntaxError`.

A signed report pasted into a reply, or a player's own armoured signature block, is skipped
(``-----BEGIN REFEREE SIGNATURE-----`` ... ``-----END REFEREE SIGNATURE-----``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import SourcePos

MAX_ORDERS_BYTES = 1_000_000
MAX_JSON_DEPTH = 20
MAX_LINE_CHARS = 2_000

SIG_BEGIN = "-----BEGIN REFEREE SIGNATURE-----"
SIG_END = "-----END REFEREE SIGNATURE-----"

HEADER_KEYS = ("game", "turn", "side", "phase", "previous-report")
SECTIONS = ("setup", "combat", "movement", "reinforcement", "answer", "standing")

# verb -> sections where it may appear
VERBS: dict[str, tuple[str, ...]] = {
    "place": ("setup", "reinforcement"),
    "move": ("movement",),
    "stack": ("setup", "movement", "reinforcement"),
    "base": ("setup", "movement", "reinforcement"),
    "cap": ("setup", "movement", "reinforcement"),
    "box": ("setup", "movement", "reinforcement"),
    "attack": ("combat",),
    "advance": ("combat", "standing"),
    "retreat": ("combat", "standing"),
    "displace": ("combat", "standing"),
    "eliminate": ("standing",),
    "option": ("movement", "combat", "setup"),
    "answer": ("answer",),
}

USAGE: dict[str, str] = {
    "place": "place UNIT HEX | place UNIT cap CARRIER | place UNIT box CARRIER",
    "move": "move UNIT HEX [HEX ...]",
    "stack": "stack HEX UNIT [UNIT ...]   (top first)",
    "base": "base UNIT HEX",
    "cap": "cap UNIT CARRIER",
    "box": "box UNIT CARRIER",
    "attack": "attack UNIT [UNIT ...] -> TARGET [TARGET ...]   (a target is a unit or hex:NNNN)",
    "advance": "advance UNIT [UNIT ...] -> HEX [when-vacated]",
    "retreat": "retreat UNIT -> HEX | retreat UNIT prefer HEX ... | retreat HEX prefer HEX ...",
    "displace": "displace UNIT prefer HEX [HEX ...]",
    "eliminate": "eliminate UNIT [UNIT ...]   (enemy units, first choice first)",
    "option": "option RULE   (e.g. option 14.2)",
    "answer": "answer DECISION-ID OPTION",
}

_HEX_RE = re.compile(r"^\d{4}$")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
_RULE_RE = re.compile(r"^\d+(\.\d+)*[A-Za-z]?$")


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

    def __init__(self, errors: Sequence[OrderError]) -> None:
        self.errors = list(errors)
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
    * ``decision``: the decision id an ``answer`` is for.

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

    def col_of(self, word: str) -> int:
        for w, c in self.cols:
            if w == word:
                return c
        return self.pos.col

    def pos_of(self, word: str) -> SourcePos:
        return SourcePos(self.pos.file, self.pos.line, self.col_of(word))

    def to_json(self) -> dict[str, Any]:
        return {
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


def _tokens(line: str) -> list[tuple[str, int]]:
    """Words and their 1-based columns; ``->`` is always a word of its own."""
    out: list[tuple[str, int]] = []
    for m in re.finditer(r"\S+", line):
        word, start = m.group(0), m.start()
        for part in re.finditer(r"->|(?:(?!->).)+", word):
            out.append((part.group(0), start + part.start() + 1))
    return out


def _strip_comment(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


class _Parser:
    def __init__(self, file: str) -> None:
        self.file = file
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
        for i, ch in enumerate(raw):
            if (ord(ch) < 32 and ch not in "\t") or ch == "\x7f":
                self.err(n, i + 1, f"control character U+{ord(ch):04X} in an orders file")
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
        if not text.endswith("]"):
            self.err(n, col, f"expected a section such as [movement], got {text!r}")
            return
        name = text[1:-1].strip().lower()
        if name not in SECTIONS:
            from referee.source.diagnostics import did_you_mean

            self.err(
                n,
                col + 1,
                f"expected a section name ({', '.join(SECTIONS)}), got [{name}]",
                did_you_mean(name, SECTIONS),
            )
            self.section = "?"
            return
        self.section = name
        if name not in self.sections:
            self.sections.append(name)

    def header_line(self, n: int, col: int, text: str) -> None:
        if ":" not in text:
            self.err(
                n,
                col,
                "expected a header line 'key: value' or a section such as [movement]",
                "orders go inside a section; put [movement] (or [combat], [setup]...) above",
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
            self.err(n, col + len(key) + 1, f"expected a value after '{key}:'")
            return
        self.header[key] = value
        self.header_pos[key] = SourcePos(self.file, n, col)

    def order_line(self, n: int, line: str) -> None:
        toks = _tokens(line)
        verb, vcol = toks[0]
        verb_l = verb.lower()
        pos = SourcePos(self.file, n, vcol)
        if self.section == "?":
            return  # the unknown section was reported once
        assert self.section is not None
        if verb_l not in VERBS:
            from referee.source.diagnostics import did_you_mean

            self.err(
                n,
                vcol,
                f"expected an order verb ({', '.join(sorted(VERBS))}), got {verb!r}",
                did_you_mean(verb_l, list(VERBS)),
            )
            return
        if self.section not in VERBS[verb_l]:
            self.err(
                n,
                vcol,
                f"'{verb_l}' is not an order of the [{self.section}] section",
                f"it belongs in: {', '.join('[' + s + ']' for s in VERBS[verb_l])}",
            )
            return
        args = toks[1:]
        order = getattr(self, f"_{verb_l}")(n, pos, args)
        if order is None:
            return
        order = _with(order, section=self.section, text=line.strip())
        if self.section == "standing":
            self.standing.append(order)
        elif self.section == "answer":
            self.answers.append(order)
        else:
            self.orders.append(order)

    # -- argument helpers
    def usage(self, n: int, col: int, verb: str, what: str) -> None:
        self.err(n, col, f"expected {what}", f"usage: {USAGE[verb]}")

    def unit_ok(self, n: int, w: str, c: int, verb: str) -> bool:
        if not _ID_RE.match(w):
            self.usage(n, c, verb, f"a unit id, got {w!r}")
            return False
        return True

    def hex_ok(self, n: int, w: str, c: int, verb: str) -> bool:
        if not _HEX_RE.match(w):
            self.usage(n, c, verb, f"a four-digit hex id, got {w!r}")
            return False
        return True

    def end_col(self, pos: SourcePos, args: list[tuple[str, int]]) -> int:
        return args[-1][1] + len(args[-1][0]) if args else pos.col + 1

    # -- verbs
    def _place(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) == 2:
            (u, uc), (h, hc) = args
            if self.unit_ok(n, u, uc, "place") and self.hex_ok(n, h, hc, "place"):
                return Order("place", "", pos, units=(u,), hexes=(h,), cols=((u, uc), (h, hc)))
            return None
        if len(args) == 3 and args[1][0].lower() in ("cap", "box"):
            (u, uc), (m, _), (cv, cc) = args
            if self.unit_ok(n, u, uc, "place") and self.unit_ok(n, cv, cc, "place"):
                return Order(
                    "place",
                    "",
                    pos,
                    units=(u,),
                    carrier=cv,
                    mode=m.lower(),
                    cols=((u, uc), (cv, cc)),
                )
            return None
        self.usage(n, self.end_col(pos, args) if len(args) < 2 else args[2][1], "place", "UNIT HEX")
        return None

    def _move(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) < 2:
            self.usage(n, self.end_col(pos, args), "move", "a unit id and at least one hex")
            return None
        (u, uc), rest = args[0], args[1:]
        ok = self.unit_ok(n, u, uc, "move")
        for h, hc in rest:
            ok = self.hex_ok(n, h, hc, "move") and ok
        if not ok:
            return None
        return Order(
            "move",
            "",
            pos,
            units=(u,),
            hexes=tuple(h for h, _ in rest),
            cols=((u, uc), *rest),
        )

    def _stack(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) < 2:
            self.usage(n, self.end_col(pos, args), "stack", "a hex and the units top first")
            return None
        (h, hc), rest = args[0], args[1:]
        ok = self.hex_ok(n, h, hc, "stack")
        for u, c in rest:
            ok = self.unit_ok(n, u, c, "stack") and ok
        if not ok:
            return None
        return Order(
            "stack",
            "",
            pos,
            units=tuple(u for u, _ in rest),
            hexes=(h,),
            cols=((h, hc), *rest),
        )

    def _base(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) != 2:
            self.usage(n, self.end_col(pos, args), "base", "UNIT HEX")
            return None
        (u, uc), (h, hc) = args
        if self.unit_ok(n, u, uc, "base") and self.hex_ok(n, h, hc, "base"):
            return Order("base", "", pos, units=(u,), hexes=(h,), cols=((u, uc), (h, hc)))
        return None

    def _carrier_verb(
        self, verb: str, n: int, pos: SourcePos, args: list[tuple[str, int]]
    ) -> Order | None:
        if len(args) != 2:
            self.usage(n, self.end_col(pos, args), verb, "UNIT CARRIER")
            return None
        (u, uc), (cv, cc) = args
        if self.unit_ok(n, u, uc, verb) and self.unit_ok(n, cv, cc, verb):
            return Order(verb, "", pos, units=(u,), carrier=cv, cols=((u, uc), (cv, cc)))
        return None

    def _cap(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        return self._carrier_verb("cap", n, pos, args)

    def _box(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        return self._carrier_verb("box", n, pos, args)

    def _split_arrow(
        self, verb: str, n: int, pos: SourcePos, args: list[tuple[str, int]]
    ) -> tuple[list[tuple[str, int]], list[tuple[str, int]]] | None:
        idx = [i for i, (w, _) in enumerate(args) if w == "->"]
        if len(idx) != 1:
            self.usage(
                n,
                args[idx[1]][1] if len(idx) > 1 else self.end_col(pos, args),
                verb,
                "one '->' between the units and the target(s)",
            )
            return None
        left, right = args[: idx[0]], args[idx[0] + 1 :]
        if not left:
            self.usage(n, args[idx[0]][1], verb, "at least one unit before '->'")
            return None
        if not right:
            self.usage(n, self.end_col(pos, args), verb, "a target after '->'")
            return None
        return left, right

    def _attack(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        parts = self._split_arrow("attack", n, pos, args)
        if parts is None:
            return None
        left, right = parts
        ok = all([self.unit_ok(n, u, c, "attack") for u, c in left])
        targets: list[str] = []
        for t, c in right:
            if t.lower().startswith("hex:"):
                h = t[4:]
                if self.hex_ok(n, h, c + 4, "attack"):
                    targets.append("hex:" + h)
                else:
                    ok = False
            elif self.unit_ok(n, t, c, "attack"):
                targets.append(t)
            else:
                ok = False
        if any(t.startswith("hex:") for t in targets) and len(targets) > 1:
            self.usage(n, right[0][1], "attack", "a Defended hex to be attacked on its own [10.44]")
            ok = False
        if not ok:
            return None
        return Order(
            "attack",
            "",
            pos,
            units=tuple(u for u, _ in left),
            targets=tuple(targets),
            cols=(*left, *right),
        )

    def _advance(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        parts = self._split_arrow("advance", n, pos, args)
        if parts is None:
            return None
        left, right = parts
        mode = None
        if len(right) == 2 and right[1][0].lower() == "when-vacated":
            mode = "when-vacated"
            right = right[:1]
        if self.section == "standing" and mode is None:
            self.usage(n, self.end_col(pos, args), "advance", "'when-vacated' in [standing]")
            return None
        if self.section != "standing" and mode is not None:
            self.usage(n, right[0][1], "advance", "'when-vacated' only in [standing]")
            return None
        if len(right) != 1:
            self.usage(n, right[1][1], "advance", "exactly one hex after '->'")
            return None
        ok = all([self.unit_ok(n, u, c, "advance") for u, c in left])
        h, hc = right[0]
        ok = self.hex_ok(n, h, hc, "advance") and ok
        if not ok:
            return None
        return Order(
            "advance",
            "",
            pos,
            units=tuple(u for u, _ in left),
            hexes=(h,),
            mode=mode,
            cols=(*left, (h, hc)),
        )

    def _retreat(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) >= 3 and args[1][0].lower() == "prefer":
            return self._prefer("retreat", n, pos, args)
        if len(args) == 3 and args[1][0] == "->":
            (u, uc), _, (h, hc) = args
            if self.section == "standing":
                self.usage(n, args[1][1], "retreat", "'prefer' in [standing]")
                return None
            if self.unit_ok(n, u, uc, "retreat") and self.hex_ok(n, h, hc, "retreat"):
                return Order(
                    "retreat", "", pos, units=(u,), hexes=(h,), mode="to", cols=((u, uc), (h, hc))
                )
            return None
        self.usage(n, args[0][1] if args else pos.col + 8, "retreat", "UNIT -> HEX")
        return None

    def _displace(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) >= 3 and args[1][0].lower() == "prefer":
            return self._prefer("displace", n, pos, args)
        self.usage(n, args[0][1] if args else pos.col + 9, "displace", "UNIT prefer HEX ...")
        return None

    def _prefer(
        self, verb: str, n: int, pos: SourcePos, args: list[tuple[str, int]]
    ) -> Order | None:
        (who, wc), rest = args[0], args[2:]
        ok = True
        for h, hc in rest:
            ok = self.hex_ok(n, h, hc, verb) and ok
        if not ok:
            return None
        hexes = tuple(h for h, _ in rest)
        if _HEX_RE.match(who):
            if verb != "retreat":
                self.usage(n, wc, verb, "a unit id")
                return None
            # a whole hex's preference: the hex it applies to comes first
            return Order(
                verb, "", pos, hexes=(who, *hexes), mode="prefer-hex", cols=((who, wc), *rest)
            )
        if not self.unit_ok(n, who, wc, verb):
            return None
        return Order(
            verb, "", pos, units=(who,), hexes=hexes, mode="prefer", cols=((who, wc), *rest)
        )

    def _eliminate(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if not args:
            self.usage(n, pos.col + 10, "eliminate", "at least one unit id")
            return None
        if not all([self.unit_ok(n, u, c, "eliminate") for u, c in args]):
            return None
        return Order("eliminate", "", pos, units=tuple(u for u, _ in args), cols=tuple(args))

    def _option(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) != 1 or not _RULE_RE.match(args[0][0]):
            self.usage(n, args[0][1] if args else pos.col + 7, "option", "a rule number")
            return None
        return Order("option", "", pos, value=args[0][0], cols=tuple(args))

    def _answer(self, n: int, pos: SourcePos, args: list[tuple[str, int]]) -> Order | None:
        if len(args) < 2:
            self.usage(n, self.end_col(pos, args), "answer", "a decision id and an option")
            return None
        (d, dc), rest = args[0], args[1:]
        value = " ".join(w for w, _ in rest)
        return Order("answer", "", pos, decision=d, value=value, cols=((d, dc), *rest))

    # -- the document
    def finish(self) -> OrdersDoc:
        turn: int | None = None
        if "turn" in self.header:
            t = self.header["turn"]
            if t.isdigit() and len(t) <= 4:
                turn = int(t)
            else:
                p = self.header_pos["turn"]
                self.err(p.line, p.col, f"expected a Game-Turn number after 'turn:', got {t!r}")
        if self.errors:
            raise OrdersSyntaxError(self.errors)
        return OrdersDoc(
            game_id=self.header.get("game"),
            turn=turn,
            side=self.header.get("side"),
            phase=self.header.get("phase"),
            previous_report=self.header.get("previous-report"),
            orders=tuple(self.orders),
            standing=tuple(self.standing),
            answers=tuple(self.answers),
            file=self.file,
            sections=tuple(s for s in self.sections if s != "standing"),
            header_pos=dict(self.header_pos),
        )


def _with(order: Order, **changes: Any) -> Order:
    from dataclasses import replace

    return replace(order, **changes)


def parse_orders(text: str, file: str) -> OrdersDoc:
    """Parse an orders file (see the module docstring). Raises :class:`OrdersSyntaxError`
    listing every problem; never anything else."""
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
    p = _Parser(file)
    in_sig = False
    for n, raw in enumerate(text.split("\n"), start=1):
        s = raw.strip()
        if s == SIG_BEGIN:
            in_sig = True
            continue
        if in_sig:
            if s == SIG_END:
                in_sig = False
            continue
        p.feed(n, raw)
    if in_sig:
        p.err(1, 1, f"expected {SIG_END!r} to close the signature block")
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


def parse_orders_json(text: str | bytes, file: str) -> OrdersDoc:
    """Machine-made orders: ``{"game": .., "turn": .., "side": .., "phase": ..,
    "previous_report": .., "sections": {"movement": [ORDER, ...], "standing": [...]}}`` where
    an ORDER is a line of the text language (``"move US-CV-1 0203 0204"``) or an object
    ``{"verb": "move", "args": ["US-CV-1", "0203", "0204"]}``. Bounded: at most 1 MB, nesting
    at most 20 deep, UTF-8 only."""

    def fail(msg: str, hint: str | None = None, line: int = 1, col: int = 1) -> OrdersSyntaxError:
        return OrdersSyntaxError([OrderError(file, line, col, msg, hint)])

    if isinstance(text, bytes):
        if len(text) > MAX_ORDERS_BYTES:
            raise fail(f"orders file is {len(text):,} bytes; the limit is {MAX_ORDERS_BYTES:,}")
        if b"\x00" in text:
            raise fail("binary data (a NUL byte) in a JSON orders file")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise fail(f"not valid UTF-8 (byte offset {exc.start})", "save as UTF-8") from None
    if len(text.encode("utf-8", errors="replace")) > MAX_ORDERS_BYTES:
        raise fail(f"orders file is larger than {MAX_ORDERS_BYTES:,} bytes")
    if "\x00" in text:
        raise fail("binary data (a NUL byte) in a JSON orders file")
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise fail(f"JSON nested {depth} deep; the limit is {MAX_JSON_DEPTH}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(f"expected JSON: {exc.msg}", line=exc.lineno, col=exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise fail(f"expected JSON: {exc}") from None
    if not isinstance(data, dict):
        raise fail("expected a JSON object with 'game', 'turn', 'side' and 'sections'")
    lines: list[str] = []
    problems: list[OrderError] = []
    for key, jkey in (
        ("game", "game"),
        ("turn", "turn"),
        ("side", "side"),
        ("phase", "phase"),
        ("previous-report", "previous_report"),
    ):
        v = data.get(jkey, data.get(key))
        if v is None:
            continue
        if not isinstance(v, str | int) or isinstance(v, bool) or "\n" in str(v):
            problems.append(OrderError(file, 1, 1, f"expected a string for {jkey!r}"))
            continue
        lines.append(f"{key}: {v}")
    sections = data.get("sections", {})
    if not isinstance(sections, dict):
        raise fail("expected 'sections' to be an object of section name -> list of orders")
    for name, items in sections.items():
        if not isinstance(items, list):
            problems.append(OrderError(file, 1, 1, f"expected a list of orders in {name!r}"))
            continue
        lines.append(f"[{name}]")
        for i, item in enumerate(items):
            where = f"sections.{name}[{i}]"
            if isinstance(item, str):
                if "\n" in item:
                    problems.append(OrderError(file, 1, 1, f"{where}: one order per string"))
                    continue
                lines.append(item)
            elif isinstance(item, dict) and isinstance(item.get("verb"), str):
                args = item.get("args", [])
                if not isinstance(args, list) or not all(
                    isinstance(a, str | int) and not isinstance(a, bool) for a in args
                ):
                    problems.append(OrderError(file, 1, 1, f"{where}: 'args' must be strings"))
                    continue
                words = [item["verb"], *(str(a) for a in args)]
                if any(not w or any(c.isspace() for c in w) for w in words):
                    problems.append(OrderError(file, 1, 1, f"{where}: words may not hold spaces"))
                    continue
                lines.append(" ".join(words))
            else:
                problems.append(
                    OrderError(
                        file,
                        1,
                        1,
                        f"{where}: expected an order line or an object with 'verb' and 'args'",
                    )
                )
    if problems:
        raise OrdersSyntaxError(problems)
    return parse_orders("\n".join(lines) + "\n", file)


def parse_orders_any(text: str, file: str) -> OrdersDoc:
    """JSON when the file looks like JSON (starts with ``{``), the text language otherwise."""
    if text.lstrip().startswith("{"):
        return parse_orders_json(text, file)
    return parse_orders(text, file)
