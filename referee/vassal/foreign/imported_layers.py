"""Flips and markers of an imported module's game, on the module's own Layers [G1].

A declared game records ``flip PIECE`` (the piece's ``flipped`` flag) and ``mark PIECE
WORD`` / ``unmark`` (words in its status). A piece of a VASSAL module shows such things
with its Layer traits (``Embellishment``, vassal-format.md §5.4), so the game's save
(:func:`referee.vassal.foreign.game.imported_position_vsav`) and a player's log
(:mod:`referee.vassal.foreign.imported_log`) meet on them:

* **flip**: the piece's *flip layer*, its outermost Layer of exactly two levels (a front
  and a back), shows the other level than the set-up gave it; a piece with no such Layer is
  flipped in the record only;
* **mark WORD**: the Layer whose name is WORD, or whose level is named WORD, is switched on
  (at that level); a word that names no Layer of the piece is in the record only;
  **unmark** switches it off again. A word is the name in lower case, with ``-`` for each
  run of other characters than letters and digits (``Out of supply`` is ``out-of-supply``).

In a log, the flip layer put on its other level is ``flip``; any other Layer switched on, or
put on another level, is ``mark`` with the word of its name (or of its new level's name,
for a Layer of several levels); a Layer that a ``mark`` switched on and the log switches off
is ``unmark`` (and a Layer a ``mark`` put on one level put on another is ``unmark`` of the
old word and ``mark`` of the new). A Layer the set-up has on cannot be switched off by an
order, nor a flip layer switched off: those changes are listed, never guessed. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from referee.vassal.codec.pieces import Embellishment, Piece

__all__ = ["FLIPPED", "apply_status", "layer_orders", "word_of"]

FLIPPED: Final = "flipped"
"""The status word of a flipped piece (the declared ruleset's ``FLIPPED``)."""
_NOT_WORD: Final = re.compile(r"[^a-z0-9]+")


def word_of(name: str) -> str:
    """A Layer's or level's name as an order's word: ``Out of supply`` -> ``out-of-supply``."""
    return _NOT_WORD.sub("-", name.replace("+", " ").lower()).strip("-")


def _layers(piece: Piece) -> list[tuple[int, Embellishment]]:
    return [(i, t) for i, t in enumerate(piece.traits) if isinstance(t, Embellishment)]


def _flip_layer(piece: Piece) -> int | None:
    """The index (in ``piece.traits``) of its outermost Layer of exactly two levels."""
    return next((i for i, t in _layers(piece) if len(t.image_names) == 2), None)


def _named(layer: Embellishment, word: str) -> int | None:
    """The level (1-based) ``word`` names on ``layer``: its own name names its current
    level; ``None`` when it names neither."""
    if layer.layer_name and word_of(layer.layer_name) == word:
        return layer.level
    for i, name in enumerate(layer.level_names):
        if name and word_of(name) == word:
            return i + 1
    return None


def apply_status(piece: Piece, status: Iterable[str]) -> Piece:
    """``piece`` (as the set-up has it) with the game's flip and marks on its Layers."""
    out = piece
    words = set(status)
    flip = _flip_layer(piece)
    if FLIPPED in words and flip is not None:
        layer = out.traits[flip]
        assert isinstance(layer, Embellishment)
        level = 3 - layer.level
        out = out.with_trait(flip, layer.with_value(level if layer.active else -level))
    for i, layer in _layers(out):
        if i == flip:
            continue
        for word in sorted(words - {FLIPPED}):
            level = _named(layer, word)
            if level is not None:
                out = out.with_trait(i, layer.with_value(level))
                break
    return out


def layer_orders(
    pid: str, start: Piece, end: Piece, status: Iterable[str]
) -> tuple[list[str], list[str]]:
    """The orders that carry the Layer changes from ``start`` to ``end`` of the game's piece
    ``pid`` (whose status is ``status``), and what cannot be carried, in words."""
    orders: list[str] = []
    problems: list[str] = []
    a, b = _layers(start), _layers(end)
    if [i for i, _ in a] != [i for i, _ in b]:
        return [], [f"{pid}'s traits changed in VASSAL: no order says that"]
    flip = _flip_layer(start)
    words = set(status)
    for (i, old), (_, new) in zip(a, b, strict=True):
        if (old.active, old.level) == (new.active, new.level):
            continue
        label = old.layer_name or f"layer {i}"
        if i == flip:
            if old.active == new.active:
                orders.append(f"flip {pid}")
            else:
                problems.append(f"{pid}'s {label} was switched {'on' if new.active else 'off'}")
            continue
        if new.active:
            several = len(new.level_names) > 1 and new.level_names[new.level - 1]
            name = new.level_names[new.level - 1] if several else old.layer_name
            if not name or not word_of(name):
                problems.append(f"{pid}'s {label} changed; it has no name to mark it by")
            else:
                word = word_of(name)
                stale = [w for w in words - {FLIPPED, word} if _named(old, w) is not None]
                orders += [f"unmark {pid} {w}" for w in sorted(stale)]
                orders.append(f"mark {pid} {word}")
            continue
        gone = [w for w in words - {FLIPPED} if _named(old, w) is not None]
        if gone:
            orders += [f"unmark {pid} {w}" for w in sorted(gone)]
        else:
            problems.append(
                f"{pid}'s {label} was switched off; the set-up has it on and no order "
                "switches it off"
            )
    return orders, problems
