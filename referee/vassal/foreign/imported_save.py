"""A set-up save of a module we did not write, with some of its pieces moved or taken off.

The position of a game of an imported module (:mod:`referee.vassal.foreign.game`) is its
set-up save changed only where the game changed it, so every piece keeps the module's own
definition, state, layers and stacking that VASSAL wrote (vassal-format.md §5, §6):

* a piece the game moved: its ``AddPiece`` state gets the new map and point (its
  BasicPiece's, recipe §7.2), it leaves its stack, and the moved pieces at one point form a
  new stack, added after the last command of the group that adds them (a stack must come
  after the pieces it lists, §5.8);
* a piece the game took off the map: its ``AddPiece`` is dropped, and so is its id from
  its stack;
* a piece whose Layers the game changed (a flip, a marker:
  :mod:`referee.vassal.foreign.imported_layers`): its ``AddPiece`` state is the new one;
* a stack left empty is dropped; everything else (boards, notes, decks, global properties,
  the save's ``savedata`` and ``moduledata``, its obfuscation key) stays byte for byte.

The same set-up and moves give the same bytes. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from referee.source.gamedecl import ImportedPoint
from referee.vassal.codec.commands import AddPiece, Command, Compound, LogEntry, NullCommand
from referee.vassal.codec.pieces import Stack, decode_piece
from referee.vassal.codec.savefile import read_save_bytes, save_to_bytes

__all__ = ["STACK_ID_BASE", "rewrite_setup"]

STACK_ID_BASE: Final = 2_000_000_000_000
"""First id of a stack the rewrite adds (above the ids VASSAL gives pieces, the time in
milliseconds, until 2033; an id the save uses already is skipped)."""


@dataclass
class _Rewrite:
    moved: Mapping[str, ImportedPoint | None]
    used: set[str]
    states: Mapping[str, str] = field(default_factory=dict)
    next_id: int = STACK_ID_BASE
    placed: list[tuple[str, ImportedPoint]] = field(default_factory=list)

    def stack_id(self) -> str:
        while str(self.next_id) in self.used:
            self.next_id += 1
        self.used.add(str(self.next_id))
        return str(self.next_id)


def _ids(command: Command, out: set[str]) -> set[str]:
    if isinstance(command, Compound):
        for c in command.children:
            _ids(c, out)
    elif isinstance(command, LogEntry):
        _ids(command.logged, out)
    elif isinstance(command, AddPiece) and command.id is not None:
        out.add(command.id)
    return out


def _is_stack(command: AddPiece) -> bool:
    return command.type == Stack.ID


def _piece(
    command: AddPiece, rw: _Rewrite, here: list[tuple[str, ImportedPoint]]
) -> Command | None:
    """One AddPiece of the save, as the game leaves it (``None``: dropped)."""
    if _is_stack(command):
        stack = Stack(Stack.ID, command.state)
        kept = [i for i in stack.piece_ids if i not in rw.moved]
        if len(kept) == len(stack.piece_ids):
            return command
        if not kept:
            return None
        x, y = stack.position
        new = Stack.build(stack.map_id, x, y, kept, stack.layer)
        return AddPiece(command.id, command.type, new.state or "")
    state = rw.states.get(command.id or "", command.state)
    if command.id not in rw.moved:
        return command if state == command.state else AddPiece(command.id, command.type, state)
    to = rw.moved[command.id]
    if to is None:
        return None
    piece = decode_piece(command.type, state).placed(to.map, to.x, to.y)
    here.append((command.id, to))
    return AddPiece(command.id, command.type, piece.state)


def _stacks(here: list[tuple[str, ImportedPoint]], rw: _Rewrite) -> list[Command]:
    """A stack per point of the pieces moved in one group, in the order they come."""
    points: dict[ImportedPoint, list[str]] = {}
    for pid, to in here:
        points.setdefault(to, []).append(pid)
    out: list[Command] = []
    for to, ids in points.items():
        stack = Stack.build(to.map, to.x, to.y, ids)
        out.append(AddPiece(rw.stack_id(), Stack.ID, stack.state or ""))
    return out


def _walk(command: Command, rw: _Rewrite) -> Command | None:
    if isinstance(command, Compound):
        here: list[tuple[str, ImportedPoint]] = []
        kids: list[Command] = []
        for c in command.children:
            got = _piece(c, rw, here) if isinstance(c, AddPiece) else _walk(c, rw)
            if got is not None:
                kids.append(got)
        kids += _stacks(here, rw)
        return Compound(tuple(kids)) if kids else Compound((NullCommand(),))
    if isinstance(command, AddPiece):
        here = []
        got = _piece(command, rw, here)
        extra = _stacks(here, rw)
        if extra:
            return Compound((got or NullCommand(), *extra))
        return got
    return command


def rewrite_setup(
    save: bytes,
    moved: Mapping[str, ImportedPoint | None],
    savedata: bytes,
    moduledata: bytes,
    states: Mapping[str, str] | None = None,
) -> bytes:
    """The set-up ``save`` with each piece of ``moved`` (VASSAL piece id -> its new point,
    or ``None`` to take it off) and of ``states`` (VASSAL piece id -> its new state string)
    changed as the module docstring says. A set-up save without
    ``savedata`` or ``moduledata`` (VASSAL then finds no module data in the save's metadata
    and says so) gets the ones given."""
    game = read_save_bytes(save, "set-up save")
    if not moved and not states and game.moduledata is not None and game.savedata is not None:
        return save
    rw = _Rewrite(moved, _ids(game.commands, set()), dict(states or {}))
    commands = _walk(game.commands, rw) or NullCommand()
    return save_to_bytes(
        commands,
        savedata=game.savedata if game.savedata is not None else savedata,
        moduledata=game.moduledata if game.moduledata is not None else moduledata,
        key=game.key,
    )
