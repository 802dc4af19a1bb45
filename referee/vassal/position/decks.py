"""The contents of the module's decks in a save: VASSAL's ``deck;`` AddPiece (vassal-format.md
§5.2, §6.5; VASSAL ``counters/Deck.java`` ``getType``/``getState``/``setState``).

A box the map declares as a deck (``deck = "face_down"``; :func:`referee.vassal.module.buildfile.
deck_boxes`) is a DrawPile in the buildFile. A save that says ``SETUP_STACK`` (ours do: the
scenario's counters are placed by the save, not by at-start stacks) keeps VASSAL from filling
the DrawPiles at ``end_save``, so the save itself must hold each Deck: first every counter in
it (pieces come before the containers that name them, §6.5), then
``+/id/deck;TYPE/MAP;X;Y;FACEDOWN;ID,ID,...`` (bottom first). ``Deck.mySetType`` finds the
DrawPile by the deck name in the type and hands it this Deck (``DrawPile.setDeck``).

What a deck holds comes from the ruleset's optional ``deck_contents(module, state)``
(:func:`referee.engine.ruleset.deck_contents`), from the state or view the save is written
for: a list of piece ids where that state knows the counters, or only a count where it does
not (a side's view of the other side's cup). A counted deck is filled with that many
anonymous face-down markers: a bare BasicPiece named after the deck that shows the face-down
image of the deck's counters (their Mask) and carries no unit id, so a side's save never
names a counter its view hides (docs/vassal.md, "Decks").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, type_prefix
from referee.vassal.codec.sequence import SequenceDecoder, encode_sequence
from referee.vassal.module.buildfile import deck_boxes
from referee.vassal.position.counters import Placed, counter_piece
from referee.vassal.position.placement import MAIN_MAP_EDGE, Table

__all__ = [
    "DECK_FIELDS",
    "DeckFill",
    "anonymous_marker",
    "anonymous_name",
    "deck_fills",
    "deck_state",
    "deck_type",
]

MASK_ID: Final = "obs;"
"""VASSAL's Mask (``Obscurable``) trait; its type's second field is the face-down image."""

DECK_FIELDS: Final[tuple[tuple[str, str], ...]] = (
    ("drawOutline", "true"),
    ("outlineColor", "0,0,0"),
    ("width", "60"),
    ("height", "60"),
    ("faceDownOption", "Always"),
    ("shuffleOption", "Always"),
    ("allowMultipleDraw", "false"),
    ("allowSelectDraw", "false"),
    ("reversible", "false"),
    ("reshuffleCommand", ""),
    ("reshuffleTarget", ""),
    ("reshuffleMsgFormat", ""),
    ("deckName", ""),
    ("shuffleMsgFormat", ""),
    ("reverseMsgFormat", ""),
    ("faceDownMsgFormat", ""),
    ("drawFaceUp", "false"),
    ("persistable", "false"),
    ("shuffleKey", ""),
    ("reshuffleKey", ""),
    ("maxStack", "10"),
    ("countExpressions", ""),
    ("expressionCounting", "false"),
    ("globalCommands", ""),
    ("hotkeyOnEmpty", "false"),
    ("emptyKey", ""),
    ("selectDisplayProperty", "$BasicName$"),
    ("selectSortProperty", ""),
    ("restrictOption", "false"),
    ("restrictExpression", ""),
    ("shuffleCommand", "Shuffle"),
    ("reverseCommand", "Reverse"),
    ("reverseKey", ""),
    ("drawMultipleMessage", "Draw multiple cards"),
    ("drawSpecificMessage", "Draw specific cards"),
    ("faceUpMessage", "Face up"),
    ("faceDownMessage", "Face down"),
    ("faceUpKey", ""),
    ("faceUpMsgFormat", ""),
    ("faceFlipKey", ""),
    ("faceDownKey", ""),
    ("saveMessage", "Save Deck"),
    ("saveKey", ""),
    ("saveReport", "Deck Saved"),
    ("loadMessage", "Load Deck"),
    ("loadKey", ""),
    ("loadReport", "Deck Loaded"),
    ("restrictAccess", "false"),
    ("owners", ""),
)
"""The fields of ``Deck.getType`` in its order, with the values VASSAL 3.7.26 writes for the
DrawPile ``buildfile._decks`` declares (face down and shuffled ``Always``, 60x60, no
multiple or chosen draws, not reversible; the rest VASSAL's defaults). Read off the deck a
real VASSAL wrote when it set up our Sixth Fleet (2019) module's cups itself; a test keeps
these values and the DrawPile's attributes in step."""


@dataclass(frozen=True, slots=True)
class DeckFill:
    """One deck of a save: its name (the DrawPile's), point, and counters bottom first."""

    name: str
    map: str
    x: int
    y: int
    pieces: tuple[Piece, ...]


def deck_type(name: str) -> str:
    """The ``deck;`` type of the DrawPile ``name`` (``Deck.getType``, SE ``;``)."""
    values = [name if field == "deckName" else value for field, value in DECK_FIELDS]
    return "deck;" + (encode_sequence(values, ";") or "")


def deck_state(map_id: str, x: int, y: int, piece_ids: Sequence[str]) -> str:
    """``Deck.getState``: map, point, face down (``faceDown="Always"``), then the ids bottom
    first as one SE ``,`` token, left out when the deck is empty (as VASSAL writes it)."""
    tokens: list[str | int | bool | None] = [map_id, x, y, True]
    if piece_ids:
        tokens.append(encode_sequence(list(piece_ids), ","))
    return encode_sequence(tokens, ";") or ""


def mask_image(piece: Piece) -> str | None:
    """The face-down image of a counter's Mask trait (``obs;KEY;IMAGE;...``), if it has one."""
    for trait in piece.traits:
        if type_prefix(trait.type) == MASK_ID:
            decoder = SequenceDecoder(trait.type[len(MASK_ID) :], ";")
            decoder.next_token("")
            image = decoder.next_token("")
            return image or None
    return None


def anonymous_name(deck: str) -> str:
    """The name (and ``Marker`` property) of an anonymous face-down marker of ``deck``."""
    return f"{deck}: face-down marker"


def anonymous_marker(deck: str, image: str) -> Piece:
    """A face-down marker of ``deck`` whose identity the save may not tell: only the
    deck's face-down image and :func:`anonymous_name` (also its ``Marker`` property, so our
    readers know it as one of the module's markers, :func:`referee.vassal.position.survey.
    check_ours`), no unit id."""
    name = anonymous_name(deck)
    return Piece((Marker.build({"Marker": name}), BasicPiece.build(name, image)))


def deck_fills(table: Table, contents: Mapping[str, Sequence[str] | int]) -> list[DeckFill]:
    """The module's decks (``buildfile.deck_boxes``, in map order) filled as ``contents``
    says, by deck name: counters by piece id, or a count of anonymous face-down markers
    (none when the deck's counters have no Mask to show). A deck ``contents`` does not name
    is left out of the save, as before decks were written.

    Raises ``KeyError`` for a piece id the module has no counter for, ``ValueError`` for a
    deck name the module does not declare or a negative count.
    """
    boxes = dict(deck_boxes(table.plan))
    unknown = sorted(set(contents) - set(boxes))
    if unknown:
        raise ValueError(f"no deck box named {', '.join(map(repr, unknown))} on the map")
    out: list[DeckFill] = []
    for name, declared in boxes.items():
        if name not in contents or table.plan.layers is None:
            continue
        bx, by = table.plan.layers.point(name)
        map_id, x, y = table.plan.map_name, bx + MAIN_MAP_EDGE[0], by + MAIN_MAP_EDGE[1]
        held = contents[name]
        pieces: tuple[Piece, ...]
        if isinstance(held, int):
            if held < 0:
                raise ValueError(f"deck {name!r}: negative count {held}")
            slots = [table.plan.unit_slots[p] for p in declared if p in table.plan.unit_slots]
            image = next((i for s in slots if (i := mask_image(s.piece))), None)
            one = anonymous_marker(name, image) if image else None
            pieces = tuple(one.placed(map_id, x, y) for _ in range(held)) if one else ()
        else:
            pieces = tuple(counter_piece(table, Placed(p, map_id, x, y)) for p in held)
        out.append(DeckFill(name, map_id, x, y, pieces))
    return out
