"""What a ruleset asks of a module source.

A module names its ruleset (``ruleset = "sixth_fleet_1975"``). The ruleset declares, as plain
data, which value columns every unit must carry, which unit categories and types exist, which
flags a roster may set, which tables it needs and which victory conditions and set-up kinds it
understands. The source checker reads this declaration, so another game can define its own
value columns without touching the loader.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.source.gamedecl import sequence_of_play
from referee.source.tablemodel import TableDecl

if TYPE_CHECKING:
    from referee.engine.sequence import SequenceOfPlay
    from referee.source.diagnostics import Diagnostic
    from referee.source.gamedecl import GameDecl
    from referee.source.model import Module, UnitDef

TableCheck = Callable[["Module"], "list[Diagnostic]"]
"""A ruleset's own check of one of its tables against the whole module (roster, map)."""
LevelsOf = Callable[["Module", Any], "Mapping[str, int]"]
"""A marker's number for each unit or place, computed from a position (``MarkerDecl.compute``)."""
ReducedSteps = Callable[["Module", "UnitDef"], "tuple[tuple[int, Mapping[str, int]], ...]"]
"""A damaged unit's values, by the rules' formula (``MarkerDecl.reduces``): ``((from, values),
...)``, each step the values printed on the counter from that marker value on, in order."""


@dataclass(frozen=True, slots=True)
class PhaseDecl:
    """One step of a ruleset's sequence of play, as the VASSAL turn tracker lists it: read
    from the engine's phase records by :func:`tracker_steps`, so the module's tracker follows
    the same steps as the referee (``tests/rules/test_sequence_declared.py`` holds every
    ruleset's tracker to its sequence).

    ``id`` is the engine's ``GameState.phase`` for this step; ``name`` and ``rule`` the
    phase's title (its first letter a capital) and case; ``player`` is ``"first"`` or
    ``"second"`` for a step of one player (the scenario's first or second player), ``""``
    for a step of both or of neither; ``ends`` lists the unit markers (:class:`MarkerDecl`
    ids) that end with this step; ``once`` marks a step played once before Game-Turn 1
    (set-up); ``within`` lists the engine's phases played inside this step
    (``Phase.within``: a second signature, a host-game result), so the tracker stands on the
    step while the referee waits for them; ``player_turn``: the step is named by its
    player's turn ("Soviet Player Turn: Reaction Phase", where the other player acts in some
    steps of a player turn).
    """

    id: str
    name: str
    rule: str
    player: str = ""
    ends: tuple[str, ...] = ()
    once: bool = False  # played once, before Game-Turn 1 (set-up), not in every Game-Turn
    within: tuple[str, ...] = ()  # the engine's sub-steps of this step
    player_turn: bool = False  # named "<side> Player Turn: <name>"


def tracker_steps(
    phases: SequenceOfPlay[Any],
    *,
    players: Mapping[str, str] | None = None,
    ends: Mapping[str, tuple[str, ...]] | None = None,
    turn: Sequence[tuple[str, str]] | None = None,
    player_turns: bool = False,
) -> tuple[PhaseDecl, ...]:
    """The steps of one Game-Turn for the VASSAL turn tracker, read from the ruleset's own
    sequence of play (its engine :class:`~referee.engine.sequence.Phase` records, in order),
    so the sequence is declared once: each phase's id, title and case, whether it is played
    once (set-up), and the phases played within it (``Phase.within``, which are no steps of
    their own); its player from ``players`` (the phase's ``side`` ->
    ``"first"``/``"second"``; else ``""``, a step of both, of neither or of a fixed side);
    the markers that end with it from ``ends`` (phase id -> marker ids). ``extra`` phases,
    entered out of the book's order, are no tracker steps, but for a set-up (``once``),
    which comes first.

    Where the book plays a phase once for each player (1975's Combat and Movement Phases of
    the first, then of the second player [4.0]), ``turn`` lists the Game-Turn's steps as
    (phase id, ``"first"``/``"second"``/``""``) instead: each step is that phase's, in the
    order given. ``player_turns``: the whole sequence is a player turn, played by the first
    player, then by the second, each step named by its player's turn."""
    who, gone = players or {}, ends or {}
    if turn is not None:
        steps = [(phases[pid], player) for pid, player in turn]
    else:
        own = [p for p in (*(p for p in phases.extra if p.once), *phases) if p.within is None]
        if player_turns:
            steps = [(p, "") for p in own if p.once]
            steps += [(p, pl) for pl in ("first", "second") for p in own if not p.once]
        else:
            steps = [(p, who.get(p.side or "", "")) for p in own]
    return tuple(
        PhaseDecl(
            p.id,
            p.title[:1].upper() + p.title[1:],
            p.rule,
            player,
            gone.get(p.id, ()),
            once=p.once,
            within=phases.parts(p.id),
            player_turn=player_turns and not p.once,
        )
        for p, player in steps
    )


@dataclass(frozen=True, slots=True)
class DiceDecl:
    """A roll the rules make beyond one die, as a VASSAL Dice Button of the module's Dice
    menu: ``dice`` dice of ``sides`` sides, their total reported, or with ``keep_higher`` only
    the highest die (Carrier Battlegroup's SBG movement [CBG 25.1]). ``rule`` names the
    cases that roll it; one six-sided die is every module's own."""

    name: str
    dice: int
    rule: str
    sides: int = 6
    keep_higher: bool = False


@dataclass(frozen=True, slots=True)
class TableRollDecl:
    """A roll a rule reads on one of the module's tables, as a VASSAL table button that rolls
    ``dice`` d6 and reports the table's result line (``referee.vassal.module.table_rolls``).
    ``read`` says how the total meets the table: ``row`` (it picks the row), ``column`` (it
    picks the column) or ``range`` (the cells are die ranges, as the CRT's [8.8]);
    ``modified``: the rules add modifiers first, so the button asks for them. Two more reads
    compare the roll with the cells: ``at_least`` (a cell is the lowest roll that succeeds, a
    letter an automatic success: DTP's detection [DTP 6.3] and strike contact [DTP 8.15]) and
    ``outcome`` (a die-range cell gives ``success`` on a roll inside it, any other written
    cell is an automatic result as printed: DTP's Hit Table [DTP 8.52]), and ``at_most`` (a
    cell is the highest roll that succeeds: DTP's readiness ratings [DTP 9.23]), and
    ``minus`` (the total less each row's number, at least ``floor``, in ``success`` units: an
    aborted air unit's delay, 2d6 less its rating, at least 2 turns [DTP 8.51]). ``times`` names the
    value a ``row`` roll is multiplied by before it is read (Carrier Battlegroup's
    Intelligence Table, d6 times the ship's EW [11.1]): the line gives the result for every
    such value."""

    name: str
    table: str
    dice: int
    rule: str
    read: str = "row"
    modified: bool = False
    success: str = ""
    times: str = ""
    floor: int | None = None


@dataclass(frozen=True, slots=True)
class TrackDecl:
    """A number the players keep by hand (victory points, the Alert level, the actions left,
    the interdiction level), as a VASSAL Global Property the module shows and its buttons
    change. ``name`` is the property's name; with ``per_side`` it holds ``{side}`` and the
    module has one property per playing side (``VP_{side}``: ``VP_NATO``, ``VP_Soviet``),
    titled ``title.format(side=the side's name)``. ``rule`` names the case that keeps it.
    A ``numeric`` track runs from ``minimum`` to ``maximum`` by +1 / -1 buttons; any track
    may be set by a prompt (DTP's VP keep fractions [DTP 8.57], so they are text).
    ``source`` says where the referee keeps its value, so the saves show what the report
    says: ``score:PATH`` in the ruleset's ``score`` (``score:vp.{side}``), ``data:PATH`` in
    ``GameState.data`` (``data:interdiction.{side}``), dots between keys."""

    name: str
    title: str
    rule: str
    minimum: int = 0
    maximum: int = 99
    initial: int = 0
    per_side: bool = False
    numeric: bool = True
    source: str = ""


@dataclass(frozen=True, slots=True)
class LossScore:
    """What a unit's loss scores at once on a track (a :class:`TrackDecl`'s property):
    ``track`` is the property's name for the scoring side (``VP_NATO``), ``vp`` what is
    added to it (negative where the rules take points off, [CBG 24.1]), ``rule`` the case.
    The VASSAL module's Trigger adds it when a player eliminates the unit by menu."""

    track: str
    vp: int
    rule: str


@dataclass(frozen=True, slots=True)
class MarkerDecl:
    """A state a unit can be in that the players must see on the counter (attacked this
    phase, returning to base, detected, damaged, readiness...).

    ``id`` is the flag in ``UnitState.status``; ``data`` optionally names a list of unit ids
    in ``GameState.data`` that also carry it (``"combat.attacked"``: the ``attacked`` list
    of the ``combat`` object), for a ruleset that keeps the flag in its phase record;
    ``categories`` limits it to units of those categories (empty: every unit). With
    ``level``, ``data`` names a mapping unit id -> level instead (``"damage"``) and the unit
    carries the marker when its level equals ``level``.

    With ``levels`` (> 0) the marker is one counter layer of that many levels instead of one
    layer per value, so a ruleset's damage track D1-D12 [DTP 8.54] costs one layer and one
    key: ``data`` names a mapping id -> number (``"damage"``), or, with a ``*`` part, the
    number inside each entry of a mapping (``"ships.*.damage"``: the ``damage`` of every
    ship); ``compute`` may give a function ``(module, state) -> Mapping[str, int]``
    instead, for a number the state does not store (a port's capacity left [26.25]). Each
    level is named ``label.format(n)``. ``on = "unit"`` shows it on the unit's counter (0
    shows nothing); ``on = "location"`` puts a marker counter on each named place (port,
    zone, hex) showing the number, 0 included.
    """

    id: str
    name: str
    rule: str
    note: str = ""
    data: str = ""
    categories: tuple[str, ...] = ()
    phasing: bool = False  # only the phasing player's units carry it (cleared for that side)
    level: int | None = None
    levels: int = 0
    label: str = "{}"
    compute: LevelsOf | None = None
    on: str = "unit"  # or "location"
    face_down: bool = False  # the layer shows the counter's printed back (face down [DTP 9.23])
    # a marker with levels whose value makes a unit lost (sunk): the value for each unit, or
    # None; the VASSAL module's Trigger eliminates the unit when its layer reaches it
    lost_at: Callable[[Module, UnitDef], int | None] | None = None
    # a marker with levels that reduces a unit's values (D2 halves movement [DTP 8.55]): for
    # each unit, the steps ``(from value, values)`` the rules' formula gives, () where none;
    # the VASSAL module shows the reduced counter face from that value on
    reduces: ReducedSteps | None = None
    # the VASSAL piece version from which the module's counters carry it (a marker declared
    # after games were begun: their saves keep the pieces of their version, piece_versions)
    since: int = 1


@dataclass(frozen=True, slots=True)
class DisplayRow:
    """One row of boxes on a display; each box holds ``across`` x ``down`` counters."""

    boxes: tuple[str, ...]
    across: int = 1
    down: int = 1


@dataclass(frozen=True, slots=True)
class TrackMarker:
    """A marker counter on a display's track (a ship's Hull, its Fuel): ``piece`` is its
    counter in the roster, ``track`` the boxes' name before the number ("Hull" for "Hull 0"
    .. "Hull 12"), ``data`` the path in ``GameState.data`` of the value it marks
    (``"carrier.Hull"``, ``"fuel"``). Every position the referee writes puts the marker in
    the box of the state's value, so a player opening the save sees what the report says."""

    piece: str
    track: str
    data: str


@dataclass(frozen=True, slots=True)
class BoxUnits:
    """Units a display box holds while the state lists them: ``data`` is the path in
    ``GameState.data`` of a list of unit ids (``"interdiction_box.Axis"``: the air units
    the Axis player put in the Naval Movement Interdiction Box [31.11]). Every position the
    referee writes shows those units in ``box``, not at their base. With a ``{}`` in
    ``box``, ``data`` names a mapping unit id -> number instead and each unit stands in the
    box of its number (``"Returns Game-Turn {}"``: an aborted air unit waits on the turn
    track for the Game-Turn it returns [DTP 8.51]); a number past the boxes uses the last.
    ``data = "box:NAME"`` holds the units off the map in the engine's box ``NAME``
    (``UnitState.box``: a transport cadre [27.33])."""

    box: str
    data: str
    # the units and their numbers computed from a position, for what the state does not
    # store as such (the Westpac reinforcement track: each unit's arrival Game-Turn
    # [DTP 11.506]); ``data`` then only names it
    compute: LevelsOf | None = None


@dataclass(frozen=True, slots=True)
class DisplayDecl:
    """A display of the game (a ship's system tracks, a battle display, a side's boxes) that
    the VASSAL module adds as a map window of its own: rows of named boxes, each a Zone, so a
    counter put in one reports the box's name as its location."""

    name: str
    title: str
    rows: tuple[DisplayRow, ...]
    rule: str = ""
    markers: tuple[TrackMarker, ...] = ()  # one per track whose value the state records
    holds: tuple[BoxUnits, ...] = ()  # boxes whose units the state lists


@dataclass(frozen=True, slots=True)
class RulesetSchema:
    id: str
    name: str
    values: tuple[str, ...]
    categories: tuple[str, ...]
    unit_types: dict[str, tuple[str, ...]] = field(default_factory=dict)  # category -> types
    flags: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()  # terrain ids the ruleset's code refers to
    victory_conditions: tuple[str, ...] = ()
    setup_kinds: tuple[str, ...] = ("setup_code", "airbase", "carrier", "hexes", "zones", "spaces")
    entry_kinds: tuple[str, ...] = ("airbases", "edge_adjacent", "area")
    optional_rules: tuple[str, ...] = ()
    # named tables the ruleset reads beyond the standard ones, with their default file; a
    # module's own [[table]] of the same name replaces the declaration
    table_decls: tuple[TableDecl, ...] = ()
    # table name -> the ruleset's own check of that table against the whole module (roster,
    # map), run by the loader on a clean module
    table_checks: dict[str, TableCheck] = field(default_factory=dict)
    map_kinds: tuple[str, ...] = ("hex",)  # MapDef.kind values the ruleset plays on
    # the sequence of play of one Game-Turn, in order (the VASSAL turn tracker's phases)
    sequence: tuple[PhaseDecl, ...] = ()
    # unit markers the referee records and the VASSAL module shows (layers, position.vsav)
    markers: tuple[MarkerDecl, ...] = ()
    # counter layouts that are the backs of face-down counters (chits, hidden warships): the
    # VASSAL module gives their units VASSAL's own Mask trait showing that back, so players
    # at one table can keep them face down (the referee's saves leave hidden units out)
    masked_backs: tuple[str, ...] = ()
    # a solitaire game [CBG 1.0]: the id of the side its one player commands (the game runs
    # the others). The VASSAL Masks then belong to that side and the Solitaire seat alone,
    # with no Peek: a face-down counter stays face down to the player until the rules
    # reveal it, and only he may reveal it
    solitaire_side: str = ""
    # the game's displays beyond the map (VASSAL map windows of named boxes)
    displays: tuple[DisplayDecl, ...] = ()
    # a module's own displays beyond the ruleset's, from its scenarios and tables (Westpac's
    # reinforcement track and variable air box [DTP 11.506, 11.507])
    module_displays: Callable[[Module], tuple[DisplayDecl, ...]] | None = None
    # the boxes off the map a unit may be in (its ``UnitState.box``), such as an off-map base,
    # as ((box, title), ...) of a module; the VASSAL module draws one map of them
    off_map_boxes: Callable[[Module], tuple[tuple[str, str], ...]] | None = None
    # the rolls of more than one die the rules make (the VASSAL module's Dice menu)
    dice: tuple[DiceDecl, ...] = ()
    # the numbers players keep by hand (VASSAL Global Properties): VP, levels, tracks
    tracks: tuple[TrackDecl, ...] = ()
    # what each unit's loss scores at once (``LossScore``, or None: nothing, or not at once);
    # the VASSAL module's Eliminate adds it to the track by a Trigger. Left out where the
    # rules score by fractions or at the game's end only
    loss_score: Callable[[Module, UnitDef], LossScore | None] | None = None
    # the rolls a rule reads on a table (the VASSAL module's table buttons)
    table_rolls: tuple[TableRollDecl, ...] = ()
    # sides a unit may carry beyond the module's playing sides: units no player controls
    # (Sixth Fleet 2019's neutrals have the side "neutral" until an event brings them in
    # [2.3]); never a side that acts, so `active_side` and `pending` stay the module's
    unit_sides: tuple[str, ...] = ()
    # the ruleset object (a ``referee.engine.ruleset.Ruleset``) these declarations belong to,
    # imported when a game is played: ``referee check`` reads the schema alone
    rules: Callable[[], Any] | None = None


# ---- the one registry of rulesets ------------------------------------------------------------
#
# A ruleset is registered once, by its schema: the schema is light (plain data, ``referee
# check`` reads it without importing any rule), and its ``rules`` names the ruleset object,
# imported only when a game is played (``referee.engine.ruleset.get_ruleset``). The six
# rulesets of this package are listed here; a ruleset of another package is found through the
# ``referee.rulesets`` entry points of the installed distributions (``name = "pkg.mod:SCHEMA"``,
# ``docs/rulesets.md``), or registered in code with :func:`register`.

ENTRY_POINT_GROUP = "referee.rulesets"

_BUILT_IN: dict[str, str] = {
    rid: f"referee.rules.{rid}.schema:SCHEMA"
    for rid in (
        "carrier_battlegroup",
        "declared",
        "naval_module",
        "sixth_fleet_1975",
        "sixth_fleet_2019",
        "sixth_fleet_dtp",
    )
}
_REGISTERED: dict[str, RulesetSchema] = {}
_ENTRY_POINTS: dict[str, Any] | None = None  # id -> EntryPoint, read once when first needed


def register(schema: RulesetSchema) -> None:
    """Register a ruleset by its schema (a ruleset of another package, a test's toy);
    registering the same id again replaces it."""
    _REGISTERED[schema.id] = schema


def unregister(ruleset_id: str) -> None:
    """Forget a registered or installed ruleset (a test's toy, once the test is done); the
    installed distributions' entry points are read again when next needed."""
    global _ENTRY_POINTS
    _REGISTERED.pop(ruleset_id, None)
    _ENTRY_POINTS = None


def _entry_points(*, again: bool = False) -> dict[str, Any]:
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None or again:
        from importlib.metadata import entry_points

        _ENTRY_POINTS = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return _ENTRY_POINTS


def known_rulesets() -> list[str]:
    """Every ruleset id there is: this package's, the registered ones, the installed ones."""
    return sorted({*_BUILT_IN, *_REGISTERED, *_entry_points()})


def ruleset_schema(ruleset_id: str) -> RulesetSchema | None:
    """The schema of ``ruleset_id``; ``None`` for an id nobody registered."""
    got = _REGISTERED.get(ruleset_id)
    if got is not None:
        return got
    target = _BUILT_IN.get(ruleset_id)
    if target is not None:
        mod_name, attr = target.split(":")
        got = getattr(importlib.import_module(mod_name), attr)
    else:
        ep = _entry_points().get(ruleset_id) or _entry_points(again=True).get(ruleset_id)
        if ep is None:  # read again first: a distribution installed since the last reading
            return None
        got = _load_entry_point(ruleset_id, ep)
    if not isinstance(got, RulesetSchema) or got.id != ruleset_id:
        from referee.errors import UserError

        raise UserError(
            f"ruleset {ruleset_id!r} is registered with a {type(got).__name__}, "
            f"not its schema (a RulesetSchema with id {ruleset_id!r})",
            hint="the entry point of group referee.rulesets names the package's SCHEMA",
        )
    _REGISTERED[ruleset_id] = got
    return got


def _load_entry_point(ruleset_id: str, ep: Any) -> object:
    """An installed ruleset's schema; a package that fails to import is the installed
    package's fault, said as such (not a traceback of ours)."""
    try:
        return ep.load()
    except Exception as exc:  # whatever a third-party package raises on import
        from referee.errors import UserError

        raise UserError(
            f"ruleset {ruleset_id!r}: its entry point {ep.value!r} does not load "
            f"({type(exc).__name__}: {exc})",
            hint="reinstall or fix the package that provides it (pip show, pip install)",
        ) from exc


def schema_for(ruleset_id: str, game: GameDecl | None = None) -> RulesetSchema | None:
    """The schema a module of ``ruleset_id`` carries (``Module.schema``): the registered one;
    for a declared game (``game``), that schema with the game's own declarations. ``None``
    for an id nobody registered. Whoever builds a module attaches it once, so nothing looks
    a module's ruleset up by id again."""
    base = ruleset_schema(ruleset_id)
    if game is None or base is None:
        return base
    return declared_schema(game, base)


def off_map_boxes(module: Module, ruleset_id: str | None = None) -> tuple[tuple[str, str], ...]:
    """The ruleset's off-map boxes of ``module`` (``RulesetSchema.off_map_boxes``): (box name,
    title) pairs, none for a ruleset that declares none."""
    schema = ruleset_schema(ruleset_id or module.ruleset)
    if schema is None or schema.off_map_boxes is None:
        return ()
    return tuple(schema.off_map_boxes(module))


def declared_schema(game: GameDecl, base: RulesetSchema) -> RulesetSchema:
    """The schema of a declared game: the registered ``declared`` schema (``base``: its
    ruleset object) with the game's own declarations. One schema type, so ``check``,
    ``build``, ``sheets``, ``charts`` and ``map`` read a declared game as a bundled one."""
    from dataclasses import replace

    return replace(
        base,
        values=game.values,
        categories=game.categories,
        unit_types={cat: types for cat, types in game.unit_types},
        flags=game.flags,
        tables=game.tables,
        terrain=game.terrain,
        victory_conditions=game.victory_conditions,
        masked_backs=game.masked_backs,
        sequence=tracker_steps(
            sequence_of_play(game.phases, "sequence"),
            players={"first": "first", "second": "second"},
        ),
        dice=tuple(DiceDecl(d.name, d.dice, d.rule or "dice", d.sides) for d in game.dice),
        # the pieces of a module imported from VASSAL belong to no side (side "")
        unit_sides=("",) if game.imported is not None else base.unit_sides,
    )
