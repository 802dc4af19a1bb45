"""Markers with levels: one counter Layer whose level shows a number the engine keeps.

A ruleset's damage track (D1-D12 [DTP 8.54], a ship's damage points [27.31]) or a port's
capacity left [26.25] is one number per unit or place. Giving each value a Layer of its own
costs a Ctrl key per value, and the free keys run out (``plan.FREE_KEYS``); a VASSAL Layer
has levels, so the whole track is **one** Layer (``emb2``, vassal-format.md §5.4) that is
always active, with an increase key (Ctrl+letter) and a decrease key (Ctrl+Shift+letter).
Level ``n + 1`` shows the value ``n``: for a unit's marker the first level (value 0) has no
image, so an undamaged counter looks as printed; a place's marker shows every value, 0
included (a port with no capacity left).

:func:`marker_values` reads the values of a :class:`~referee.source.schema.MarkerDecl` with
``levels`` from a state, from its ``data`` path or its ``compute`` hook (the ruleset's own
function, named as data so this package imports no ruleset).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from referee.source.model import Module
from referee.source.schema import MarkerDecl
from referee.vassal.codec.pieces import Embellishment
from referee.vassal.codec.sequence import encode_sequence, encode_string_array

__all__ = [
    "CTRL_SHIFT",
    "SHIFT_TAKEN",
    "data_levels",
    "level_names",
    "level_value",
    "levelled_layer_trait",
    "marker_values",
]

CTRL: Final = 130
CTRL_SHIFT: Final = 195
"""Java ``CTRL_MASK | CTRL_DOWN_MASK | SHIFT_MASK | SHIFT_DOWN_MASK``: Ctrl+Shift."""
SHIFT_TAKEN: Final = "HILN"
"""Ctrl+Shift letters of the module's own buttons (``tools.py``: hide pieces, inventory,
range thread, notes): a layer's decrease key is never one of them."""


def level_names(decl: MarkerDecl) -> tuple[str, ...]:
    """The name of each value ``0 .. decl.levels`` (``"D0"`` .. ``"D12"``)."""
    return tuple(decl.label.format(n) for n in range(decl.levels + 1))


def level_value(decl: MarkerDecl, value: int) -> int:
    """The Layer state that shows ``value`` (clamped to the declared range): level
    ``value + 1``, always active (positive)."""
    return min(max(value, 0), decl.levels) + 1


def levelled_layer_trait(
    name: str,
    key: str,
    names: tuple[str, ...],
    images: tuple[str, ...],
    description: str,
    *,
    blank_first: bool,
    follow: str = "",
) -> Embellishment:
    """An always-active ``emb2`` Layer with one level per value (§5.4): Ctrl+``key``
    increases, Ctrl+Shift+``key`` decreases, neither loops. ``blank_first``: the first level
    (value 0) shows no image and leaves the piece name alone.

    ``follow`` names a property instead (``Damage_Level``): the Layer has no keys and shows
    the level that property's value names (VASSAL's "follow property value", first level
    value 1, clamped to the last level), so it changes with the layer that owns the
    property; ``names`` then leave the piece name alone and an empty image draws nothing."""
    letter = key.upper()
    level_labels = [f"+ ({n})" for n in names] if not follow else ["" for _ in names]
    level_images = list(images)
    if blank_first:
        level_labels[0] = ""
        level_images[0] = ""
    up, down = (f"{name} +1", f"{name} -1") if not follow else ("", "")
    fields: list[str | int | bool | None] = [
        "",  # 1 activateCommand
        CTRL,  # 2 activateModifiers
        "",  # 3 activateKey
        up,  # 4 upCommand
        CTRL,  # 5 upModifiers
        letter,  # 6 upKey
        down,  # 7 downCommand
        CTRL_SHIFT,  # 8 downModifiers
        letter,  # 9 downKey
        "",  # 10 resetCommand
        "",  # 11 resetKey
        1,  # 12 resetLevel
        False,  # 13 drawUnderneathWhenSelected
        0,  # 14 xOff
        0,  # 15 yOff
        encode_string_array(level_images),  # 16 imageNames
        encode_string_array(level_labels),  # 17 levelNames
        False,  # 18 loopLevels
        name,  # 19 name
        "",  # 20 randomKey
        "",  # 21 randomText
        bool(follow),  # 22 followProperty
        follow,  # 23 propertyName
        1,  # 24 firstLevelValue
        1,  # 25 version
        True,  # 26 alwaysActive
        "",  # 27 activateKeyStroke
        f"{ord(letter)},{CTRL}" if letter else "",  # 28 increaseKeyStroke
        f"{ord(letter)},{CTRL_SHIFT}" if letter else "",  # 29 decreaseKeyStroke
        description,  # 30 description
        "1.0",  # 31 scale
        "",  # 32 onlyPropertyName
        True,  # 33 onlyPropertyState
    ]
    return Embellishment(Embellishment.ID + (encode_sequence(fields, ";") or ""), "1")


def data_levels(data: Mapping[str, Any], path: str) -> dict[str, int]:
    """Id -> number at ``path`` of ``GameState.data``: ``"damage"`` is a mapping id ->
    number; a ``*`` part walks every entry of the mapping there (``"ships.*.damage"``).
    Anything not an integer is left out (a state written by hand or an older version)."""
    before, _, after = path.partition(".*.")
    node = _at(data, before)
    if not isinstance(node, Mapping):
        return {}
    out: dict[str, int] = {}
    for key, entry in node.items():
        value = _at(entry, after) if after else entry
        if isinstance(value, int) and not isinstance(value, bool):
            out[str(key)] = value
    return out


def _at(node: object, path: str) -> object:
    for part in path.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def marker_values(decl: MarkerDecl, module: Module, state: Any) -> dict[str, int]:
    """Id (unit or place) -> value of a levelled marker in ``state``, sorted by id."""
    if decl.compute is not None:
        values = dict(decl.compute(module, state))
    elif decl.data:
        values = data_levels(state.data, decl.data)
    else:
        values = {}
    return {k: int(values[k]) for k in sorted(values)}
