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

from referee.vassal.codec.commands import (
    Command,
)
from referee.vassal.codec.pieces import (
    LayerState,
    layer_states,
    marker_properties,
)
from referee.vassal.codec.savefile import read_save
from referee.vassal.codec.tabletop import Tabletop, replay

__all__ = ["PieceInfo", "describe_commands", "describe_save", "describe_table"]


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


def describe_table(table: Tabletop) -> list[PieceInfo]:
    """One :class:`PieceInfo` per game piece on ``table``, in file order."""
    result = []
    for piece_id, piece in table.pieces.items():
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
                stack_id=table.stack_of.get(piece_id),
            )
        )
    return result


def describe_commands(commands: Command, *, replay_log: bool = False) -> list[PieceInfo]:
    """The pieces set up by ``commands``, in file order; see :func:`describe_save`.

    The replay itself is :func:`referee.vassal.codec.tabletop.replay`, the one table of recipe
    §7.1 that the log importer also uses."""
    played = replay(commands)
    return describe_table(played.end if replay_log else played.start)


def describe_save(path: str | os.PathLike[str], *, replay_log: bool = False) -> list[PieceInfo]:
    """Every game piece in the save or log at ``path``, in file order.

    By default this is the position VASSAL shows when the file is opened (for a log, the
    start of the log). ``replay_log=True`` also applies the logged steps, giving the
    position at the end of the log. Raises
    :class:`~referee.vassal.codec.errors.VassalFormatError` for a file it refuses.
    """
    return describe_commands(read_save(path).commands, replay_log=replay_log)
