"""A content-addressed cache of rendered pictures and loaded module sources.

Why: a designer who changes one counter value rebuilds the whole module, and CI validates
orders files one process at a time. Every picture is a pure function of its inputs, and a
loaded module source is a pure function of the folder's bytes, so each result is stored under
the SHA-256 of exactly what it depends on (:func:`digest` of the inputs plus
:func:`code_fingerprint`: this package's own files, the shipped fonts, the Python, Pillow and
zlib versions). A changed input is a different key, so an entry can never be stale; deleting
the cache only costs the time to draw again.

Where: ``$REFEREE_CACHE`` if set (``off`` or ``0`` turns the cache off), else
``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee`` (``%LOCALAPPDATA%\\referee\\cache`` on
Windows). Commands take ``--no-cache``. The cache holds at most ``$REFEREE_CACHE_MAX_MB``
megabytes (default 256); the least recently used entries go first (down to 90 % of it). The
whole folder is walked to enforce that only when a ledger beside it says the bound may be
exceeded (:meth:`Cache.settle`).

Trust: an entry is a small header (magic, its key, the SHA-256 and length of the payload)
and the payload bytes. It is used only when all of these match, so a truncated, corrupted
or renamed file is ignored and recomputed. Payloads are data a caller validates again (PNG
bytes; canonical JSON from which the module model is rebuilt field by field with its types),
never pickles, so a planted entry can never run code; at worst a well-formed one shows a
wrong picture, which is why a cache folder that another user owns or can write to is not
used at all (POSIX): only the user, who could change the program itself, can plant one.
Entries are written with :func:`referee.safeio.write_bytes_atomic` (temporary file, rename)
without fsync: a torn entry after a crash fails its check and is simply drawn again.

This module is stdlib only; what each picture depends on is said at the call sites
(:mod:`referee.render.artcache`, :mod:`referee.source.cached`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import json
import os
import stat
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Final

__all__ = [
    "DEFAULT_MAX_BYTES",
    "Cache",
    "CacheStats",
    "activated",
    "active",
    "cache_from_env",
    "canonical",
    "code_fingerprint",
    "default_location",
    "digest",
    "valid_png",
]

ENV_DIR: Final = "REFEREE_CACHE"
ENV_MAX_MB: Final = "REFEREE_CACHE_MAX_MB"
DEFAULT_MAX_BYTES: Final = 256 * 1024 * 1024
MAGIC: Final = b"referee-cache 1\n"
LAYOUT: Final = "v1"
"""Folder of this entry format; a new format gets a new folder, never a reinterpretation."""
MAX_ENTRY_BYTES: Final = 256 * 1024 * 1024
KINDS: Final = frozenset(
    {"png", "pdf", "module", "measure", "jinja", "raw", "viewer", "history", "proof"}
)
"""``raw``: uncompressed pixels (a board layer read back without decoding a PNG); ``viewer``:
the offline viewer's board and play aids as JSON (``viewer/page.py``); ``history``: each
side's dice-nonce commitments in a game's reports up to one report, under that report's
SHA-256 (``pbem/ledger.py``: a step reads them from the step before, not from every report);
``proof``: a step whose every file ``verify`` rendered again and found the same, under the
SHA-256 of everything that comparison depended on (``pbem/proofs.py``)."""
STALE_TEMP_SECONDS: Final = 3600
LEDGER_TOTAL: Final = f"{LAYOUT}.total"
"""Beside the entry folder: the bytes of its entries at the last walk, and when it was."""
LEDGER_ADDED: Final = f"{LAYOUT}.added"
"""Beside the entry folder, appended to: the bytes each command stored since the last walk."""
LEDGER_MAX_AGE: Final = 24 * 3600
"""A walk at least this often (seconds) whatever the ledger says: it clears a crash's
temporary files and corrects what concurrent walks can miscount (:meth:`Cache.settle`)."""
LEDGER_MAX_LINES: Final = 4096
"""A walk once this many commands stored since the last one: reading the ledger stays cheap."""
PRUNE_TO: Final = 0.9
"""A walk that finds the cache over its bound removes entries until it holds this share of
it: the commands after it store that much before the next walk, not one each."""
OFF_VALUES: Final = frozenset({"", "0", "off", "no", "false", "none"})
_PACKAGE = Path(__file__).resolve().parent


# ---- keys -------------------------------------------------------------------------------------


def canonical(value: object) -> object:
    """``value`` as plain JSON data with one spelling per value, for hashing.

    Dataclasses become ``[class name, [field values]]`` (a field named ``origin`` only says
    where a fact came from and is left out: moving a row must not change a picture's key);
    dicts become sorted ``[key, value]`` pairs (keys need not be strings); sets are sorted.
    Anything else raises ``TypeError``, so nothing of unknown meaning slips into a key."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is tuple or kind is list:
        return [canonical(v) for v in value]  # type: ignore[attr-defined]
    names = _field_names(kind)
    if names is not None:
        return [kind.__name__, [canonical(getattr(value, n)) for n in names]]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, enum.Enum):
        return ["enum", kind.__name__, canonical(value.value)]
    if isinstance(value, str):  # a str subclass: its text
        return str(value)
    if isinstance(value, int):  # an int subclass: its number
        return int(value)
    if isinstance(value, dict):
        if all(type(k) is str for k in value):  # the common case: sort by the keys alone
            return ["dict", [[k, canonical(value[k])] for k in sorted(value)]]
        pairs = [[canonical(k), canonical(v)] for k, v in value.items()]
        return ["dict", sorted(pairs, key=_sort_key)]
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, set | frozenset):
        if all(type(v) is str for v in value):
            return ["set", sorted(value)]
        return ["set", sorted((canonical(v) for v in value), key=_sort_key)]
    if isinstance(value, bytes):
        return ["bytes", hashlib.sha256(value).hexdigest()]
    if isinstance(value, PurePath):
        return ["path", value.as_posix()]
    raise TypeError(f"cannot put a {kind.__name__} into a cache key")


@lru_cache(maxsize=256)
def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass type that go into a key (``None``: not a dataclass); a
    ``derived`` field (a module's schema, attached from its ruleset) adds nothing."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(
        f.name
        for f in dataclasses.fields(kind)
        if f.name != "origin" and not f.metadata.get("derived")
    )


def _sort_key(item: object) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def digest(*parts: object) -> str:
    """SHA-256 (hex) of the canonical JSON of ``parts``."""
    text = json.dumps([canonical(p) for p in parts], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _pillow_version() -> str:
    """Pillow's version, read from its ``_version.py`` without importing Pillow (a warm
    build needs no Pillow at all)."""
    from importlib.util import find_spec

    spec = find_spec("PIL")
    if spec is None or not spec.submodule_search_locations:
        return "none"
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "_version.py"
        with contextlib.suppress(OSError):
            return hashlib.sha256(path.read_bytes()).hexdigest()
    return "unknown"


def _tree_files(root: Path, suffixes: tuple[str, ...] | None) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")):
                continue
            if suffixes is None or name.endswith(suffixes):
                yield Path(dirpath) / name


CODE_SUFFIXES = (".py", ".toml", ".csv", ".txt", ".json", ".j2")


@lru_cache(maxsize=4)
def code_fingerprint(scope: str = "all") -> str:
    """SHA-256 of what the program itself brings to a result: every file of this package
    (``scope="all"``: code, fonts, data) or only its Python code and templates
    (``scope="code"``, enough for loading a module source), the bundled templates, and the
    Python, Pillow and zlib versions and the platform. Computed once per process, both
    scopes in one reading of the files (a build asks for both)."""
    return _fingerprints()[scope] if scope in ("all", "code") else _fingerprint(scope)


@lru_cache(maxsize=1)
def _fingerprints() -> dict[str, str]:
    """``code_fingerprint("all")`` and ``("code")``: the same bytes fed to each as
    :func:`_fingerprint` feeds them, read once."""
    hashes = {"all": hashlib.sha256(), "code": hashlib.sha256()}
    for base, path in _program_files(None):
        data = path.read_bytes()
        head = f"{path.relative_to(base).as_posix()}\0{len(data)}\0".encode()
        for scope, h in hashes.items():
            if scope == "all" or path.name.endswith(CODE_SUFFIXES):
                h.update(head)
                h.update(data)
    for scope, h in hashes.items():
        h.update(_platform_line(scope))
    return {scope: h.hexdigest() for scope, h in hashes.items()}


def _fingerprint(scope: str) -> str:
    h = hashlib.sha256()
    for base, path in _program_files(None if scope == "all" else CODE_SUFFIXES):
        data = path.read_bytes()
        h.update(f"{path.relative_to(base).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    h.update(_platform_line(scope))
    return h.hexdigest()


def _program_files(suffixes: tuple[str, ...] | None) -> Iterator[tuple[Path, Path]]:
    from referee.resources import templates_dir

    for base in (_PACKAGE, templates_dir()):
        if base.is_dir():
            for path in _tree_files(base, suffixes):
                yield base, path


def _platform_line(scope: str) -> bytes:
    return "\0".join(
        [scope, sys.version, _machine(), sys.platform, zlib.ZLIB_RUNTIME_VERSION, _pillow_version()]
    ).encode()


def _machine() -> str:
    """``platform.machine()``: on POSIX the same ``uname`` field, without importing
    ``platform`` on every start-up."""
    if hasattr(os, "uname"):
        return os.uname().machine
    import platform

    return platform.machine()


def valid_png(data: bytes) -> bool:
    """A cached picture must at least be a whole PNG (its bytes were also checked against
    their SHA-256 when read)."""
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


# ---- the store -------------------------------------------------------------------------------


@dataclass(slots=True)
class CacheStats:
    """What one run asked of the cache: ``misses`` is how many results were computed."""

    hits: int = 0
    misses: int = 0
    refused: int = 0  # entries present but failing their checks (then recomputed)
    stored: int = 0
    missed: list[tuple[str, str]] = field(default_factory=list)  # (kind, key)
    stored_bytes: int = 0  # the entries' file sizes (for the ledger, :meth:`Cache.settle`)

    def misses_of(self, kind: str) -> int:
        return sum(1 for k, _ in self.missed if k == kind)

    def to_json(self) -> dict[str, int]:
        return {
            "hits": self.hits,
            "misses": self.misses,
            "refused": self.refused,
            "stored": self.stored,
        }


class Cache:
    """One cache folder (``root``), or a disabled cache (``root=None``) that stores nothing
    and misses every time, so callers need no second code path."""

    def __init__(self, root: Path | None, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self.stats = CacheStats()
        self._checked = False

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _folder(self) -> Path | None:
        """The entry folder, created private on first use; ``None`` (cache off) when it is
        not ours alone."""
        if self.root is None:
            return None
        if not self._checked:
            self._checked = True
            try:
                self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
                if not _safe_folder(self.root):
                    self.root = None
                    return None
            except OSError:
                self.root = None
                return None
        return self.root / LAYOUT

    def _path(self, kind: str, key: str) -> Path | None:
        if kind not in KINDS or len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
            raise ValueError(f"bad cache key {kind}/{key}")
        folder = self._folder()
        return None if folder is None else folder / kind / key[:2] / key

    def get(self, kind: str, key: str) -> bytes | None:
        """The payload stored under ``key``, or ``None`` (absent, unreadable or failing a
        check). Counts a hit or a miss."""
        path = self._path(kind, key)
        data = None if path is None else _read_entry(path, key)
        if data is None:
            if path is not None and path.exists():
                self.stats.refused += 1
            self.stats.misses += 1
            self.stats.missed.append((kind, key))
            return None
        self.stats.hits += 1
        with contextlib.suppress(OSError):
            os.utime(path)  # least recently used goes first when pruning
        return data

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Store ``data`` under ``key``; any failure (disk full, read-only) is ignored:
        the cache only ever saves time."""
        from referee.safeio import write_bytes_atomic

        path = self._path(kind, key)
        if path is None or len(data) > MAX_ENTRY_BYTES:
            return
        header = b"%s%s\n%s\n%d\n" % (
            MAGIC,
            key.encode(),
            hashlib.sha256(data).hexdigest().encode(),
            len(data),
        )
        with contextlib.suppress(OSError):
            write_bytes_atomic(path, header + data, durable=False)
            self.stats.stored += 1
            self.stats.stored_bytes += len(header) + len(data)

    def fetch(
        self, kind: str, key: str, make: Callable[[], bytes], valid: Callable[[bytes], bool]
    ) -> bytes:
        """The cached payload if present and ``valid``, else ``make()`` (stored)."""
        data = self.get(kind, key)
        if data is not None:
            if valid(data):
                return data
            self.stats.hits -= 1
            self.stats.misses += 1
            self.stats.refused += 1
        data = make()
        self.put(kind, key, data)
        return data

    def settle(self) -> int:
        """After a command that stored entries: keep the cache within ``max_bytes`` without
        listing it each time. The bytes this run stored are appended to a ledger beside the
        entry folder (:data:`LEDGER_ADDED`); only when the total of the last walk
        (:data:`LEDGER_TOTAL`) plus the ledger exceeds the bound, or either is missing or
        unreadable, or the walk is a day old, or the ledger long, is the folder walked
        (:meth:`prune`). Returns the bytes removed.

        The ledger never counts less than the folder holds (an entry stored again, or one
        another walk removed, is counted too often, which only walks sooner): each run
        appends after its entries are written, and a walk starts a new ledger before it
        lists the folder, so what another run appends meanwhile is either listed by the walk
        or counted in the new ledger. Two walks at once may miscount what was stored between
        them; the daily walk corrects it. A cache folder written by an older ``referee``,
        which walks after every command, is walked here when the ledger is missing."""
        folder = self._folder()
        if folder is None:
            return 0
        root = folder.parent
        with contextlib.suppress(OSError), open(root / LEDGER_ADDED, "a", encoding="ascii") as fh:
            fh.write(f"{self.stats.stored_bytes}\n")
        estimate = _ledger(root)
        if estimate is not None and estimate <= self.max_bytes:
            return 0
        return self.prune()

    def prune(self) -> int:
        """When the cache holds more than ``max_bytes``, remove least recently used entries
        until it holds at most :data:`PRUNE_TO` of it; returns the bytes removed. Also clears
        temporary files a crash left (an hour old). Walks the whole folder; records what it
        holds after for :meth:`settle`."""
        folder = self._folder()
        if folder is None or not folder.is_dir():
            return 0
        root = folder.parent
        closed = root / f"{LEDGER_ADDED}.{os.getpid()}"
        with contextlib.suppress(OSError):  # a new ledger for what others store meanwhile
            os.replace(root / LEDGER_ADDED, closed)
        removed = self._walk(folder)
        stale = time.time() - STALE_TEMP_SECONDS
        for old in root.glob(f"{LEDGER_ADDED}.*"):  # this walk's, or a crashed walk's
            with contextlib.suppress(OSError):
                if old == closed or old.stat().st_mtime < stale:
                    old.unlink()
        return removed

    def _walk(self, folder: Path) -> int:
        """:meth:`prune`'s walk: every entry listed, the least recently used removed while
        over the bound, the total left written to :data:`LEDGER_TOTAL`."""
        from referee.safeio import write_bytes_atomic

        started = time.time()
        entries: list[tuple[float, int, str]] = []
        total = 0
        stale = time.time() - STALE_TEMP_SECONDS
        for name, path, st in _files(str(folder)):
            if name.startswith("."):  # a temporary file: another run's, or a crash's
                if st.st_mtime < stale:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
                continue
            entries.append((st.st_mtime, st.st_size, path))
            total += st.st_size
        removed = 0
        if total > self.max_bytes:
            keep = int(self.max_bytes * PRUNE_TO)
            for _mtime, size, path in sorted(entries):
                if total - removed <= keep:
                    break
                with contextlib.suppress(OSError):
                    os.unlink(path)
                    removed += size
        with contextlib.suppress(OSError):
            text = f"{total - removed} {started:.0f}\n".encode("ascii")
            write_bytes_atomic(folder.parent / LEDGER_TOTAL, text, durable=False)
        return removed


def _ledger(root: Path) -> int | None:
    """The bytes the cache may hold by its ledger (:meth:`Cache.settle`): the last walk's
    total plus what was stored since; ``None`` when a walk is due (a file missing or not
    as written, the walk a day old, the ledger long)."""
    try:
        total_text = (root / LEDGER_TOTAL).read_text("ascii").split()
        added = (root / LEDGER_ADDED).read_text("ascii").split()
    except (OSError, UnicodeDecodeError):
        return None
    if len(total_text) != 2 or not all(w.isdigit() for w in (*total_text, *added)):
        return None
    if time.time() - int(total_text[1]) > LEDGER_MAX_AGE or len(added) > LEDGER_MAX_LINES:
        return None
    return int(total_text[0]) + sum(int(w) for w in added)


def _files(top: str) -> list[tuple[str, str, os.stat_result]]:
    """Every regular file under ``top`` (name, path, ``lstat``), folders that cannot be read
    left out. :meth:`Cache.prune` lists every entry (some thousands) when the ledger says
    the bound may be exceeded, so this walks with ``os.scandir`` and plain strings: no
    ``Path`` object, no second ``stat``, per entry."""
    out: list[tuple[str, str, os.stat_result]] = []
    folders = [top]
    while folders:
        try:
            with os.scandir(folders.pop()) as it:
                for e in it:
                    with contextlib.suppress(OSError):
                        if e.is_dir(follow_symlinks=False):
                            folders.append(e.path)
                        elif e.is_file(follow_symlinks=False):
                            out.append((e.name, e.path, e.stat(follow_symlinks=False)))
        except OSError:
            continue
    return out


def _safe_folder(path: Path) -> bool:
    """Ours alone: owned by this user and writable by no one else (POSIX); always on
    Windows, where the user's profile folder is private already."""
    if os.name != "posix":
        return True
    try:
        st = path.stat()
    except OSError:
        return False
    return st.st_uid == os.getuid() and not (st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _read_entry(path: Path, key: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            blob = fh.read(MAX_ENTRY_BYTES + 512)
    except OSError:
        return None
    if not blob.startswith(MAGIC):
        return None
    lines = blob[len(MAGIC) :].split(b"\n", 3)
    if len(lines) != 4:
        return None
    got_key, got_sha, got_len, payload = lines
    if got_key != key.encode() or not got_len.isdigit() or int(got_len) != len(payload):
        return None
    if hashlib.sha256(payload).hexdigest().encode() != got_sha:
        return None
    return payload


# ---- where, and the one cache of this process ----------------------------------------------


def default_location() -> Path | None:
    """``$REFEREE_CACHE``, else the platform's user cache folder; ``None`` when turned off."""
    env = os.environ.get(ENV_DIR)
    if env is not None:
        return None if env.strip().lower() in OFF_VALUES else Path(env)
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "referee" / "cache"
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "referee"
    return Path.home() / ".cache" / "referee"


def cache_from_env(*, enabled: bool = True) -> Cache:
    """The cache the environment names (see the module docstring); disabled with
    ``enabled=False`` (``--no-cache``)."""
    root = default_location() if enabled else None
    limit = DEFAULT_MAX_BYTES
    with contextlib.suppress(ValueError):
        limit = max(0, int(float(os.environ.get(ENV_MAX_MB, "")) * 1024 * 1024))
    return Cache(root, max_bytes=limit)


_ACTIVE: Cache = Cache(None)


def active() -> Cache:
    """The cache of this run: disabled unless a command turned one on with
    :func:`activated` (library callers and tests never touch the user's cache folder)."""
    return _ACTIVE


@contextlib.contextmanager
def activated(cache: Cache) -> Iterator[Cache]:
    """Make ``cache`` the one :func:`active` returns while the block runs; keep it within its
    bound after anything was stored (:meth:`Cache.settle`)."""
    global _ACTIVE
    previous, _ACTIVE = _ACTIVE, cache
    try:
        yield cache
    finally:
        _ACTIVE = previous
        if cache.stats.stored:
            with contextlib.suppress(OSError):
                cache.settle()
