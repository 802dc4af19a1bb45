"""The ``!VCSK`` obfuscation layer of a ``savedGame`` entry (vassal-format.md §6.2).

VASSAL hides the command stream from casual reading: the ASCII header ``!VCSK``, one key
byte as two hex digits, then every plaintext byte XOR the key as two hex digits
(``tools/io/ObfuscatingOutputStream.java``). It is not encryption. The reader
(``DeobfuscatingInputStream.java``) takes anything without the header as plain text, which
is how the 2005 ``tour.log`` fixture loads, and we do the same.

VASSAL picks the key at random; we take it as a parameter so that writing the same game
twice gives the same bytes.
"""

from __future__ import annotations

import re
from typing import Final

from referee.vassal.codec.errors import VassalFormatError

__all__ = ["DEFAULT_KEY", "HEADER", "deobfuscate", "is_obfuscated", "obfuscate", "obfuscation_key"]

HEADER: Final = b"!VCSK"
"""Marks an obfuscated stream (``ObfuscatingOutputStream.HEADER``)."""
DEFAULT_KEY: Final = 0x2A
"""Key used by our writer; any value 0-255 works, a fixed one keeps output deterministic."""

_HEX_BODY: Final = re.compile(rb"[0-9a-fA-F]*")
_HINT: Final = "the savedGame entry is damaged; re-save the game from VASSAL"


def _xor_table(key: int) -> bytes:
    return bytes(value ^ key for value in range(256))


def is_obfuscated(data: bytes) -> bool:
    """True when ``data`` starts with the ``!VCSK`` header."""
    return data.startswith(HEADER)


def obfuscation_key(data: bytes) -> int | None:
    """The key byte of an obfuscated stream, ``None`` for plain text.

    Raises :class:`VassalFormatError` when the header is present but the key is not two
    hex digits.
    """
    if not is_obfuscated(data):
        return None
    key_hex = data[len(HEADER) : len(HEADER) + 2]
    if len(key_hex) != 2 or not _HEX_BODY.fullmatch(key_hex):
        raise VassalFormatError("savedGame", "obfuscated stream has no valid key byte", _HINT)
    return int(key_hex, 16)


def deobfuscate(data: bytes, source: str = "savedGame") -> bytes:
    """Undo §6.2; plain (header-less) input is returned unchanged, as VASSAL reads it.

    Upper- and lower-case hex are both accepted (2007 files use upper case). Any other
    character, or an odd trailing nibble, raises :class:`VassalFormatError`.
    """
    key = obfuscation_key(data)
    if key is None:
        return data
    body = data[len(HEADER) + 2 :]
    if not _HEX_BODY.fullmatch(body):
        bad = re.search(rb"[^0-9a-fA-F]", body)
        offset = len(HEADER) + 2 + (bad.start() if bad else 0)
        raise VassalFormatError(
            source, f"non-hex byte in obfuscated stream at offset {offset}", _HINT
        )
    if len(body) % 2:
        raise VassalFormatError(source, "obfuscated stream ends with half a byte", _HINT)
    return bytes.fromhex(body.decode("ascii")).translate(_xor_table(key))


def obfuscate(plain: bytes, key: int = DEFAULT_KEY) -> bytes:
    """Apply §6.2 with ``key`` (0-255), writing lower-case hex as VASSAL does."""
    if not 0 <= key <= 255:
        raise ValueError(f"obfuscation key must be 0-255, got {key}")
    return (
        HEADER
        + f"{key:02x}".encode("ascii")
        + plain.translate(_xor_table(key)).hex().encode("ascii")
    )
