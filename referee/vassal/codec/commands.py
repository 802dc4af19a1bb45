"""The command stream of a ``.vsav``/``.vlog``: parse into typed commands, encode back.

A saved game is one encoded Command tree (vassal-format.md §6.3): SE sequences with the
ESC delimiter, nested by escaping, whose leaves are the command strings catalogued in
§6.4. :func:`parse_command` mirrors ``GameModule.decode``: a string whose first ESC token
is the whole string is a leaf, anything else is a :class:`Compound` whose tokens are parsed
recursively. Unlike VASSAL, which silently drops leaves no encoder recognises, we keep them
as :class:`Unknown` so nothing is lost.

Every node is a frozen dataclass. A parsed node remembers the exact text it was parsed
from and :func:`encode_command` returns that text, so ``encode_command(parse_command(s))``
is byte-identical for *any* input, even a hand-edited file with redundant quotes. A node
you build or change (``dataclasses.replace``) has no remembered text and is encoded from
its fields the way VASSAL encodes it; :func:`encode_canonical` always does that, and the
tests check that it alone reproduces every real save and log byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar, Final, NamedTuple

from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.sequence import ESC, TAB, SequenceDecoder, encode_sequence

__all__ = [
    "MAX_COMMANDS",
    "MAX_COMMAND_CHARS",
    "MAX_NESTING",
    "AddPiece",
    "AddPlayer",
    "BeginSave",
    "BoardPlacement",
    "ChangeMutableProperty",
    "ChangePiece",
    "Chat",
    "Command",
    "Compound",
    "EndSave",
    "LeafVisit",
    "LogEntry",
    "MovePiece",
    "Notes",
    "NullCommand",
    "RemovePiece",
    "RemovePlayer",
    "SetBoards",
    "SetGlobalProperty",
    "SetTurn",
    "SetupStack",
    "StartupGlobalKeyCommand",
    "Undo",
    "Unknown",
    "VersionCheck",
    "compound",
    "encode_canonical",
    "encode_command",
    "iter_leaves",
    "parse_command",
]

MAX_NESTING: Final = 64
"""Deepest ESC/LOG nesting accepted. Real files nest 2-5 levels (§6.3); the cap keeps a
crafted file from exhausting the stack or the CPU."""

MAX_COMMANDS: Final = 100_000
"""Most commands (ESC-separated, at any nesting) accepted in one file. A save holds about
one command per piece (the Inferno fixture: 865 in 4.4 MB), a long log a few thousand;
the cap bounds the cost of a crafted file of many tiny commands (about 25 us each) before
any is parsed (issue 31; figures in docs/performance.md)."""

MAX_COMMAND_CHARS: Final = 16 * 1024 * 1024
"""Longest command text accepted (a ``savedGame`` or log entry, deobfuscated): almost four
times the largest real save we know (the Inferno fixture, 4.4 MB), and a bound on the cost
of reading one (about 0.6 us a character; docs/performance.md)."""

_SOURCE: Final = "_source_text"
_Encoder = Callable[["Command"], str]


def _wrap_null(value: str | None) -> str:
    """BCE ``wrapNull``: ``None`` is written as the text ``null``."""
    return "null" if value is None else value


def _unwrap_null(value: str) -> str | None:
    """BCE ``unwrapNull``: the text ``null`` means ``None``."""
    return None if value == "null" else value


def _se(tokens: list[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


def _java_int(text: str) -> int:
    """Java ``Integer.parseInt``: raises ``ValueError`` where Java throws."""
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()) or not -(2**31) <= int(text) < 2**31:
        raise ValueError(f"not a Java int: {text!r}")
    return int(text)


@dataclass(frozen=True)
class Command:
    """Base of every node in a command tree."""

    def _encode(self, sub: _Encoder) -> str:
        """This node's canonical text; ``sub`` encodes nested commands."""
        raise NotImplementedError


@dataclass(frozen=True)
class Compound(Command):
    """An ESC-separated sequence (§6.3): ``children[0]`` is VASSAL's head command and the
    rest are appended to it, executed depth first in order."""

    children: tuple[Command, ...]

    def __post_init__(self) -> None:
        if not self.children:
            raise ValueError("a Compound needs at least one child")

    def _encode(self, sub: _Encoder) -> str:
        return _se([sub(child) for child in self.children], ESC)


@dataclass(frozen=True)
class NullCommand(Command):
    """The empty leaf ``""``: VASSAL's NullCommand (§6.5: the version-check slot and the
    head of the piece group)."""

    def _encode(self, sub: _Encoder) -> str:
        return ""


@dataclass(frozen=True)
class BeginSave(Command):
    """``begin_save``: clears the current game before a saved state is restored (§6.4)."""

    TEXT: ClassVar[str] = "begin_save"

    def _encode(self, sub: _Encoder) -> str:
        return self.TEXT


@dataclass(frozen=True)
class EndSave(Command):
    """``end_save``: starts the restored game (board pick, at-start stacks, §6.4)."""

    TEXT: ClassVar[str] = "end_save"

    def _encode(self, sub: _Encoder) -> str:
        return self.TEXT


@dataclass(frozen=True)
class AddPiece(Command):
    """``+/id/type/state`` (§5.1, §6.4). ``type`` and ``state`` are the full decorator
    chains; decode them with :func:`referee.vassal.codec.pieces.decode_piece`."""

    PREFIX: ClassVar[str] = "+/"
    id: str | None
    type: str
    state: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + _se([_wrap_null(self.id), self.type, self.state], "/")


@dataclass(frozen=True)
class RemovePiece(Command):
    """``-/id``: the rest of the string is the id, not SE-decoded (§6.4)."""

    PREFIX: ClassVar[str] = "-/"
    id: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + self.id


@dataclass(frozen=True)
class ChangePiece(Command):
    """``D/id/newState[/oldState]``: the full nested state of the outermost piece (§6.4)."""

    PREFIX: ClassVar[str] = "D/"
    id: str
    new_state: str
    old_state: str | None = None

    def _encode(self, sub: _Encoder) -> str:
        tokens: list[str | int | bool | None] = [self.id, self.new_state]
        if self.old_state is not None:
            tokens.append(self.old_state)
        return self.PREFIX + _se(tokens, "/")


@dataclass(frozen=True)
class MovePiece(Command):
    """``M/`` (§6.4): a piece or stack moves; ``*_under`` name the piece below it.

    ``player_id`` is the mover's secret VASSAL password: never publish it.
    """

    PREFIX: ClassVar[str] = "M/"
    id: str
    new_map: str | None
    new_x: int
    new_y: int
    new_under: str | None
    old_map: str | None
    old_x: int
    old_y: int
    old_under: str | None
    player_id: str | None = None

    def _encode(self, sub: _Encoder) -> str:
        tokens: list[str | int | bool | None] = [
            self.id,
            _wrap_null(self.new_map),
            self.new_x,
            self.new_y,
            _wrap_null(self.new_under),
            _wrap_null(self.old_map),
            self.old_x,
            self.old_y,
            _wrap_null(self.old_under),
        ]
        if self.player_id is not None:
            tokens.append(self.player_id)
        return self.PREFIX + _se(tokens, "/")


@dataclass(frozen=True)
class Chat(Command):
    """``CHAT<message>``: chat lines, dice results and auto-reports (§6.4)."""

    PREFIX: ClassVar[str] = "CHAT"
    message: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + self.message


@dataclass(frozen=True)
class LogEntry(Command):
    """``LOG<TAB><command>``: one step of a ``.vlog``, replayed when the player presses
    Step (§6.4, §6.6). ``logged`` is the wrapped command. It is always a leaf in practice:
    a leaf contains no ESC, so VASSAL writes a logged command's sub-commands as sibling
    ``LOG`` entries one ESC level deeper."""

    PREFIX: ClassVar[str] = "LOG\t"
    logged: Command

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + sub(self.logged)


@dataclass(frozen=True)
class Undo(Command):
    """``UNDO<TAB>true`` / ``UNDO<TAB>false``: start and end of an undo block (§6.4)."""

    PREFIX: ClassVar[str] = "UNDO\t"
    in_progress: bool

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + ("true" if self.in_progress else "false")


@dataclass(frozen=True)
class BoardPlacement:
    """One board of a :class:`SetBoards`: its name, whether reversed, and its slot
    (column, row) in the map's board grid, not pixels."""

    name: str
    reversed: bool = False
    x: int = 0
    y: int = 0


@dataclass(frozen=True)
class SetBoards(Command):
    """``<mapId>BoardPicker<TAB>board<TAB>x<TAB>y…``: the boards chosen for a map (§6.4)."""

    SUFFIX: ClassVar[str] = "BoardPicker"
    map_id: str
    boards: tuple[BoardPlacement, ...]

    def _encode(self, sub: _Encoder) -> str:
        tokens: list[str | int | bool | None] = [self.map_id + self.SUFFIX]
        for board in self.boards:
            name_tokens: list[str | int | bool | None] = [board.name]
            if board.reversed:
                name_tokens.append("rev")
            tokens += [_se(name_tokens, "/"), board.x, board.y]
        return _se(tokens, TAB)


@dataclass(frozen=True)
class AddPlayer(Command):
    """``PLAYER<TAB>id<TAB>name<TAB>side``; ``player_id`` is a secret password (§6.4)."""

    PREFIX: ClassVar[str] = "PLAYER\t"
    player_id: str
    name: str
    side: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + _se([self.player_id, self.name, self.side], TAB)


@dataclass(frozen=True)
class RemovePlayer(Command):
    """``PYREMOVE<TAB>id``: a player leaves a side (§6.4)."""

    PREFIX: ClassVar[str] = "PYREMOVE\t"
    player_id: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + _se([self.player_id], TAB)


@dataclass(frozen=True)
class SetupStack(Command):
    """``SETUP_STACK<TAB>``: at-start stacks must not be placed again (§6.4, §7.2).

    ``payload`` is empty in modern files; old ones put a SetupStack id there.
    """

    PREFIX: ClassVar[str] = "SETUP_STACK\t"
    payload: str = ""

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + self.payload


@dataclass(frozen=True)
class SetTurn(Command):
    """``TURN<trackerId><TAB>state``: a TurnTracker's position (§6.4)."""

    PREFIX: ClassVar[str] = "TURN"
    tracker_id: str
    state: str

    @property
    def levels(self) -> list[str]:
        """The state split with ``|``: the current level, then each level's own state."""
        return list(SequenceDecoder(self.state, "|"))

    def _encode(self, sub: _Encoder) -> str:
        return _se([self.PREFIX + self.tracker_id, self.state], TAB)


@dataclass(frozen=True)
class SetGlobalProperty(Command):
    """``GlobalProperty<TAB>;name;value;containerId`` (§6.4)."""

    PREFIX: ClassVar[str] = "GlobalProperty\t"
    name: str
    value: str
    container_id: str

    def _encode(self, sub: _Encoder) -> str:
        return _se([self.PREFIX, self.name, self.value, self.container_id], ";")


@dataclass(frozen=True)
class ChangeMutableProperty(Command):
    """``MutableProperty<TAB>name<TAB>old<TAB>new<TAB>containerId`` (§6.4)."""

    PREFIX: ClassVar[str] = "MutableProperty\t"
    name: str | None
    old_value: str | None
    new_value: str | None
    container_id: str = ""

    def _encode(self, sub: _Encoder) -> str:
        tokens: list[str | int | bool | None] = [
            self.name,
            self.old_value,
            self.new_value,
            self.container_id,
        ]
        return self.PREFIX + _se(tokens, TAB)


@dataclass(frozen=True)
class StartupGlobalKeyCommand(Command):
    """``SGKC<TAB>id<TAB>true``: whether a startup global key command already ran (§6.4)."""

    PREFIX: ClassVar[str] = "SGKC\t"
    gkc_id: str
    applied: bool

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + _se([self.gkc_id, self.applied], TAB)


@dataclass(frozen=True)
class Notes(Command):
    """``NOTES<TAB>text`` (scenario notes) or ``PNOTES<TAB>text`` (public notes), §6.4."""

    SCENARIO: ClassVar[str] = "NOTES\t"
    PUBLIC: ClassVar[str] = "PNOTES\t"
    public: bool
    text: str

    def _encode(self, sub: _Encoder) -> str:
        return (self.PUBLIC if self.public else self.SCENARIO) + self.text


@dataclass(frozen=True)
class VersionCheck(Command):
    """``CHECK<TAB>…`` from VASSAL 2.x files; VASSAL no longer decodes it (§6.4)."""

    PREFIX: ClassVar[str] = "CHECK\t"
    text: str

    def _encode(self, sub: _Encoder) -> str:
        return self.PREFIX + self.text


@dataclass(frozen=True)
class Unknown(Command):
    """A leaf no parser recognises, kept verbatim (VASSAL would drop it, §6.3)."""

    text: str

    def _encode(self, sub: _Encoder) -> str:
        return self.text


# --------------------------------------------------------------------------- parsing


def _parse_add(rest: str) -> Command:
    decoder = SequenceDecoder(rest, "/")
    piece_id = _unwrap_null(decoder.next_token())
    return AddPiece(piece_id, decoder.next_token(), decoder.next_token())


def _parse_change(rest: str) -> Command:
    decoder = SequenceDecoder(rest, "/")
    piece_id, new_state = decoder.next_token(), decoder.next_token()
    return ChangePiece(piece_id, new_state, decoder.next_token(None))


def _parse_move(rest: str) -> Command:
    decoder = SequenceDecoder(rest, "/")
    fields = [decoder.next_token() for _ in range(9)]
    numbers = [_java_int(fields[i]) for i in (2, 3, 6, 7)]
    return MovePiece(
        id=fields[0],
        new_map=_unwrap_null(fields[1]),
        new_x=numbers[0],
        new_y=numbers[1],
        new_under=_unwrap_null(fields[4]),
        old_map=_unwrap_null(fields[5]),
        old_x=numbers[2],
        old_y=numbers[3],
        old_under=_unwrap_null(fields[8]),
        player_id=decoder.next_token(None),
    )


def _parse_player(rest: str) -> Command:
    decoder = SequenceDecoder(rest, TAB)
    return AddPlayer(decoder.next_token(), decoder.next_token(), decoder.next_token())


def _parse_player_remove(rest: str) -> Command:
    return RemovePlayer(SequenceDecoder(rest, TAB).next_token(""))


def _parse_mutable(rest: str) -> Command:
    decoder = SequenceDecoder(rest, TAB)
    return ChangeMutableProperty(
        decoder.next_token(None),
        decoder.next_token(None),
        decoder.next_token(None),
        decoder.next_token(""),
    )


def _parse_sgkc(rest: str) -> Command:
    decoder = SequenceDecoder(rest, TAB)
    return StartupGlobalKeyCommand(decoder.next_token(), decoder.next_bool(True))


def _parse_global_property(text: str) -> Command | None:
    if SetGlobalProperty.PREFIX not in text:  # the cheap test first: most leaves are not
        return None
    decoder = SequenceDecoder(text, ";")
    if decoder.next_token("") != SetGlobalProperty.PREFIX:
        return None
    return SetGlobalProperty(decoder.next_token(""), decoder.next_token(""), decoder.next_token(""))


def _parse_boards(text: str) -> Command | None:
    if TAB not in text:
        return None
    decoder = SequenceDecoder(text, TAB)
    head = decoder.next_token()
    suffix = SetBoards.SUFFIX
    if not decoder.has_more() or not head.endswith(suffix) or not text.startswith(head + TAB):
        return None
    boards = []
    while decoder.has_more():
        name_decoder = SequenceDecoder(decoder.next_token(), "/")
        name = name_decoder.next_token()
        reversed_ = name_decoder.has_more() and name_decoder.next_token() == "rev"
        boards.append(BoardPlacement(name, reversed_, decoder.next_int(0), decoder.next_int(0)))
    return SetBoards(head[: -len(suffix)], tuple(boards))


def _parse_turn(text: str) -> Command | None:
    if TAB not in text:
        return None
    decoder = SequenceDecoder(text, TAB)
    head = decoder.next_token("")
    if not head.startswith(SetTurn.PREFIX):
        return None
    return SetTurn(head[len(SetTurn.PREFIX) :], decoder.next_token(""))


_EXACT: Final[dict[str, Callable[[], Command]]] = {
    "": NullCommand,
    BeginSave.TEXT: BeginSave,
    EndSave.TEXT: EndSave,
}

# Leaf prefixes in the order they are tried; each parser gets the text after the prefix.
_PREFIXED: Final[tuple[tuple[str, Callable[[str], Command]], ...]] = (
    (AddPiece.PREFIX, _parse_add),
    (RemovePiece.PREFIX, RemovePiece),
    (ChangePiece.PREFIX, _parse_change),
    (MovePiece.PREFIX, _parse_move),
    (Undo.PREFIX, lambda rest: Undo(rest == "true")),
    (AddPlayer.PREFIX, _parse_player),
    (RemovePlayer.PREFIX, _parse_player_remove),
    (SetupStack.PREFIX, SetupStack),
    (ChangeMutableProperty.PREFIX, _parse_mutable),
    (StartupGlobalKeyCommand.PREFIX, _parse_sgkc),
    (Notes.SCENARIO, lambda rest: Notes(False, rest)),
    (Notes.PUBLIC, lambda rest: Notes(True, rest)),
    (VersionCheck.PREFIX, VersionCheck),
)

# Leaves recognised from the whole text, tried after the prefixes above.
_WHOLE: Final[tuple[Callable[[str], Command | None], ...]] = (
    _parse_global_property,
    _parse_boards,
    _parse_turn,
    lambda text: Chat(text[len(Chat.PREFIX) :]) if text.startswith(Chat.PREFIX) else None,
)


class _Parser:
    """Recursive descent over the ESC tree with a nesting cap (see :data:`MAX_NESTING`)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def parse(self, text: str, depth: int) -> Command:
        if depth > MAX_NESTING:
            raise VassalFormatError(
                self.source,
                f"commands are nested more than {MAX_NESTING} levels deep",
                "real VASSAL files nest a few levels; this one is damaged or crafted",
            )
        decoder = SequenceDecoder(text, ESC)
        first = decoder.next_token()
        if first == text:
            node = self.parse_leaf(text, depth)
        else:
            children = [self.parse(first, depth + 1)]
            children.extend(self.parse(token, depth + 1) for token in decoder)
            node = Compound(tuple(children))
        object.__setattr__(node, _SOURCE, text)
        return node

    def parse_leaf(self, text: str, depth: int) -> Command:
        exact = _EXACT.get(text)
        if exact is not None:
            return exact()
        if text.startswith(LogEntry.PREFIX):
            return LogEntry(self.parse(text[len(LogEntry.PREFIX) :], depth + 1))
        for prefix, parse_rest in _PREFIXED:
            if text.startswith(prefix):
                try:
                    return parse_rest(text[len(prefix) :])
                except (IndexError, ValueError):  # missing fields or a bad number
                    return Unknown(text)
        for parse_whole in _WHOLE:
            command = parse_whole(text)
            if command is not None:
                return command
        return Unknown(text)


def parse_command(text: str, *, source: str = "savedGame") -> Command:
    """Parse an encoded command (a whole ``savedGame`` stream or one leaf) into a tree.

    Never fails on content it does not understand (that becomes :class:`Unknown`); raises
    :class:`VassalFormatError` (naming ``source``) only when nesting exceeds
    :data:`MAX_NESTING`, or the text is over :data:`MAX_COMMAND_CHARS` or holds
    :data:`MAX_COMMANDS` commands or more.
    """
    if len(text) > MAX_COMMAND_CHARS:
        raise VassalFormatError(
            source,
            f"{len(text)} characters of commands, over the {MAX_COMMAND_CHARS} limit",
            "the largest real saves hold a few MB; this file is damaged or crafted",
        )
    if text.count(ESC) >= MAX_COMMANDS:  # every command but the last ends at an ESC
        raise VassalFormatError(
            source,
            f"more than {MAX_COMMANDS} commands",
            "real saves hold about one command per piece; this file is damaged or crafted",
        )
    return _Parser(source).parse(text, 0)


def encode_command(command: Command) -> str:
    """Encode ``command``: parsed nodes give back their exact source text, built or
    changed nodes are encoded from their fields as VASSAL would (§6.3)."""
    source = command.__dict__.get(_SOURCE)
    if source is not None:
        return str(source)
    return command._encode(encode_command)


def encode_canonical(command: Command) -> str:
    """Encode ``command`` from its fields only, ignoring any remembered source text."""
    return command._encode(encode_canonical)


def compound(*commands: Command) -> Compound:
    """A flat ESC sequence of ``commands``, the simplest legal stream for a writer (§6.3)."""
    return Compound(tuple(commands))


class LeafVisit(NamedTuple):
    """One leaf met by :func:`iter_leaves`; ``logged`` is True inside a ``LOG`` wrapper."""

    command: Command
    logged: bool


def iter_leaves(command: Command, *, logged: bool = False) -> Iterator[LeafVisit]:
    """Leaves in execution order: depth first, parent before children, file order (§6.3).

    :class:`Compound` nodes are flattened and :class:`LogEntry` wrappers are unwrapped,
    their leaves marked ``logged=True`` (recipe §7.1 step 2).
    """
    if isinstance(command, Compound):
        for child in command.children:
            yield from iter_leaves(child, logged=logged)
    elif isinstance(command, LogEntry):
        yield from iter_leaves(command.logged, logged=True)
    else:
        yield LeafVisit(command, logged)
