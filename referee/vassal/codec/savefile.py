"""Read and write ``.vsav`` saves and ``.vlog`` logs (vassal-format.md §6.1, §6.5, §6.6).

Both are zips with the same layout (§6.1): ``savedGame`` holds the command stream,
obfuscated (§6.2) or plain, and is the only entry VASSAL needs; ``savedata`` (the save's
metadata) and ``moduledata`` (a copy of the module's) are optional XML. Only the
content differs: a log is a save followed by ``LOG`` steps (§6.6).

Reading treats the file as hostile (see :mod:`referee.vassal.codec.safezip` and
:mod:`referee.vassal.codec.xmlsafe`) and refuses anything odd with one
:class:`~referee.vassal.codec.errors.VassalFormatError`. Writing is deterministic (same game,
same bytes: fixed key, timestamps and entry order) and atomic
(:func:`referee.safeio.write_bytes_atomic`: temp file, fsync, ``os.replace``).

The stream is decoded as UTF-8 like VASSAL does, with ``surrogateescape`` so that even
invalid bytes survive a read/write round trip unchanged.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lxml import etree

from referee.numerals import read_whole
from referee.safeio import write_bytes_atomic
from referee.vassal.codec.commands import Command, encode_command, parse_command
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.obfuscation import DEFAULT_KEY, deobfuscate, obfuscate, obfuscation_key
from referee.vassal.codec.safezip import (
    DEFAULT_LIMITS,
    ZipLimits,
    build_zip,
    read_zip_bytes,
    read_zip_file,
)
from referee.vassal.codec.xmlsafe import parse_xml_bytes

__all__ = [
    "MODULEDATA",
    "SAVEDATA",
    "SAVED_GAME",
    "ArchiveMetadata",
    "SaveGame",
    "VassalFormatError",
    "build_savedata",
    "parse_metadata",
    "read_save",
    "read_save_bytes",
    "save_to_bytes",
    "write_save",
]

SAVED_GAME: Final = "savedGame"
SAVEDATA: Final = "savedata"
MODULEDATA: Final = "moduledata"
_ENTRIES: Final = (SAVED_GAME, SAVEDATA, MODULEDATA)


@dataclass(frozen=True)
class ArchiveMetadata:
    """The fields of a ``savedata`` or ``moduledata`` document (§2.2, §6.1).

    ``name`` is the untranslated module name (``moduledata`` only, ``""`` otherwise);
    ``date_saved`` is milliseconds since the epoch, ``None`` if absent or not a number.
    """

    version: str
    vassal_version: str
    date_saved: int | None
    description: str
    name: str


def parse_metadata(data: bytes, source: str) -> ArchiveMetadata:
    """Parse ``savedata``/``moduledata`` safely; the root must be ``<data>`` (§2.2)."""
    root = parse_xml_bytes(data, source)
    if root.tag != "data":
        raise VassalFormatError(
            source, f"metadata root element is <{root.tag}>, not <data>", "not VASSAL metadata"
        )

    def text(tag: str) -> str:
        # Translations repeat <name>/<description> with a lang attribute; take the plain one.
        for element in root.findall(tag):
            if element.get("lang") is None:
                return (element.text or "").strip()
        return ""

    date = text("dateSaved")
    return ArchiveMetadata(
        version=text("version"),
        vassal_version=text("VassalVersion"),
        date_saved=read_whole(date),
        description=text("description"),
        name=text("name"),
    )


def build_savedata(
    *, module_version: str, vassal_version: str, date_saved: int, description: str = ""
) -> bytes:
    """A ``savedata`` document as ``SaveMetaData`` writes it (§6.1).

    ``date_saved`` (milliseconds since the epoch) is a parameter, not the clock, so that
    writing is deterministic.
    """
    root = etree.Element("data", version="1")
    for tag, value in (
        ("version", module_version),
        ("VassalVersion", vassal_version),
        ("dateSaved", str(date_saved)),
        ("description", description),
    ):
        etree.SubElement(root, tag).text = value
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


@dataclass(frozen=True)
class SaveGame:
    """A decoded ``.vsav``/``.vlog``.

    ``key`` is the obfuscation key found in the file (``None`` = plain text); writing with
    the same key reproduces the original ``savedGame`` bytes. ``savedata`` and
    ``moduledata`` are the raw XML entries (already checked to be safe), or ``None``.
    """

    commands: Command
    key: int | None
    savedata: bytes | None = None
    moduledata: bytes | None = None

    @property
    def stream(self) -> str:
        """The command stream as text (§6.3)."""
        return encode_command(self.commands)

    @property
    def save_metadata(self) -> ArchiveMetadata | None:
        """The parsed ``savedata`` entry, if any."""
        return None if self.savedata is None else parse_metadata(self.savedata, SAVEDATA)

    @property
    def module_metadata(self) -> ArchiveMetadata | None:
        """The parsed ``moduledata`` entry, if any."""
        return None if self.moduledata is None else parse_metadata(self.moduledata, MODULEDATA)

    def to_bytes(self) -> bytes:
        """The zip, written exactly as :func:`save_to_bytes` would."""
        return save_to_bytes(
            self.commands, savedata=self.savedata, moduledata=self.moduledata, key=self.key
        )


def read_save(path: str | os.PathLike[str], *, limits: ZipLimits = DEFAULT_LIMITS) -> SaveGame:
    """Read and fully validate a ``.vsav``/``.vlog`` (any extension) at ``path``."""
    return _decode(read_zip_file(path, _ENTRIES, limits), os.fspath(path))


def read_save_bytes(
    data: bytes, source: str = "<memory>", *, limits: ZipLimits = DEFAULT_LIMITS
) -> SaveGame:
    """Like :func:`read_save` for a zip already in memory; ``source`` names it in errors."""
    return _decode(read_zip_bytes(data, source, _ENTRIES, limits), source)


def _decode(entries: dict[str, bytes], source: str) -> SaveGame:
    raw = entries.get(SAVED_GAME)
    if raw is None:
        raise VassalFormatError(
            source,
            f"no {SAVED_GAME} entry",
            "this is not a VASSAL save or log (a .vmod module is a different file)",
        )
    try:
        key = obfuscation_key(raw)
        text = deobfuscate(raw).decode("utf-8", errors="surrogateescape")
        commands = parse_command(text)
        for name in (SAVEDATA, MODULEDATA):
            if name in entries:
                parse_metadata(entries[name], name)
    except VassalFormatError as exc:
        raise _in_entry(exc, source) from None
    return SaveGame(commands, key, entries.get(SAVEDATA), entries.get(MODULEDATA))


def _in_entry(exc: VassalFormatError, path: str) -> VassalFormatError:
    """Re-home an error raised for an entry (``exc.path``) onto the archive's path."""
    return VassalFormatError(path, f"entry {exc.path}: {exc.message}", exc.hint)


def save_to_bytes(
    commands: Command | str,
    *,
    savedata: bytes | None = None,
    moduledata: bytes | None = None,
    key: int | None = DEFAULT_KEY,
    source: str = "<memory>",
) -> bytes:
    """The ``.vsav``/``.vlog`` zip for ``commands`` (a tree or an encoded stream).

    ``key=None`` writes plain text; otherwise ``!VCSK`` obfuscation with that key (§6.2).
    The XML entries are checked with the safe parser first, so we never write a document
    we would refuse to read.
    """
    text = commands if isinstance(commands, str) else encode_command(commands)
    try:
        plain = text.encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError as exc:
        raise VassalFormatError(
            source, f"command stream has a character UTF-8 cannot encode at {exc.start}", ""
        ) from None
    entries = {SAVED_GAME: plain if key is None else obfuscate(plain, key)}
    try:
        for name, data in ((SAVEDATA, savedata), (MODULEDATA, moduledata)):
            if data is not None:
                parse_metadata(data, name)
                entries[name] = data
    except VassalFormatError as exc:
        raise _in_entry(exc, source) from None
    return build_zip(entries)


def write_save(
    path: str | os.PathLike[str],
    commands: Command | str,
    *,
    savedata: bytes | None = None,
    moduledata: bytes | None = None,
    key: int | None = DEFAULT_KEY,
) -> None:
    """Write a ``.vsav``/``.vlog`` to ``path`` deterministically and atomically.

    Everything is built and checked in memory first; on any error nothing is written and
    an existing file at ``path`` is left untouched.
    """
    data = save_to_bytes(
        commands, savedata=savedata, moduledata=moduledata, key=key, source=os.fspath(path)
    )
    target = Path(path)
    try:
        write_bytes_atomic(target, data)
    except OSError as exc:
        raise VassalFormatError(
            target, f"cannot write file: {exc.strerror or exc}", "check the folder and permissions"
        ) from None
