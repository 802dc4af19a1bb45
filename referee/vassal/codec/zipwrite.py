"""Write a ``.vmod`` zip atomically and byte-for-byte reproducibly.

A module is an ordinary zip (vassal-format.md §2). Two builds of the same source must give the
same bytes, so people can diff releases and tests can compare hashes: entries are written in
sorted order with the zip epoch as timestamp, fixed Unix attributes and fixed compression
levels. Images are already compressed (PNG, JPEG), so they are STORED; deflating them again
costs time and gains nothing. Text (``buildFile.xml``, ``moduledata``, saves) is deflated.

The archive is written to a temporary file beside the target, fsynced and renamed over it
(:func:`referee.safeio.atomic_path`), so a failure at any point leaves no partial ``.vmod``.
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from referee.safeio import atomic_path
from referee.vassal.codec.safezip import ZIP_EPOCH, check_entry_name

__all__ = ["STORED_SUFFIXES", "write_zip_atomic", "zip_info"]

STORED_SUFFIXES: Final = (".png", ".jpg", ".jpeg", ".gif", ".vsav", ".vlog", ".zip")
"""Entries that are already compressed and are stored as they are."""

DEFLATE_LEVEL: Final = 6


def zip_info(name: str) -> zipfile.ZipInfo:
    """The fixed header of one entry: epoch time, Unix 0644, stored or deflated by type."""
    problem = check_entry_name(name)
    if problem:
        raise ValueError(problem)
    info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
    info.create_system = 3  # Unix, so the bytes do not depend on the building platform
    info.external_attr = 0o644 << 16
    stored = name.lower().endswith(STORED_SUFFIXES)
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    return info


def write_zip_atomic(target: Path, entries: Mapping[str, bytes]) -> int:
    """Write ``entries`` (name -> bytes) as a zip at ``target``; return its size in bytes.

    Entry names are sorted, so the caller's insertion order never changes the output.
    """
    with atomic_path(target) as tmp:
        with zipfile.ZipFile(tmp, "w") as archive:
            for name in sorted(entries):
                info = zip_info(name)
                level = DEFLATE_LEVEL if info.compress_type == zipfile.ZIP_DEFLATED else None
                archive.writestr(info, entries[name], compresslevel=level)
        size = tmp.stat().st_size
    return size
