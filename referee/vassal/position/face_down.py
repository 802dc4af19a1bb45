"""Counters a side knows lie face down, in that side's save: masked, carrying no identity.

A side's view leaves out the counters the rules hide from it (Carrier Battlegroup's
unrevealed SBG ships and coastal defense units [2.2], [17.0]), yet the player sees on the
table that they are there, face down. The ruleset says which backs lie where
(:meth:`referee.engine.ruleset.HiddenInformation.face_down`), and the side's save shows one
masked counter per back in that place, under whatever stands there (the SBG's marker).

A VASSAL Mask hides a counter only on the screen: the save holds the whole piece under it.
So the piece under the mask is not the hidden counter but an anonymous one: its name is the
mask's name (``face-down warship``), its picture the shared back, no ``UnitId`` nor any other
property, the same text for every counter of that back. Nothing in the save's bytes says
which counter it is, whoever unmasks it or reads the file. The Mask is the one the module's
counters of that back carry (so VASSAL treats it as theirs), masked by the roster side that
owns those counters, so every other side sees the back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.engine.core import GameState
from referee.engine.ruleset import face_down, get_ruleset
from referee.errors import UserError
from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, UnknownTrait
from referee.vassal.codec.sequence import encode_sequence
from referee.vassal.module.plan import mask_image, mask_name
from referee.vassal.position.placement import Table

__all__ = ["FACE_DOWN_PROPERTY", "face_down_pieces", "masked_stand_in"]

FACE_DOWN_PROPERTY = "FaceDown"
"""The one property of a stand-in: the back it shows (``warship_back``), as the module's
counters name it; tools reading the save know it is no counter of the roster."""

MASK_OPTIONS = "false|0"
"""``ObscurableOptions.encodeOptions`` as VASSAL 3.7 writes it into a masked counter's state
(no override, no extra sides; read from a save real VASSAL wrote)."""


def face_down_pieces(table: Table, state: GameState) -> list[tuple[Piece, str, int, int]]:
    """``(piece, map, x, y)`` of a masked stand-in for every face-down counter the view
    ``state`` knows of, by location in sorted order, in the order the ruleset lists them."""
    module = table.module
    where: Mapping[str, Sequence[str]] = face_down(get_ruleset(module.ruleset), module, state)
    out: list[tuple[Piece, str, int, int]] = []
    made: dict[str, Piece] = {}
    for location in sorted(where):
        try:
            map_id, x, y = table.location_point(location)
        except KeyError:
            raise UserError(
                f"the position has face-down counters in {location}, which is not on the board",
                hint="is this the module the game was created with?",
            ) from None
        for back in where[location]:
            if back not in made:
                made[back] = masked_stand_in(table, back)
            out.append((made[back], map_id, x, y))
    return out


def masked_stand_in(table: Table, back: str) -> Piece:
    """The anonymous counter of back ``back``, masked by its owners' side (module docstring).

    Raises :class:`UserError` when no counter of the module has that back under a Mask."""
    for piece_id, slot in table.plan.unit_slots.items():
        piece = table.plan.expanded(slot)
        unit = table.module.piece(piece_id).unit
        mask = next((t for t in piece.traits if t.type.startswith("obs;")), None)
        if unit.back != back or mask is None:
            continue
        owner = next(s.name for s in table.module.sides if s.id == unit.side)
        state = encode_sequence([owner, MASK_OPTIONS], ";") or ""
        return Piece(
            (
                UnknownTrait(mask.type, state),
                Marker.build({FACE_DOWN_PROPERTY: back}),
                BasicPiece.build(mask_name(back), mask_image(back)),
            )
        )
    raise UserError(
        f"the position has face-down counters of back {back!r}, which no masked counter of "
        f"module {table.module.id} shows",
        hint="list the back in the ruleset's masked_backs",
    )
