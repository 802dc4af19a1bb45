"""Whose a piece of an imported VASSAL module is [G1], from what the module and its source say.

A game of an imported module (:mod:`referee.vassal.foreign.game`) refuses a side's order for
another side's piece [G1]. A VASSAL module says whose a piece is in a few ways, and the
source's ``[[side]]`` tables may say it where the module does not. The first of these that
names a side decides, the most specific first:

1. ``pieces`` of a ``[[side]]``: the module's names of that side's pieces (``*`` and ``?``
   match any letters: ``"Captured by Red*"``);
2. the piece's own **Restricted Access** trait (``restrict;SIDES;...``, VASSAL's way of
   saying which roster sides may touch a piece), in the piece or in a prototype it uses,
   when it names exactly one side of the game (by id or name);
3. ``prototypes`` of a ``[[side]]``: a prototype the piece uses (directly or through another
   prototype);
4. ``palette`` of a ``[[side]]``: a palette tab, panel or list the piece is in (its
   ``units.csv`` palette path, ``Pieces/France/I Corps``, has that name as one of its parts,
   or starts with that path).

A piece none of these names belongs to no side: either player may order it (a town, a
marker), and every report says the referee checks no rule. Two sides that claim one piece
at the same step are an error of the source, at the second side's ``[[side]]`` line.
``import-vmod`` writes ``palette = [NAME]`` for a side whose roster name is also the name of
a palette tab, panel or list. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Final

from referee.source.diagnostics import Diagnostics
from referee.source.gamedecl import ImportedPiece
from referee.source.tomlpos import TomlText
from referee.vassal.codec.commands import AddPiece, Command, Compound, LogEntry
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import Piece, UsePrototype, decode_piece
from referee.vassal.codec.sequence import SequenceDecoder, decode_string_array

__all__ = [
    "RESTRICTED",
    "Owners",
    "SideClaims",
    "piece_types",
    "read_claims",
    "restricted_sides",
    "used_prototypes",
]

RESTRICTED: Final = "restrict;"
"""The type prefix of VASSAL's Restricted Access trait (``Restricted.ID``)."""
FILE: Final = "module.toml"
KEYS: Final = ("pieces", "prototypes", "palette")
MAX_PROTOTYPE_DEPTH: Final = 20
"""Prototypes within prototypes followed this deep (a cycle stops there)."""


@dataclass(frozen=True, slots=True)
class SideClaims:
    """What one ``[[side]]`` says is its own: piece names (patterns), prototypes and
    palette folders; ``line`` is where its table begins."""

    side: str
    name: str
    pieces: tuple[str, ...] = ()
    prototypes: tuple[str, ...] = ()
    palette: tuple[str, ...] = ()
    line: int | None = None
    keys: tuple[tuple[str, int | None, int | None], ...] = ()  # key, its line and column

    def where(self, key: str) -> tuple[int | None, int | None]:
        """The line and column of ``key`` in this side's table (its table's line else)."""
        return next(((ln, col) for k, ln, col in self.keys if k == key), (self.line, None))


def read_claims(
    table: Mapping[str, Any],
    side: str,
    name: str,
    line: int | None,
    diags: Diagnostics,
    tt: TomlText | None = None,
) -> SideClaims:
    """The ownership keys of one ``[[side]]`` table (starting at ``line`` of ``tt``); a
    value that is not a list of strings is an error at its key."""
    got: dict[str, tuple[str, ...]] = {}
    keys: list[tuple[str, int | None, int | None]] = []
    for key in KEYS:
        if key in table and tt is not None and line is not None:
            at = tt.key_line(key, start=line)
            col = tt.lines[at - 1].find(key) + 1 if at is not None else None
            keys.append((key, at, col or None))
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            at, col = next(((a, c) for k, a, c in keys if k == key), (line, None))
            diags.error(
                FILE,
                at,
                f"side {side}: {key} must be a list of names",
                col=col,
                hint=f'{key} = ["..."] (docs/declared-games.md, whose a piece is)',
            )
            value = []
        got[key] = tuple(value)
    return SideClaims(
        side, name, got["pieces"], got["prototypes"], got["palette"], line, tuple(keys)
    )


def restricted_sides(piece_type: str, prototypes: Mapping[str, str]) -> tuple[str, ...]:
    """The roster sides the Restricted Access traits of a piece (of type ``piece_type``)
    name, with those of the prototypes it uses (``prototypes``: name -> definition type)."""
    out: list[str] = []
    for trait_type in _trait_types(piece_type, prototypes, 0):
        if trait_type.startswith(RESTRICTED):
            decoder = SequenceDecoder(trait_type[len(RESTRICTED) :], ";")
            out += decode_string_array(decoder.next_token(""))
    return tuple(dict.fromkeys(out))


def used_prototypes(piece_type: str, prototypes: Mapping[str, str]) -> tuple[str, ...]:
    """The prototypes a piece uses, directly or through another, outermost first."""
    out: list[str] = []
    for trait_type in _trait_types(piece_type, prototypes, 0):
        if trait_type.startswith(UsePrototype.ID):
            out.append(UsePrototype(trait_type, None).name)
    return tuple(dict.fromkeys(out))


def _trait_types(piece_type: str, prototypes: Mapping[str, str], depth: int) -> list[str]:
    try:
        piece: Piece = decode_piece(piece_type, None)
    except (VassalFormatError, ValueError):
        return []
    out: list[str] = []
    for trait in piece.traits:
        out.append(trait.type)
        if isinstance(trait, UsePrototype) and depth < MAX_PROTOTYPE_DEPTH:
            inner = prototypes.get(trait.name)
            if inner is not None:
                out += _trait_types(inner, prototypes, depth + 1)
    return out


def piece_types(command: Command, out: dict[str, str] | None = None) -> dict[str, str]:
    """VASSAL piece id -> type string of every piece a save adds (stacks too)."""
    out = {} if out is None else out
    if isinstance(command, Compound):
        for c in command.children:
            piece_types(c, out)
    elif isinstance(command, LogEntry):
        piece_types(command.logged, out)
    elif isinstance(command, AddPiece) and command.id is not None:
        out[command.id] = command.type
    return out


def _in_palette(path: str, folders: Iterable[str]) -> bool:
    parts = [p for p in path.split("/") if p]
    joined = "/".join(parts)
    return any(f in parts or joined.startswith(f.strip("/") + "/") for f in folders)


@dataclass(frozen=True, slots=True)
class Owners:
    """The ownership of a game's pieces: the sides' claims, the module's prototypes (name
    -> definition type) and each piece name's palette paths (``units.csv``)."""

    claims: tuple[SideClaims, ...]
    prototypes: Mapping[str, str]
    palettes: Mapping[str, tuple[str, ...]]

    def side_of(self, piece: ImportedPiece, piece_type: str, diags: Diagnostics) -> tuple[str, str]:
        """The side ``piece`` belongs to and why ("" and "" for a piece of no side)."""
        protos = used_prototypes(piece_type, self.prototypes)
        paths = self.palettes.get(piece.name, ())
        steps = (
            ("pieces", lambda c: any(fnmatchcase(piece.name, p) for p in c.pieces)),
            ("restricted", None),
            ("prototypes", lambda c: any(p in protos for p in c.prototypes)),
            ("palette", lambda c: any(_in_palette(p, c.palette) for p in paths)),
        )
        for step, test in steps:
            if test is None:
                named = restricted_sides(piece_type, self.prototypes)
                hits = [c for c in self.claims if c.side in named or c.name in named]
                if len(hits) == 1:
                    return hits[0].side, "its Restricted Access trait"
                continue
            hits = [c for c in self.claims if test(c)]
            if len(hits) > 1:
                at, col = hits[1].where(step)
                diags.error(
                    FILE,
                    at,
                    f"piece {piece.name!r} is claimed by sides {hits[0].side} and "
                    f"{hits[1].side} ({step})",
                    col=col,
                    hint=f"name it in one side's {step} only"
                    + ("" if step == "pieces" else ", or in one side's pieces (they come first)"),
                )
            if hits:
                return hits[0].side, f"[[side]] {step}"
        return "", ""
