"""Running the real-VASSAL checker from a test: where it is, how a missing prerequisite is
reported (skipped, or a failure under ``CI=true`` when the checker is there), and its
``PIECE`` lines read back. Shared by the tests that load our modules and saves in VASSAL.

Test files that check saves of the same unchanged bundled module share one run of it
(:func:`checks`, :func:`checked`), as the player harness's requests do (``vplay_run``)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import bundled_vmod, once_per_session
from tests.vassal.requests import Requests
from tests.vassal.vassal_jvm import ROOT, VCHECK, vcheck

__all__ = [
    "ROOT", "VCHECK", "checked", "checks", "pieces", "problems_by_load", "run_vcheck",
    "unavailable", "vcheck",
]  # fmt: skip


def unavailable(reason: str) -> None:
    """Skip with the reason, except under ``CI=true``, where the check must run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"under CI=true the real-VASSAL check must run, but {reason}")
    pytest.skip(reason)


def run_vcheck(vmod: Path, saves: list[str], listing: Path, args: str = "") -> tuple[int, str, str]:
    """``vcheck VMOD SAVES...`` (with vcheck's options ``args``) with its full output in
    ``listing``: (exit code, stderr, output). Skips (see :func:`unavailable`) when the checker
    or Java/Xvfb is missing. Runs in the test process's batch JVM
    (:mod:`tests.vassal.vassal_jvm`)."""
    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK}); it lives in ../shared")
    proc = vcheck([vmod, *saves], listing, args=args)
    if proc.returncode == 2 and "missing" in proc.stderr:
        unavailable("vcheck's prerequisites are missing: " + proc.stderr.strip())
    text = listing.read_text(encoding="utf-8") if listing.is_file() else ""
    return proc.returncode, proc.stderr, text


def pieces(out: str) -> dict[str, dict[str, tuple[str, str]]]:
    """``PIECE`` lines of vcheck's output by load source, then unit id: (map, location)."""
    by_source: dict[str, dict[str, tuple[str, str]]] = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "LOAD":
            by_source.setdefault(f[1], {})
        if f[0] != "PIECE":
            continue
        source, map_name, location, props = f[1], f[2], f[5], f[-1]
        unit = dict(p.split("=", 1) for p in props.split(";") if "=" in p).get("UnitId")
        if unit:
            by_source.setdefault(source, {})[unit] = (map_name, location)
    return by_source


def problems_by_load(out: str) -> list[str]:
    """Each ``PROBLEM`` line of a run's output, named by the load it is of: the set-up, save
    or log its text names (the checker reads a save's metadata before its ``LOAD`` line),
    else the last ``LOAD`` before it, or "the module" before any."""
    rows = [line.split("\t") for line in out.splitlines()]
    sources = [f[1] for f in rows if f[0] == "LOAD" and len(f) > 1]
    where, found = "the module", []
    for f in rows:
        if f[0] == "LOAD":
            where = f[1]
        elif f[0] == "PROBLEM":
            text = " ".join(f[1:])
            named = [s for s in sources if s in text]
            found.append(f"in {named[0] if named else where}: {text}")
    return found


# ---- one vcheck run of a bundled module for the test files that check it -------------------
#
# A test file that loads saves into an unchanged bundled module declares them
# (``@checks(NAME, request=...)``: a function that writes its saves into the shared run's
# folder and gives them, with any option of vcheck's, e.g. ``--hex``); the first test that
# reads a request (:func:`checked`) checks every request declared for that module in one
# vcheck run (the module's set-ups loaded once, then each save: a ``LOAD`` block each), once
# for the session and both workers. A test reads its own saves' blocks; a problem anywhere in
# the run fails every test reading it, the message naming the load it came in.

Check = Callable[[Path], tuple[list[Path], list[str]]]
# module name -> (request's name, its builder), in the order the test files declared them
_CHECKS: Requests[Check] = Requests("vcheck")


def checks(*names: str, request: str) -> Callable[[Check], Check]:
    """Declare a test file's saves and options (a decorator on the function that writes them
    into a folder and returns ``(saves, options)``) for the shared vcheck run of each bundled
    module ``names``; ``request`` names it for :func:`checked`."""
    return _CHECKS.declare(*names, request=request)


def checked(name: str, request: str) -> tuple[Path, str]:
    """(the shared run's folder, its whole output): the session's one vcheck run of the
    bundled module ``name`` with the saves and options of every request declared for it
    (:func:`checks`). The run must be clean: a problem fails every test reading it, named by
    the set-up or save it came in. Skips as :func:`run_vcheck` does."""
    wanted = _CHECKS.of(name, request)
    key = hashlib.sha256("\0".join(sorted(wanted)).encode()).hexdigest()[:12]

    def check(folder: Path) -> str:
        saves: list[Path] = []
        options: list[str] = []
        for build in wanted.values():
            more, opts = build(folder)
            saves += more
            options += opts
        vmod, listing = bundled_vmod(name), folder / "vcheck.txt"
        code, err, out = run_vcheck(vmod, [str(s) for s in saves], listing, " ".join(options))
        if code != 0:
            raise AssertionError(f"vcheck {name} exit {code}: {problems_by_load(out) or err}")
        return out

    return once_per_session(f"vcheck-{name}-{key}", check)
