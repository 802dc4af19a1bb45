"""One of our module's counters put at a point of a save: the palette piece with its layers
set (recipe §5.3, §5.4). The save writer (:mod:`savewriter`) and the decks
(:mod:`decks`) both place counters this way."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.vassal.codec.pieces import Embellishment, Piece
from referee.vassal.position.placement import Table


@dataclass(frozen=True, slots=True)
class Placed:
    """One counter to put in the save: a piece id of the module, where, which layers are
    active (by layer name, e.g. ``{"Returning"}``) and the level of each layer with levels."""

    piece_id: str
    map: str
    x: int
    y: int
    layers: frozenset[str] = field(default_factory=frozenset)
    # layers with levels (a damage track, :mod:`referee.vassal.module.levels`): (name, state value)
    levels: tuple[tuple[str, int], ...] = ()


_PIECES: dict[int, tuple[Table, dict[Placed, tuple[str, str]]]] = {}


def placed_strings(table: Table, placed: Placed) -> tuple[str, str]:
    """The ``(type, state)`` of :func:`counter_piece`, encoded once per table and
    ``placed``: a whole game's saves show the same counters at the same points again and
    again, and decoding and encoding a counter's traits is most of a save's cost."""
    hit = _PIECES.get(id(table))
    if hit is None or hit[0] is not table:
        _PIECES.clear()
        hit = _PIECES[id(table)] = (table, {})
    made = hit[1].get(placed)
    if made is None:
        if len(hit[1]) > 50_000:
            hit[1].clear()
        piece = counter_piece(table, placed)
        made = hit[1][placed] = (piece.type, piece.state)
    return made


def counter_piece(table: Table, placed: Placed) -> Piece:
    """The palette piece of ``placed.piece_id`` put at its point with its layers set, its
    prototypes expanded as VASSAL expands a counter dragged from the palette (so the layers
    of a prototype, such as Attacked, keep their state in the save).

    Raises ``KeyError`` for a piece id the module has no counter for.
    """
    slot = table.plan.unit_slots.get(placed.piece_id)
    if slot is None:
        raise KeyError(f"the module has no counter {placed.piece_id!r}")
    piece = table.plan.expanded(slot)
    levels = dict(placed.levels)
    for index, trait in enumerate(piece.traits):
        if not isinstance(trait, Embellishment):
            continue
        if trait.layer_name in levels:
            piece = piece.with_trait(index, trait.with_value(levels[trait.layer_name]))
        elif not trait.always_active:
            wanted = trait.layer_name in placed.layers
            level = trait.level
            piece = piece.with_trait(index, trait.with_value(level if wanted else -level))
    return piece.placed(placed.map, placed.x, placed.y)
