"""Replay a save or log command by command: what is on the table, and what each step did.

This follows recipe §7.1 of vassal-format.md. The part of a file before ``end_save`` sets up
the table (pieces by VASSAL id, stacks bottom first); each later step (the ``LOG`` entries of
a ``.vlog``, §6.6) is turned into :class:`Step` records the orders importer reads: a counter
dragged from one point to another (``M/``, or an old-style ``D/`` whose BasicPiece position
changed), created, deleted or changed, a chat line, and the start and end of an undo block.

The moving rules mirror ``Map.placeOrMerge`` (§6.4): a dragged piece leaves its stack and, if
``newUnderId`` names a piece, joins that piece's stack just above it; a dragged stack takes
all its pieces along, and merges into the stack under it the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from referee.vassal.codec.commands import (
    AddPiece,
    BeginSave,
    ChangePiece,
    Chat,
    Command,
    EndSave,
    MovePiece,
    RemovePiece,
    Undo,
    iter_leaves,
)
from referee.vassal.codec.pieces import (
    Deck,
    LayerState,
    Piece,
    Stack,
    decode_piece,
    layer_states,
    marker_properties,
)

__all__ = ["Point", "Step", "Tabletop", "replay"]

Point = tuple[str | None, int, int]
"""``(map name or None, x, y)`` in map pixels."""

StepKind = Literal["drag", "create", "delete", "change", "chat", "undo-start", "undo-end"]


@dataclass(frozen=True, slots=True)
class Step:
    """One thing a logged command did. ``index`` counts logged leaves from 1 (the step a
    player sees when stepping through the log); ``piece`` is the VASSAL piece id."""

    kind: StepKind
    index: int
    piece: str = ""
    old: Point | None = None
    new: Point | None = None
    text: str = ""
    moved_as_stack: bool = False


@dataclass
class Tabletop:
    """The piece table of recipe §7.1, kept up to date command by command."""

    pieces: dict[str, Piece] = field(default_factory=dict)
    stacks: dict[str, list[str]] = field(default_factory=dict)  # bottom first
    stack_of: dict[str, str] = field(default_factory=dict)
    stack_point: dict[str, Point] = field(default_factory=dict)

    # ---- queries -------------------------------------------------------------------------
    def point(self, piece_id: str) -> Point:
        piece = self.pieces[piece_id]
        basic = piece.basic_piece
        if basic is None:
            return (None, 0, 0)
        x, y = basic.position
        return (basic.map_id, x, y)

    def properties(self, piece_id: str) -> dict[str, str]:
        return marker_properties(self.pieces[piece_id])

    def layers(self, piece_id: str) -> list[LayerState]:
        return layer_states(self.pieces[piece_id])

    def stack_order(self, piece_id: str) -> tuple[str, ...]:
        """The piece ids of ``piece_id``'s stack, **top first** (just itself when alone)."""
        sid = self.stack_of.get(piece_id)
        if sid is None:
            return (piece_id,)
        return tuple(reversed(self.stacks[sid]))

    def groups(self) -> Iterator[tuple[str, ...]]:
        """Every piece once, grouped by stack (top first), stacks in creation order, then
        lone pieces in file order."""
        seen: set[str] = set()
        for ids in self.stacks.values():
            members = tuple(i for i in reversed(ids) if i in self.pieces)
            if members:
                seen.update(members)
                yield members
        for pid in self.pieces:
            if pid not in seen:
                yield (pid,)

    # ---- changes -------------------------------------------------------------------------
    def add(self, command: AddPiece) -> str | None:
        """Apply ``+/``; returns the id of a new game piece (not a stack), else ``None``."""
        if command.id is None:
            return None
        piece = decode_piece(command.type, command.state)
        basic = piece.basic
        if isinstance(basic, Stack):
            self._set_stack(command.id, list(basic.piece_ids))
            x, y = basic.position
            point: Point = (basic.map_id, x, y)
            self.stack_point[command.id] = point
            for member in basic.piece_ids:
                self._place(member, point)
            return None
        if isinstance(basic, Deck):
            return None
        self.pieces[command.id] = piece
        return command.id

    def change(self, command: ChangePiece) -> tuple[Point, Point] | None:
        """Apply ``D/``; returns ``(old, new)`` points when the piece moved with it."""
        piece = self.pieces.get(command.id)
        if piece is None:
            return None
        before = self.point(command.id)
        self.pieces[command.id] = decode_piece(piece.type, command.new_state)
        after = self.point(command.id)
        return (before, after) if before != after else None

    def move(self, command: MovePiece) -> list[str]:
        """Apply ``M/``; returns the game pieces that moved (a stack's members, bottom first)."""
        point: Point = (command.new_map, command.new_x, command.new_y)
        members = self.stacks.get(command.id)
        if members is not None:
            moved = [m for m in members if m in self.pieces]
            for m in moved:
                self._place(m, point)
            self.stack_point[command.id] = point
            target = self.stack_of.get(command.new_under or "")
            if target is not None and target != command.id:
                ids = self.stacks[target]
                at = ids.index(command.new_under or "") + 1
                for offset, m in enumerate(moved):
                    self.stack_of[m] = target
                    ids.insert(at + offset, m)
                del self.stacks[command.id]
            return moved
        if command.id not in self.pieces:
            return []
        self._place(command.id, point)
        self._leave_stack(command.id)
        target = self.stack_of.get(command.new_under or "")
        if target is not None:
            ids = self.stacks[target]
            ids.insert(ids.index(command.new_under or "") + 1, command.id)
            self.stack_of[command.id] = target
        return [command.id]

    def remove(self, command: RemovePiece) -> list[str]:
        """Apply ``-/``; returns the game pieces that left the table."""
        gone: list[str] = []
        if command.id in self.stacks:
            for m in self.stacks.pop(command.id):
                self.stack_of.pop(m, None)
                if self.pieces.pop(m, None) is not None:
                    gone.append(m)
            return gone
        self._leave_stack(command.id)
        if self.pieces.pop(command.id, None) is not None:
            gone.append(command.id)
        return gone

    def _place(self, piece_id: str, point: Point) -> None:
        piece = self.pieces.get(piece_id)
        if piece is not None and piece.basic_piece is not None:
            self.pieces[piece_id] = piece.placed(point[0], point[1], point[2])

    def _set_stack(self, stack_id: str, piece_ids: list[str]) -> None:
        for pid in self.stacks.get(stack_id, []):
            self.stack_of.pop(pid, None)
        for pid in piece_ids:
            self._leave_stack(pid)
            self.stack_of[pid] = stack_id
        self.stacks[stack_id] = piece_ids

    def _leave_stack(self, piece_id: str) -> None:
        sid = self.stack_of.pop(piece_id, None)
        if sid is not None and piece_id in self.stacks.get(sid, []):
            self.stacks[sid].remove(piece_id)


@dataclass
class Replay:
    """The table when the file was opened, the table at its end and the steps between."""

    start: Tabletop
    end: Tabletop
    steps: list[Step]
    saw_end_save: bool


def _copy(t: Tabletop) -> Tabletop:
    return Tabletop(
        dict(t.pieces),
        {k: list(v) for k, v in t.stacks.items()},
        dict(t.stack_of),
        dict(t.stack_point),
    )


def replay(commands: Command) -> Replay:
    """Replay a whole ``.vsav``/``.vlog`` command tree.

    Commands before ``end_save`` (and not inside ``LOG``) build the starting table; every
    later command, logged or typed at the top level while replaying, is a :class:`Step`.
    """
    table = Tabletop()
    start: Tabletop | None = None
    steps: list[Step] = []
    index = 0
    for command, logged in iter_leaves(commands):
        if not logged and start is None:
            if isinstance(command, EndSave):
                start = _copy(table)
            elif isinstance(command, BeginSave):
                table = Tabletop()
            elif isinstance(command, AddPiece):
                table.add(command)
            elif isinstance(command, ChangePiece):
                table.change(command)
            elif isinstance(command, MovePiece):
                table.move(command)
            elif isinstance(command, RemovePiece):
                table.remove(command)
            continue
        if start is None:  # a log step before end_save: the file is odd; start from here
            start = _copy(table)
        index += 1
        steps.extend(_apply_step(table, command, index))
    return Replay(start if start is not None else _copy(table), table, steps, start is not None)


def _apply_step(table: Tabletop, command: Command, index: int) -> list[Step]:
    if isinstance(command, MovePiece):
        old: Point = (command.old_map, command.old_x, command.old_y)
        new: Point = (command.new_map, command.new_x, command.new_y)
        as_stack = command.id in table.stacks
        return [
            Step("drag", index, pid, old, new, moved_as_stack=as_stack)
            for pid in table.move(command)
        ]
    if isinstance(command, AddPiece):
        pid = table.add(command)
        return [] if pid is None else [Step("create", index, pid, new=table.point(pid))]
    if isinstance(command, RemovePiece):
        out = []
        for pid in list(table.stacks.get(command.id, [])) or [command.id]:
            if pid in table.pieces:
                out.append(Step("delete", index, pid, old=table.point(pid)))
        table.remove(command)
        return out
    if isinstance(command, ChangePiece):
        moved = table.change(command)
        if moved is not None:
            return [Step("drag", index, command.id, moved[0], moved[1])]
        return [Step("change", index, command.id)] if command.id in table.pieces else []
    if isinstance(command, Chat):
        return [Step("chat", index, text=command.message)]
    if isinstance(command, Undo):
        return [Step("undo-start" if command.in_progress else "undo-end", index)]
    return []
