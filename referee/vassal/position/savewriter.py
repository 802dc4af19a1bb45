"""Compose a ``.vsav`` that puts our module's counters where the game says (recipe §7.2).

A save must use the very piece definitions of the module's palette, or VASSAL will not
recognise the counters ("Refresh Counters" matches them by gpid, our tools by the ``UnitId``
Marker property). So every counter is copied from its PieceSlot
(:attr:`referee.vassal.module.plan.ModulePlan.unit_slots`) and only three things change: the
BasicPiece's map and position (§5.3), and the Layer states (§5.4), e.g. the Returning layer of
an inverted air unit [9.22]. Counters at the same point form one Stack, bottom first (§5.8).

The stream is laid out as VASSAL's own ``GameState.getRestoreCommand`` writes it (§6.5):
``begin_save``, the empty version-check slot, one group holding every piece and then every
stack and every deck (:mod:`referee.vassal.position.decks`), the BoardPicker of each map,
``SETUP_STACK``, optional notes, ``end_save``. Piece ids are sequential from a fixed base,
``savedata`` has a fixed date and ``moduledata`` is the module's own, so the same position
always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from referee.vassal.codec.commands import (
    AddPiece,
    BeginSave,
    BoardPlacement,
    Command,
    Compound,
    EndSave,
    Notes,
    NullCommand,
    SetBoards,
    SetGlobalProperty,
    SetTurn,
    SetupStack,
)
from referee.vassal.codec.pieces import Piece, Stack
from referee.vassal.codec.savefile import build_savedata, save_to_bytes
from referee.vassal.module.buildfile import DATE_SAVED, VASSAL_VERSION, moduledata_xml
from referee.vassal.position.counters import Placed, counter_piece, placed_strings
from referee.vassal.position.decks import DeckFill, deck_state, deck_type
from referee.vassal.position.placement import Table

__all__ = ["PIECE_ID_BASE", "Placed", "build_save", "counter_piece"]

PIECE_ID_BASE: Final = 1_000_000_000_000
"""First piece id. VASSAL numbers pieces it creates with the current time in milliseconds
(§5.9), which is larger, so ids never collide with pieces a player adds later."""


def build_save(
    table: Table,
    stacks: Sequence[Sequence[Placed]],
    *,
    notes: str = "",
    description: str = "",
    extra: Sequence[tuple[Piece, str, int, int]] = (),
    turn: SetTurn | None = None,
    decks: Sequence[DeckFill] = (),
    properties: Sequence[tuple[str, str]] = (),
) -> bytes:
    """The ``.vsav`` bytes for ``stacks``: each inner sequence is one stack, **top first**
    (the engine's order), all at the same point. ``extra`` adds other pieces (markers) as
    ``(piece, map, x, y)``; each goes at the bottom of the stack at its point, or alone.
    ``turn`` sets the module's turn tracker (:func:`referee.vassal.module.tracker.tracker_state`).
    ``properties`` sets Global Properties (name, value) of the module.
    ``decks`` fills the module's decks: each counter, then the ``deck;`` that lists them
    (:mod:`referee.vassal.position.decks`).
    """
    next_id = PIECE_ID_BASE
    pieces: list[Command] = []
    stack_cmds: list[Command] = []
    at_point: dict[tuple[str, int, int], list[str]] = {}

    def add(piece: Piece) -> str:
        return add_strings(piece.type, piece.state)

    def add_strings(type_: str, state: str) -> str:
        nonlocal next_id
        next_id += 1
        pid = str(next_id)
        pieces.append(AddPiece(pid, type_, state))
        return pid

    for piece, map_id, x, y in extra:
        at_point.setdefault((map_id, x, y), []).append(add(piece.placed(map_id, x, y)))
    for stack in stacks:
        if not stack:
            continue
        first = stack[0]
        point = (first.map, first.x, first.y)
        for p in stack:
            if (p.map, p.x, p.y) != point:
                raise ValueError(f"stack of {first.piece_id}: {p.piece_id} is at another point")
        ids = [add_strings(*placed_strings(table, p)) for p in reversed(stack)]  # bottom first
        at_point.setdefault(point, []).extend(ids)
    for (map_id, x, y), ids in at_point.items():
        next_id += 1
        stack_piece = Stack.build(map_id, x, y, ids)
        stack_cmds.append(AddPiece(str(next_id), stack_piece.type, stack_piece.state or ""))
    for deck in decks:
        ids = [add(piece) for piece in deck.pieces]
        next_id += 1
        state = deck_state(deck.map, deck.x, deck.y, ids)
        stack_cmds.append(AddPiece(str(next_id), deck_type(deck.name), state))
    tail: list[Command] = [
        SetBoards(map_id, (BoardPlacement(board),)) for map_id, board in table.boards
    ]
    if turn is not None:
        tail.append(turn)
    tail += [SetGlobalProperty(name, value, "") for name, value in properties]
    tail.append(SetupStack())
    if notes:
        tail.append(Notes(False, _one_line(notes)))
    commands = Compound(
        (
            BeginSave(),
            NullCommand(),
            Compound((NullCommand(), *pieces, *stack_cmds)),
            *tail,
            EndSave(),
        )
    )
    module = table.module
    savedata = build_savedata(
        module_version=module.version,
        vassal_version=VASSAL_VERSION,
        date_saved=int(DATE_SAVED),
        description=_one_line(description),
    )
    moduledata = moduledata_xml(module.name, module.version, module.description)
    return save_to_bytes(commands, savedata=savedata, moduledata=moduledata)


def _one_line(text: str) -> str:
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())
