"""The ruleset contract and the way to find a ruleset.

A ruleset is one object, an instance of a subclass of :class:`Ruleset`: a small required part
(the five abstract methods, ``awaiting`` unless it has :class:`Submissions`, its ``id``,
``name`` and orders ``vocabulary``) plus the typed
capabilities it declares by subclassing them (:class:`Submissions`, :class:`HiddenInformation`,
:class:`PhaseTitles`, :class:`ScriptedPlayer`, :class:`UnitOptions`, :class:`PositionFacts`,
:class:`HostGame`, :class:`SealedResolution`).
The engine core, the PBEM referee and every command call a ruleset only through the methods
of these classes and the functions below, so a new rule system is a new package with a
``schema.py`` (``referee/source/schema.py``: what it asks of a module source, and how to get
its ruleset object) registered once: this package's five are listed in
``referee/source/schema.py``, another package's are found through its ``referee.rulesets``
entry point. Nothing outside ``referee/rules/`` imports a ruleset package (a test scans the
imports). ``docs/rulesets.md`` is the author's guide.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from referee.engine.core import Dice, GameState, Outcome, Violation
from referee.engine.steps import run_step

if TYPE_CHECKING:
    from referee.engine.facts import Facts
    from referee.engine.orders import OrdersDoc
    from referee.engine.vocabulary import Vocabulary
    from referee.source.model import Module
    from referee.source.schema import RulesetSchema


class Ruleset(ABC):
    """What every ruleset provides, and the defaults of the small optional parts that have a
    neutral default (nothing foreseen, no earlier start, no side played by the referee, the
    core orders language). ``vocabulary`` is the orders vocabulary its players write
    (``docs/orders/<ruleset>.md``)."""

    id: ClassVar[str]
    name: ClassVar[str]
    vocabulary: ClassVar[Vocabulary | None] = None
    # the sides that the ruleset's own procedure plays (Carrier Battlegroup's Soviet
    # system): they have no player and never submit orders
    referee_sides: ClassVar[tuple[str, ...]] = ()
    # whether either side may order the pieces of no side (a declared game's imported
    # module, whose unclaimed pieces either side may move [G1]): the options a step
    # publishes for the awaited side list them too
    orders_unclaimed_pieces: ClassVar[bool] = False

    @property
    def schema(self) -> RulesetSchema:
        """What this ruleset asks of a module source (registered with it)."""
        from referee.source.schema import ruleset_schema

        got = ruleset_schema(self.id)
        if got is None:
            raise LookupError(f"ruleset {self.id!r} is not registered")
        return got

    @abstractmethod
    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """The position before set-up: every piece of the scenario, placed where the scenario
        fixes it, the rest unplaced; turn/phase at the start of the sequence of play."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """``awaiting`` is required of a ruleset played one side at a time; one with
        :class:`Submissions` may leave it to the derived default."""
        super().__init_subclass__(**kwargs)
        if cls.awaiting is Ruleset.awaiting and not issubclass(cls, Submissions):
            raise TypeError(
                f"{cls.__name__}: a ruleset without Submissions says whose orders it awaits "
                "(awaiting)"
            )

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        """``(side, what)``: whose orders the game waits for now and for which phase(s), or
        the side that owes the answer to ``state.pending``. ``what`` is a sentence for
        reports (e.g. "NATO set-up [11.1]"). Required of a ruleset played one side at a
        time; derived for one with :class:`Submissions`: the first submission due, or
        ``("", "the game is over")``."""
        if not isinstance(self, Submissions):
            raise TypeError(f"ruleset {self.id!r} says whose orders it awaits (awaiting)")
        due = self.due(module, state)
        return (due[0].side, due[0].what) if due else ("", "the game is over")

    @abstractmethod
    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """Every violation in a whole orders file, each citing its rule case. No dice, no
        change to anything."""

    def resolve(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """The orders validated, then carried out (:func:`referee.engine.steps.run_step`, the
        one step runner): a file with a violation is refused whole, with no change, event or
        roll. Not overridden: a ruleset gives :meth:`carry_out`."""
        return run_step(self, module, state, orders, dice)

    @abstractmethod
    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """Apply orders ``validate`` accepted, from ``state``, until the phases they cover are
        done, or until a decision belongs to the other player and no standing order covers
        it (then ``outcome.state.pending`` says what is owed)."""

    @abstractmethod
    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """What ``side`` may see (``None``: the referee's full view). Fog of war lives here."""

    @abstractmethod
    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """Victory points and the level of victory so far, with rule citations."""

    # ---- optional, with a neutral default ---------------------------------------------------

    def parse_orders(self, text: str, file: str) -> OrdersDoc:
        """An orders file (text or JSON) in this ruleset's words: the core language with its
        ``vocabulary``. Raises :class:`~referee.engine.orders.OrdersSyntaxError` listing every
        problem."""
        from referee.engine.orders import parse_orders

        if self.vocabulary is None:
            raise TypeError(f"ruleset {self.id!r} has neither a vocabulary nor parse_orders")
        return parse_orders(text, file, self.vocabulary)

    def warnings(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """For orders with no violation, what they make certain before any die (losses,
        retreats, decisions, victory points), each citing its case (``validate`` and
        ``adjudicate --dry-run``). None by default."""
        return []

    def phasing_side(self, module: Module, state: GameState) -> str | None:
        """The side whose phase ``state`` is in, the turn tracker's player (the VASSAL saves'
        tracker, ``referee.vassal.position.save``): by default the side acting. A ruleset in
        which the other side's orders come inside the phasing player's phase (the naval
        module's interdiction, a second signature) says whose phase it still is."""
        return state.active_side

    def marked_locations(self, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
        """The locations a marker counter of the module's palette stands on in ``state``, by
        the marker's name (SPI Sixth Fleet's ``Destroyed`` on each Defended hex whose
        intrinsic DEF is gone [10.44]): the VASSAL saves put the counter there
        (``referee.vassal.position.save``). None by default."""
        return {}

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts older versions of this ruleset made for the game ``state`` starts (a
        ruling recorded in new games): ``verify`` accepts an archive begun before the ruling
        (:func:`referee.pbem.verify.matching_start`). None by default."""
        return ()


# ---- typed capabilities: a ruleset declares one by subclassing it ------------------------


class Submissions(ABC):
    """Several submissions at once: alternating impulses, reactions, simultaneous sealed
    orders. A ruleset without it is played one side at a time, as its ``awaiting`` says, and
    with nothing hidden needs no commitments."""

    @abstractmethod
    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        """Every submission the game waits for now (empty when the game is over)."""


class HiddenInformation:
    """Some fact of the position is hidden from some side (undetected units, face-down
    chits, sealed plots): the referee then publishes only views and commitments."""

    def public_view(self, module: Module, state: GameState) -> GameState | None:
        """What every player may see; ``None`` (the default): the units, stacks, ``data``
        entries and pending decisions that every side's view shows alike."""
        return None

    def hidden_pools(self, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
        """The hidden pools of a position (a chit cup, the contents of face-down groups),
        each a canonical listing of plain strings; committed item by item at set-up."""
        return {}

    def deck_contents(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """What each deck box of the map (a face-down cup) holds in ``state``, by box name: a
        list of piece ids, bottom first, where the state knows them, or only a count where it
        does not (a side's view of the other side's cup). Written into VASSAL saves as
        Decks."""
        return {}

    def face_down(self, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
        """The counters a side's view ``state`` leaves out that the side knows lie face down
        on the map (a group's ships under its marker), by location id: the printed back of
        each (a masked back of the schema), nothing more. Written into the side's VASSAL
        saves as masked counters that carry no identity. None by default, and none in a
        position that holds the counters themselves."""
        return {}

    def may_reveal(self, module: Module, state: GameState) -> bool:
        """Whether ``referee reveal`` may release the hidden part before the game is over."""
        return False

    def view_notes(
        self, module: Module, view: GameState, side: str, orders: OrdersDoc
    ) -> list[Violation]:
        """``validate`` on a side's published view (a game that hides information has no
        public ``state.json``): for each order whose verdict could turn on what the rules
        hide from ``side``, a :class:`Violation` citing its case that says so without telling
        it. ``validate`` on the view must not refuse what a hidden fact could allow."""
        return []


class PhaseTitles(ABC):
    """Phases with human names ("Soviet Random Events Phase") for what people read; a
    ruleset without it is shown its phase ids."""

    @abstractmethod
    def phase_title(self, module: Module, state: GameState) -> str | None:
        """The name of ``state``'s phase; ``None`` to show the id."""


class ScriptedPlayer(ABC):
    """A plain but lawful player (benchmarks, property tests, demos)."""

    @abstractmethod
    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        """The orders text for the step ``state`` awaits, or ``None`` when the game is over."""


class UnitOptions(ABC):
    """``referee options``: every legal thing a unit (or a location's units) may do now,
    from the validator's own code."""

    standing_choices: ClassVar[bool] = False
    """Whether a unit's options include its standing orders (1975's ``retreat UNIT prefer``
    [8.71]), which a side may also give in a step that answers a pending decision: the
    published options of such steps list the units too (options format 3)."""

    def side_orders(self, module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
        """The order lines of the whole side, not of one unit (a ``pass``, a declaration, a
        side's standing order), as choices for the viewer's orders mode; none by default."""
        return []

    force_verbs: ClassVar[frozenset[str]] = frozenset()
    """The verbs a force of several units gives in one line, ``VERB UNIT UNIT ... -> ...``
    (Sixth Fleet 2019's ``move`` [8.1]; the naval module's ``shipping`` [31.21]): the
    published options (format 5) list, for each unit, the units that may join its line of
    such a verb (:func:`referee.pbem.draft_options.force_mates`), each pair's line judged
    by :meth:`force_accepts`."""

    force_since: ClassVar[Mapping[str, int]] = {}
    """The options format from which the forces of a verb of :attr:`force_verbs` are listed,
    where later than format 5 (when forces began): a format-5 file of an older game is
    written again without them (Carrier Battlegroup's ``trade`` of several missiles, 6)."""

    def force_accepts(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """Whether ``validate`` accepts ``line`` (a force's line of a :attr:`force_verbs`
        verb) as the one order of ``side``'s file now; ``False`` by default."""
        return False

    def alike(self, module: Module, state: GameState, side: str) -> list[list[str]]:
        """Groups of words a line may name together where its last names one (2019: the
        enemy units of one kind in one zone, which one attack may hit [9.0]), as ``side``'s
        view shows them; none by default."""
        return []

    def force_joins(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """Whether the units of ``line`` (a force's line of a :attr:`force_verbs` verb) may
        act as one force at all, wherever the line goes: ``False`` only where the validator
        refuses every line of that verb naming them (its check of the force itself, run
        before the rest of the line: another nationality [6.6], another kind [8.1]), so the
        options leave the pair out after one check (options format 6); ``True`` by default:
        each of their lines is asked."""
        return True

    def force_room(
        self, module: Module, state: GameState, side: str, verb: str, rest: str, units: list[str]
    ) -> list[tuple[int, list[str]]]:
        """The counts that cap a force's line ``VERB UNIT ... REST`` made of ``units`` (each
        of which has the line alone): ``(n, group)``, at most ``n`` of ``group`` in one line,
        where the room the line ends in or an allowance the rules give the side caps it (a
        base's air units [7.1.3], a carrier's holding box [8.3.4]), so the viewer never
        offers a force of three or more that the validator refuses though each pair of it
        is accepted (options format 6); none by default."""
        return []

    def force_partners(self, module: Module, state: GameState, side: str, verb: str) -> list[str]:
        """The units of ``side`` that have no line of ``verb`` of their own but may join a
        unit's one-unit line of that verb as its partner, where the rules let such a unit add
        to another's order (the naval module's ground artillery unit beside a ship in port's
        ``defend`` [29.22]): the published options (format 7) list, for each unit's line, the
        candidates whose two-unit line :meth:`force_accepts` accepts
        (:func:`referee.pbem.draft_options.force_partners`); none by default."""
        return []

    def allowances(self, module: Module, state: GameState, side: str) -> dict[str, int]:
        """What ``side`` has to spend in its file now, by name (Carrier Battlegroup's LP
        [9.1], a turn's one Intelligence attempt [11.0]), which the choices' ``spends`` take
        from: the published options (format 8) list them, so the viewer offers a line only
        while the lines of the draft leave room for it; none by default."""
        return {}

    def force_most(self, module: Module, state: GameState) -> dict[str, int]:
        """The most units one line of a verb may name, where the rules cap a force (2019's
        refit and reinforcement actions [6.4], a Shipping Attack's 3 air units [31.11]);
        none by default."""
        return {}

    @abstractmethod
    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport:
        """``limit`` caps long lists in ``lines`` (0: all); ``data`` has everything. Raise
        :class:`referee.errors.UserError` for an unknown subject."""


class PositionFacts:
    """The ruleset declares its position facts (``docs/rulesets.md``, "Position facts"):
    ``facts`` is its :class:`~referee.engine.facts.Facts` dataclass, the typed keys of
    ``state.data``. Its rules read and write them through it, never ``state.data`` raw, and
    a state read from a file is checked against it at the edge
    (:func:`referee.engine.state_shape.check_state_fits`)."""

    facts: ClassVar[type[Facts]]


def position_facts(ruleset: Ruleset) -> type[Facts] | None:
    """The ruleset's declared facts, or ``None`` when its ``state.data`` is undeclared."""
    return ruleset.facts if isinstance(ruleset, PositionFacts) else None


class HostGame(ABC):
    """The ruleset is a module played inside a host game (the naval module inside its land
    series): what its rules leave to the host game goes there as a numbered hand-off, and
    the host game's result comes back as an order naming the number, signed by both players
    in turn."""

    @abstractmethod
    def handoffs(self, module: Module, state: GameState) -> tuple[str, ...]:
        """The numbers of the hand-offs ``state`` holds for the host game (those open, and
        one whose result is being signed), in order: what an orders file may name."""


def host_handoffs(ruleset: Ruleset, module: Module, state: GameState) -> tuple[str, ...]:
    """The host game hand-offs ``state`` holds (:class:`HostGame`); none for a ruleset that
    is not played inside a host game."""
    return tuple(ruleset.handoffs(module, state)) if isinstance(ruleset, HostGame) else ()


class SealedResolution(ABC):
    """Sealed orders resolved together, the one way they are resolved: when the last sealed
    submission of a phase is in, every side's orders (each validated when it arrived) are
    given at once. A ruleset whose :meth:`Submissions.due` asks for ``sealed`` orders must
    have it (:func:`due_of` refuses one that does not). No bundled ruleset plays sealed
    orders; the toy ruleset ``tests/pbem/toy_sealed.py`` is the pipeline's test of them."""

    @abstractmethod
    def resolve_sealed(
        self,
        module: Module,
        state: GameState,
        orders_by_side: Mapping[str, OrdersDoc],
        dice: Dice,
    ) -> Outcome: ...


# ---- the contract as the referee reads it ------------------------------------------------
#
# The functions below are what the engine, the PBEM referee and the commands call: each reads
# one capability, with the behaviour of a ruleset that lacks it (one side at a time, nothing
# hidden) as Sixth Fleet 1975 plays.

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


def due_of(ruleset: Ruleset, module: Module, state: GameState) -> tuple[Due, ...]:
    """Every submission the game waits for now: the ruleset's :class:`Submissions`, else the
    one side its ``awaiting`` names, as Sixth Fleet's does."""
    if isinstance(ruleset, Submissions):
        out = tuple(ruleset.due(module, state))
        for d in out:
            if d.kind not in KINDS:
                raise ValueError(f"ruleset {ruleset.id}: unknown kind of submission {d.kind!r}")
            if d.kind == "sealed" and not isinstance(ruleset, SealedResolution):
                raise TypeError(
                    f"ruleset {ruleset.id!r} declares sealed orders but not SealedResolution"
                )
        return out
    side, what = ruleset.awaiting(module, state)
    return (Due(side, what, "answer" if state.pending else "orders"),)


def has_submissions(ruleset: Ruleset) -> bool:
    """Whether the ruleset lists what is due itself (:class:`Submissions`)."""
    return isinstance(ruleset, Submissions)


def names_phases(ruleset: Ruleset) -> bool:
    """Whether the ruleset names its phases (:class:`PhaseTitles`); else the ids are shown."""
    return isinstance(ruleset, PhaseTitles)


def phase_title_of(ruleset: Ruleset, module: Module, state: GameState) -> str:
    """The human name of ``state``'s phase ("Soviet Random Events Phase"), from the ruleset's
    :class:`PhaseTitles`; the phase id where the ruleset names none. For what people read
    (pictures, report titles); folder names keep the id."""
    title = ruleset.phase_title(module, state) if isinstance(ruleset, PhaseTitles) else None
    return title or state.phase


def hides_information(ruleset: Ruleset) -> bool:
    """Whether some fact of the position is hidden from some side (undetected units,
    face-down chits, sealed plots): the referee then publishes only views and commitments."""
    return isinstance(ruleset, HiddenInformation)


def uses_commitments(ruleset: Ruleset) -> bool:
    """Whether a game of this ruleset needs the hidden-dice chain (hidden information, or
    submissions that are sealed): rulesets with :class:`Submissions` or hidden information."""
    return isinstance(ruleset, HiddenInformation | Submissions)


def referee_sides(ruleset: Ruleset) -> tuple[str, ...]:
    """The sides that the ruleset's own procedure plays (Carrier Battlegroup's Soviet
    system): they have no player and never submit orders."""
    return tuple(ruleset.referee_sides)


def hidden_pools(ruleset: Ruleset, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
    """The hidden pools of a position (a chit cup, the contents of face-down groups), each a
    canonical listing of plain strings; committed item by item at set-up."""
    if not isinstance(ruleset, HiddenInformation):
        return {}
    return dict(ruleset.hidden_pools(module, state))


def deck_contents(ruleset: Ruleset, module: Module, state: GameState) -> Mapping[str, Any]:
    """What each deck box of the map (a face-down cup) holds in ``state`` (see
    :meth:`HiddenInformation.deck_contents`; ``referee.vassal.position.decks`` writes them as
    Decks); none for a ruleset that hides nothing."""
    if not isinstance(ruleset, HiddenInformation):
        return {}
    return dict(ruleset.deck_contents(module, state))


def face_down(ruleset: Ruleset, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
    """The face-down counters a view shows only as their backs (see
    :meth:`HiddenInformation.face_down`); none for a ruleset that hides nothing."""
    if not isinstance(ruleset, HiddenInformation):
        return {}
    return dict(ruleset.face_down(module, state))


def public_view(ruleset: Ruleset, module: Module, state: GameState) -> GameState:
    """What every player may see: the ruleset's own public view when it has one, else the
    units, stacks, ``data`` entries and pending decisions that every side's view shows alike."""
    if not isinstance(ruleset, HiddenInformation):
        return state
    own = ruleset.public_view(module, state)
    if own is not None:
        return own
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


def may_reveal(ruleset: Ruleset, module: Module, state: GameState) -> bool:
    """Whether ``referee reveal`` may release the hidden part now: at the end of the game, or
    where the ruleset's :meth:`HiddenInformation.may_reveal` allows it."""
    if isinstance(ruleset, HiddenInformation) and ruleset.may_reveal(module, state):
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


def warnings_of(
    ruleset: Ruleset, module: Module, state: GameState, orders: OrdersDoc
) -> list[Violation]:
    """What legal orders make certain before any die, as warnings (``validate`` and
    ``adjudicate --dry-run``)."""
    return list(ruleset.warnings(module, state, orders))


def view_notes_of(
    ruleset: Ruleset, module: Module, view: GameState, side: str, orders: OrdersDoc
) -> list[Violation]:
    """Where orders validated on ``side``'s view could meet a fact hidden from ``side`` (issue
    10 §5): notes, never the fact; a ruleset that hides nothing has none to give."""
    if not isinstance(ruleset, HiddenInformation):
        return []
    return list(ruleset.view_notes(module, view, side, orders))


def scripted_player(ruleset: Ruleset) -> ScriptedPlayer | None:
    """The ruleset's scripted player, if it has one."""
    return ruleset if isinstance(ruleset, ScriptedPlayer) else None


def unit_options(ruleset: Ruleset) -> UnitOptions | None:
    """The ruleset's ``referee options`` service, if it has one."""
    return ruleset if isinstance(ruleset, UnitOptions) else None


def sealed_resolution(ruleset: Ruleset) -> SealedResolution:
    """The ruleset's resolution of sealed orders together; a ruleset that declares sealed
    submissions (``Due.kind == "sealed"``) has it (:func:`due_of` checks)."""
    if not isinstance(ruleset, SealedResolution):
        raise TypeError(f"ruleset {ruleset.id!r} has sealed orders but no resolve_sealed")
    return ruleset


# ---- finding a ruleset -------------------------------------------------------------------


def ruleset_ids() -> list[str]:
    """The registered ruleset ids, sorted (``referee/source/schema.py`` registers them)."""
    from referee.source.schema import known_rulesets

    return known_rulesets()


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset object of ``ruleset_id``, from its registered schema's ``rules``."""
    from referee.errors import UserError
    from referee.source.schema import known_rulesets, ruleset_schema

    schema = ruleset_schema(ruleset_id)
    if schema is None or schema.rules is None:
        raise UserError(
            f"unknown ruleset {ruleset_id!r}", hint="known: " + ", ".join(known_rulesets())
        )
    got = schema.rules()
    if not isinstance(got, Ruleset) or got.id != ruleset_id:
        raise UserError(
            f"the schema of ruleset {ruleset_id!r} gives a {type(got).__name__}, not a Ruleset "
            f"with id {ruleset_id!r}",
            hint="its rules function returns the package's ruleset object (docs/rulesets.md)",
        )
    return got


def starts_without_later_flags(
    state: GameState, later_flags: Mapping[str, Any], facts: type[Facts], key: str = "flags"
) -> tuple[GameState, ...]:
    """The starts older versions of a ruleset made for the same game, for its
    ``earlier_starts``: ``state`` without the flags of rulings adopted after games began
    (``later_flags``, oldest first, each recorded by ``new_game`` in the fact ``key`` the
    ruleset's ``facts`` declare), the newest dropped first, down to a start with none of
    them. Read and written through the declaration (``Facts.of``, ``put``, ``drop``), so a
    ``key`` it does not declare is a ``TypeError``."""
    if key not in facts.declared():
        raise TypeError(f"{key!r} is no fact {facts.__name__} declares: declare it there")
    flags = dict(getattr(facts.of(state), key) or {})
    later = [k for k in later_flags if k in flags]
    out: list[GameState] = []
    while later:
        flags.pop(later.pop(), None)
        out.append(facts.put(state, **{key: dict(flags)}) if flags else facts.drop(state, key))
    return tuple(out)
