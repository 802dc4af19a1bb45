"""Safe file input and atomic file output, used at every edge of the program.

Inputs come from strangers (module sources, orders, VASSAL files), so reading refuses files
that are too large, are not UTF-8, or lie outside the folder they were named from (``../``,
absolute paths, symlinks out). Outputs are never half-written: write a temporary file in the
same folder, ``fsync`` it, then ``os.replace`` it over the target, so a crash leaves either the
old file or the new one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

MAX_TEXT_BYTES = 8 * 1024 * 1024


class UnsafeInput(Exception):
    """Raised for input we refuse to read; ``str()`` is a message a user can act on."""

    def __init__(
        self,
        path: str,
        message: str,
        hint: str | None = None,
        line: int | None = None,
        col: int | None = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.hint = hint
        self.line = line
        self.col = col

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        text = f"{where}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text


def resolve_inside(root: Path, name: str, *, what: str = "file") -> Path:
    """Resolve ``name`` relative to ``root`` and refuse anything that escapes ``root``.

    Refuses absolute paths, ``..`` components, and symlinks whose target lies outside ``root``.
    """
    if not name or "\x00" in name:
        raise UnsafeInput(str(root), f"empty or invalid {what} name {name!r}")
    p = Path(name)
    if p.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise UnsafeInput(
            name,
            f"{what} reference {name!r} is an absolute path",
            "name files relative to the source folder",
        )
    if any(part == ".." for part in p.parts) or "\\" in name:
        raise UnsafeInput(
            name,
            f"{what} reference {name!r} escapes the source folder",
            "keep every file inside the source folder",
        )
    real_root = root.resolve()
    target = (root / p).resolve()
    try:
        target.relative_to(real_root)
    except ValueError:
        raise UnsafeInput(
            name,
            f"{what} reference {name!r} resolves outside the source folder (a symlink out?)",
            "copy the file into the source folder",
        ) from None
    return target


def read_text(path: Path, *, display: str | None = None, limit: int = MAX_TEXT_BYTES) -> str:
    """Read a UTF-8 text file, refusing huge, binary or undecodable files with a clear message."""
    shown = display or str(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise UnsafeInput(shown, "file not found") from None
    except OSError as exc:
        raise UnsafeInput(shown, f"cannot read: {exc.strerror}") from None
    if not path.is_file():
        raise UnsafeInput(shown, "is not a regular file")
    if st.st_size > limit:
        raise UnsafeInput(
            shown,
            f"file is {st.st_size:,} bytes; the limit is {limit:,}",
            "is this the right file?",
        )
    data = path.read_bytes()[: limit + 1]
    return decode_text(data, shown)


def decode_text(data: bytes, shown: str) -> str:
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise UnsafeInput(shown, "binary data (a NUL byte) in a text file", line=line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise UnsafeInput(
            shown,
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x})",
            "save the file as UTF-8",
            line=line,
            col=col,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n")


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success fsync it and rename it over
    ``target``. On any exception the temporary file is removed and ``target`` is untouched."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_path, target)
        _fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_bytes_atomic(target: Path, data: bytes, mode: int | None = None) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
        if mode is not None:
            os.chmod(tmp, mode)


def write_text_atomic(target: Path, text: str, mode: int | None = None) -> None:
    write_bytes_atomic(target, text.encode("utf-8"), mode)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
