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
from referee.safeio import _fsync_dir, write_bytes_atomic, write_new_file

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


def write_turn(archive: Archive, name: str, files: dict[str, bytes]) -> Path:
    """Steps 1 and 2: the new turn folder appears whole or not at all."""
    tmp = archive.turns / f"{TMP_PREFIX}{name}-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    for i, (fname, data) in enumerate(sorted(files.items())):
        write_new_file(tmp / fname, data)
        if i == 0:
            crashpoint("turn-file-written")
    _fsync_dir(tmp)
    crashpoint("turn-files-written")
    final = archive.turns / name
    if final.exists():
        raise Refusal("archive", f"turns/{name}: already exists")
    os.rename(tmp, final)
    _fsync_dir(archive.turns)
    crashpoint("turn-renamed")
    return final


def write_state(archive: Archive, state_bytes: bytes) -> None:
    """Step 3."""
    write_bytes_atomic(archive.state_json, state_bytes)
    crashpoint("state-written")


def recover(archive: Archive) -> list[str]:
    """Finish or undo what a crashed adjudication left; a list of what was done."""
    done: list[str] = []
    for p in archive.stale_tmp_dirs():
        shutil.rmtree(p)
        done.append(f"removed the unfinished turns/{p.name}")
    turns = archive.turn_dirs()
    latest = archive.read(turns[-1].path / "state.json")
    try:
        current = archive.read(archive.state_json)
    except Refusal:
        current = None
    if current != latest:
        behind = len(turns) >= 2 and current == archive.read(turns[-2].path / "state.json")
        if current is not None and not behind:
            raise Refusal(
                "archive",
                "state.json matches neither the latest turn nor the one before it",
                hint="was it edited by hand? `referee verify` shows what is wrong",
            )
        write_bytes_atomic(archive.state_json, latest)
        done.append(f"completed state.json from turns/{turns[-1].name}")
    return done
