"""Where an off-map piece is: the boxes of the game and their one spelling.

A piece off the board has a ``box`` instead of a hex (``UnitState.box``; a scenario's fixed
``status``). Most boxes are plain names (``unplaced``, ``reinforcements``, ``eliminated``,
``grounded``, ``forfeited``); a carrier's holding box [9.62B] names its carrier and is written
``holding:US-CV-1``. This module is the only place that spelling is built or read, so code
asks :func:`carrier_of` or :meth:`Box.parse` instead of splitting strings.
"""

from __future__ import annotations

from dataclasses import dataclass

HOLDING = "holding"
_HOLDING_PREFIX = HOLDING + ":"


@dataclass(frozen=True, slots=True)
class Box:
    """An off-map box: ``kind`` (``holding``, ``eliminated``, ``unplaced``...) and, for a
    holding box, the carrier it belongs to."""

    kind: str
    carrier: str | None = None

    @staticmethod
    def parse(text: str | None) -> Box | None:
        if not text:
            return None
        if text.startswith(_HOLDING_PREFIX):
            return Box(HOLDING, text[len(_HOLDING_PREFIX) :])
        return Box(text)

    @property
    def is_holding(self) -> bool:
        return self.kind == HOLDING

    def __str__(self) -> str:
        return holding_box(self.carrier) if self.carrier is not None else self.kind


def holding_box(carrier: str) -> str:
    """The box of ``carrier``'s holding box, as a unit's ``box`` field spells it [9.62B]."""
    return _HOLDING_PREFIX + carrier


def carrier_of(box: str | None) -> str | None:
    """The carrier whose holding box ``box`` is, or ``None`` for any other box or none."""
    b = Box.parse(box)
    return b.carrier if b is not None and b.is_holding else None


def is_holding(box: str | None) -> bool:
    return carrier_of(box) is not None


ABOARD = "aboard:"
"""The box of a unit carried by another (a ground unit aboard a transport [28.1]):
``aboard:SU-T-GPA``."""


def carried_by(box: str | None) -> str | None:
    """The unit carrying a unit whose box is ``box`` (``aboard:SU-T-GPA``), or ``None``."""
    return box[len(ABOARD) :] if box and box.startswith(ABOARD) and len(box) > len(ABOARD) else None
