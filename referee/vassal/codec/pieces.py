"""Game pieces: decode a piece's type and state into its chain of traits, and encode it back.

A VASSAL piece is a chain of decorators (traits) around one innermost ``BasicPiece``
(vassal-format.md §5.2). The outermost trait comes first in the string, and each deeper
level is one more SE token with delimiter TAB, so deeper TABs carry one more backslash.
``BasicCommandEncoder.createPiece`` decodes it by taking **only the first token and the
rest**, recursing into the rest; :func:`decode_piece` does exactly that, and walks the
state string in step with the type.

Each :class:`Trait` keeps its own type and state text unchanged, so encoding a decoded
piece reproduces it byte for byte; typed subclasses add read-only views of the fields we
need (§5.3 BasicPiece, §5.4 Layer, §5.5 Marker, §5.6 Label, §5.7 Prototype, §5.8 Stack)
and ``with_*``/``build`` helpers that write new text the way VASSAL does. Every other
trait (§5.11) stays an opaque :class:`UnknownTrait`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar, TypeVar

from referee.numerals import read_whole
from referee.vassal.codec.sequence import (
    TAB,
    SequenceDecoder,
    decode_sequence,
    decode_string_array,
    encode_sequence,
)

__all__ = [
    "BasicPiece",
    "Deck",
    "Embellishment",
    "Labeler",
    "LayerState",
    "Marker",
    "Piece",
    "Stack",
    "Trait",
    "UnknownTrait",
    "UsePrototype",
    "decode_piece",
    "expand_prototypes",
    "layer_states",
    "marker_properties",
    "type_prefix",
]

_TraitT = TypeVar("_TraitT", bound="Trait")


def type_prefix(trait_type: str) -> str:
    """``BCE.typePrefix``: the text up to and including the first ``;``, else all of it."""
    index = trait_type.find(";")
    return trait_type if index < 0 else trait_type[: index + 1]


def _se(tokens: Iterable[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


@dataclass(frozen=True)
class Trait:
    """One level of a piece: this trait's own ``type`` and ``state`` text (one SE level
    already removed). ``state`` is ``None`` when the piece's state string had fewer levels
    than its type (damaged or very old data; VASSAL would refuse it, §5.2)."""

    type: str
    state: str | None

    @property
    def prefix(self) -> str:
        """The factory key, for example ``mark;`` or ``stack`` (§5.2)."""
        return type_prefix(self.type)

    def _fields(self, id_: str, delimiter: str = ";") -> list[str]:
        """The type's fields after the trait id, decoded with ``delimiter``."""
        return decode_sequence(self.type[len(id_) :], delimiter)


@dataclass(frozen=True)
class UnknownTrait(Trait):
    """Any trait this module does not model (§5.11), carried through verbatim."""


@dataclass(frozen=True)
class BasicPiece(Trait):
    """``piece;cloneKey;deleteKey;image;name`` with state
    ``mapId;x;y;gpid;propCount;key;value…`` (§5.3). Old files have only ``map;x;y``
    (2.x) or ``map;x;y;gpid`` (3.2); missing fields read as defaults."""

    ID: ClassVar[str] = "piece;"

    def _type_field(self, index: int) -> str:
        fields = self._fields(self.ID)
        return fields[index] if index < len(fields) else ""

    @property
    def image(self) -> str:
        """Image file name under ``images/`` (may be empty)."""
        return self._type_field(2)

    @property
    def name(self) -> str:
        """The piece's common name."""
        return self._type_field(3)

    def _state_decoder(self) -> SequenceDecoder:
        return SequenceDecoder(self.state or "", ";")

    @property
    def map_id(self) -> str | None:
        """The map's id (its ``mapName``), or ``None`` when the piece is on no map."""
        map_id = self._state_decoder().next_token("null")
        return None if map_id == "null" else map_id

    @property
    def position(self) -> tuple[int, int]:
        """Integer map coordinates (§4.2)."""
        decoder = self._state_decoder()
        decoder.next_token("")
        return decoder.next_int(0), decoder.next_int(0)

    @property
    def gpid(self) -> str:
        """The PieceSlot gpid the piece was made from (§5.9); ``""`` in old files."""
        decoder = self._state_decoder()
        for _ in range(3):
            decoder.next_token("")
        return decoder.next_token("")

    @property
    def persistent_properties(self) -> dict[str, str]:
        """Persistent properties stored after the gpid (VASSAL 3.3+)."""
        decoder = self._state_decoder()
        for _ in range(4):
            decoder.next_token("")
        count = decoder.next_int(0)
        properties: dict[str, str] = {}
        for _ in range(count):
            key = decoder.next_token("")
            properties[key] = decoder.next_token("")
        return properties

    def with_position(self, map_id: str | None, x: int, y: int) -> BasicPiece:
        """A copy placed at ``(x, y)`` on ``map_id``, keeping gpid and properties (§7.2)."""
        return replace(
            self,
            state=_basic_state(map_id, x, y, self.gpid, self.persistent_properties),
        )

    @classmethod
    def build(
        cls,
        name: str,
        image: str = "",
        *,
        map_id: str | None = None,
        x: int = 0,
        y: int = 0,
        gpid: str = "",
        properties: Mapping[str, str] | None = None,
    ) -> BasicPiece:
        """A new BasicPiece written as ``BasicPiece.getType``/``getState`` write it."""
        return cls(
            cls.ID + _se(["", "", image, name], ";"),
            _basic_state(map_id, x, y, gpid, properties or {}),
        )


def _basic_state(
    map_id: str | None, x: int, y: int, gpid: str, properties: Mapping[str, str]
) -> str:
    tokens: list[str | int | bool | None] = ["null" if map_id is None else map_id, x, y, gpid]
    tokens.append(len(properties))
    for key, value in properties.items():
        tokens += [key, value]
    return _se(tokens, ";")


@dataclass(frozen=True)
class Stack(Trait):
    """A stack (§5.8): type ``stack``, state ``mapId;x;y;pieceId…;@@layer``, bottom first.

    A stack is a piece of its own with no traits; its AddPiece must come after the
    AddPieces of the pieces it lists.
    """

    ID: ClassVar[str] = "stack"
    LAYER_MARKER: ClassVar[str] = "@@"

    def _tokens(self) -> list[str]:
        return decode_sequence(self.state or "", ";")

    @property
    def map_id(self) -> str | None:
        """The map's id, or ``None`` for an off-map stack."""
        tokens = self._tokens()
        return None if not tokens or tokens[0] == "null" else tokens[0]

    @property
    def position(self) -> tuple[int, int]:
        """Integer map coordinates; meaningless (VASSAL uses 0,0) when off-map."""
        decoder = SequenceDecoder(self.state or "", ";")
        decoder.next_token("")
        return decoder.next_int(0), decoder.next_int(0)

    @property
    def piece_ids(self) -> tuple[str, ...]:
        """Ids of the pieces in the stack, bottom first."""
        return tuple(t for t in self._tokens()[3:] if not t.startswith(self.LAYER_MARKER))

    @property
    def layer(self) -> int | None:
        """The ``@@`` layer (``-1`` = not bound); ``None`` in files older than 3.4.8."""
        layer = None
        for token in self._tokens()[3:]:
            if token.startswith(self.LAYER_MARKER):
                digits = token[len(self.LAYER_MARKER) :]
                body = digits[1:] if digits[:1] in "+-" else digits
                if body.isascii() and body.isdigit():
                    layer = int(digits)
        return layer

    @classmethod
    def build(
        cls, map_id: str | None, x: int, y: int, piece_ids: Iterable[str], layer: int | None = -1
    ) -> Stack:
        """A stack as ``Stack.getState`` writes it; ``@@-1`` is the safe layer (§5.8)."""
        tokens: list[str | int | bool | None] = ["null" if map_id is None else map_id, x, y]
        tokens += list(piece_ids)
        if layer is not None:
            tokens.append(f"{cls.LAYER_MARKER}{layer}")
        return cls(cls.ID, _se(tokens, ";"))


@dataclass(frozen=True)
class Deck(Trait):
    """A deck (``deck;``), a basic piece like a stack (§5.2). Its type is kept opaque; its
    state starts ``mapId;x;y;faceDown;id,id,...`` (``Deck.setState``), bottom first."""

    ID: ClassVar[str] = "deck;"

    @property
    def map_id(self) -> str | None:
        decoder = SequenceDecoder(self.state or "", ";")
        token = decoder.next_token("null")
        return None if token == "null" else token

    @property
    def position(self) -> tuple[int, int]:
        decoder = SequenceDecoder(self.state or "", ";")
        decoder.next_token("")
        return decoder.next_int(0), decoder.next_int(0)

    @property
    def piece_ids(self) -> tuple[str, ...]:
        decoder = SequenceDecoder(self.state or "", ";")
        for _ in range(4):
            decoder.next_token("")
        return tuple(t for t in decode_sequence(decoder.next_token(""), ",") if t)


@dataclass(frozen=True)
class Marker(Trait):
    """``mark;`` (§5.5): property names in the type, values in the state, both SE ``,``."""

    ID: ClassVar[str] = "mark;"

    @property
    def names(self) -> tuple[str, ...]:
        """The property names, in order (``Marker.mySetType``)."""
        return tuple(self._fields(self.ID, ","))

    @property
    def values(self) -> tuple[str, ...]:
        """The values, padded with ``""`` to one per name (``Marker.mySetState``)."""
        names = self.names
        values = decode_sequence(self.state, ",")[: len(names)] if self.state is not None else []
        return tuple(values) + ("",) * (len(names) - len(values))

    @property
    def properties(self) -> dict[str, str]:
        """Name to value; a repeated name keeps its last value."""
        return dict(zip(self.names, self.values, strict=True))

    def with_values(self, updates: Mapping[str, str]) -> Marker:
        """A copy with some values changed; the names (the type) never change."""
        names = self.names
        unknown = set(updates) - set(names)
        if unknown:
            raise KeyError(f"marker has no properties {sorted(unknown)}; it has {list(names)}")
        values = [updates.get(name, value) for name, value in zip(names, self.values, strict=True)]
        return replace(self, state=_se(values, ","))

    @classmethod
    def build(cls, properties: Mapping[str, str]) -> Marker:
        """A Marker holding ``properties`` (for example ``{"UnitId": "n-cv67"}``)."""
        if not properties:
            raise ValueError("a Marker needs at least one property")
        return cls(cls.ID + _se(properties.keys(), ","), _se(properties.values(), ","))


@dataclass(frozen=True)
class Embellishment(Trait):
    """Layer, ``emb2;`` with 33 SE ``;`` fields (§5.4); the legacy ``emb;`` is read only.

    The state is one integer ``value``: positive means active showing level ``value``,
    negative means inactive remembering level ``-value`` (1-based).
    """

    ID: ClassVar[str] = "emb2;"
    OLD_ID: ClassVar[str] = "emb;"

    def _field(self, index: int) -> str:
        if not self.type.startswith(self.ID):
            return ""
        fields = self._fields(self.ID)
        return fields[index] if index < len(fields) else ""

    @property
    def layer_name(self) -> str:
        """The layer's name (field 19)."""
        return self._field(18)

    @property
    def commands(self) -> tuple[str, str, str]:
        """The menu texts of activate, increase and decrease (fields 1, 4, 7)."""
        return (self._field(0), self._field(3), self._field(6))

    @property
    def image_names(self) -> tuple[str, ...]:
        """One image per level (field 16)."""
        return tuple(decode_string_array(self._field(15)))

    @property
    def level_names(self) -> tuple[str, ...]:
        """One name per level (field 17); a leading or trailing ``+`` marks a prefix or
        suffix to the piece name."""
        return tuple(decode_string_array(self._field(16)))

    @property
    def version(self) -> int:
        """Field 25; ``0`` means the legacy ``Embellishment0`` behaviour."""
        text = self._field(24)
        return read_whole(text) or 0

    @property
    def always_active(self) -> bool:
        """Field 26: the layer is always on and its keys only change the level."""
        return self._field(25) == "true"

    @property
    def value(self) -> int:
        """The state value: ``Embellishment.mySetState`` reads it with default ``-1`` and
        clamps it to the number of levels; version 0 (``Embellishment0``) defaults to ``1``."""
        default = 1 if self.version == 0 else -1
        decoder = SequenceDecoder(self.state, ";")
        value = decoder.next_int(default) if self.state is not None else default
        if not self.type.startswith(self.ID):
            return value  # legacy emb;: its level list is not decoded here
        count = max(len(self.image_names), 1)
        return max(-count, min(count, value))

    @property
    def level(self) -> int:
        """The current or remembered level, 1-based."""
        return abs(self.value)

    @property
    def active(self) -> bool:
        """True when the layer is showing."""
        return self.value > 0

    def with_value(self, value: int) -> Embellishment:
        """A copy with a new state value (negative = inactive), as ``myGetState`` writes."""
        tokens: list[str | int | bool | None] = [str(value)]
        if self.state is not None:
            tokens += decode_sequence(self.state, ";")[1:]  # version-0 activation status
        return replace(self, state=_se(tokens, ";"))


@dataclass(frozen=True)
class Labeler(Trait):
    """Text label, ``label;`` with 18 fields (§5.6); the state is the label text."""

    ID: ClassVar[str] = "label;"

    @property
    def property_name(self) -> str:
        """Name of the property that exposes the label (field 16, default ``TextLabel``)."""
        fields = self._fields(self.ID)
        return fields[15] if len(fields) > 15 else "TextLabel"

    @property
    def name_format(self) -> str:
        """How the label enters the piece's name (field 12, default ``$pieceName$ ($label$)``)."""
        fields = self._fields(self.ID)
        return fields[11] if len(fields) > 11 else "$pieceName$ ($label$)"

    @property
    def always_use_format(self) -> bool:
        """Field 18: use the name format even when the label is empty."""
        fields = self._fields(self.ID)
        return len(fields) > 17 and fields[17] == "true"

    @property
    def label(self) -> str:
        """The label text, trimmed as ``Labeler.mySetState`` does."""
        return (self.state or "").strip()

    def with_label(self, label: str) -> Labeler:
        """A copy showing ``label``."""
        return replace(self, state=label)


@dataclass(frozen=True)
class UsePrototype(Trait):
    """``prototype;Name[;k=v,…]`` (§5.7): replaced by the named prototype's traits."""

    ID: ClassVar[str] = "prototype;"

    @property
    def name(self) -> str:
        """The PrototypeDefinition's name."""
        return SequenceDecoder(self.type[len(self.ID) :], ";").next_token("")

    @property
    def parameters(self) -> dict[str, str]:
        """The optional ``key=value`` parameters."""
        decoder = SequenceDecoder(self.type[len(self.ID) :], ";")
        decoder.next_token("")
        result: dict[str, str] = {}
        for item in decode_sequence(decoder.next_token(None), ","):
            pair = SequenceDecoder(item, "=")
            key = pair.next_token()
            if pair.has_more():
                result[key] = pair.next_token()
        return result


_BASICS: dict[str, type[Trait]] = {
    BasicPiece.ID: BasicPiece,
    Stack.ID: Stack,
    Deck.ID: Deck,
}
_DECORATORS: dict[str, type[Trait]] = {
    Marker.ID: Marker,
    Embellishment.ID: Embellishment,
    Embellishment.OLD_ID: Embellishment,
    Labeler.ID: Labeler,
    UsePrototype.ID: UsePrototype,
}


@dataclass(frozen=True)
class Piece:
    """A decoded piece: ``traits`` from outermost to innermost; the last one is the
    BasicPiece (or a Stack, a Deck, or an unknown basic type)."""

    traits: tuple[Trait, ...]

    def __post_init__(self) -> None:
        if not self.traits:
            raise ValueError("a Piece needs at least its innermost BasicPiece")

    @property
    def type(self) -> str:
        """The full type string, nested as ``Decorator.getType`` writes it (§5.2)."""
        text = self.traits[-1].type
        for trait in reversed(self.traits[:-1]):
            text = _se([trait.type, text], TAB)
        return text

    @property
    def state(self) -> str:
        """The full state string, nested as ``Decorator.getState`` writes it (§5.2)."""
        text = self.traits[-1].state
        for trait in reversed(self.traits[:-1]):
            text = trait.state if text is None else _se([trait.state, text], TAB)
        return text or ""

    @property
    def basic(self) -> Trait:
        """The innermost trait."""
        return self.traits[-1]

    @property
    def basic_piece(self) -> BasicPiece | None:
        """The innermost BasicPiece, or ``None`` for stacks, decks and unknown types."""
        basic = self.traits[-1]
        return basic if isinstance(basic, BasicPiece) else None

    def find(self, kind: type[_TraitT]) -> list[_TraitT]:
        """Every trait of class ``kind``, outermost first."""
        return [trait for trait in self.traits if isinstance(trait, kind)]

    def with_trait(self, index: int, trait: Trait) -> Piece:
        """A copy with ``traits[index]`` replaced."""
        traits = list(self.traits)
        traits[index] = trait
        return Piece(tuple(traits))

    def placed(self, map_id: str | None, x: int, y: int) -> Piece:
        """A copy whose BasicPiece sits at ``(x, y)`` on ``map_id`` (recipe §7.2)."""
        basic = self.basic_piece
        if basic is None:
            raise ValueError(f"piece has no BasicPiece (innermost type {self.basic.type!r})")
        return self.with_trait(len(self.traits) - 1, basic.with_position(map_id, x, y))


def _make_trait(table: Mapping[str, type[Trait]], trait_type: str, state: str | None) -> Trait:
    return table.get(type_prefix(trait_type), UnknownTrait)(trait_type, state)


def decode_piece(piece_type: str, state: str | None) -> Piece:
    """Split a type and a state into traits, as ``BasicCommandEncoder.createPiece`` and
    ``Decorator.setState`` do (§5.2): one SE TAB level per trait, first token and rest.

    Never fails: unknown traits become :class:`UnknownTrait`, and a state with fewer
    levels than the type leaves the deeper states ``None``.
    """
    traits: list[Trait] = []
    current_type, current_state = piece_type, state
    while True:
        type_decoder = SequenceDecoder(current_type, TAB)
        own_type = type_decoder.next_token()
        if not type_decoder.has_more():
            traits.append(_make_trait(_BASICS, own_type, current_state))
            return Piece(tuple(traits))
        own_state: str | None = None
        inner_state: str | None = None
        if current_state is not None:
            state_decoder = SequenceDecoder(current_state, TAB)
            own_state = state_decoder.next_token()
            inner_state = state_decoder.next_token(None)
        traits.append(_make_trait(_DECORATORS, own_type, own_state))
        current_type, current_state = type_decoder.next_token(), inner_state


def marker_properties(piece: Piece) -> dict[str, str]:
    """All Marker properties of ``piece`` (§5.5), for example
    ``{"UnitId": "n-cv67", "Side": "NATO"}``.

    When two Markers define the same name the outermost wins, as in
    ``Decorator.getProperty``.
    """
    result: dict[str, str] = {}
    for marker in reversed(piece.find(Marker)):
        result.update(marker.properties)
    return result


@dataclass(frozen=True)
class LayerState:
    """The state of one Layer (Embellishment) trait, for reports and ``show-vsav``."""

    name: str
    level: int
    active: bool
    level_name: str
    image: str
    track: bool = False  # always active with several levels: a marker with levels


def layer_states(piece: Piece) -> list[LayerState]:
    """Every Layer of ``piece``, outermost first, with its current level (§5.4)."""
    states = []
    for layer in piece.find(Embellishment):
        index = layer.level - 1
        level_names, images = layer.level_names, layer.image_names
        states.append(
            LayerState(
                name=layer.layer_name,
                level=layer.level,
                active=layer.active,
                level_name=level_names[index] if 0 <= index < len(level_names) else "",
                image=images[index] if 0 <= index < len(images) else "",
                track=layer.always_active and len(images) > 1,
            )
        )
    return states


def expand_prototypes(piece: Piece, prototypes: Mapping[str, Piece]) -> Piece:
    """The piece as VASSAL puts it on the table (``PieceCloner.clonePiece``): every
    ``UsePrototype`` replaced, in place, by its prototype's traits (its own prototypes
    expanded in turn; the prototype's empty BasicPiece dropped), each with the state the
    prototype gives it. A prototype the module does not have is dropped, as VASSAL drops it.

    A piece dragged from the palette is expanded so, and only an expanded piece keeps the
    state of its prototype's traits (a layer switched on) in a save: ``UsePrototype`` itself
    saves no state.
    """

    def expand(traits: tuple[Trait, ...], depth: int) -> list[Trait]:
        out: list[Trait] = []
        for trait in traits:
            if not isinstance(trait, UsePrototype):
                out.append(trait)
                continue
            proto = prototypes.get(trait.name)
            if proto is not None and depth < 32:  # VASSAL's RecursionLimiter stops loops
                out.extend(expand(proto.traits[:-1], depth + 1))
        return out

    return Piece((*expand(piece.traits[:-1], 0), piece.traits[-1]))
