"""The solitaire walkthrough (docs/first-game/carrier_battlegroup.md) runs as written: its
shell blocks for keys, the new game and the set-up, in a fresh folder, each line exit 0
(issue 31). The outfitting block depends on the escort classes the dice give, so it is
validated, not required to pass."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "first-game" / "carrier_battlegroup.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)

pytestmark = pytest.mark.slow


def test_the_solitaire_walkthrough_runs_as_written(tmp_path: Path) -> None:
    blocks = BLOCK.findall(PAGE.read_text("utf-8"))
    assert len(blocks) >= 5
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "REFEREE_HOME": str(tmp_path / "home"),
    }
    for block in blocks[:4]:  # keys and new game; state show; the set-up; options
        for line in block.strip().splitlines():
            done = subprocess.run(
                line, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, (line, done.stdout, done.stderr)
            if line.startswith("referee adjudicate"):  # 15 set-up rolls: one summary line
                assert "die rolls: each with its purpose and rule in" in done.stdout
                assert "  roll " not in done.stdout and len(done.stdout.splitlines()) <= 5
    assert (tmp_path / "cbg-game" / "turns" / "001-USN-setup" / "report.md").is_file()
    outfit = blocks[4].strip().splitlines()
    subprocess.run(outfit[0], shell=True, cwd=tmp_path, env=env, check=True)
    done = subprocess.run(
        outfit[1], shell=True, cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode in (0, 1) and "internal error" not in done.stderr, done.stderr
    ok = subprocess.run(
        "referee verify cbg-game",
        shell=True,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "cbg-game: ok" in ok.stdout, ok.stderr
