"""The solitaire walkthrough (docs/first-game/carrier_battlegroup.md) runs as written: its
shell blocks for keys, the new game and the set-up, in a fresh folder, each line exit 0
(issue 31). The outfitting block depends on the escort classes the dice give, so it is
validated, not required to pass.

The pages of the games by email (2019, the naval module, DTP's Denmark Strait and Westpac)
each say what the awaited player points at in the viewer each turn (issue 28 §4): their
blocks of keys and `referee new` make the game, and their "each turn" block runs as written
on the first file due, the viewer's envelope headers above the scripted player's lines; the
page's `ssh-keygen -Y sign -n referee-orders-v1` line signs the same file, and the referee
adjudicates it.

Each test's first `referee` line runs through the shell as typed, the console script on the
PATH; its later `referee` lines run in the test process through the same `main`
(:func:`tests.clirun.run_main`: the same exit codes and output, in the page's folder, with
its `REFEREE_HOME`), which spares an interpreter's start and imports a line (40 of the
45 lines). Lines for other programs (`printf`, `ssh-keygen`) run through the shell."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.commands.pbem import ROLLS_SHOWN
from tests.clirun import Ran, run_main

PAGE = Path(__file__).resolve().parents[1] / "docs" / "first-game" / "carrier_battlegroup.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)

pytestmark = pytest.mark.slow


class Shell:
    """A reader's shell in a fresh folder: the console script on the PATH, the page's
    ``REFEREE_HOME``. Its first ``referee`` line runs as typed, through the shell; later
    ones in this process through ``main`` (the folder and ``REFEREE_HOME`` the same)."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        self.env = {
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "REFEREE_HOME": str(folder / "home"),
        }
        monkeypatch.chdir(folder)
        monkeypatch.setenv("REFEREE_HOME", self.env["REFEREE_HOME"])
        self.typed = 0  # `referee` lines run through the shell

    def run(self, line: str) -> Ran:
        """One line of the page: its exit code and output."""
        ours = line.startswith("referee ") and not set(line) & set("|&;<>$`\\")
        if ours and self.typed:
            return run_main(shlex.split(line)[1:])
        self.typed += ours
        done = subprocess.run(
            line, shell=True, cwd=self.folder, env=self.env, capture_output=True, text=True
        )
        return Ran(done.returncode, done.stdout, done.stderr)

    def ok(self, line: str) -> Ran:
        done = self.run(line)
        assert done.code == 0, (line, done.out, done.err)
        return done


def test_the_solitaire_walkthrough_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = BLOCK.findall(PAGE.read_text("utf-8"))
    assert len(blocks) >= 5
    shell = Shell(tmp_path, monkeypatch)
    for block in blocks[:4]:  # keys and new game; state show; the set-up; options
        for line in block.strip().splitlines():
            done = shell.ok(line)
            if line.startswith("referee adjudicate"):
                # the set-up's rolls depend on the dice (the keys are new each run): more than
                # ROLLS_SHOWN give one summary line, fewer a line each
                report = tmp_path / "cbg-game" / "turns" / "001-USN-setup" / "report.json"
                rolls = json.loads(report.read_text("utf-8"))["rolls"]
                if len(rolls) > ROLLS_SHOWN:
                    assert "die rolls: each with its purpose and rule in" in done.out
                    assert "  roll " not in done.out and len(done.out.splitlines()) <= 5
                else:
                    assert done.out.count("  roll ") == len(rolls), done.out
                    assert "die rolls: each with" not in done.out
    assert shell.typed == 1  # the page's first line ran as typed
    assert (tmp_path / "cbg-game" / "turns" / "001-USN-setup" / "report.md").is_file()
    outfit = blocks[4].strip().splitlines()
    shell.ok(outfit[0])
    done = shell.run(outfit[1])
    assert done.code in (0, 1) and "internal error" not in done.err, done.err
    ok = shell.run("referee verify cbg-game")
    assert ok.code == 0 and "cbg-game: ok" in ok.out, ok.err


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
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str, folder: str, side: str, key: str
) -> None:
    text = (PAGE.parent / page).read_text("utf-8")
    blocks = BLOCK.findall(text)
    shell = Shell(tmp_path, monkeypatch)
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
            shell.ok(line)
    lines = turn[0].strip().splitlines()
    assert [ln.split()[1] for ln in lines] == ["viewer", "validate", "sign"], lines
    assert all(f"--side {side} " in ln for ln in lines[:2]) and f"--key {key}" in lines[2]
    shell.ok(lines[0])
    page_html = (tmp_path / lines[0].split("-o ")[1]).read_text("utf-8")
    assert 'id="orders"' in page_html and "Download orders.txt" in page_html  # it drafts
    # the downloaded draft: the page's envelope headers, then the lines pointed at
    header = json.loads(re.search(r'"header":(\[[^\]]*\])', page_html).group(1))
    assert any(h.startswith("previous-report: ") for h in header), header
    body = _first_file(tmp_path / folder, example)
    draft = "\n".join(header) + "\n\n" + body[body.index("\n[") + 1 :]
    (tmp_path / "orders.txt").write_text(draft, "utf-8")
    for line in lines[1:]:
        shell.ok(line)
    signed = (tmp_path / "orders.txt").read_text("utf-8")
    assert f"side: {side}\n" in signed and "-----BEGIN SSH SIGNATURE-----" in signed

    # OpenSSH instead: the same headers, the page's ssh-keygen line, the referee accepts it
    ssh = [m for m in SSH_SIGN.findall(" ".join(text.split())) if f"-f {key} " in m]
    assert len(ssh) == 1 and "-n referee-orders-v1 " in ssh[0], ssh
    (tmp_path / "orders.txt").write_text(signed.split("-----BEGIN SSH SIGNATURE-----")[0], "utf-8")
    shell.ok(ssh[0])
    assert (tmp_path / "orders.txt.sig").is_file()
    done = shell.ok(f"referee adjudicate {folder} orders.txt --key referee.key")
    assert "report SHA-256" in done.out, done.out
    assert shell.typed == 1  # the page's first line ran as typed
