"""Adjudication as a transaction: a crash or a kill at any point leaves a consistent archive.

The order of writes:

1. every file of the new turn goes into ``turns/.tmp-NNN-<pid>/``, each fsynced;
2. that folder is renamed to ``turns/NNN-what`` (one atomic rename) and ``turns/`` fsynced;
3. ``state.json`` is replaced atomically (temp file, fsync, rename) with the new position.

A crash before 2 leaves a ``.tmp-`` folder that ``verify`` ignores and the next adjudication
removes. A crash between 2 and 3 leaves ``state.json`` one step behind the latest turn
folder: ``verify`` accepts that (and says so), and the next ``adjudicate`` completes it.

``REFEREE_CRASH_AT=<point>`` makes the process die (``os._exit(137)``, like ``kill -9``) at a
named point, so the tests can prove the above. A lock on ``GAME_DIR/.lock`` refuses a second
adjudication of the same game while one runs. It is taken with ``filelock`` (``flock`` on
POSIX, ``msvcrt.locking`` on Windows), so referees on Windows and macOS are covered the same
way; the operating system releases it when the process dies, even by ``kill -9``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from referee.pbem.archive import TMP_PREFIX, Archive
from referee.pbem.problems import Refusal
from referee.safeio import fsync_dir, write_bytes_atomic, write_new_file

CRASH_ENV = "REFEREE_CRASH_AT"
CRASH_POINTS = (
    "turn-file-written",  # one file of the new turn written into the temporary folder
    "turn-files-written",  # all of them written, folder not yet renamed
    "turn-renamed",  # the turn folder is in place, state.json not yet replaced
    "state-written",  # everything written, lock still held
)


def crashpoint(name: str) -> None:
    """Die here, hard, when the tests ask for it."""
    assert name in CRASH_POINTS, name
    if os.environ.get(CRASH_ENV) == name:
        os._exit(137)


@contextlib.contextmanager
def game_lock(archive: Archive) -> Iterator[None]:
    lock = FileLock(archive.lock_path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise Refusal(
            "locked",
            f"{archive.root}: another adjudication of this game is running",
            hint="wait for it to finish, then try again",
        ) from None
    try:
        yield
    finally:
        lock.release()


def write_turn(
    archive: Archive,
    name: str,
    files: dict[str, bytes],
    secret: dict[str, bytes] | None = None,
) -> Path:
    """Steps 1 and 2: the new turn folder appears whole or not at all. ``secret`` files go
    to ``secret/turns/<name>/`` first, the same way (a game with commitments); a crash
    between the two leaves a referee-only folder with no turn, which :func:`recover`
    removes."""
    if secret is not None:
        _write_folder(archive, archive.secret / "turns", name, secret, crash=False)
    return _write_folder(archive, archive.turns, name, files, crash=True)


def write_referee_folder(archive: Archive, name: str, files: dict[str, bytes]) -> Path:
    """A referee-only turn folder of the working copy (``secret/turns/NAME``), whole or not
    at all (the parts module restores one from its encrypted part)."""
    return _write_folder(archive, archive.secret / "turns", name, files, crash=False)


def _write_folder(
    archive: Archive, turns: Path, name: str, files: dict[str, bytes], *, crash: bool
) -> Path:
    if not crash:
        turns.mkdir(parents=True, exist_ok=True)
    tmp = turns / f"{TMP_PREFIX}{name}-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    for i, (fname, data) in enumerate(sorted(files.items())):
        write_new_file(tmp / fname, data)
        if i == 0 and crash:
            crashpoint("turn-file-written")
    fsync_dir(tmp)
    if crash:
        crashpoint("turn-files-written")
    final = turns / name
    if final.exists():
        raise Refusal("archive", f"{archive.rel(final)}: already exists")
    os.rename(tmp, final)
    fsync_dir(turns)
    if crash:
        crashpoint("turn-renamed")
    return final


def write_state(archive: Archive, state_bytes: bytes, hides_information: bool = False) -> None:
    """Step 3 (a game that hides information keeps its position in ``secret/``)."""
    write_bytes_atomic(archive.state_path(None, hides_information), state_bytes)
    crashpoint("state-written")


def _recover_secret(archive: Archive) -> list[str]:
    """Remove referee-only turn folders that no published turn folder matches."""
    done: list[str] = []
    turns = archive.secret / "turns"
    if not turns.is_dir():
        return done
    for p in sorted(turns.iterdir()):
        if p.name.startswith(TMP_PREFIX) or not (archive.turns / p.name).is_dir():
            shutil.rmtree(p)
            done.append(f"removed the unfinished secret/turns/{p.name}")
    return done


def recover(archive: Archive, hides_information: bool = False) -> list[str]:
    """Finish or undo what a crashed adjudication left; a list of what was done."""
    done: list[str] = []
    for p in archive.stale_tmp_dirs():
        shutil.rmtree(p)
        done.append(f"removed the unfinished turns/{p.name}")
    done += _recover_secret(archive)
    turns = archive.turn_dirs()
    latest = archive.read(archive.state_path(turns[-1], hides_information))
    try:
        current = archive.read(archive.state_path(None, hides_information))
    except Refusal:
        current = None
    if current != latest:
        behind = len(turns) >= 2 and current == archive.read(
            archive.state_path(turns[-2], hides_information)
        )
        if current is not None and not behind:
            raise Refusal(
                "archive",
                "state.json matches neither the latest turn nor the one before it",
                hint="was it edited by hand? `referee verify` shows what is wrong",
            )
        write_bytes_atomic(archive.state_path(None, hides_information), latest)
        done.append(f"completed state.json from turns/{turns[-1].name}")
    return done
