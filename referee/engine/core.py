"""The generic engine core: the types every ruleset and the PBEM referee share.

Design (after boardgame.io and the Diplomacy adjudicators): a game position is an immutable
:class:`GameState`; a ruleset turns ``(state, orders, dice)`` into a new state plus a list of
:class:`Event` records, or refuses the orders with :class:`Violation` records. Every event and
every violation names the rule case it applies (``rule="8.24"``), so a moderator can check the
referee against the rulebook. Dice are injected (:class:`Dice`), and every roll is recorded
with its purpose, so a replay with the same rolls gives the same result.

This module imports no ruleset. See ``docs/rulesets.md`` for how a ruleset plugs in.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

# ---- canonical JSON ------------------------------------------------------------------------


def canonical_json(data: Any) -> str:
    """The one JSON spelling we hash and sign: sorted keys, no spaces, UTF-8, final newline."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


# ---- where things are ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SourcePos:
    """Where an order came from: file, line and column (1-based), for messages."""

    file: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "col": self.col}


# ---- rule citations -------------------------------------------------------------------------

_CITATION = re.compile(
    r"(?P<provisional>provisional )?"
    # the Westpac scenario numbers its cases to five decimals ([DTP 11.50954])
    r"(?P<case>(?:[A-Z]{2,5} )?[A-Z]?\d{1,3}(?:\.\d{1,5}){0,2})"
    r"(?P<sub>[A-Za-z]|\([a-z]\))?"
    r"(?: (?P<part>(?:rules?|victory|step) \d{1,3}[a-z]?))?"
)
ORDERS_FILE = "orders"
"""The citation of a fault in an orders file as a file (its header, an unknown unit, an
answer to no decision): the referee's orders language (``docs/orders.md``), no rulebook's."""


@dataclass(frozen=True, slots=True)
class RuleCase:
    """One rule case a violation or event cites, typed: the ruleset whose book it is in, the
    case as the ruleset's ``cases.toml`` declares it (``"8.23"``, ``"DTP 8.23"`` for the DTP
    kit's own case beside the SPI case it amends), and the sub-case (``"b"``, ``"B"``,
    ``"(a)"``, ``"rule 4"``, ``"step 4e"``); ``provisional`` for a case the referee runs by a
    procedure declared in ``docs/interpretations.md`` (``"provisional 10.0"``).

    Read from the strings the code writes (``rule="8.24"``) by :func:`cite`; ``str()`` gives
    the string back unchanged, so reports read as before."""

    ruleset: str
    case: str
    sub: str = ""
    provisional: bool = False

    def __str__(self) -> str:
        head = "provisional " if self.provisional else ""
        tail = f" {self.sub}" if " " in self.sub else self.sub
        return f"{head}{self.case}{tail}"

    @property
    def orders_file(self) -> bool:
        """A fault of the orders file as a file (:data:`ORDERS_FILE`), not a rulebook case."""
        return self.case == ORDERS_FILE


def cite(rule: str, ruleset: str) -> tuple[RuleCase, ...]:
    """The cases ``rule`` cites in ``ruleset``'s book: one (``"8.24"``, ``"DTP 4.01d"``,
    ``"provisional 10.0"``, ``"11.3 rule 4"``) or several, most specific first, separated
    by ``", "`` (``"8.51, 9.15"``). Raises ValueError for a string that cites no case."""
    if rule == ORDERS_FILE:
        return (RuleCase("", ORDERS_FILE),)
    out = []
    for one in rule.split(", "):
        m = _CITATION.fullmatch(one)
        if m is None:
            raise ValueError(f"{rule!r} cites no rule case of {ruleset} (one: {one!r})")
        sub = m["sub"] or ""
        if m["part"]:
            sub = f"{sub} {m['part']}" if sub else m["part"]
        out.append(RuleCase(ruleset, m["case"], sub, bool(m["provisional"])))
    return tuple(out)


# ---- verdicts and consequences -------------------------------------------------------------


Severity = Literal["error", "warning"]


class OrderPlace(Protocol):
    """Where an order sits in its file, as :meth:`Violation.at` asks it (an
    :class:`~referee.engine.orders.Order` is one): its first column, and the column of one of
    its words."""

    @property
    def pos(self) -> SourcePos: ...

    def pos_of(self, word: str) -> SourcePos: ...


class Violation(NamedTuple):
    """An order the rules do not allow: the one type every rule check makes and ``validate``
    returns. ``rule`` is the case (``"6.44"``; several, most specific first: ``"8.51, 9.15"``),
    ``message`` what is wrong, ``unit`` the unit it concerns, ``hint`` how to put it right.

    A rule function finds it before it knows where the order is (``where`` unset; ``word``
    the order word it is about); the phase that owns the order places it
    (:meth:`at`). ``code`` is a short stable name of the fault (``"defended-hex-occupied"``)
    that callers branch on, never the wording; ``severity`` ``"warning"`` reports a
    consequence without refusing the file (:func:`refusals`); ``summary`` marks what a
    partial file still lacks (a set-up's units not yet placed), listed after the real
    mistakes (issue 31). Only rule, message, place, unit and hint are reported (:meth:`to_json`).

    (A named tuple, immutable and cheap: the legal-move searches make one for every step they
    try and refuse.)"""

    rule: str
    message: str
    where: SourcePos | None = None
    unit: str | None = None
    hint: str | None = None
    summary: bool = False
    code: str = ""
    word: str | None = None
    severity: Severity = "error"

    def at(self, order: OrderPlace | None, word: str | None = None) -> Violation:
        """This violation placed in ``order``: at ``word`` (default: its own word), else at
        the order's first column; unplaced when there is no order."""
        if order is None:
            return self
        w = word if word is not None else self.word
        return self._replace(where=order.pos_of(w) if w else order.pos)

    def cases(self, ruleset: str) -> tuple[RuleCase, ...]:
        """The rule cases this violation cites, typed (:func:`cite`)."""
        return cite(self.rule, ruleset)

    def __str__(self) -> str:
        loc = f"{self.where}: " if self.where else ""
        text = f"{loc}[{self.rule}] {self.message}"
        return text + (f" (hint: {self.hint})" if self.hint else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "message": self.message,
            "where": self.where.to_json() if self.where else None,
            "unit": self.unit,
            "hint": self.hint,
        }


def refusals(found: Iterable[Violation]) -> list[Violation]:
    """The violations among ``found`` that refuse a file (warnings left out)."""
    return [v for v in found if v.severity == "error"]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in resolution, with the rule that made it happen.

    ``kind`` is a short verb (``move``, ``attack``, ``retreat``, ``eliminate``, ``advance``,
    ``roll``, ``phase``...); ``data`` holds JSON-able details (units, hexes, numbers);
    ``hidden_from`` lists the sides that must not see this event in their per-side report.
    """

    kind: str
    rule: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    hidden_from: tuple[str, ...] = ()

    def cases(self, ruleset: str) -> tuple[RuleCase, ...]:
        """The rule cases this event applies, typed (:func:`cite`)."""
        return cite(self.rule, ruleset)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rule": self.rule,
            "text": self.text,
            "data": dict(self.data),
            "hidden_from": list(self.hidden_from),
        }


# ---- dice ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll:
    """One die roll, with why it was rolled and (for verifiable dice) how it was derived."""

    index: int
    sides: int
    value: int
    purpose: str
    rule: str = ""
    derivation: Mapping[str, Any] = field(default_factory=dict)
    hidden_from: tuple[str, ...] = ()

    @property
    def hidden(self) -> bool:
        """A roll some side may not see: kept out of the public record (``docs/dice.md``)."""
        return bool(self.hidden_from)

    def to_json(self) -> dict[str, Any]:
        out = {
            "index": self.index,
            "sides": self.sides,
            "value": self.value,
            "purpose": self.purpose,
            "rule": self.rule,
            "derivation": dict(self.derivation),
        }
        if self.hidden_from:  # absent when public, so older records read the same
            out["hidden_from"] = list(self.hidden_from)
        return out


class Dice(Protocol):
    """Injected die source. ``roll`` must record every roll it makes in ``rolls``.

    ``hidden_from`` names the sides that must not learn the value (a referee-run side's
    draw, a detection roll against a hidden unit): the PBEM referee derives such a roll from
    a seed that stays secret until ``referee reveal`` and leaves it out of what those sides
    receive (``docs/dice.md``)."""

    rolls: list[Roll]

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int: ...


class NoDice:
    """For validation: any attempt to roll is a bug (validation never rolls)."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        raise RuntimeError(f"validation must not roll dice (asked for: {purpose})")


class ScriptedDice:
    """Dice that return given values in order: for golden tests and replays."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values: Iterator[int] = iter(values)
        self.rolls: list[Roll] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        try:
            v = next(self._values)
        except StopIteration:
            raise RuntimeError(f"scripted dice ran out (asked for: {purpose})") from None
        if not 1 <= v <= sides:
            raise ValueError(f"scripted roll {v} is not a d{sides} value")
        self.rolls.append(
            Roll(len(self.rolls), sides, v, purpose, rule, hidden_from=tuple(hidden_from))
        )
        return v


class SeededDice:
    """Dice from a seeded pseudo-random generator, for games played in process (whole-game
    tests, property tests, benchmarks): the same seed rolls the same faces on every run.
    Never a game's dice: the referee's are committed before the orders
    (``referee/pbem/dice.py``)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.rolls: list[Roll] = []

    def roll(
        self, sides: int, purpose: str, rule: str = "", hidden_from: tuple[str, ...] = ()
    ) -> int:
        v = self._random.randint(1, sides)
        self.rolls.append(
            Roll(len(self.rolls), sides, v, purpose, rule, hidden_from=tuple(hidden_from))
        )
        return v


# ---- state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitState:
    """One piece in play. ``location`` is a board location id (a hex id), or ``None`` when the
    piece is off the board, in which case ``box`` says where (``"holding:US-CV-1"``,
    ``"eliminated"``, ``"reinforcements"``, ``"grounded"``, ``"unplaced"``). ``status`` holds
    ruleset flags such as ``"returning"`` (an inverted air unit)."""

    id: str
    side: str
    location: str | None = None
    box: str | None = "unplaced"
    status: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "location": self.location,
            "box": self.box,
            "status": sorted(self.status),
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> UnitState:
        return UnitState(
            id=str(d["id"]),
            side=str(d["side"]),
            location=d.get("location"),
            box=d.get("box"),
            status=frozenset(d.get("status", [])),
        )


@dataclass(frozen=True, slots=True)
class PendingDecision:
    """A decision that belongs to ``side`` and that no standing order covers: resolution
    stopped here. ``options`` lists the legal answers; ``context`` lets the ruleset resume."""

    id: str
    side: str
    kind: str
    rule: str
    prompt: str
    options: tuple[str, ...]
    context: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "kind": self.kind,
            "rule": self.rule,
            "prompt": self.prompt,
            "options": list(self.options),
            "context": dict(self.context),
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> PendingDecision:
        return PendingDecision(
            id=str(d["id"]),
            side=str(d["side"]),
            kind=str(d["kind"]),
            rule=str(d["rule"]),
            prompt=str(d["prompt"]),
            options=tuple(d.get("options", [])),
            context=dict(d.get("context", {})),
        )


@dataclass(frozen=True, slots=True)
class GameState:
    """An immutable game position. ``stacks`` gives the top-to-bottom order of the pieces in
    each occupied location; ``data`` holds ruleset-specific JSON-able facts (destroyed defended
    hexes, VP, options in force...). Change it with :meth:`evolve` or the helpers."""

    game_id: str
    module_id: str
    ruleset: str
    scenario: str
    turn: int
    phase: str
    active_side: str | None
    units: Mapping[str, UnitState]
    stacks: Mapping[str, tuple[str, ...]]
    data: Mapping[str, Any] = field(default_factory=dict)
    pending: tuple[PendingDecision, ...] = ()
    options: tuple[str, ...] = ()

    # -- queries
    def unit(self, unit_id: str) -> UnitState:
        return self.units[unit_id]

    def at(self, location: str) -> tuple[str, ...]:
        """Piece ids in a location, top first."""
        return self.stacks.get(location, ())

    def on_board(self, side: str | None = None) -> list[UnitState]:
        return [
            u
            for u in self.units.values()
            if u.location is not None and (side is None or u.side == side)
        ]

    # -- changes (each returns a new state)
    def evolve(self, **changes: Any) -> GameState:
        return replace(self, **changes)

    def with_unit(self, unit: UnitState, *, top: bool = True) -> GameState:
        """Replace a unit, moving it between stacks when its location changes."""
        old = self.units.get(unit.id)
        stacks = dict(self.stacks)
        if old is not None and old.location is not None:
            rest = tuple(u for u in stacks.get(old.location, ()) if u != unit.id)
            if rest:
                stacks[old.location] = rest
            else:
                stacks.pop(old.location, None)
        if unit.location is not None:
            here = stacks.get(unit.location, ())
            stacks[unit.location] = (unit.id, *here) if top else (*here, unit.id)
        units = dict(self.units)
        units[unit.id] = unit
        return replace(self, units=units, stacks=stacks)

    def with_stack_order(self, location: str, order: tuple[str, ...]) -> GameState:
        if sorted(order) != sorted(self.stacks.get(location, ())):
            raise ValueError(f"stack order for {location} must name exactly its pieces")
        stacks = dict(self.stacks)
        stacks[location] = tuple(order)
        return replace(self, stacks=stacks)

    def with_data(self, **changes: Any) -> GameState:
        data = dict(self.data)
        data.update(changes)
        return replace(self, data=data)

    # -- serialisation
    def to_json(self) -> dict[str, Any]:
        return {
            "format": "referee-state/1",
            "game_id": self.game_id,
            "module_id": self.module_id,
            "ruleset": self.ruleset,
            "scenario": self.scenario,
            "turn": self.turn,
            "phase": self.phase,
            "active_side": self.active_side,
            "units": [self.units[k].to_json() for k in sorted(self.units)],
            "stacks": {k: list(v) for k, v in sorted(self.stacks.items())},
            "data": _plain(self.data),
            "pending": [p.to_json() for p in self.pending],
            "options": list(self.options),
        }

    def canonical(self) -> str:
        return canonical_json(self.to_json())

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> GameState:
        from referee.engine.state_shape import check_state_json

        if not isinstance(d, Mapping) or d.get("format") != "referee-state/1":
            # a JSON path like every other shape error; callers add "not a referee state file"
            raise ValueError("$.format: expected 'referee-state/1'")
        check_state_json(d)  # a ShapeError (a ValueError) names the JSON path
        units = {u["id"]: UnitState.from_json(u) for u in d["units"]}
        return GameState(
            game_id=str(d["game_id"]),
            module_id=str(d["module_id"]),
            ruleset=str(d["ruleset"]),
            scenario=str(d["scenario"]),
            turn=int(d["turn"]),
            phase=str(d["phase"]),
            active_side=d.get("active_side"),
            units=units,
            stacks={k: tuple(v) for k, v in d.get("stacks", {}).items()},
            data=dict(d.get("data", {})),
            pending=tuple(PendingDecision.from_json(p) for p in d.get("pending", [])),
            options=tuple(d.get("options", [])),
        )


def _plain(value: Any) -> Any:
    """Mappings, tuples and sets to plain JSON types, deterministically."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, set | frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ---- the board topology protocol -----------------------------------------------------------


@runtime_checkable
class Board(Protocol):
    """What rulesets may ask of a board. A hex board implements it now; area and
    point-to-point boards (the 2019 edition, Carrier Battlegroup, the naval module) implement
    the same protocol, so callers do not change."""

    def locations(self) -> Iterable[str]: ...

    def contains(self, location: str) -> bool: ...

    def neighbours(self, location: str) -> list[str]: ...

    def adjacent(self, a: str, b: str) -> bool: ...

    def distance(self, a: str, b: str) -> int: ...

    def terrain(self, location: str) -> str: ...

    def is_edge(self, location: str) -> bool: ...

    def entry_cost(self, location: str, category: str) -> int | None:
        """Cost for a unit category to enter; ``None`` when it may not enter."""
        ...

    def hexside_blocked(self, a: str, b: str, kind: str) -> bool:
        """Whether the boundary between two adjacent locations stops ``kind``."""
        ...

    def blocks_zoc(self, location: str) -> bool: ...

    def edge_of(self, location: str) -> tuple[str, ...]:
        """The named map edges a location lies on."""
        ...

    def locations_in_area(self, area: str) -> tuple[str, ...]: ...

    def path(self, a: str, b: str, kind: str | None = None) -> list[str] | None:
        """A shortest path for a ``kind`` move (ends included), or ``None``: boundaries,
        hexsides and links that block ``kind`` and locations closed to it are avoided."""
        ...

    def properties(self, location: str) -> dict[str, Any]:
        """What the module says about a location beyond its type (bases, capacity...)."""
        ...


# ---- the outcome of one adjudication step --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What resolving a set of orders produced. ``state.pending`` is non-empty when resolution
    stopped at a decision that belongs to a player."""

    state: GameState
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations
