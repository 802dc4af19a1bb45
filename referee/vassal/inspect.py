"""What is on the table in a save: one :class:`PieceInfo` per game piece.

This is the data behind ``referee show-vsav`` (the CLI maps ``x, y`` to hex ids). It
follows recipe §7.1 of vassal-format.md: build the piece table from the ``+/`` commands
up to ``end_save`` (the position VASSAL shows when the file is opened), and optionally
replay the ``LOG`` steps of a ``.vlog`` (``M/`` moves, ``D/`` state changes, ``-/``
removals, new ``+/`` pieces) to reach the end of the log.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from referee.vassal.commands import (
    AddPiece,
    ChangePiece,
    Command,
    MovePiece,
    RemovePiece,
    iter_leaves,
)
from referee.vassal.pieces import (
    Deck,
    LayerState,
    Piece,
    Stack,
    decode_piece,
    layer_states,
    marker_properties,
)
from referee.vassal.savefile import read_save

__all__ = ["PieceInfo", "describe_commands", "describe_save"]


@dataclass(frozen=True)
class PieceInfo:
    """One game piece (stacks and decks are not listed; ``stack_id`` says where a piece is).

    ``properties`` are the Marker properties (§5.5), where our module writer keeps
    ``UnitId``, ``Side``, ``Nationality``, ``Type`` and values. ``map`` is ``None`` for
    pieces on no map (in a deck, or never placed); ``x, y`` are map pixels (§4.2).
    """

    id: str
    name: str
    map: str | None
    x: int
    y: int
    gpid: str
    properties: Mapping[str, str]
    layers: tuple[LayerState, ...]
    stack_id: str | None


class _Table:
    """The piece table of recipe §7.1, updated command by command."""

    def __init__(self) -> None:
        self.pieces: dict[str, Piece] = {}
        self.stacks: dict[str, list[str]] = {}
        self.stack_of: dict[str, str] = {}

    def add(self, command: AddPiece) -> None:
        if command.id is None:
            return
        piece = decode_piece(command.type, command.state)
        basic = piece.basic
        if isinstance(basic, Stack):
            self._set_stack(command.id, list(basic.piece_ids))
        elif not isinstance(basic, Deck):
            self.pieces[command.id] = piece

    def change(self, command: ChangePiece) -> None:
        piece = self.pieces.get(command.id)
        if piece is not None:
            self.pieces[command.id] = decode_piece(piece.type, command.new_state)

    def move(self, command: MovePiece) -> None:
        members = self.stacks.get(command.id)
        moved = list(members) if members is not None else [command.id]
        for piece_id in moved:
            piece = self.pieces.get(piece_id)
            if piece is not None and piece.basic_piece is not None:
                self.pieces[piece_id] = piece.placed(command.new_map, command.new_x, command.new_y)
        if members is None:
            self._leave_stack(command.id)
            target = self.stack_of.get(command.new_under or "")
            if target is not None:
                ids = self.stacks[target]
                ids.insert(ids.index(command.new_under or "") + 1, command.id)
                self.stack_of[command.id] = target

    def remove(self, command: RemovePiece) -> None:
        if command.id in self.stacks:
            self._set_stack(command.id, [])
            del self.stacks[command.id]
        self._leave_stack(command.id)
        self.pieces.pop(command.id, None)

    def _set_stack(self, stack_id: str, piece_ids: list[str]) -> None:
        for piece_id in self.stacks.get(stack_id, []):
            self.stack_of.pop(piece_id, None)
        for piece_id in piece_ids:
            self._leave_stack(piece_id)
            self.stack_of[piece_id] = stack_id
        self.stacks[stack_id] = piece_ids

    def _leave_stack(self, piece_id: str) -> None:
        stack_id = self.stack_of.pop(piece_id, None)
        if stack_id is not None and piece_id in self.stacks.get(stack_id, []):
            self.stacks[stack_id].remove(piece_id)

    def infos(self) -> list[PieceInfo]:
        result = []
        for piece_id, piece in self.pieces.items():
            basic = piece.basic_piece
            x, y = basic.position if basic else (0, 0)
            result.append(
                PieceInfo(
                    id=piece_id,
                    name=basic.name if basic else "",
                    map=basic.map_id if basic else None,
                    x=x,
                    y=y,
                    gpid=basic.gpid if basic else "",
                    properties=marker_properties(piece),
                    layers=tuple(layer_states(piece)),
                    stack_id=self.stack_of.get(piece_id),
                )
            )
        return result


def describe_commands(commands: Command, *, replay_log: bool = False) -> list[PieceInfo]:
    """The pieces set up by ``commands``, in file order; see :func:`describe_save`."""
    table = _Table()
    for command, logged in iter_leaves(commands):
        if logged and not replay_log:
            continue
        if isinstance(command, AddPiece):
            table.add(command)
        elif isinstance(command, ChangePiece):
            table.change(command)
        elif isinstance(command, MovePiece):
            table.move(command)
        elif isinstance(command, RemovePiece):
            table.remove(command)
    return table.infos()


def describe_save(path: str | os.PathLike[str], *, replay_log: bool = False) -> list[PieceInfo]:
    """Every game piece in the save or log at ``path``, in file order.

    By default this is the position VASSAL shows when the file is opened (for a log, the
    start of the log). ``replay_log=True`` also applies the logged steps, giving the
    position at the end of the log. Raises
    :class:`~referee.vassal.errors.VassalFormatError` for a file it refuses.
    """
    return describe_commands(read_save(path).commands, replay_log=replay_log)
