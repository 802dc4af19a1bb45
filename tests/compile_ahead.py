"""Compile the package and the tests once, in pytest-xdist's controller, before it starts
its workers (``tests/conftest.py``, ``pytest_sessionstart``).

Each worker imports every test module to collect the tests. With no bytecode on disk yet (a
fresh clone: ``make test`` writes bytecode, ``PYTHONDONTWRITEBYTECODE`` cleared) every worker
rewrote the asserts of all 350 test modules and compiled them and the package itself, the
workers side by side, so each paid it: about 12 s of CPU a worker against 2.5 s with the
bytecode there (docs/performance.md, "The test suite"). Here the controller writes the same
files once, where each worker would have: the ordinary bytecode of the package and of the
tests' helper modules (:mod:`compileall`), and for each test module pytest's own rewritten
one, made by pytest's rewriting with this session's configuration, under pytest's file
name. A file whose bytecode is already up to date is left alone, so a warm run pays only
the checks.

pytest keeps its rewriting to itself (``_pytest.assertion.rewrite``): if its names are not
there (another pytest), nothing is written and each worker compiles for itself as before. A
file written here is one pytest itself checks before use (its header carries the source's
hash: a stale or foreign one is rewritten afresh), so this can cost time, never correctness.
"""

from __future__ import annotations

import compileall
import fnmatch
import importlib.util
import marshal
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def compile_ahead(config: pytest.Config) -> int:
    """Write the bytecode the workers would; the number of test modules rewritten here."""
    if sys.dont_write_bytecode:  # nothing is kept on disk: each process compiles anyway
        return 0
    compileall.compile_dir(ROOT / "referee", quiet=1)
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, get_cache_dir
    except ImportError:
        return 0
    patterns = [*config.getini("python_files"), "conftest.py"]
    done = 0
    for fn in sorted((ROOT / "tests").rglob("*.py")):
        if not any(fnmatch.fnmatch(fn.name, p) for p in patterns):
            compileall.compile_file(fn, quiet=1)  # a helper module: imported like the package
            continue
        pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
        source_hash = importlib.util.source_hash(fn.read_bytes())
        if _header(pyc) == _expected(source_hash):
            continue
        try:
            source_hash, co = _rewrite_test(fn, config)
        except (SyntaxError, ValueError):  # the worker that imports it reports it
            continue
        _write(pyc, _expected(source_hash) + marshal.dumps(co))
        done += 1
    return done


def _expected(source_hash: bytes) -> bytes:
    """The 16-byte header pytest writes and checks: magic number, the checked-hash flags
    (PEP 552), the source's hash."""
    return importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + source_hash[:8]


def _header(pyc: Path) -> bytes:
    try:
        with pyc.open("rb") as f:
            return f.read(16)
    except OSError:
        return b""


def _write(pyc: Path, data: bytes) -> None:
    """Atomically, as pytest does (a worker may read it the moment it appears)."""
    try:
        pyc.parent.mkdir(exist_ok=True)
        tmp = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        tmp.write_bytes(data)
        tmp.replace(pyc)
    except OSError:  # a read-only tree: the workers compile for themselves
        pass
