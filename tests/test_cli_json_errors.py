"""With ``--json``/``--format json`` every failure is also JSON on standard output
(``{"ok": false, "error": {...}}``), usage errors included, so a script that asked for JSON
never has to parse an English line (docs/ci.md, "Exit codes"). Run through the real entry
point (:func:`referee.cli.main`), because that is where the errors are caught."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import _asks_json


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "kind", "needle"),
    [
        (["validate", "--json", "x.txt"], "usage", "Missing option '--state'"),
        (["check", "--format", "json", "--bogus"], "usage", "No such option: --bogus"),
        (["check", "--format=json", "/nonexistent/src"], "error", "/nonexistent/src"),
        (
            [
                "validate",
                "--json",
                "/nonexistent/o.txt",
                "--state",
                "s.json",
                "--example",
                "sixth_fleet",
            ],
            "error",
            "/nonexistent/o.txt: file not found",
        ),
    ],
)
def test_json_error_on_stdout(args: list[str], kind: str, needle: str, tmp_path: Path) -> None:
    r = _run(*args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    doc = json.loads(r.stdout)
    assert doc["ok"] is False
    assert doc["error"]["exit_code"] == 2
    assert doc["error"]["kind"] == kind
    assert needle in doc["error"]["message"]
    # the person at the terminal still gets one line on standard error, no traceback
    assert r.stderr.startswith("referee: error: ")
    assert "Traceback" not in r.stderr


def test_text_mode_keeps_stdout_empty(tmp_path: Path) -> None:
    r = _run("check", "/nonexistent/src", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith("referee: error: /nonexistent/src")


def test_json_help_still_helps() -> None:
    r = _run("check", "--json", "--help")
    assert r.returncode == 0
    assert r.stdout.startswith("Usage: ") and " check [OPTIONS]" in r.stdout


def test_asks_json() -> None:
    assert _asks_json(["check", "--json"])
    assert _asks_json(["validate", "--format", "json", "o.txt"])
    assert _asks_json(["validate", "--format=json"])
    assert not _asks_json(["validate", "--format", "github"])
    assert not _asks_json(["validate", "--", "--json"])  # after --: a file named --json
    assert not _asks_json(["check", "--format"])
