"""The command line as one tool (issue 12 §7): the same options, help, exit codes, standard
input and output, and GitHub annotations on every command."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from typer.main import get_command

from referee.cli import app
from referee.commands.common import github_annotation, github_escape_property
from tests.clirun import Ran, Runner, run_main
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES

MINI = str(FIXTURES / "mini")
RUN = Runner()
PY_TYPE = re.compile(r"<(list\[[^\]]*\]|int range|float range|str|path|int|float|text|file)>")


def _commands() -> Iterator[tuple[list[str], object]]:
    def walk(cmd, path):  # click Group or Command
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                yield from walk(sub, [*path, name])
        else:
            yield path, cmd

    yield from walk(get_command(app), [])


COMMANDS = [p for p, _ in _commands()]


@cache
def _command_at() -> dict[tuple[str, ...], object]:
    """Each command by its path, from one build of the command line (Typer builds all of it
    afresh on each ``get_command``, about 23 ms)."""
    return {tuple(p): c for p, c in _commands()}


def _code(r) -> int:
    """The exit code ``referee`` (its ``main``) gives: a UserError's code, else Click's."""
    exc = r.exception
    if exc is not None and hasattr(exc, "exit_code") and not isinstance(exc, SystemExit):
        return int(exc.exit_code)
    return r.exit_code


def test_every_command_is_walked() -> None:
    names = {" ".join(p) for p in COMMANDS}
    assert {"check", "build", "sign", "state new", "state show", "import-vlog"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_help_is_for_people(path: list[str]) -> None:
    r = RUN.invoke(app, [*path, "-h"])
    assert r.exit_code == 0, r.output
    assert r.output == RUN.invoke(app, [*path, "--help"]).output
    assert not PY_TYPE.findall(r.output), PY_TYPE.findall(r.output)
    assert "Exit codes" in r.output
    for record in r.output.split("\n  -"):
        assert record.count("default") <= 1, record  # never say the default twice


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_command_has_quiet_json_and_format(path: list[str]) -> None:
    cmd = _command_at()[tuple(path)]
    opts = {o for p in cmd.params for o in getattr(p, "opts", [])}  # type: ignore[attr-defined]
    missing = {"-q", "--quiet", "--json", "--format"} - opts
    assert not missing, (
        f"referee {' '.join(path)} lacks {sorted(missing)}: every command takes them "
        "(quiet_option(), json_option(), format_option() in referee/commands/common.py)"
    )
    r = RUN.invoke(app, [*path, "-h"])
    assert "-q, --quiet" in r.output and "--json" in r.output and "-h, --help" in r.output


def test_output_options_are_named_alike() -> None:
    for path in COMMANDS:
        cmd = _command_at()[tuple(path)]
        for p in cmd.params:  # type: ignore[attr-defined]
            opts = getattr(p, "opts", [])
            if "-o" in opts:
                assert "--out" in opts, (path, opts)
            visible = not getattr(p, "hidden", False)
            if visible and "--game" in opts:
                raise AssertionError(f"{path}: --game is ambiguous; say --game-dir or --game-id")


def test_root_help_documents_exit_codes_environment_and_completion() -> None:
    r = RUN.invoke(app, ["-h"])
    assert r.exit_code == 0
    for text in ("REFEREE_HOME", "REFEREE_DIR", "REFEREE_KEY", "Exit codes", "75", "130"):
        assert text in r.output, text
    assert "--install-completion" in r.output and "--show-completion" in r.output


def _run(*args: str) -> Ran:
    """``python -m referee ARGS`` in a process of its own: what a user's shell gets."""
    done = subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, check=False
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def _run_first_alone(cases: list[list[str]]) -> Iterator[tuple[list[str], Ran]]:
    """Each case's run: the first in a process of its own (:func:`_run`), the others in this
    process through the same ``main`` (:func:`tests.clirun.run_main`), which gives the same
    exit code and streams without an interpreter's start and imports each."""
    for k, args in enumerate(cases):
        yield args, _run(*args) if k == 0 else run_main(args)


def test_usage_errors_exit_2_everywhere(tmp_path: Path) -> None:
    missing = str(tmp_path / "nonexistent")
    cases = [
        ["check", missing],
        ["build", missing, "-o", str(tmp_path / "b")],
        ["sheets", missing, "-o", str(tmp_path / "b")],
        ["state", "new", missing, "--scenario", "x"],
        ["validate", missing, "--state", missing],
        ["verify", missing],
        ["check", "--no-such-option"],
    ]
    for args, done in _run_first_alone(cases):
        assert done.code == 2, (args, done.err)
        assert "Traceback" not in done.err


def _state(tmp: Path) -> Path:
    out = tmp / "s.json"
    r = RUN.invoke(
        app, ["state", "new", MINI, "--scenario", "skirmish", "-o", str(out), "--game-id", "g1"]
    )
    assert r.exit_code == 0, r.output
    return out


GOOD = "game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 0202\nplace US-F4.2 box US-CV-1\n"


def test_dash_reads_standard_input_and_writes_standard_output(tmp_path: Path) -> None:
    st = _state(tmp_path)
    r = RUN.invoke(app, ["validate", "-", "--state", str(st), "--module", MINI], input=GOOD)
    assert r.exit_code == 0, r.output
    assert "<stdin>: ok" in r.output
    r = RUN.invoke(app, ["state", "new", MINI, "--scenario", "skirmish", "-o", "-"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["scenario"] == "skirmish"
    assert not (Path.cwd() / "-").exists()
    r = RUN.invoke(app, ["state", "show", "-", "--module", MINI], input=st.read_text())
    assert r.exit_code == 0 and "skirmish" in r.output


def test_old_spellings_still_work_but_are_hidden(tmp_path: Path) -> None:
    out = tmp_path / "old.json"
    r = RUN.invoke(
        app, ["state", "new", MINI, "--scenario", "skirmish", "--output", str(out), "--game", "g7"]
    )
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["game_id"] == "g7"
    helptext = RUN.invoke(app, ["state", "new", "-h"]).output
    assert "--output" not in helptext and "--game " not in helptext
    assert "--game-id" in helptext and "-o, --out" in helptext


def test_json_is_format_json(tmp_path: Path) -> None:
    st = _state(tmp_path)
    orders = tmp_path / "o.txt"
    orders.write_text(GOOD)
    base = ["validate", str(orders), "--state", str(st), "--module", MINI]
    a = RUN.invoke(app, [*base, "--json"])
    b = RUN.invoke(app, [*base, "--format", "json"])
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout and json.loads(a.stdout)["ok"] is True
    c = RUN.invoke(app, [*base, "--json", "--format", "github"])
    assert _code(c) == 2
    d = RUN.invoke(app, [*base, "--format", "xml"])
    assert d.exit_code == 2


def test_quiet_validate_prints_nothing_when_ok(tmp_path: Path) -> None:
    st = _state(tmp_path)
    r = RUN.invoke(app, ["validate", "-", "--state", str(st), "--module", MINI, "-q"], input=GOOD)
    assert r.exit_code == 0 and r.output == ""


def test_github_annotations_escape_properties_and_data(tmp_path: Path) -> None:
    st = _state(tmp_path)
    folder = tmp_path / "orders"
    folder.mkdir()
    bad = folder / "nato, gt3:100%.txt"
    bad.write_text("game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 0505\n")
    r = RUN.invoke(
        app, ["validate", str(bad), "--state", str(st), "--module", MINI, "--format", "github"]
    )
    assert r.exit_code == 1
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("::error ")]
    assert lines
    for ln in lines:
        props, _, _message = ln[len("::error ") :].partition("::")
        file_prop = props.split(",")[0]
        assert file_prop.endswith("orders/nato%2C gt3%3A100%25.txt"), file_prop
    assert github_escape_property("a:b,c%d\r\ne") == "a%3Ab%2Cc%25d%0D%0Ae"
    line = github_annotation(
        "error", "50% of\r\nit: a, b", file="x,y.txt", line=3, col=None, title="[8.24]"
    )
    assert line == "::error file=x%2Cy.txt,line=3,title=[8.24]::50%25 of%0D%0Ait: a, b"


def test_check_speaks_github_too(tmp_path: Path) -> None:
    import shutil

    r = RUN.invoke(app, ["check", MINI, "--format", "github"])
    assert r.exit_code == 0 and "::error" not in r.output
    src = tmp_path / "mini, v2"
    shutil.copytree(MINI, src)
    units = src / "units.csv"
    units.write_text(units.read_text().replace("US-DD-1,NATO,US,", "US-DD-1,NATO,Ux,", 1))
    r = RUN.invoke(app, ["check", str(src), "--format", "github"])
    assert r.exit_code == 1
    line = next(ln for ln in r.stdout.splitlines() if "Ux" in ln)
    assert line.startswith("::error file=") and "mini%2C v2" in line and ",line=" in line


def test_shell_completion_completes_commands() -> None:
    script = Path(sys.executable).with_name("referee")
    if not script.exists():
        pytest.skip("the referee console script is not installed beside this Python")
    env = {"_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee bu", "COMP_CWORD": "1"}
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.split() == ["build"], done.stdout + done.stderr
    # Typer detects the shell from the parent processes and ignores "bash" when it can: under
    # `make test`, whose recipe runs in /bin/sh, it refused with "Shell sh not supported". Its
    # switch for tests turns detection off, so the shell is the one named here.
    no_detection = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run(
        [str(script), "--show-completion", "bash"],
        capture_output=True,
        text=True,
        check=False,
        env=no_detection,
    )
    assert shown.returncode == 0 and "_referee_completion" in shown.stdout, shown.stderr


def test_an_output_path_the_system_refuses_is_exit_2_not_an_internal_error(
    tmp_path: Path,
) -> None:
    # `-o a-file/x` ended in "referee: internal error: FileExistsError ... (exit 70)" for
    # state new, keygen, sign, map-from-geo, import-vmod, build, new, options --png...: a path
    # the file system refuses is the user's to fix (exit 2), named, with a hint
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    orders = tmp_path / "orders.txt"
    orders.write_text("[setup]\n", encoding="utf-8")
    assert run_main(["keygen", "k", "-q", "-o", str(tmp_path)]).code == 0
    cases = [
        ["state", "new", MINI, "--scenario", "skirmish", "-o", str(blocker / "s.json")],
        ["keygen", "zz", "-o", str(blocker / "keys")],
        ["sign", str(orders), "--key", str(tmp_path / "k.key"), "-o", str(blocker / "o.txt")],
    ]
    for args, done in _run_first_alone(cases):
        assert done.code == 2, (args, done.err)
        lines = done.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"referee: error: {blocker}"), lines
        assert "a file stands where a folder is needed" in lines[0] and "hint:" in lines[0]
        assert "internal error" not in done.err and "Traceback" not in done.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "k.key", "k.pub", "orders.txt"]


def test_sheets_off_a_terminal_prints_only_what_it_wrote(tmp_path: Path) -> None:
    # the progress bar's label "counters" reached CI logs on standard error; like build,
    # sheets shows its bar only on a terminal
    # a process of its own: a warning would reach its standard error, not pytest's record
    done = _run("sheets", MINI, "-o", str(tmp_path))
    assert done.code == 0, done.err
    assert done.err == "", done.err
    assert done.out.strip().endswith("-counters.pdf"), done.out


def test_state_new_without_a_game_id_names_the_module_and_scenario(tmp_path: Path) -> None:
    """Without --game-id, `state show` printed "game game: ..." and validate's hint read
    `add: game: game`: the default id is now MODULE-SCENARIO."""
    out = tmp_path / "s.json"
    r = RUN.invoke(app, ["state", "new", MINI, "--scenario", "skirmish", "-o", str(out)])
    assert r.exit_code == 0, r.output
    gid = json.loads(out.read_text())["game_id"]
    assert gid != "game" and gid.endswith("-skirmish"), gid
    r = RUN.invoke(app, ["state", "show", str(out), "--module", MINI])
    assert r.exit_code == 0 and r.output.startswith(f"game {gid}: "), r.output
    orders = "turn: 0\nside: NATO\n[setup]\nplace US-DD-1 0202\n"
    r = RUN.invoke(app, ["validate", "-", "--state", str(out), "--module", MINI], input=orders)
    assert f"add: game: {gid}" in r.output and "game: game" not in r.output, r.output
