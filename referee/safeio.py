"""Safe file input and atomic file output, used at every edge of the program.

Inputs come from strangers (module sources, orders, VASSAL files), so reading refuses files
that are too large, are not UTF-8, or lie outside the folder they were named from (``../``,
absolute paths, symlinks out). Outputs are never half-written: write a temporary file in the
same folder, ``fsync`` it, then ``os.replace`` it over the target, so a crash leaves either the
old file or the new one. This module is the one writer: private files (keys, dice seeds) are
written 0600, everything else follows the umask.
"""

from __future__ import annotations

import contextlib
import os
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


# Who may read what we write. Shared files (game.toml, state.json, reports, signed orders,
# modules, PDFs, PNGs) are created 0666 and the umask decides, as for any other program; only
# private keys and dice seeds are private (0600) whatever the umask.
SHARED_MODE = 0o666
PRIVATE_MODE = 0o600
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def create_file(path: Path, *, private: bool = False) -> int:
    """Create ``path`` (which must not exist) for writing and return its descriptor.

    A private file is 0600 from the first byte (no window in which the umask's 0644 shows
    it); a shared one gets 0666 less the umask. Works the same on POSIX and Windows (where
    only the read-only bit of a mode means anything)."""
    fd = os.open(path, _CREATE_FLAGS, PRIVATE_MODE if private else SHARED_MODE)
    if private:
        try:
            os.chmod(path, PRIVATE_MODE)  # a umask may have removed bits; never adds any
        except BaseException:
            os.close(fd)
            raise
    return fd


def write_new_file(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to a new file and fsync it (no rename: for files inside a folder that
    is itself renamed into place, as a PBEM turn folder is)."""
    fd = create_file(path, private=private)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_beside(target: Path, private: bool) -> Path:
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{os.urandom(6).hex()}.tmp")
        try:
            os.close(create_file(tmp, private=private))
        except FileExistsError:
            continue
        return tmp
    raise FileExistsError(f"cannot make a temporary file beside {target}")


@contextlib.contextmanager
def atomic_path(target: Path, *, private: bool = False, durable: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success fsync it and rename it over
    ``target``. On any exception the temporary file is removed and ``target`` is untouched.

    This is the program's one way of replacing a file: ``private=True`` for private keys and
    dice seeds (0600), the umask for everything else. Write to the yielded path by name
    (``open(tmp, "wb")`` keeps its mode). ``durable=False`` skips the fsyncs: still whole or
    not at all, but a crash may lose the file; only for files that are checked when read
    and can be made again (cache entries)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = _temp_beside(target, private)
    try:
        yield tmp_path
        if durable:
            with open(tmp_path, "rb+") as fh:
                os.fsync(fh.fileno())
        os.replace(tmp_path, target)
        if durable:
            fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_bytes_atomic(
    target: Path, data: bytes, *, private: bool = False, durable: bool = True
) -> None:
    """Replace ``target`` with ``data``, whole or not at all (see :func:`atomic_path`)."""
    with atomic_path(target, private=private, durable=durable) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(target: Path, text: str, *, private: bool = False) -> None:
    write_bytes_atomic(target, text.encode("utf-8"), private=private)


def fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (POSIX; Windows cannot open a folder, and skips it)."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
