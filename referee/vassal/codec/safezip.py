"""ZIP containers for VASSAL files: a defensive reader and a deterministic builder.

``.vsav``, ``.vlog`` and ``.vmod`` files are ordinary zips (vassal-format.md §2, §6.1)
that reach us from other players, so the reader treats them as hostile:

* the archive, each entry and the sum of all entries are size-capped, and an entry that
  inflates more than :attr:`ZipLimits.max_ratio` times is refused (zip bombs); sizes are
  enforced while inflating, not just trusted from the headers;
* entry names with ``..``, a leading ``/``, a backslash, a drive letter or a NUL are
  refused, and so are duplicate names (path traversal, ambiguous content);
* only STORED and DEFLATED entries are read: they are all ``java.util.zip`` (and so
  VASSAL) supports, and they keep inflation bounded per read;
* a truncated or corrupt zip (bad central directory, bad CRC) is refused.

Every refusal is a :class:`~referee.vassal.codec.errors.VassalFormatError`.

The builder writes entries in sorted order with fixed timestamps and attributes, so the
same content always gives the same bytes.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
import zlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final

from referee.vassal.codec.errors import VassalFormatError

__all__ = [
    "DEFAULT_LIMITS",
    "ZIP_EPOCH",
    "ZipLimits",
    "build_zip",
    "check_entry_name",
    "read_zip_bytes",
    "read_zip_file",
]

_MIB: Final = 1024 * 1024
ZIP_EPOCH: Final = (1980, 1, 1, 0, 0, 0)
"""Timestamp written on every entry: the earliest a zip can store, so output never
depends on the clock."""
_CHUNK: Final = 64 * 1024
_CENTRAL_RECORD: Final = b"PK\x01\x02"
_DRIVE: Final = re.compile(r"^[A-Za-z]:")
_SUPPORTED_METHODS: Final = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
_CORRUPT_HINT: Final = "the file is truncated or damaged; ask for it to be sent again"
_BOMB_HINT: Final = "real VASSAL saves are far smaller; the file may be a zip bomb"


@dataclass(frozen=True)
class ZipLimits:
    """Caps applied while reading an untrusted zip.

    The defaults leave room for large real files (the Inferno fixture's ``savedGame``
    inflates 21 times to 4.4 MB) while refusing bombs.
    """

    max_archive_bytes: int = 64 * _MIB
    """Largest zip file accepted."""
    max_entry_bytes: int = 64 * _MIB
    """Largest inflated size of one entry."""
    max_total_bytes: int = 128 * _MIB
    """Largest inflated size of all entries together."""
    max_ratio: int = 200
    """Largest inflated/compressed ratio of an entry (deflate's ceiling is about 1032)."""
    ratio_floor_bytes: int = 1 * _MIB
    """Entries that inflate to at most this many bytes are exempt from the ratio check."""
    max_entries: int = 10_000
    """Most entries accepted in one archive."""


DEFAULT_LIMITS: Final = ZipLimits()


def check_entry_name(name: str) -> str | None:
    """Why ``name`` is unsafe as a zip entry name, or ``None`` if it is fine."""
    if not name:
        return "an entry has an empty name"
    if "\x00" in name:
        return f"entry name {name!r} contains a NUL byte"
    if "\\" in name:
        return f"entry name {name!r} contains a backslash"
    if name.startswith("/"):
        return f"entry name {name!r} is an absolute path"
    if _DRIVE.match(name):
        return f"entry name {name!r} starts with a drive letter"
    if ".." in name.split("/"):
        return f"entry name {name!r} climbs out of the archive with '..'"
    return None


def read_zip_file(
    path: str | os.PathLike[str],
    wanted: Collection[str] | None = None,
    limits: ZipLimits = DEFAULT_LIMITS,
) -> dict[str, bytes]:
    """Read the entries named in ``wanted`` (all if ``None``) from the zip at ``path``.

    Entries in ``wanted`` that the archive lacks are simply absent from the result.
    """
    try:
        size = os.stat(path).st_size
        if size > limits.max_archive_bytes:
            raise VassalFormatError(
                path,
                f"file is {size} bytes, over the {limits.max_archive_bytes} byte limit",
                _BOMB_HINT,
            )
        with open(path, "rb") as handle:
            data = handle.read(limits.max_archive_bytes + 1)
    except OSError as exc:
        raise VassalFormatError(
            path, f"cannot read file: {exc.strerror or exc}", "check the path and permissions"
        ) from None
    return read_zip_bytes(data, os.fspath(path), wanted, limits)


def read_zip_bytes(
    data: bytes,
    source: str,
    wanted: Collection[str] | None = None,
    limits: ZipLimits = DEFAULT_LIMITS,
) -> dict[str, bytes]:
    """Like :func:`read_zip_file` for an archive already in memory (``source`` names it)."""
    if len(data) > limits.max_archive_bytes:
        raise VassalFormatError(
            source,
            f"file is over the {limits.max_archive_bytes} byte limit",
            _BOMB_HINT,
        )
    # zipfile builds a ZipInfo per central-directory record before we can count them, so
    # bound the count first: every record starts with this signature.
    if data.count(_CENTRAL_RECORD) > limits.max_entries:
        raise VassalFormatError(
            source, f"archive has more than {limits.max_entries} entries", _BOMB_HINT
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        ValueError,
        EOFError,
        NotImplementedError,  # a directory record asking for a zip version zipfile lacks
    ) as exc:
        raise VassalFormatError(
            source, f"not a readable zip archive ({exc})", _CORRUPT_HINT
        ) from None
    with archive:
        infos = archive.infolist()
        _check_directory(infos, source, limits)
        result: dict[str, bytes] = {}
        for info in infos:
            if wanted is None or info.filename in wanted:
                result[info.filename] = _read_entry(archive, info, source, limits)
        return result


def _check_directory(infos: list[zipfile.ZipInfo], source: str, limits: ZipLimits) -> None:
    """Refuse unsafe names and sizes before anything is inflated."""
    if len(infos) > limits.max_entries:
        raise VassalFormatError(
            source,
            f"archive has {len(infos)} entries, over the {limits.max_entries} limit",
            _BOMB_HINT,
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        problem = check_entry_name(info.orig_filename)
        if problem:
            raise VassalFormatError(
                source, problem, "the archive may try to write outside its folder"
            )
        if info.filename in seen:
            raise VassalFormatError(
                source,
                f"entry {info.filename!r} appears twice",
                "the archive is ambiguous or crafted",
            )
        seen.add(info.filename)
        if info.flag_bits & 0x1:
            raise VassalFormatError(
                source, f"entry {info.filename!r} is encrypted", "VASSAL never encrypts its files"
            )
        if info.compress_type not in _SUPPORTED_METHODS:
            raise VassalFormatError(
                source,
                f"entry {info.filename!r} uses unsupported compression method {info.compress_type}",
                "VASSAL only reads stored or deflated entries",
            )
        _check_size(info.filename, info.file_size, info.compress_size, source, limits)
        total += info.file_size
        if total > limits.max_total_bytes:
            raise VassalFormatError(
                source,
                f"entries inflate to more than {limits.max_total_bytes} bytes in total",
                _BOMB_HINT,
            )


def _check_size(name: str, size: int, compressed: int, source: str, limits: ZipLimits) -> None:
    if size > limits.max_entry_bytes:
        raise VassalFormatError(
            source,
            f"entry {name!r} inflates to {size} bytes, "
            f"over the {limits.max_entry_bytes} byte limit",
            _BOMB_HINT,
        )
    if size > limits.ratio_floor_bytes and size > limits.max_ratio * max(compressed, 1):
        raise VassalFormatError(
            source,
            f"entry {name!r} inflates {size // max(compressed, 1)} times "
            f"(limit {limits.max_ratio})",
            _BOMB_HINT,
        )


def _read_entry(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str, limits: ZipLimits
) -> bytes:
    """Inflate one entry in chunks, never holding more than the declared, capped size."""
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(info) as handle:
            while chunk := handle.read(_CHUNK):
                size += len(chunk)
                _check_size(info.filename, size, info.compress_size, source, limits)
                chunks.append(chunk)
    except VassalFormatError:
        raise
    except (
        zipfile.BadZipFile,
        zlib.error,
        EOFError,
        OSError,
        ValueError,
        NotImplementedError,
        RuntimeError,
    ) as exc:
        raise VassalFormatError(
            source, f"entry {info.filename!r} is corrupt ({exc})", _CORRUPT_HINT
        ) from None
    if size != info.file_size:
        raise VassalFormatError(
            source, f"entry {info.filename!r} is shorter than its header says", _CORRUPT_HINT
        )
    return b"".join(chunks)


def build_zip(entries: Mapping[str, bytes]) -> bytes:
    """A deflated zip of ``entries``: sorted names, fixed timestamps and attributes, so the
    same input always gives the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            problem = check_entry_name(name)
            if problem:
                raise ValueError(problem)
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the result does not depend on the platform
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name], compresslevel=9)
    return buffer.getvalue()
