"""The pieces of the module: one palette piece per physical counter, markers and prototypes.

Every piece is built as a chain of traits with :mod:`referee.vassal.codec.pieces` and written in a
PieceSlot as an AddPiece command (vassal-format.md §5). What a piece carries is chosen so
that a saved game alone says everything the referee needs:

* a Marker (``mark;``, §5.5) with the counter's identity and printed values: ``UnitId`` (the
  stable piece id such as ``SO-T16.2``), ``Side``, ``Nationality``, ``Category``, ``Type``,
  ``Name``, ``Number``, ``Fleet``, ``Flags`` and each value column (``AA`` ... ``ECM``);
* for air units a Layer (``emb2;``, §5.4) "Returning" that shows the inverted counter of an
  air unit that began its Movement Phase off base [9.22] (the roster's back face when it
  has one, else a generic overlay), toggled with Ctrl+R;
* through the ``Unit`` prototype, a Layer "Attacked" that marks a unit attacked this Combat
  Phase, because units in a stack must be attacked from the top down [7.44] (Ctrl+T);
* through a prototype per unit type (§5.7), the type's long name (``TypeName``);
* through the ``Unit`` prototype, the play traits of :mod:`referee.vassal.module.traits`: Report
  Action, Delete, Send To the side's dead pile (Eliminate, Ctrl+E) and the moved marker;
  markers have Report Action, Delete and Clone; a Layer for each further marker the
  ruleset declares (``RulesetSchema.markers``), with a Report Action above a unit's own
  layers.

Marker pieces (``Destroyed`` for a Defended hex whose intrinsic DEF was destroyed [10.44],
``Attacked`` for a Defended hex attacked this phase) come from a separate palette list.

gpids (§5.9) are derived from the piece ids, not from roster order, so adding a unit does
not renumber the others and "Refresh Counters" keeps working across module versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from referee.source.model import Module, UnitDef
from referee.vassal.codec.commands import AddPiece, encode_command
from referee.vassal.codec.pieces import (
    BasicPiece,
    Embellishment,
    Marker,
    Piece,
    Trait,
    UsePrototype,
)
from referee.vassal.codec.sequence import encode_sequence, encode_string_array
from referee.vassal.module.traits import (
    CLONE_KEY,
    DELETE_KEY,
    ELIMINATE_KEY,
    PERMANENT_KEY,
    REFIT_KEY,
    clone_trait,
    delete_trait,
    moved_trait,
    report_trait,
    send_to_eliminated_trait,
    trail_trait,
)

__all__ = [
    "ATTACKED_LAYER",
    "BACK_LAYER",
    "CARRIER_TYPES",
    "GPID_SPAN",
    "RETURNING_LAYER",
    "UNIT_PROTOTYPE",
    "LayerSpec",
    "face_image",
    "is_carrier",
    "layer_trait",
    "marker_layer",
    "marker_piece",
    "moved_size",
    "piece_name",
    "prototype_name",
    "slot_text",
    "stable_gpids",
    "type_prototype",
    "unit_piece",
    "unit_properties",
    "unit_prototype",
]

CTRL: Final = 130
"""Java ``InputEvent.CTRL_MASK | CTRL_DOWN_MASK``: the modifier VASSAL writes for Ctrl."""

UNIT_PROTOTYPE: Final = "Unit"
"""Name of the prototype every unit uses (the Attacked layer)."""

CARRIER_TYPES: Final = ("CV",)
"""Unit types that carry air units and so get a holding box [9.62B]."""

GPID_SPAN: Final = 999_000_000
"""gpids are ``1000 + hash % GPID_SPAN``: below 2**31 with room for editor-added slots."""


@dataclass(frozen=True, slots=True)
class LayerSpec:
    """A one-level Layer toggled by a Ctrl key: the states the rules need on a counter."""

    name: str
    command: str
    key: str  # the letter; the shortcut is Ctrl+key
    level_name: str  # "+ (x)" appends " (x)" to the piece name while active
    description: str


ATTACKED_LAYER: Final = LayerSpec(
    name="Attacked",
    command="Attacked this phase",
    key="T",
    level_name="+ (attacked)",
    description="Attacked this Combat Phase: units below may now be attacked [7.44]",
)
RETURNING_LAYER: Final = LayerSpec(
    name="Returning",
    command="Returning to base",
    key="R",
    level_name="+ (returning)",
    description="Inverted: began the Movement Phase off base, must end it on one [9.22]",
)


def _se(tokens: Iterable[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


BACK_LAYER: Final = LayerSpec(
    name="Back",
    command="Flip to the back",
    key="B",
    level_name="+ (back)",
    description="The counter's back face (a naval unit's Sailed side [25.31])",
)


def layer_trait(spec: LayerSpec, image: str) -> Embellishment:
    """An ``emb2`` Layer with one level showing ``image``, inactive at first (§5.4).

    The 33 fields are written in ``Embellishment.myGetType`` order with version 1, both the
    legacy key fields and the NamedKeyStroke ones, as VASSAL 3.7 itself writes them.
    """
    keystroke = f"{ord(spec.key.upper())},{CTRL}"
    fields: list[str | int | bool | None] = [
        spec.command,  # 1 activateCommand
        CTRL,  # 2 activateModifiers
        spec.key.upper(),  # 3 activateKey
        "",  # 4 upCommand
        CTRL,  # 5 upModifiers
        "",  # 6 upKey
        "",  # 7 downCommand
        CTRL,  # 8 downModifiers
        "",  # 9 downKey
        "",  # 10 resetCommand
        "",  # 11 resetKey
        1,  # 12 resetLevel
        False,  # 13 drawUnderneathWhenSelected
        0,  # 14 xOff
        0,  # 15 yOff
        encode_string_array([image]),  # 16 imageNames
        encode_string_array([spec.level_name]),  # 17 levelNames
        False,  # 18 loopLevels
        spec.name,  # 19 name
        "",  # 20 randomKey
        "",  # 21 randomText
        False,  # 22 followProperty
        "",  # 23 propertyName
        1,  # 24 firstLevelValue
        1,  # 25 version
        False,  # 26 alwaysActive
        keystroke,  # 27 activateKeyStroke
        "",  # 28 increaseKeyStroke
        "",  # 29 decreaseKeyStroke
        spec.description,  # 30 description
        "1.0",  # 31 scale
        "",  # 32 onlyPropertyName
        True,  # 33 onlyPropertyState
    ]
    return Embellishment(Embellishment.ID + _se(fields, ";"), "-1")


def _use_prototype(name: str) -> UsePrototype:
    return UsePrototype(UsePrototype.ID + _se([name], ";"), "")


def piece_name(piece_id: str, unit: UnitDef) -> str:
    """The name VASSAL reports ("US-CV-1 Saratoga moves 0203 -> 0204")."""
    return f"{piece_id} {unit.name}".strip()


def face_image(unit: UnitDef, back: bool = False) -> str:
    """Image name (under ``images/``) of a counter face; one per roster row, not per copy."""
    return f"unit_{unit.id}{'_back' if back else ''}.png"


def prototype_name(unit_type: str) -> str:
    return f"Type {unit_type}"


def is_carrier(unit: UnitDef) -> bool:
    """Whether the unit has a holding box for air units [9.62B]: a CV, or a ship flagged
    ``flight_deck`` (the DTP Kiev, drawn CH: interpretation DTP-40)."""
    return unit.type in CARRIER_TYPES or unit.has("flight_deck")


def unit_properties(module: Module, unit: UnitDef, piece_id: str) -> dict[str, str]:
    """The Marker properties of one counter, in a fixed order (identity, then values)."""
    props = {
        "UnitId": piece_id,
        "Side": unit.side,
        "Nationality": unit.nationality,
        "Category": unit.category,
        "Type": unit.type,
        "Name": unit.name,
        "Number": unit.number,
        "Fleet": unit.fleet,
        "Flags": " ".join(sorted(unit.flags)),
    }
    for spec in module.values:
        props[spec.key] = str(unit.values.get(spec.key, ""))
    return props


def unit_piece(
    module: Module,
    unit: UnitDef,
    piece_id: str,
    gpid: int,
    returning_image: str | None,
    extra_layers: Sequence[tuple[LayerSpec, str | Embellishment]] = (),
    mask: Trait | None = None,
    *,
    outer: Sequence[Trait] = (),
) -> Piece:
    """The palette piece of one physical counter (outermost trait first).

    ``returning_image`` adds the Returning layer (air units); ``None`` leaves it out.
    ``extra_layers`` are the ruleset's other marker layers this unit can carry, each with
    its image (a one-level layer) or its ready-made Layer (a marker with levels, whose
    Ctrl+Shift key decreases it: :mod:`referee.vassal.module.levels`). A Report Action above this
    piece's own layers logs each of their keys. ``mask`` (VASSAL's Mask trait, for
    face-down counters) sits just inside the prototype, so it hides the counter's name,
    values and layers. ``outer`` go outside everything, the prototype's Send Tos included:
    a Trigger that must see the counter before a Send To moves it
    (:mod:`referee.vassal.module.triggers`).
    """
    traits: list[Trait] = [*outer, _use_prototype(prototype_name(unit.type))]
    if mask is not None:
        traits.append(mask)
    own: list[tuple[LayerSpec, str | Embellishment]] = []
    if returning_image is not None:
        own.append((RETURNING_LAYER, returning_image))
    own += list(extra_layers)
    if own:
        shifted = [s.key for s, lay in own if not isinstance(lay, str) and len(lay.image_names) > 1]
        traits.append(report_trait([spec.key for spec, _ in own], "Report marker changes", shifted))
    for spec, layer in own:
        traits.append(layer_trait(spec, layer) if isinstance(layer, str) else layer)
    traits.append(Marker.build(unit_properties(module, unit, piece_id)))
    traits.append(BasicPiece.build(piece_name(piece_id, unit), face_image(unit), gpid=str(gpid)))
    return Piece(tuple(traits))


def marker_piece(
    name: str,
    image: str,
    gpid: int,
    properties: Mapping[str, str],
    layer: Embellishment | None = None,
    layer_key: str = "",
) -> Piece:
    """A game marker such as ``Destroyed`` [10.44]: reported Delete and Clone, a Marker and
    a BasicPiece; ``layer`` adds a Layer with levels (a port's capacity left [26.25]) whose
    Ctrl+``layer_key`` and Ctrl+Shift+``layer_key`` are reported too."""
    keys = [DELETE_KEY, CLONE_KEY] + ([layer_key] if layer is not None else [])
    shifted = [layer_key] if layer is not None else []
    traits: list[Trait] = [
        report_trait(
            keys, "Report marker removed or added" + (" or changed" if layer else ""), shifted
        ),
        delete_trait("Remove the marker"),
        clone_trait(),
    ]
    if layer is not None:
        traits.append(layer)
    return Piece(
        (*traits, Marker.build(dict(properties)), BasicPiece.build(name, image, gpid=str(gpid)))
    )


def unit_prototype(
    attacked_image: str | None,
    moved_image: str,
    counter_px: int,
    *,
    trails: bool = True,
    eliminate: Sequence[Trait] = (),
    refit: Sequence[Trait] = (),
    permanent: Sequence[Trait] = (),
) -> Piece:
    """The ``Unit`` prototype every unit has: a Report Action (Attacked, Eliminate, Delete),
    Delete, Send To the side's dead pile, the moved marker, the movement trail and the
    Attacked layer [7.44]. ``attacked_image=None`` leaves the Attacked layer out: a ruleset
    whose markers do not declare ``attacked`` has no such rule (``RulesetSchema.markers``).
    ``trails=False`` leaves the trail out: the pieces of a game begun before trails
    (:mod:`referee.vassal.module.piece_versions`). ``eliminate``: the traits of Eliminate
    (Ctrl+E; by default the Send To alone, from piece version 6 a Trigger owning the menu
    and a Send To, :func:`referee.vassal.module.triggers.exit_traits`); ``refit``: those of
    the map's Refit Box (Ctrl+Shift+R), ``permanent`` of its Permanently Eliminated Box
    (Ctrl+Shift+E), each reported in the log too."""
    keys = [ATTACKED_LAYER.key] if attacked_image is not None else []
    shifted = [REFIT_KEY] if refit else []
    shifted += [PERMANENT_KEY] if permanent else []
    traits: list[Trait] = [
        report_trait([*keys, ELIMINATE_KEY, DELETE_KEY], "Report to the log", shifted),
        delete_trait(),
        *(eliminate or [send_to_eliminated_trait()]),
        *refit,
        *permanent,
        moved_trait(moved_image, counter_px // 2 - moved_size(counter_px), -(counter_px // 2)),
    ]
    if trails:
        traits.append(trail_trait())
    if attacked_image is not None:
        traits.append(layer_trait(ATTACKED_LAYER, attacked_image))
    return Piece((*traits, BasicPiece.build("")))


def moved_size(counter_px: int) -> int:
    """Side of the moved marker drawn on a counter's top right corner."""
    return max(8, counter_px // 4)


def marker_layer(name: str, key: str, note: str, rule: str) -> LayerSpec:
    """The Layer of a ruleset-declared unit marker (detected, damaged...), Ctrl+``key``."""
    return LayerSpec(
        name=name,
        command=name,
        key=key,
        level_name=f"+ ({name.lower()})",
        description=f"{note or name} [{rule}]",
    )


def type_prototype(unit_type: str, type_name: str) -> Piece:
    """The prototype of one unit type: its long name, then the ``Unit`` prototype."""
    return Piece(
        (
            Marker.build({"TypeName": type_name or unit_type}),
            _use_prototype(UNIT_PROTOTYPE),
            BasicPiece.build(""),
        )
    )


def slot_text(piece: Piece) -> str:
    """The PieceSlot / PrototypeDefinition text: ``+/null/type/state`` (§5.1)."""
    return encode_command(AddPiece(None, piece.type, piece.state))


def stable_gpids(keys: Sequence[str]) -> dict[str, int]:
    """A unique gpid per key, derived from the key itself (sha256), so it stays the same
    when other keys come and go. Collisions are resolved by probing upward, in sorted key
    order, which keeps the result independent of the order ``keys`` come in."""
    taken: set[int] = set()
    out: dict[str, int] = {}
    for key in sorted(set(keys)):
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        slot = int.from_bytes(digest[:8], "big") % GPID_SPAN
        while slot in taken:
            slot = (slot + 1) % GPID_SPAN
        taken.add(slot)
        out[key] = 1000 + slot
    return out
