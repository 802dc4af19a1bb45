"""Crash safety of a game with a referee-only part: referee-only turn folders without a
published turn are removed, and the next adjudication completes ``secret/state.json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee.pbem.archive import Archive
from referee.pbem.transaction import recover
from tests.pbem import toy_solitaire, toys_common
from tests.pbem.cliflow import Table


def test_crash_between_the_two_folders_is_recovered(tmp_path: Path) -> None:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_solitaire.ID), ("NATO",))
    t.new()
    before = (t.game / "secret/state.json").read_bytes()
    orders = tmp_path / "o.txt"
    orders.write_text("move US-DD-1 0304\n")
    assert t_sign(t, orders) == 0
    # die after the referee-only folder and the published files are written, before rename
    env = {"REFEREE_CRASH_AT": "turn-files-written", "PYTHONPATH": str(Path.cwd())}
    code = _run(t, orders, env)
    assert code == 137
    assert (t.game / "secret/turns/001-NATO-move").is_dir()
    assert not (t.game / "turns/001-NATO-move").exists()
    assert (t.game / "secret/state.json").read_bytes() == before
    done = recover(Archive(t.game), True)
    assert any("secret/turns/001-NATO-move" in d for d in done)
    assert not (t.game / "secret/turns/001-NATO-move").exists()
    # die after the rename, before secret/state.json: the next run completes it
    code = _run(t, orders, {**env, "REFEREE_CRASH_AT": "turn-renamed"})
    assert code == 137
    assert (t.game / "secret/state.json").read_bytes() == before
    assert _run(t, orders, {"PYTHONPATH": str(Path.cwd())}) == 0
    kept = t.game / "secret/turns/001-NATO-move/state.json"
    assert (t.game / "secret/state.json").read_bytes() == kept.read_bytes()
    code, out = t.verify()
    assert code == 0, out
    assert json.loads((t.game / "turns/001-NATO-move/report.json").read_text())["sequence"] == 1


def t_sign(t: Table, orders: Path) -> int:
    from tests.pbem.cliflow import cli

    return cli("sign", orders, "--key", t.key("nato"), "--game-dir", t.game)[0]


def _run(t: Table, orders: Path, env: dict[str, str]) -> int:
    code = "from tests.pbem import toy_solitaire\nfrom referee.cli import main\nmain()\n"
    args = [
        "adjudicate",
        str(t.game),
        str(orders),
        "--key",
        str(t.key("referee")),
        "--module",
        str(t.module),
        "--referee-dir",
        str(t.root / "referee-secret"),
    ]
    import os

    r = subprocess.run(
        [sys.executable, "-c", code, *args], env={**os.environ, **env}, capture_output=True
    )
    return r.returncode
