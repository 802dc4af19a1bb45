"""Kill the adjudication at each named point: the archive stays verifiable, a re-run finishes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.pbem.transaction import CRASH_POINTS
from referee.pbem.verify import verify_archive
from tests.pbem.conftest import TOY_DIR

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("REFEREE_CRASH_AT", None)
    if crash:
        env["REFEREE_CRASH_AT"] = crash
    return subprocess.run(
        [sys.executable, "-m", "tests.pbem.run_cli", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_killed_adjudication_leaves_a_consistent_archive(make_game, tmp_path, point):
    g = make_game()
    orders = g.signed("NATO", ["place US-DD-1 0202"])
    key = tmp_path / "keys" / "ref.key"
    key.parent.mkdir()
    key.write_bytes(g.keys["ref"].openssh())
    args = ["adjudicate", str(g.dir), str(orders), "--key", str(key)]
    args += ["--module", str(TOY_DIR), "--referee-dir", str(g.referee_dir)]
    died = cli(*args, crash=point)
    assert died.returncode == 137, died.stderr
    v = verify_archive(g.dir, g.module)  # old or new state: both are consistent
    assert v.reports in (1, 2)
    if point == "turn-renamed":
        assert any("interrupted" in n for n in v.notes)
    again = cli(*args)
    assert again.returncode == 0, again.stderr
    v = verify_archive(g.dir, g.module)
    assert v.reports == 2 and not v.notes
    state = json.loads((g.dir / "state.json").read_text())
    assert state["active_side"] == "Soviet"
    assert not list((g.dir / "turns").glob(".tmp-*"))


def test_cli_refusals_exit_1_with_a_reason(make_game, tmp_path):
    g = make_game()
    plain = tmp_path / "plain.txt"
    plain.write_text("game: g1\nturn: 1\nside: NATO\nplace US-DD-1 0202\n")
    key = tmp_path / "ref.key"
    key.write_bytes(g.keys["ref"].openssh())
    args = ["adjudicate", str(g.dir), str(plain), "--key", str(key), "--module", str(TOY_DIR)]
    r = cli(*args, "--referee-dir", str(g.referee_dir), "--json")
    assert r.returncode == 1
    assert json.loads(r.stdout)["reason"] == "unsigned"
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"game: g1\n\x00\x01\x02")
    r = cli("adjudicate", str(g.dir), str(binary), "--key", str(key), "--module", str(TOY_DIR))
    assert r.returncode == 1 and "NUL" in r.stderr and "Traceback" not in r.stderr
    big = tmp_path / "big.txt"
    big.write_bytes(b"# x\n" * 300_000)
    r = cli("adjudicate", str(g.dir), str(big), "--key", str(key), "--module", str(TOY_DIR))
    assert r.returncode == 1 and "limit" not in r.stdout and "1,000,000" in r.stderr
    r = cli("verify", str(g.dir), "--module", str(TOY_DIR))
    assert r.returncode == 0, r.stderr
    (g.dir / "state.json").write_text("{}")
    r = cli("verify", str(g.dir), "--module", str(TOY_DIR))
    assert r.returncode == 1 and "state.json" in r.stderr
