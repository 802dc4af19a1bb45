"""Running the real-VASSAL checker from a test: where it is, how a missing prerequisite is
reported (skipped, or a failure under ``CI=true`` when the checker is there), and its
``PIECE`` lines read back. Shared by the tests that load our modules and saves in VASSAL."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.vassal.vassal_jvm import ROOT, VCHECK, vcheck

__all__ = ["ROOT", "VCHECK", "pieces", "run_vcheck", "unavailable", "vcheck"]


def unavailable(reason: str) -> None:
    """Skip with the reason, except under ``CI=true``, where the check must run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"under CI=true the real-VASSAL check must run, but {reason}")
    pytest.skip(reason)


def run_vcheck(vmod: Path, saves: list[str], listing: Path) -> tuple[int, str, str]:
    """``vcheck VMOD SAVES...`` with its full output in ``listing``: (exit code, stderr,
    output). Skips (see :func:`unavailable`) when the checker or Java/Xvfb is missing. Runs in
    the test process's batch JVM (:mod:`tests.vassal.vassal_jvm`)."""
    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK}); it lives in ../shared")
    proc = vcheck([vmod, *saves], listing)
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
