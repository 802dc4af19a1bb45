"""A VASSAL log as a move list a player can read, in the module's own location names.

:func:`read_log` walks a ``.vsav``/``.vlog`` command tree (vassal-format.md §6.3-§6.6) with a
:class:`~referee.vassal.codec.tabletop.Tabletop` for the pieces and a
:class:`~referee.vassal.foreign.locations.BoardLayout` for the boards (board choices can change in
the middle of a log), and turns every logged command into :class:`LogEvent` records:

* ``move``: a piece or a whole stack dragged (``M/``), or moved by a state change (``D/``
  whose BasicPiece position changed, as pre-3.0 logs record moves), with the location
  names before and after, and the stack it left and the stack it joined;
* ``change``: what a ``D/`` changed, in words where the traits say it: a Layer's level
  names (``flipped``, ``Eliminated``...), Marker properties, text labels, and the trait
  kinds whose state changed otherwise (rotated, masked, hidden...);
* ``create`` and ``delete`` (``+/`` and ``-/``), ``chat`` (``CHAT``), ``roll`` (a chat line
  that a Dice Button of the module writes, found through its ``reportFormat``), ``boards``,
  ``property`` (global properties), ``undo``.

Everything is pure apart from reading the files; the CLI (``referee log``) formats it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from referee.vassal.codec.commands import (
    AddPiece,
    BeginSave,
    ChangePiece,
    Chat,
    Command,
    EndSave,
    MovePiece,
    RemovePiece,
    SetBoards,
    SetGlobalProperty,
    Undo,
    iter_leaves,
)
from referee.vassal.codec.pieces import (
    BasicPiece,
    Deck,
    Embellishment,
    Labeler,
    Marker,
    Piece,
    Stack,
    decode_piece,
    layer_states,
    marker_properties,
)
from referee.vassal.codec.sequence import SequenceDecoder
from referee.vassal.codec.tabletop import Tabletop
from referee.vassal.foreign.grids_read import expand_format
from referee.vassal.foreign.locations import BoardLayout, ModuleLocations

__all__ = ["DiceReport", "LogEvent", "LogReading", "PieceAt", "dice_patterns", "read_log"]

# Trait prefixes (vassal-format.md §5.11) and what a change of their state means.
_TRAIT_WORDS: Final[Mapping[str, str]] = {
    "rotate;": "rotated",
    "pivot;": "pivoted",
    "obs;": "mask changed",
    "hide;": "visibility changed",
    "markmoved;": "moved flag changed",
    "PROP;": "dynamic property changed",
    "footprint;": "movement trail changed",
    "AreaOfEffect;": "area of effect changed",
    "mat;": "mat changed",
    "matPiece;": "mat cargo changed",
    "basicName;": "renamed",
    "attach;": "attachments changed",
    "deselect;": "deselected",
    "border;": "border changed",
}


_SILENT: Final = ("report;", "macro;", "globalkey;", "locCommand;", "cmt;")
"""Traits whose state is bookkeeping (the last report sent, a trigger's counter)."""


@dataclass(frozen=True, slots=True)
class PieceAt:
    """A piece on the table: VASSAL id, name, map, point, location name, stack (top first,
    by name) and its place in it (0 = top), and its active layers."""

    id: str
    name: str
    map: str | None
    x: int
    y: int
    location: str
    stack: tuple[str, ...]
    depth: int
    layers: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "map": self.map,
            "x": self.x,
            "y": self.y,
            "location": self.location,
            "stack": list(self.stack),
            "depth": self.depth,
            "layers": list(self.layers),
        }


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One thing a logged command did. ``step`` counts ``LOG`` entries from 1, as VASSAL's
    Step button does; ``changes`` are words (``"layer Step: Reduced (was Full)"``)."""

    step: int
    kind: str
    piece: str = ""
    piece_id: str = ""
    map_from: str | None = None
    from_location: str = ""
    map_to: str | None = None
    to_location: str = ""
    text: str = ""
    changes: tuple[str, ...] = ()
    with_stack: tuple[str, ...] = ()  # pieces moved along (a dragged stack)
    left: tuple[str, ...] = ()  # the pieces of the stack it left
    joined: tuple[str, ...] = ()  # the pieces of the stack it joined
    with_ids: tuple[str, ...] = ()  # VASSAL ids of ``with_stack``, in the same order

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"step": self.step, "kind": self.kind}
        for key in ("piece", "piece_id", "text"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.kind in ("move", "create", "delete", "change"):
            if self.kind != "create":
                out["from"] = {"map": self.map_from, "location": self.from_location}
            if self.kind in ("move", "create"):
                out["to"] = {"map": self.map_to, "location": self.to_location}
        for key in ("changes", "with_stack", "left", "joined"):
            if getattr(self, key):
                out[key] = list(getattr(self, key))
        return out


@dataclass
class LogReading:
    """The position when the file is opened, at its end, and the events between."""

    start: list[PieceAt]
    end: list[PieceAt]
    events: list[LogEvent] = field(default_factory=list)
    maps_seen: set[str] = field(default_factory=set)
    layout: BoardLayout | None = None  # the boards at the end


def piece_name(piece: Piece) -> str:
    """The piece's name as VASSAL's ``GamePiece.getName`` gives it: the BasicPiece name,
    changed from the inside out by each active Layer's level name (``+suffix``,
    ``prefix+`` or a whole new name, ``Embellishment.getName``) and each text label's name
    format (default ``$pieceName$ ($label$)``, ``Labeler.getName``)."""
    basic = piece.basic_piece
    name = basic.name if basic is not None else ""
    props = marker_properties(piece)
    for trait in reversed(piece.traits[:-1]):
        if isinstance(trait, Embellishment):
            name = _layer_name(trait, name)
        elif isinstance(trait, Labeler):
            name = _label_name(trait, name, props)
    return name or "(unnamed piece)"


def _layer_name(layer: Embellishment, inner: str) -> str:
    names = layer.level_names
    value = layer.value
    common = names[value - 1] if 0 < value <= len(names) else ""
    if not common:
        return inner
    parts = SequenceDecoder(common, "+")
    first = parts.next_token()
    if parts.has_more():
        second = parts.next_token()
        return inner + second if not first else first + inner
    return first


def _label_name(label: Labeler, inner: str, props: Mapping[str, str]) -> str:
    if not label.label and not label.always_use_format:
        return inner
    fmt = label.name_format.replace("$PieceName$", "$pieceName$")  # Labeler.clean
    values: dict[str, str | None] = dict(props)
    values.update({"pieceName": inner, "label": label.label})
    return expand_format(fmt, values, localized=False)


_RESULT_NAMES: Final = re.compile(r"result\d*|numericalTotal|summary|keepDice|rawRolls")
"""The Dice Button properties that carry the roll (``DiceButton.formatResult``)."""


@dataclass(frozen=True, slots=True)
class DiceReport:
    """What one Dice Button writes: its report format cut into literal pieces.

    ``literals[i]`` is the text before placeholder ``i`` (the last one follows the last
    placeholder); ``results`` are the indexes of the placeholders that carry the roll.
    Matching finds the literals in order with ``str.find`` (linear time: a module is
    untrusted input, so no backtracking regular expression is built from it)."""

    name: str
    literals: tuple[str, ...]
    results: tuple[int, ...]

    @classmethod
    def parse(cls, name: str, fmt: str) -> DiceReport | None:
        """``None`` for a BeanShell format or one that shows no result."""
        text = fmt.replace("$name$", name).strip()
        if text.startswith("{"):
            return None
        parts = re.split(r"(\$[A-Za-z0-9_]+\$)", text)
        literals = tuple(parts[0::2])
        holders = [p[1:-1] for p in parts[1::2]]
        results = tuple(i for i, h in enumerate(holders) if _RESULT_NAMES.fullmatch(h))
        return cls(name, literals, results) if results else None

    def roll(self, message: str) -> str | None:
        """The roll in a chat line this button wrote, else ``None``. VASSAL writes
        ``"*" + text`` when the text starts with ``*``, else ``"* " + text``; each
        placeholder takes the text up to the first place its next literal follows."""
        body = message.strip()
        lits = self.literals
        if body.startswith("* ") and not lits[0].startswith("*"):
            body = body[2:]
        elif body.startswith("*") and (lits[0].startswith("*") or not lits[0]):
            body = body[1:]
        else:
            return None
        if not body.startswith(lits[0]):
            return None
        spans: list[tuple[int, int]] = []  # the text of each placeholder
        at = len(lits[0])
        for i in range(1, len(lits)):
            lit = lits[i]
            if i == len(lits) - 1:  # the last literal ends the line
                found = len(body) - len(lit)
                if not body.endswith(lit) or found < at:
                    return None
            else:
                found = body.find(lit, at) if lit else at
                if found < 0:
                    return None
            spans.append((at, found))
            at = found + len(lit)
        rolled = body[spans[self.results[0]][0] : spans[self.results[-1]][1]].strip()
        return rolled or None


def dice_patterns(buttons: Iterable[tuple[str, str]]) -> list[DiceReport]:
    """One :class:`DiceReport` for each Dice Button ``(name, reportFormat)`` that shows a
    result."""
    out = []
    for name, fmt in buttons:
        report = DiceReport.parse(name, fmt)
        if report is not None:
            out.append(report)
    return out


class _Reader:
    def __init__(self, module: ModuleLocations, dice: list[DiceReport]) -> None:
        self.module = module
        self.dice = dice
        self.table = Tabletop()
        self.boards = module.layout()
        self.events: list[LogEvent] = []
        self.maps_seen: set[str] = set()
        self.decks: dict[str, tuple[tuple[str | None, int, int], list[str]]] = {}

    # ---- decks (the Tabletop leaves them out) ---------------------------------------------
    def add(self, command: AddPiece) -> str | None:
        if command.type.startswith(Deck.ID) and command.id is not None:
            deck = decode_piece(command.type, command.state).basic
            assert isinstance(deck, Deck)
            x, y = deck.position
            self.decks[command.id] = ((deck.map_id, x, y), list(deck.piece_ids))
            return None
        return self.table.add(command)

    def deck_point(self, pid: str) -> tuple[str | None, int, int] | None:
        for point, ids in self.decks.values():
            if pid in ids:
                return point
        return None

    def point(self, pid: str) -> tuple[str | None, int, int]:
        """Where a piece is: its own point, or its deck's while it lies in one."""
        own = self.table.point(pid)
        if own[0] is None:
            return self.deck_point(pid) or own
        return own

    def leave_deck(self, pid: str) -> None:
        for _, ids in self.decks.values():
            if pid in ids:
                ids.remove(pid)

    # ---- queries -------------------------------------------------------------------------
    def where(self, map_id: str | None, x: int, y: int) -> str:
        """VASSAL's name of the point; on a map the module does not have (a log of another
        version of the module), the raw map coordinates ``x,y px``: VASSAL itself skips
        such a piece, so there is no name to give, and the player can still find the point."""
        if map_id is not None:
            self.maps_seen.add(map_id)
            if self.module.find(map_id) is None:
                return f"{x},{y} px"
        return self.boards.name(map_id, x, y)

    def name_of(self, pid: str) -> str:
        piece = self.table.pieces.get(pid)
        return piece_name(piece) if piece is not None else f"piece {pid}"

    def stack_names(self, pid: str) -> tuple[str, ...]:
        return tuple(self.name_of(p) for p in self.table.stack_order(pid))

    def snapshot(self) -> list[PieceAt]:
        out = []
        in_decks = {p for _, ids in self.decks.values() for p in ids if p in self.table.pieces}
        groups = [
            tuple(p for p in reversed(ids) if p in self.table.pieces)
            for _, ids in self.decks.values()
        ]
        groups += [g for g in self.table.groups() if not set(g) & in_decks]
        for group in groups:
            if not group:
                continue
            names = tuple(self.name_of(p) for p in group)
            for depth, pid in enumerate(group):
                map_id, x, y = self.point(pid)
                layers = tuple(
                    ls.level_name or ls.name
                    for ls in layer_states(self.table.pieces[pid])
                    if ls.active
                )
                out.append(
                    PieceAt(
                        pid,
                        names[depth],
                        map_id,
                        x,
                        y,
                        self.where(map_id, x, y),
                        names,
                        depth,
                        layers,
                    )
                )
        return out

    # ---- the set-up part -----------------------------------------------------------------
    def setup(self, command: Command) -> None:
        if isinstance(command, BeginSave):
            self.table = Tabletop()
        elif isinstance(command, AddPiece):
            self.add(command)
        elif isinstance(command, ChangePiece):
            self.table.change(command)
        elif isinstance(command, MovePiece):
            self.table.move(command)
        elif isinstance(command, RemovePiece):
            self.table.remove(command)
        elif isinstance(command, SetBoards):
            self.boards.set_boards(command)

    # ---- logged steps --------------------------------------------------------------------
    def step(self, command: Command, step: int) -> None:
        if isinstance(command, MovePiece):
            self._move(command, step)
        elif isinstance(command, ChangePiece):
            self._change(command, step)
        elif isinstance(command, AddPiece):
            pid = self.add(command)
            if pid is not None:
                m, x, y = self.point(pid)
                self.events.append(
                    LogEvent(
                        step,
                        "create",
                        self.name_of(pid),
                        pid,
                        map_to=m,
                        to_location=self.where(m, x, y),
                    )
                )
        elif isinstance(command, RemovePiece):
            members = list(self.table.stacks.get(command.id, [])) or [command.id]
            for pid in members:
                if pid in self.table.pieces:
                    m, x, y = self.point(pid)
                    self.events.append(
                        LogEvent(
                            step,
                            "delete",
                            self.name_of(pid),
                            pid,
                            map_from=m,
                            from_location=self.where(m, x, y),
                        )
                    )
            self.table.remove(command)
        elif isinstance(command, Chat):
            self.events.append(self._chat(command.message, step))
        elif isinstance(command, SetBoards):
            self.boards.set_boards(command)
            text = ", ".join(
                f"{b.name}{' (reversed)' if b.reversed else ''} at column {b.x}, row {b.y}"
                for b in command.boards
            )
            self.events.append(LogEvent(step, "boards", map_to=command.map_id, text=text))
        elif isinstance(command, SetGlobalProperty):
            self.events.append(LogEvent(step, "property", text=f"{command.name} = {command.value}"))
        elif isinstance(command, Undo):
            self.events.append(
                LogEvent(step, "undo", text="undo starts" if command.in_progress else "undo ends")
            )

    def _chat(self, message: str, step: int) -> LogEvent:
        for report in self.dice:
            rolled = report.roll(message)
            if rolled is not None:
                return LogEvent(step, "roll", text=message, changes=(f"{report.name}: {rolled}",))
        return LogEvent(step, "chat", text=message)

    def _move(self, command: MovePiece, step: int) -> None:
        moving = command.id
        is_stack = moving in self.table.stacks
        members = [m for m in self.table.stacks.get(moving, [moving]) if m in self.table.pieces]
        if not members:
            return
        lead = members[-1] if is_stack else moving  # top of a dragged stack
        old_map, old_x, old_y = self.point(lead)
        before = self.stack_names(lead)
        self.table.move(command)
        for m in members:
            self.leave_deck(m)
        new_map, new_x, new_y = self.table.point(lead)
        after = self.stack_names(lead)
        mine = {self.name_of(m) for m in members}
        left = tuple(n for n in before if n not in mine) if not is_stack else ()
        joined = tuple(n for n in after if n not in mine)
        self.events.append(
            LogEvent(
                step,
                "move",
                self.name_of(lead),
                lead,
                old_map,
                self.where(old_map, old_x, old_y),
                new_map,
                self.where(new_map, new_x, new_y),
                with_stack=tuple(self.name_of(m) for m in reversed(members) if m != lead),
                left=left,
                with_ids=tuple(m for m in reversed(members) if m != lead),
                joined=joined,
            )
        )

    def _change(self, command: ChangePiece, step: int) -> None:
        old = self.table.pieces.get(command.id)
        if old is None:
            return
        before_stack = self.stack_names(command.id)
        m0, x0, y0 = self.point(command.id)
        self.table.change(command)
        new = self.table.pieces[command.id]
        if self.table.point(command.id)[0] is not None:
            self.leave_deck(command.id)
        m1, x1, y1 = self.point(command.id)
        words = describe_change(old, new)
        name = piece_name(new)
        if (m0, x0, y0) != (m1, x1, y1):
            self.events.append(
                LogEvent(
                    step,
                    "move",
                    name,
                    command.id,
                    m0,
                    self.where(m0, x0, y0),
                    m1,
                    self.where(m1, x1, y1),
                    changes=tuple(w for w in words if not w.startswith("position")),
                    left=tuple(n for n in before_stack if n != name),
                )
            )
        elif words:
            self.events.append(
                LogEvent(
                    step,
                    "change",
                    name,
                    command.id,
                    map_from=m1,
                    from_location=self.where(m1, x1, y1),
                    changes=tuple(words),
                )
            )


def _layer_label(layer: Embellishment) -> str:
    """What the module calls a Layer: its name, else its menu command, else ``layer``."""
    if layer.layer_name:
        return layer.layer_name
    activate, up, down = layer.commands
    for command in (activate, up, down):
        if command and command != "Activate":
            return command.strip("+- ") or "layer"
    return "layer"


def _level_label(layer: Embellishment) -> str:
    """A level in words: its level name, else its image's name, else its number."""
    i = layer.level - 1
    names, images = layer.level_names, layer.image_names
    name = names[i].replace("+", " ").strip() if 0 <= i < len(names) else ""
    if not name and 0 <= i < len(images):
        name = images[i].rsplit(".", 1)[0] if images[i] else "none"  # a blank level
    return name or f"level {layer.level}"


def _layer_word(old: Embellishment, new: Embellishment) -> str | None:
    """``Layer: new level (was old level)``, ``Layer: on``/``off``; ``None`` when both
    states read the same."""
    label = _layer_label(new)
    if old.active != new.active:
        if len(new.image_names) <= 1:
            return f"{label}: {'on' if new.active else 'off'}"
        return f"{label}: " + (
            _level_label(new) if new.active else f"off (was {_level_label(old)})"
        )
    if _level_label(new) == _level_label(old):
        return None
    return f"{label}: {_level_label(new)} (was {_level_label(old)})"


def describe_change(old: Piece, new: Piece) -> list[str]:
    """What changed between two states of one piece, in words (traits matched by place)."""
    if len(old.traits) != len(new.traits):
        return ["traits changed"]
    words: list[str] = []
    for a, b in zip(old.traits, new.traits, strict=True):
        if a.state != b.state:
            words += _trait_change(a, b)
    return words


def _trait_change(a: Any, b: Any) -> list[str]:
    """One trait's change in words: a layer's level, a marker's or the piece's properties,
    a label; a trait of no words (a stack, a silent trait) says nothing."""
    if isinstance(a, Embellishment) and isinstance(b, Embellishment):
        word = _layer_word(a, b) if (a.active, a.level) != (b.active, b.level) else None
        return [word] if word is not None else []
    if isinstance(a, Marker) and isinstance(b, Marker):
        return _property_changes(a.properties, b.properties)
    if isinstance(a, Labeler) and isinstance(b, Labeler):
        return [f"label: {b.label!r} (was {a.label!r})"]
    if isinstance(a, BasicPiece) and isinstance(b, BasicPiece):
        return _property_changes(a.persistent_properties, b.persistent_properties)
    if isinstance(a, Stack) or a.type.startswith(_SILENT):
        return []
    prefix = next((p for p in _TRAIT_WORDS if a.type.startswith(p)), None)
    return [_TRAIT_WORDS[prefix] if prefix else f"{a.type.split(';')[0]} changed"]


def _property_changes(old: Mapping[str, str], new: Mapping[str, str]) -> list[str]:
    """``key = new (was old)`` for each property whose value changed or appeared."""
    return [f"{k} = {v} (was {old.get(k, '')})" for k, v in new.items() if old.get(k) != v]


def read_log(
    commands: Command,
    module: ModuleLocations,
    dice: list[DiceReport] | None = None,
) -> LogReading:
    """Replay a whole ``.vsav``/``.vlog`` command tree through ``module``'s maps."""
    reader = _Reader(module, dice or [])
    start: list[PieceAt] | None = None
    step = 0
    for command, logged in iter_leaves(commands):
        if not logged and start is None:
            if isinstance(command, EndSave):
                start = reader.snapshot()
            else:
                reader.setup(command)
            continue
        if start is None:
            start = reader.snapshot()
        step += 1
        reader.step(command, step)
    if start is None:
        start = reader.snapshot()
    end = reader.snapshot()
    return LogReading(start, end, reader.events, reader.maps_seen, reader.boards)
