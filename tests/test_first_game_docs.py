"""The solitaire walkthrough (docs/first-game/carrier_battlegroup.md) runs as written: its
shell blocks for keys, the new game and the set-up, in a fresh folder, each line exit 0
(issue 31). The outfitting block depends on the escort classes the dice give, so it is
validated, not required to pass.

The pages of the games by email (2019, the naval module, DTP's Denmark Strait and Westpac)
each say what the awaited player points at in the viewer each turn (issue 28 §4): their
blocks of keys and `referee new` make the game, and their "each turn" block runs as written
on the first file due, the viewer's envelope headers above the scripted player's lines; the
page's `ssh-keygen -Y sign -n referee-orders-v1` line signs the same file, and the referee
adjudicates it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.commands.pbem import ROLLS_SHOWN

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
            if line.startswith("referee adjudicate"):
                # the set-up's rolls depend on the dice (the keys are new each run): more than
                # ROLLS_SHOWN give one summary line, fewer a line each
                report = tmp_path / "cbg-game" / "turns" / "001-USN-setup" / "report.json"
                rolls = json.loads(report.read_text("utf-8"))["rolls"]
                if len(rolls) > ROLLS_SHOWN:
                    assert "die rolls: each with its purpose and rule in" in done.stdout
                    assert "  roll " not in done.stdout and len(done.stdout.splitlines()) <= 5
                else:
                    assert done.stdout.count("  roll ") == len(rolls), done.stdout
                    assert "die rolls: each with" not in done.stdout
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


# The pages of the games played by email: (page, game folder, the side whose file comes
# first, its key). Each page's blocks of keys and `referee new` make the game; its "each
# turn" block (the side's viewer, validate, sign) then runs as written on the first file due,
# and its `ssh-keygen -Y sign` line signs the same file, which the referee accepts.
BY_EMAIL = [
    ("sixth_fleet_2019.md", "2019-game", "Soviet", "soviet.key"),
    ("naval_module.md", "naval-game", "Axis", "axis.key"),
    ("sixth_fleet_dtp.md", "dtp-game", "NATO", "nato.key"),
    ("sixth_fleet_dtp.md", "westpac-game", "EastBlock", "eastblock.key"),
]
SSH_SIGN = re.compile(r"`(ssh-keygen -Y sign [^`]*)`")


def _run(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(line, shell=True, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, (line, done.stdout, done.stderr)
    return done


def _first_file(game: Path, example: str) -> str:
    """The file the game awaits first: the ruleset's scripted player's (what the demos play)
    on the referee's position; its lines are what the player points at in the viewer."""
    from referee.engine.ruleset import get_ruleset
    from referee.resources import example_path
    from referee.source.loader import load_module
    from tests.viewer.drafting import newest_state

    module, _ = load_module(example_path(example))
    assert module is not None
    text = get_ruleset(module.ruleset).scripted_orders(module, newest_state(game))
    assert text
    return str(text)


@pytest.mark.parametrize(("page", "folder", "side", "key"), BY_EMAIL)
def test_each_turn_s_steps_run_as_written(
    tmp_path: Path, page: str, folder: str, side: str, key: str
) -> None:
    text = (PAGE.parent / page).read_text("utf-8")
    blocks = BLOCK.findall(text)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "REFEREE_HOME": str(tmp_path / "home"),
    }
    making = [b for b in blocks if "referee keygen" in b or f"referee new {folder} " in b]
    turn = [b for b in blocks if f"referee viewer {folder} " in b]
    assert making and len(turn) == 1, (page, folder)
    example = ""
    for block in making:
        for line in block.strip().splitlines():
            if line.startswith("referee new") and f"referee new {folder} " not in line:
                continue  # the page's other game
            if line.startswith("referee new"):
                example = line.split("--example ")[1].split()[0]
            if (
                line.startswith("referee keygen")
                and (tmp_path / f"{line.split()[-1]}.key").is_file()
            ):
                continue
            _run(line, tmp_path, env)
    lines = turn[0].strip().splitlines()
    assert [ln.split()[1] for ln in lines] == ["viewer", "validate", "sign"], lines
    assert all(f"--side {side} " in ln for ln in lines[:2]) and f"--key {key}" in lines[2]
    _run(lines[0], tmp_path, env)
    page_html = (tmp_path / lines[0].split("-o ")[1]).read_text("utf-8")
    assert 'id="orders"' in page_html and "Download orders.txt" in page_html  # it drafts
    # the downloaded draft: the page's envelope headers, then the lines pointed at
    header = json.loads(re.search(r'"header":(\[[^\]]*\])', page_html).group(1))
    assert any(h.startswith("previous-report: ") for h in header), header
    body = _first_file(tmp_path / folder, example)
    draft = "\n".join(header) + "\n\n" + body[body.index("\n[") + 1 :]
    (tmp_path / "orders.txt").write_text(draft, "utf-8")
    for line in lines[1:]:
        _run(line, tmp_path, env)
    signed = (tmp_path / "orders.txt").read_text("utf-8")
    assert f"side: {side}\n" in signed and "-----BEGIN SSH SIGNATURE-----" in signed

    # OpenSSH instead: the same headers, the page's ssh-keygen line, the referee accepts it
    ssh = [m for m in SSH_SIGN.findall(" ".join(text.split())) if f"-f {key} " in m]
    assert len(ssh) == 1 and "-n referee-orders-v1 " in ssh[0], ssh
    (tmp_path / "orders.txt").write_text(signed.split("-----BEGIN SSH SIGNATURE-----")[0], "utf-8")
    _run(ssh[0], tmp_path, env)
    assert (tmp_path / "orders.txt.sig").is_file()
    done = _run(f"referee adjudicate {folder} orders.txt --key referee.key", tmp_path, env)
    assert "report SHA-256" in done.stdout, done.stdout
