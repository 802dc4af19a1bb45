"""Messages that must say what they mean (issue 12 §7): show-vsav without a module, options
on an obligated hex with no legal attack, set-up hexes, unknown nationalities, and the
pull-request loop of docs/ci.md."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from referee.cli import app
from tests.clirun import Runner
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES, build_state, fixture_module

RUN = Runner()
REPO = Path(__file__).resolve().parents[1]


def test_show_vsav_without_a_module_does_not_call_pieces_off_board(tmp_path: Path) -> None:
    from referee.vassal.position.save import write_position_vsav

    m = fixture_module("mini")
    st = build_state(
        m, {"turn": 1, "phase": "movement", "side": "NATO", "units": [["US-DD-1", "0202"]]}
    )
    save = tmp_path / "p.vsav"
    write_position_vsav(m, st, save)
    bare = RUN.invoke(app, ["show-vsav", str(save)])
    assert bare.exit_code == 0, bare.output
    row = next(ln for ln in bare.stdout.splitlines() if ln.startswith("US-DD-1"))
    assert "off-board" not in row and "pixel (" in row
    assert "--module" in bare.output and "--example" in bare.output  # says how to get hexes
    named = RUN.invoke(app, ["show-vsav", str(save), "--module", str(FIXTURES / "mini")])
    row = next(ln for ln in named.stdout.splitlines() if ln.startswith("US-DD-1"))
    assert " 0202 " in f" {row} "
    data = json.loads(RUN.invoke(app, ["show-vsav", str(save), "--json"]).stdout)
    assert {c["location"]["kind"] for c in data["counters"]} == {"map-point"}


def test_options_on_a_hex_with_no_legal_attack_says_who_retreats(tmp_path: Path) -> None:
    m = fixture_module("sf75ex")
    case = {
        "turn": 2,
        "phase": "combat",
        "side": "Soviet",
        "units": [["SO-DE-1", "1422"], ["US-CV-1", "1423"], ["US-CV-2", "1423"]],
    }
    st = tmp_path / "s.json"
    st.write_text(build_state(m, case).canonical())
    r = RUN.invoke(
        app, ["options", "1422", "--state", str(st), "--module", str(FIXTURES / "sf75ex")]
    )
    assert r.exit_code == 0, r.output
    assert "one of these attacks" not in r.output
    assert "no legal attack" in r.output and "SO-DE-1 must retreat [8.24]" in r.output


def test_setup_hex_messages_list_the_hexes(tmp_path: Path) -> None:
    st = tmp_path / "s.json"
    r = RUN.invoke(
        app, ["state", "new", "--example", "sixth_fleet", "--scenario", "short", "-o", str(st)]
    )
    assert r.exit_code == 0, r.output
    orders = "game: sixth_fleet-short\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 1211\n"
    r = RUN.invoke(app, ["validate", "-", "--state", str(st), "--json"], input=orders)
    msgs = [v["message"] for v in json.loads(r.stdout)["violations"]]
    only = next(m for m in msgs if "may be set up only in" in m)
    assert only.endswith("hexes coded US: 0813, 1121, 1316, 1603, 1710"), only


def test_unknown_nationality_gets_the_nearest_known_one(tmp_path: Path) -> None:
    src = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", src)
    units = src / "units.csv"
    units.write_text(units.read_text().replace("US-DD-1,NATO,US,", "US-DD-1,NATO,Ux,", 1))
    r = RUN.invoke(app, ["check", str(src), "--json"])
    assert r.exit_code == 1
    errors = json.loads(r.stdout)["errors"]
    e = next(e for e in errors if "unknown nationality 'Ux'" in e["message"])
    assert e["hint"] == "did you mean 'US'?"


def test_the_ci_pull_request_loop_checks_every_file(tmp_path: Path) -> None:
    """The shell loop in docs/ci.md, run as written (bash -e, as GitHub runs it) in a real
    Git repository: both bad files are reported, the good one too, and the step fails once,
    at the end."""
    text = (REPO / "docs" / "ci.md").read_text()
    block = text.split("# pull-request check: begin")[1].split("# pull-request check: end")[0]
    script = block.replace("${{ github.base_ref }}", "main")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "referee"  # stands in for referee: fails on files named *bad*
    fake.write_text('#!/bin/sh\necho "checked $4"\ncase "$4" in *bad*) exit 1;; esac\n')
    fake.chmod(0o755)
    repo = tmp_path / "repo"
    (repo / "orders").mkdir(parents=True)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "HOME": str(tmp_path),
    }

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)

    git("init", "-q")
    git("commit", "-q", "--allow-empty", "-m", "base")
    git("update-ref", "refs/remotes/origin/main", "HEAD")
    for name in ("a-bad.txt", "b-good.txt", "c-bad.txt"):
        (repo / "orders" / name).write_text("x\n")
    git("add", "orders")
    git("commit", "-q", "-m", "orders")
    done = subprocess.run(
        ["bash", "-e", "-c", script], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 1, done.stdout + done.stderr
    for name in ("a-bad.txt", "b-good.txt", "c-bad.txt"):
        assert f"checked orders/{name}" in done.stdout


def test_state_show_refuses_an_unknown_side(tmp_path: Path) -> None:
    st = tmp_path / "s.json"
    RUN.invoke(
        app, ["state", "new", str(FIXTURES / "mini"), "--scenario", "skirmish", "-o", str(st)]
    )
    r = RUN.invoke(
        app, ["state", "show", str(st), "--module", str(FIXTURES / "mini"), "--side", "Nato"]
    )
    assert r.exception is not None and getattr(r.exception, "exit_code", 0) == 2
    assert "did you mean 'NATO'?" in str(r.exception)


def test_a_json_file_that_is_no_state_says_so_once_with_its_path(tmp_path: Path) -> None:
    # `{"format": 1}` or `[1, 2]` given as a state: one message naming $.format, not
    # "not a referee state file: not a referee state file (...)"
    for i, text in enumerate(('{"format": 1}', "[1, 2]")):
        st = tmp_path / f"s{i}.json"
        st.write_text(text, encoding="utf-8")
        r = RUN.invoke(app, ["state", "show", str(st)])
        assert r.exception is not None and getattr(r.exception, "exit_code", 0) == 2
        msg = str(r.exception)
        assert msg.count("not a referee state file") == 1, msg
        assert "$.format: expected 'referee-state/1'" in msg, msg


def test_play_aids_refuse_an_output_folder_that_cannot_be_made(tmp_path: Path) -> None:
    # `referee map -o a-file/sub` and `charts` ended in "internal error: NotADirectoryError"
    # (exit 70); every play-aid command now says which folder it cannot make, exit 2, and
    # draws and writes nothing
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    for command in ("map", "charts", "sheets"):
        r = RUN.invoke(app, [command, str(FIXTURES / "mini"), "-q", "-o", str(blocker / "sub")])
        assert r.exception is not None and getattr(r.exception, "exit_code", 0) == 2, (
            command,
            repr(r.exception),
        )
        assert f"cannot make the output folder {blocker / 'sub'}: {blocker} is a file" in str(
            r.exception
        ), command
        assert "hint:" in str(r.exception)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_options_checks_the_png_destination_before_printing(tmp_path: Path) -> None:
    # `options US-CV-1 --png afile/x.png` printed the whole text answer, then failed (exit 2):
    # the destination is now checked first, and nothing is printed or written
    st = tmp_path / "s.json"
    r = RUN.invoke(
        app, ["state", "new", "--example", "sixth_fleet", "--scenario", "short", "-o", str(st)]
    )
    assert r.exit_code == 0, r.output
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder", encoding="utf-8")
    r = RUN.invoke(app, ["options", "US-CV-1", "--state", str(st), "--png", str(blocker / "x.png")])
    assert r.exception is not None and getattr(r.exception, "exit_code", 0) == 2, repr(r.exception)
    assert f"cannot write --png {blocker / 'x.png'}: {blocker} is a file" in str(r.exception)
    assert r.stdout == "", r.stdout
    assert blocker.read_text(encoding="utf-8") == "not a folder"
