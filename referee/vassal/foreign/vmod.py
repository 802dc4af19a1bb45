"""Read a module's component tree back: the buildFile and every piece definition in it.

Used to check what :mod:`referee.vassal.module.module_writer` wrote, and to read real modules
(3.7 ``buildFile.xml`` and the legacy ``buildFile``, vassal-format.md §2.1) through the same
code: the safe XML parser, then each PieceSlot and PrototypeDefinition text decoded as an
AddPiece command (§5.1) into its chain of traits (§5.2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lxml import etree

from referee.numerals import read_whole
from referee.vassal.codec.commands import AddPiece, parse_command
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import Piece, decode_piece
from referee.vassal.codec.safezip import read_zip_file
from referee.vassal.codec.xmlsafe import parse_xml_bytes

__all__ = [
    "PieceDefinition",
    "VmodContents",
    "decode_definition",
    "piece_definitions",
    "read_buildfile",
    "read_vmod",
]

PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"


@dataclass(frozen=True)
class PieceDefinition:
    """A PieceSlot or PrototypeDefinition: its element's attributes and decoded piece."""

    kind: str  # "slot" or "prototype"
    attrs: dict[str, str]
    piece: Piece
    text: str

    @property
    def name(self) -> str:
        return self.attrs.get("entryName") or self.attrs.get("name", "")


def decode_definition(text: str, source: str) -> Piece:
    """Decode one definition text (``+/null/type/state``) into its traits.

    Raises :class:`VassalFormatError` when the text is not an AddPiece command.
    """
    command = parse_command(text.strip(), source=source)
    if not isinstance(command, AddPiece):
        raise VassalFormatError(source, "definition text is not an AddPiece command (+/...)")
    return decode_piece(command.type, command.state)


def piece_definitions(root: etree._Element, source: str) -> list[PieceDefinition]:
    """Every PieceSlot and PrototypeDefinition under ``root``, in document order.

    The text is trimmed as ``Builder.getText`` does (§3.1).
    """
    out: list[PieceDefinition] = []
    for el in root.iter(PIECE_SLOT, PROTOTYPE):
        text = (el.text or "").strip()
        kind = "slot" if el.tag == PIECE_SLOT else "prototype"
        where = f"{source}:{el.sourceline}"
        out.append(PieceDefinition(kind, dict(el.attrib), decode_definition(text, where), text))
    return out


def read_buildfile(data: bytes, source: str) -> etree._Element:
    """Parse a buildFile with the safe parser and check its root (§3.1)."""
    root = parse_xml_bytes(data, source)
    if root.tag not in ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule"):
        raise VassalFormatError(source, f"root element is {root.tag!r}, not a VASSAL module")
    return root


@dataclass(frozen=True)
class VmodContents:
    """A module archive, read: entry names, the parsed buildFile and moduledata."""

    entries: dict[str, bytes]
    buildfile: etree._Element
    moduledata: etree._Element | None
    definitions: list[PieceDefinition]


def read_vmod(path: str | os.PathLike[str]) -> VmodContents:
    """Read a ``.vmod`` safely; the buildFile entry is chosen as VASSAL chooses it (§2.1)."""
    source = os.fspath(path)
    entries = read_zip_file(path)
    meta = entries.get("moduledata")
    moduledata = parse_xml_bytes(meta, f"{source}!moduledata") if meta is not None else None
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    if moduledata is not None:
        version = moduledata.findtext("VassalVersion") or "0"
        major_minor = tuple(read_whole(p) or 0 for p in version.split(".")[:2])
        name = "buildFile" if major_minor < (3, 5) else "buildFile.xml"
    if name not in entries:
        raise VassalFormatError(source, f"no {name} entry (VASSAL: 'no buildfile')")
    root = read_buildfile(entries[name], f"{source}!{name}")
    return VmodContents(entries, root, moduledata, piece_definitions(root, f"{source}!{name}"))
