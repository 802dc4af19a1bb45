"""The ruleset plug-in interface and registry.

A ruleset is an object with the methods of :class:`Ruleset`. The engine core, the PBEM
referee and every command call only these methods (and the optional ones of
:class:`RulesetExtras`), so a new rule system (the DTP revision, the 2019 edition, Carrier
Battlegroup, the naval module) is a new package under ``referee/rules/`` plus one line in
:data:`_RULESETS`. Nothing outside ``referee/rules/`` imports a ruleset package (a test scans
the imports). ``docs/rulesets.md`` is the author's guide.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from referee.engine.core import Dice, GameState, Outcome, Violation

if TYPE_CHECKING:
    from referee.engine.orders import OrdersDoc
    from referee.engine.vocabulary import Vocabulary
    from referee.source.model import Module


class Ruleset(Protocol):
    """What every ruleset provides. ``vocabulary`` is the orders vocabulary its players write
    (``docs/orders/<ruleset>.md``); a ruleset with a language of its own may instead define
    ``parse_orders(text, file)`` (see :func:`parse_orders_for`)."""

    id: str
    name: str
    vocabulary: Vocabulary

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """The position before set-up: every piece of the scenario, placed where the scenario
        fixes it, the rest unplaced; turn/phase at the start of the sequence of play."""
        ...

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        """``(side, what)``: whose orders the game waits for now and for which phase(s), or
        the side that owes the answer to ``state.pending``. ``what`` is a sentence for
        reports (e.g. "NATO set-up [11.1]")."""
        ...

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """Every violation in a whole orders file, each citing its rule case. No dice, no
        change to anything."""
        ...

    def resolve(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """Apply valid orders from ``state`` until the phases they cover are done, or until a
        decision belongs to the other player and no standing order covers it (then
        ``outcome.state.pending`` says what is owed)."""
        ...

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """What ``side`` may see (``None``: the referee's full view). Fog of war lives here."""
        ...

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """Victory points and the level of victory so far, with rule citations."""
        ...

    # Optional (see the functions below and docs/rulesets.md): ``due(module, state)`` ->
    # tuple of :class:`Due`; ``resolve_sealed(module, state, orders_by_side, dice)`` ->
    # Outcome; ``hides_information: bool``; ``public_view(module, state)``;
    # ``hidden_pools(module, state)``; ``deck_contents(module, state)``;
    # ``referee_sides: tuple[str, ...]``;
    # ``may_reveal(module, state)``; ``parse_orders(text, file)``.


# ---- the optional parts of the contract -------------------------------------------------
#
# A ruleset written for Sixth Fleet needs none of these; the referee falls back to the
# behaviour of one side at a time with nothing hidden. ``docs/rulesets.md`` describes each.

KINDS = ("orders", "answer", "sealed")


@dataclass(frozen=True, slots=True)
class Due:
    """One submission the game waits for: ``side`` owes ``kind`` (``orders`` for a phase or
    an impulse, ``answer`` to a pending decision, ``sealed`` orders that stay sealed until
    every side due in the phase has sent its own); ``what`` is a sentence for reports."""

    side: str
    what: str
    kind: str = "orders"

    def to_json(self) -> dict[str, str]:
        return {"side": self.side, "what": self.what, "kind": self.kind}


def due_of(ruleset: Any, module: Module, state: GameState) -> tuple[Due, ...]:
    """Every submission the game waits for now. A ruleset may define ``due(module, state)``
    (alternating impulses, simultaneous sealed orders); otherwise its ``awaiting`` names one
    side, as Sixth Fleet's does."""
    own = getattr(ruleset, "due", None)
    if own is not None:
        out = tuple(own(module, state))
        for d in out:
            if d.kind not in KINDS:
                raise ValueError(f"ruleset {ruleset.id}: unknown kind of submission {d.kind!r}")
        return out
    side, what = ruleset.awaiting(module, state)
    return (Due(side, what, "answer" if state.pending else "orders"),)


def phase_title_of(ruleset: Any, module: Module, state: GameState) -> str:
    """The human name of ``state``'s phase ("Soviet Random Events Phase"), from the ruleset's
    optional ``phase_title``; the phase id where the ruleset names none. For what people read
    (pictures, report titles); folder names keep the id."""
    own = getattr(ruleset, "phase_title", None)
    title = own(module, state) if own is not None else None
    return title or state.phase


def hides_information(ruleset: Any) -> bool:
    """Whether some fact of the position is hidden from some side (undetected units,
    face-down chits, sealed plots): the referee then publishes only views and commitments."""
    return bool(getattr(ruleset, "hides_information", False))


def uses_commitments(ruleset: Any) -> bool:
    """Whether a game of this ruleset needs the hidden-dice chain (hidden information, or
    submissions that are sealed): rulesets written to the newer contract (with ``due``)."""
    return hides_information(ruleset) or hasattr(ruleset, "due")


def referee_sides(ruleset: Any) -> tuple[str, ...]:
    """The sides that the ruleset's own procedure plays (Carrier Battlegroup's Soviet
    system): they have no player and never submit orders."""
    return tuple(getattr(ruleset, "referee_sides", ()))


def hidden_pools(ruleset: Any, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
    """The hidden pools of a position (a chit cup, the contents of face-down groups), each a
    canonical listing of plain strings; committed item by item at set-up."""
    own = getattr(ruleset, "hidden_pools", None)
    return {} if own is None else dict(own(module, state))


def deck_contents(ruleset: Any, module: Module, state: GameState) -> Mapping[str, Any]:
    """What each deck box of the map (a face-down cup) holds in ``state``, by box name: a
    list of piece ids, bottom first, where the state knows them, or only a count where it
    does not (a side's view of the other side's cup). Written into VASSAL saves as Decks
    (``referee.vassal.position.decks``); a ruleset without ``deck_contents`` writes none."""
    own = getattr(ruleset, "deck_contents", None)
    return {} if own is None else dict(own(module, state))


def public_view(ruleset: Any, module: Module, state: GameState) -> GameState:
    """What every player may see: the ruleset's ``public_view`` when it has one, else the
    units, stacks, ``data`` entries and pending decisions that every side's view shows alike."""
    own = getattr(ruleset, "public_view", None)
    if own is not None:
        return own(module, state)
    if not hides_information(ruleset):
        return state
    views = [ruleset.view(module, state, s.id) for s in module.sides]
    if not views:
        return state
    first = views[0]
    units = {k: u for k, u in first.units.items() if all(v.units.get(k) == u for v in views[1:])}
    stacks = {
        h: tuple(x for x in ids if x in units)
        for h, ids in first.stacks.items()
        if any(x in units for x in ids)
    }
    data = {
        k: v for k, v in first.data.items() if all(w.data.get(k, object()) == v for w in views[1:])
    }
    pending = tuple(p for p in first.pending if all(p in v.pending for v in views[1:]))
    return first.evolve(units=units, stacks=stacks, data=data, pending=pending)


def may_reveal(ruleset: Any, module: Module, state: GameState) -> bool:
    """Whether ``referee reveal`` may release the hidden part now: at the end of the game, or
    where the ruleset's ``may_reveal`` allows it."""
    own = getattr(ruleset, "may_reveal", None)
    if own is not None and own(module, state):
        return True
    return state.active_side is None and not state.pending


@dataclass(frozen=True, slots=True)
class OptionsReport:
    """What ``referee options`` shows about one subject (a unit, or a location's units):
    ``lines`` for people, then ``notes`` (left out with ``--quiet``), ``data`` for
    ``--format json``, and ``marks`` (location -> label) that ``--png`` draws; ``marks`` is
    ``None`` when there is nothing to draw for the subject."""

    subject: str
    lines: tuple[str, ...]
    data: Mapping[str, Any]
    marks: Mapping[str, str] | None = field(default=None)
    notes: tuple[str, ...] = ()


class RulesetExtras(Protocol):
    """Optional methods. A command that needs one and finds it missing says so plainly.

    * ``options`` serves ``referee options``: every legal thing ``subject`` may do now, from
      the validator's own code. ``limit`` caps long lists in ``lines`` (0: all); ``data`` has
      everything. Raise :class:`referee.errors.UserError` for an unknown subject.
    * ``scripted_orders`` serves the scripted player (benchmarks, property tests, demos):
      the orders text of a plain but lawful player for the step ``state`` awaits, or
      ``None`` when the game is over.
    * ``warnings`` serves ``validate`` and ``adjudicate --dry-run``: for orders with no
      violation, what they make certain before any die (losses, retreats, decisions, victory
      points), each a :class:`Violation` citing its case; read through :func:`warnings_of`.
    * ``view_notes`` serves ``validate`` on a side's published view (a game that hides
      information has no public ``state.json``): for each order whose verdict could turn on
      what the rules hide from ``side``, a :class:`Violation` citing its case that says so
      without telling it; read through :func:`view_notes_of`. ``validate`` on the view must
      not refuse what a hidden fact could allow: a side's legal orders get the same verdict
      on its view as on the full position.
    """

    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport: ...

    def scripted_orders(self, module: Module, state: GameState) -> str | None: ...

    def warnings(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]: ...

    def view_notes(
        self, module: Module, view: GameState, side: str, orders: OrdersDoc
    ) -> list[Violation]: ...


def warnings_of(
    ruleset: Any, module: Module, state: GameState, orders: OrdersDoc
) -> list[Violation]:
    """What legal orders make certain before any die, as warnings (``validate`` and
    ``adjudicate --dry-run``); a ruleset without a ``warnings`` method foresees nothing."""
    own = getattr(ruleset, "warnings", None)
    return list(own(module, state, orders)) if own is not None else []


def view_notes_of(
    ruleset: Any, module: Module, view: GameState, side: str, orders: OrdersDoc
) -> list[Violation]:
    """Where orders validated on ``side``'s view could meet a fact hidden from ``side`` (issue
    10 §5): notes, never the fact; a ruleset without ``view_notes`` has none to give."""
    own = getattr(ruleset, "view_notes", None)
    return list(own(module, view, side, orders)) if own is not None else []


def parse_orders_for(ruleset: Any, text: str, file: str) -> OrdersDoc:
    """Parse an orders file (text or JSON) in ``ruleset``'s words: its own ``parse_orders``
    if it has one, else the core language with its ``vocabulary``. Raises
    :class:`~referee.engine.orders.OrdersSyntaxError` listing every problem."""
    own = getattr(ruleset, "parse_orders", None)
    if own is not None:
        return own(text, file)  # type: ignore[no-any-return]
    from referee.engine.orders import parse_orders_any

    return parse_orders_any(text, file, ruleset.vocabulary)


# ruleset id -> "module:attribute" of an object implementing Ruleset; imported lazily
_RULESETS: dict[str, str] = {
    "sixth_fleet_1975": "referee.rules.sixth_fleet_1975.ruleset:RULESET",
    "naval_module": "referee.rules.naval_module.ruleset:RULESET",
    "carrier_battlegroup": "referee.rules.carrier_battlegroup.ruleset:RULESET",
    "sixth_fleet_2019": "referee.rules.sixth_fleet_2019.ruleset:RULESET",
    "sixth_fleet_dtp": "referee.rules.sixth_fleet_dtp.ruleset:RULESET",
}


def register(ruleset_id: str, target: str) -> None:
    """Register a ruleset (tests use this for toy rulesets)."""
    _RULESETS[ruleset_id] = target


def ruleset_ids() -> list[str]:
    """The registered ruleset ids, sorted."""
    return sorted(_RULESETS)


def get_ruleset(ruleset_id: str) -> Ruleset:
    from referee.errors import UserError

    target = _RULESETS.get(ruleset_id)
    if target is None:
        raise UserError(
            f"unknown ruleset {ruleset_id!r}", hint="known: " + ", ".join(sorted(_RULESETS))
        )
    mod_name, attr = target.split(":")
    return getattr(importlib.import_module(mod_name), attr)
