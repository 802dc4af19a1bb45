"""A declared game: the ``[game]`` table of a module source that names no ruleset.

A bundled ruleset declares what it asks of a module source in Python
(:class:`~referee.source.schema.RulesetSchema`). A game without a ruleset declares the same
things as data in its own ``module.toml``: the value columns every unit prints (in print
order), its unit categories and each one's types, the flags a roster may set, the terrain
ids, the tables it needs, the victory conditions its scenarios may name, the counter layouts
that are face-down backs, its sequence of play (``[[game.phase]]``: who acts in each step)
and the rolls of its Dice menu (``[[game.dice]]``). ``referee/source/load_game.py`` reads
that table with ``file:line:col`` diagnostics; ``declared_schema`` in
``referee/source/schema.py`` turns it into the schema the loader, the checker and every
output read, so a declared game goes down the one code path of the bundled games. The
schema's ruleset is ``declared`` (``referee/rules/declared``), which referees such a game for
its record and its dice, never for its rules.

Pure data; the model types here are encodable by the module cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.sequence import Phase, SequenceOfPlay

DECLARED = "declared"
"""The ruleset id of every declared game (``referee/rules/declared``)."""
NOT_RULES = (
    "refereed for its record and its dice, not its rules: the referee checks that pieces "
    "exist and are the side's own, that locations and tables exist and that the side is "
    "due, and nothing of the game's rules"
)
"""What every report and ``validate`` say of a declared game begun before [G6] (a start
without the new-game flag ``closed``; docs/declared-games.md)."""
NOT_RULES_BUT_CLOSED = (
    "refereed for its record and its dice, not its rules: the referee checks that pieces "
    "exist and are the side's own, that locations and tables exist and that the side is "
    "due, and of the game's rules only that no piece enters a location its source closes "
    "to it [G6]"
)
"""The same of a game that checks closed locations [G6] (every game begun since)."""


def not_rules(closed: bool | None) -> str:
    """What the referee says it checks of a declared game: :data:`NOT_RULES_BUT_CLOSED` where
    the game checks closed locations [G6], :data:`NOT_RULES` where it does not (as an older
    game's reports said it, so they replay to the same bytes); ``None`` where the game is not
    at hand (``validate``'s note), both in one sentence."""
    if closed is None:
        return (
            f"{NOT_RULES} (but, in a game begun since [G6], that no piece enters a location "
            "its source closes to it)"
        )
    return NOT_RULES_BUT_CLOSED if closed else NOT_RULES


@dataclass(frozen=True, slots=True)
class GamePhase:
    """One step of the declared sequence of play: ``side`` is ``first`` or ``second`` (the
    scenario's first or second player acts) or empty (both or neither)."""

    id: str
    name: str
    side: str = ""
    rule: str = ""
    once: bool = False


def sequence_of_play(phases: Sequence[GamePhase], rule: str) -> SequenceOfPlay[None]:
    """The declared steps as the engine's sequence of play [G2], in the declared order: a
    step of one side (``first``/``second``) is that side's phase, a step of neither passes
    on its own (``nobody``); ``once`` steps are set-up steps. ``rule`` is the case cited for
    a step that names none. The declared ruleset walks it and the VASSAL turn tracker is
    read from it (``schema.tracker_steps``), so the two cannot disagree."""
    return SequenceOfPlay(
        tuple(
            Phase(
                p.id,
                p.name,
                p.rule or rule,
                "side" if p.side else "nobody",
                side=p.side or None,
                once=p.once,
            )
            for p in phases
        )
    )


@dataclass(frozen=True, slots=True)
class GameDice:
    """A roll of the module's Dice menu beyond one six-sided die."""

    name: str
    dice: int
    sides: int = 6
    rule: str = ""


@dataclass(frozen=True, slots=True)
class ImportedPiece:
    """A piece of an imported VASSAL module's set-up save: the referee's id for it (made from
    the module's own name, ``.2``, ``.3``... for repeats), VASSAL's piece id in the save, the
    module's name for it, and where the save has it (map, point, and the location key, empty
    when VASSAL names the point ``offboard``); the side it belongs to (empty: either side's)
    and what said so (:mod:`referee.vassal.foreign.ownership`)."""

    id: str
    vassal_id: str
    name: str
    map: str | None
    x: int
    y: int
    location: str = ""
    side: str = ""
    side_by: str = ""


@dataclass(frozen=True, slots=True)
class ImportedPoint:
    """Where a location of an imported module is: its map and a point VASSAL names by it."""

    map: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class ImportedScenario:
    """One predefined set-up of an imported module: its save (the file of the source the
    game's saves are written from), its pieces and every location its boards have, by key."""

    id: str
    name: str
    save_file: str
    pieces: tuple[ImportedPiece, ...]
    locations: tuple[tuple[str, ImportedPoint], ...]

    def point(self, key: str) -> ImportedPoint | None:
        return dict(self.locations).get(key)


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A module imported from VASSAL (``ruleset = "none"``) played by email as a declared
    game: what the game needs of its set-ups (``referee/vassal/foreign/game.py``)."""

    scenarios: tuple[ImportedScenario, ...]

    def scenario(self, scenario_id: str) -> ImportedScenario | None:
        return next((s for s in self.scenarios if s.id == scenario_id), None)


@dataclass(frozen=True, slots=True)
class GameDecl:
    """What a declared game asks of its own source (the ``[game]`` table)."""

    values: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    unit_types: tuple[tuple[str, tuple[str, ...]], ...] = ()
    flags: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    victory_conditions: tuple[str, ...] = ()
    masked_backs: tuple[str, ...] = ()
    phases: tuple[GamePhase, ...] = ()
    dice: tuple[GameDice, ...] = ()
    imported: ImportedGame | None = None
