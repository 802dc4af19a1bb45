"""A player's VASSAL log of an imported module's game turned into the step's orders file.

A game of a module imported from VASSAL (:mod:`referee.vassal.foreign.game`) is played on
the module itself: the player opens the latest ``position.vsav``, begins a log, moves the
pieces and ends the log. ``import-vlog`` reads the log through the module's own maps
(:func:`referee.vassal.foreign.movelist.read_log`, VASSAL's location names) and writes:

* one ``move PIECE LOCATION LOCATION ...`` per piece of the game dragged, its locations in
  the order it was dragged to them (a dragged stack moves every piece in it), in the order
  the pieces first moved; ``place PIECE LOCATION`` for a piece that was off the map; a name
  that is not one word is written in double quotes;
* a chat line that starts with one of the declared ruleset's verbs (``roll 2d6 for "..."``,
  ``flip``, ``mark``, ``eliminate``) copied as an order: the referee rolls the dice, never
  VASSAL;
* a piece of the game deleted (VASSAL's Delete) becomes ``eliminate PIECE``;
* a Layer of a piece changed (a flip, a marker switched on or off) becomes ``flip``,
  ``mark`` or ``unmark`` (:mod:`referee.vassal.foreign.imported_layers`), from the piece as
  the log starts and as it ends;
* an Undo is followed: each command an Undo block reverses is dropped with the reversing
  one (a drag, a delete), and the orders are held to where the log ends: a piece whose
  path ends elsewhere is listed, and a deleted piece that is back is not eliminated.

What is no order is listed and left out, never guessed (the command exits 1): another
side's piece dragged or deleted [G1], a piece taken from the palette, a drag off the
boards, a piece's change in VASSAL that no order says (a property, a label, a Layer the
set-up has on switched off: write ``flip`` or ``mark`` in the chat instead), an undo of
nothing the log did, VASSAL's own dice and any other chat line, a log that does not start
from the game's position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.engine.core import GameState
from referee.engine.vocabulary import Vocabulary
from referee.errors import UserError
from referee.source.gamedecl import ImportedScenario
from referee.source.model import Module
from referee.vassal.codec.savefile import SaveGame
from referee.vassal.codec.tabletop import replay
from referee.vassal.foreign.game import location_key
from referee.vassal.foreign.imported_layers import layer_orders
from referee.vassal.foreign.locations import OFFBOARD, ModuleLocations
from referee.vassal.foreign.movelist import LogEvent, PieceAt, read_log
from referee.vassal.foreign.saves import check_same_module
from referee.vassal.position.vlog_import import (
    Expected,
    Imported,
    Problem,
    chat_text,
    record_orders,
)

__all__ = ["SECTION", "import_imported_log"]

SECTION = "orders"
_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$|^[0-9]{4}$")
_BOOKKEEPING = frozenset({"moved flag changed", "deselected", "movement trail changed"})
"""Changes VASSAL makes to a piece as it moves or is clicked: no change of the game's."""


def written(location: str) -> str:
    """A location as an order writes it: one word as is, anything else in double quotes."""
    return location if _WORD.match(location) else '"' + location.replace('"', "'") + '"'


@dataclass
class _Reading:
    sc: ImportedScenario
    ids: dict[str, str]  # VASSAL id -> the game's piece id
    first: str
    first_names: set[str]
    lines: list[str] = field(default_factory=list)
    paths: dict[str, list[str]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def key(self, map_name: str | None, name: str) -> str | None:
        """The game's location for a point VASSAL names ``name`` on ``map_name``."""
        if name == OFFBOARD or not name:
            return None
        key = location_key(self.first, map_name, name, self.first_names)
        return key if self.sc.point(key) is not None else None


def _start_problems(r: _Reading, state: GameState, start: list[PieceAt]) -> None:
    """[G1] the log starts from the game's position: each of its pieces where the game has
    it (step 0 problems otherwise)."""
    for p in start:
        pid = r.ids.get(p.id)
        unit = state.units.get(pid) if pid else None
        if unit is None:
            continue
        at = r.key(p.map, p.location)
        if at != unit.location:
            r.problems.append(
                Problem(
                    0,
                    f"{pid} starts the log at {at or 'no location'}, the game has it at "
                    f"{unit.location or 'no location'}: make the log from the game's latest "
                    "position.vsav",
                    pid,
                )
            )


def _move(r: _Reading, e: LogEvent, state: GameState, side: str) -> None:
    to = r.key(e.map_to, e.to_location)
    for vid in (e.piece_id, *e.with_ids):
        pid = r.ids.get(vid)
        if pid is None or pid not in state.units:
            r.problems.append(Problem(e.step, f"{e.piece!r} is no piece of the game"))
            continue
        owner = state.units[pid].side
        if owner and owner != side:  # [G1] another side's piece: no order of this side's
            r.problems.append(
                Problem(e.step, f"{pid} is a piece of {owner}, not of {side}: no order", pid)
            )
            continue
        if to is None:
            where = e.to_location or OFFBOARD
            r.problems.append(
                Problem(e.step, f"{pid} was dragged to {where}, no location of the game", pid)
            )
            continue
        if pid not in r.paths:
            r.paths[pid] = []
            r.lines.append(f"\0{pid}")
        if not r.paths[pid] or r.paths[pid][-1] != to:
            r.paths[pid].append(to)


def _delete(r: _Reading, e: LogEvent, state: GameState, side: str) -> None:
    """A piece of the game deleted in VASSAL: ``eliminate PIECE`` [G1] (another side's
    piece, or a piece already off the map, is listed instead)."""
    pid = r.ids.get(e.piece_id)
    if pid is None or pid not in state.units:
        r.problems.append(Problem(e.step, f"{e.piece!r} was deleted: no piece of the game"))
        return
    owner = state.units[pid].side
    if owner and owner != side:
        r.problems.append(
            Problem(e.step, f"{pid} is a piece of {owner}, not of {side}: no order", pid)
        )
        return
    r.lines.append(f"\1{pid}")


def _reverses(undo: LogEvent, done: LogEvent) -> bool:
    """Whether ``undo`` (a command of an Undo block) reverses ``done`` (an earlier one):
    the same piece dragged back, a deleted piece put back, a created one taken away, a
    change changed back."""
    if undo.piece_id != done.piece_id:
        return False
    if undo.kind == "move" and done.kind == "move":
        return (undo.map_from, undo.from_location, undo.map_to, undo.to_location) == (
            done.map_to,
            done.to_location,
            done.map_from,
            done.from_location,
        )
    pairs = {("create", "delete"), ("delete", "create"), ("change", "change")}
    return (undo.kind, done.kind) in pairs


def drop_undone(events: list[LogEvent]) -> list[LogEvent]:
    """The log's events less each one an Undo block reverses, with the reversing command
    itself (VASSAL logs an Undo as the inverse commands between ``UNDO`` markers,
    vassal-format.md §6.4); a command of an Undo block that reverses no earlier event is
    left out, an ``undo`` event in its place to be listed."""
    kept: list[LogEvent] = []
    undoing = False
    for e in events:
        if e.kind == "undo":
            undoing = e.text == "undo starts"
            continue
        if undoing and e.kind in ("move", "create", "delete", "change"):
            done = next((i for i in range(len(kept) - 1, -1, -1) if _reverses(e, kept[i])), None)
            if done is not None:
                del kept[done]
                continue
            kept.append(LogEvent(e.step, "undo", text=f"{e.kind} of {e.piece}: left out"))
            continue
        kept.append(e)
    return kept


def _event(r: _Reading, e: LogEvent, state: GameState, verbs: set[str], side: str) -> None:
    pid = r.ids.get(e.piece_id, e.piece)
    if e.kind == "move":
        _move(r, e, state, side)
    elif e.kind == "chat":
        text = chat_text(e.text)
        if text.split(" ", 1)[0].lower() in verbs - {"move", "place"}:
            r.lines.append(" ".join(text.split()))
        elif text:
            r.problems.append(Problem(e.step, f"a chat line that is no order: {text!r}"))
    elif e.kind == "create":
        r.problems.append(
            Problem(
                e.step,
                f"{e.piece!r} was taken from the palette: no piece of the game (a game plays "
                "the pieces of its set-up; put the piece in the set-up's save to play it)",
            )
        )
    elif e.kind == "delete":
        _delete(r, e, state, side)
    elif e.kind == "change" and not set(e.changes) - _BOOKKEEPING <= _layer_words(e):
        what = ", ".join(c for c in e.changes if c not in _BOOKKEEPING and c not in _layer_words(e))
        r.problems.append(
            Problem(
                e.step,
                f"{pid} changed in VASSAL ({what}); write 'flip {pid}' or 'mark {pid} WORD' "
                "in the chat",
                pid,
            )
        )
    elif e.kind == "undo":
        r.problems.append(Problem(e.step, f"an undo that reverses nothing of the log ({e.text})"))
    elif e.kind == "roll":
        r.problems.append(
            Problem(
                e.step,
                f"VASSAL's own dice ({e.text!r}): not an order (ask the referee's dice: "
                "roll 2d6 for ...)",
            )
        )


def _layer_words(e: LogEvent) -> set[str]:
    """The words of a change that are a Layer's (``Step: Reduced (was Full)``, ``Captured:
    on``): carried by :func:`_layer_changes` from where the log starts and ends."""
    return {w for w in e.changes if ": " in w and " = " not in w and not w.startswith("label: ")}


def _layer_changes(r: _Reading, save: SaveGame, state: GameState, side: str) -> None:
    """[G1] each Layer of a piece of the game changed between the log's start and its end,
    as ``flip``, ``mark`` and ``unmark`` (:mod:`referee.vassal.foreign.imported_layers`);
    another side's piece, and a change no order says, are listed."""
    played = replay(save.commands)
    for vid, pid in r.ids.items():
        old, new = played.start.pieces.get(vid), played.end.pieces.get(vid)
        unit = state.units.get(pid)
        if old is None or new is None or unit is None:
            continue
        orders, problems = layer_orders(pid, old, new, unit.status)
        if (orders or problems) and unit.side and unit.side != side:
            r.problems.append(
                Problem(0, f"{pid} is a piece of {unit.side}, not of {side}: its layers", pid)
            )
            continue
        r.lines += orders
        r.problems += [Problem(0, what, pid) for what in problems]


def _written(line: str, paths: dict[str, list[str]], state: GameState) -> str:
    """An order line: a chat order as typed; a piece's drags as ``move PIECE LOC LOC...``, or
    ``place PIECE LOC`` (where it ends) for a piece off the map at the start [G1]."""
    if line.startswith("\1"):
        return f"eliminate {line[1:]}"
    if not line.startswith("\0"):
        return line
    pid = line[1:]
    if state.units[pid].location is None:
        return f"place {pid} {written(paths[pid][-1])}"
    return f"move {pid} {' '.join(map(written, paths[pid]))}"


def import_imported_log(
    module: Module,
    locations: ModuleLocations,
    save: SaveGame,
    state: GameState,
    expected: Expected,
    vocab: Vocabulary,
    *,
    source: str = "log",
) -> Imported:
    """The orders file of the step ``expected`` made from ``save`` (a ``.vlog``). Refused
    (UserError) when another module wrote the log."""
    assert module.game is not None and module.game.imported is not None
    sc = module.game.imported.scenario(state.scenario)
    if sc is None:
        raise UserError(f"module {module.id} has no set-up {state.scenario!r}")
    reading = read_log(save.commands, locations)
    check_same_module(save, locations, reading, source, module.id)
    first = next(iter(locations.maps), "")
    r = _Reading(
        sc,
        {p.vassal_id: p.id for p in sc.pieces},
        first,
        {k for k, p in sc.locations if p.map == first},
    )
    _start_problems(r, state, reading.start)
    verbs = set(vocab.verb_names())
    for e in drop_undone(reading.events):
        _event(r, e, state, verbs, expected.side)
    _end_problems(r, reading.end)
    _layer_changes(r, save, state, expected.side)
    orders = tuple(_written(ln, r.paths, state) for ln in r.lines)
    return record_orders(source, expected, SECTION, orders, r.problems)


def _end_problems(r: _Reading, end: list[PieceAt]) -> None:
    """The orders end where the log does: each piece moved is at the end of its path, and
    a piece to be eliminated is gone (one that is back, by an Undo the reader could not pair,
    is not eliminated); a piece whose path ends elsewhere is listed and its move left out."""
    at = {r.ids[p.id]: r.key(p.map, p.location) for p in end if p.id in r.ids}
    kept: list[str] = []
    for line in r.lines:
        pid = line[1:] if line.startswith("\0") else ""
        if line.startswith("\1") and line[1:] in at:
            continue
        if pid and at.get(pid) != r.paths[pid][-1]:
            r.problems.append(
                Problem(
                    0,
                    f"{pid} ends the log at {at.get(pid) or 'no location'}, not at "
                    f"{r.paths[pid][-1]} where its drags took it: its move is left out",
                    pid,
                )
            )
            continue
        kept.append(line)
    r.lines[:] = kept
