"""``referee validate``, ``referee state`` and ``referee options`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee.cli import app
from referee.errors import UserError
from tests.clirun import Runner
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES

MINI = str(FIXTURES / "mini")
RUN = Runner()


def _new(tmp: Path) -> Path:
    out = tmp / "s.json"
    r = RUN.invoke(
        app, ["state", "new", MINI, "--scenario", "skirmish", "-o", str(out), "--game", "g1"]
    )
    assert r.exit_code == 0, r.output
    return out


def test_validate_clean_and_dirty(tmp_path: Path) -> None:
    st = _new(tmp_path)
    good = tmp_path / "good.txt"
    good.write_text(
        "game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 0202\nplace US-F4.2 box US-CV-1\n"
    )
    r = RUN.invoke(app, ["validate", "--state", str(st), "--module", MINI, str(good)])
    assert r.exit_code == 0, r.output
    bad = tmp_path / "bad.txt"
    bad.write_text("game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 0505\n")
    r = RUN.invoke(
        app, ["validate", "--state", str(st), "--module", MINI, str(bad), "--format", "github"]
    )
    assert r.exit_code == 1
    assert "::error file=" in r.output and "title=[11.1]::" in r.output
    assert "line=5,col=15" in r.output
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-F4.3 box US-CV-1\n")
    r = RUN.invoke(app, ["validate", "--state", str(st), "--module", MINI, str(unknown), "--json"])
    data = json.loads(r.stdout)
    # one pass (issue 12 §2): the unknown unit and the set-up quota it leaves unmet, the
    # latter at the [setup] header (line 4), not at 1:1
    assert not data["ok"] and {v["rule"] for v in data["violations"]} == {"orders", "11.0"}
    unknown_row = next(v for v in data["violations"] if v["rule"] == "orders")
    assert "did you mean 'US-F4.2'?" in unknown_row["hint"]
    assert {(v["line"], v["col"]) for v in data["violations"] if v["rule"] == "11.0"} == {(4, 1)}


def test_validate_unreadable_input_exits_2(tmp_path: Path) -> None:
    st = _new(tmp_path)
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01\x02")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "validate",
            "--state",
            str(st),
            "--module",
            MINI,
            str(binary),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "NUL" in done.stderr and "Traceback" not in done.stderr
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    r = RUN.invoke(app, ["validate", "--state", str(junk), "--module", MINI, str(binary)])
    assert isinstance(r.exception, UserError) and r.exception.exit_code == 2


def test_syntax_errors_are_violations(tmp_path: Path) -> None:
    st = _new(tmp_path)
    o = tmp_path / "o.txt"
    o.write_text("game: g1\n[setup]\nplase US-DD-1 0202\n")
    r = RUN.invoke(app, ["validate", "--state", str(st), "--module", MINI, str(o)])
    assert r.exit_code == 1 and "o.txt:3:1:" in r.output and "did you mean 'place'" in r.output


def test_state_show_and_options(tmp_path: Path) -> None:
    st = _new(tmp_path)
    r = RUN.invoke(app, ["state", "show", str(st), "--module", MINI])
    assert r.exit_code == 0 and "NATO set-up" in r.output and "0203: US-CV-1" in r.output
    r = RUN.invoke(app, ["state", "show", str(st), "--module", MINI, "--json"])
    assert json.loads(r.stdout)["awaiting"]["side"] == "NATO"
    # at set-up only placing is allowed [11.0]: no moves for a unit the scenario places
    # (issue 31); in the NATO Movement Phase its moves with their costs
    r = RUN.invoke(app, ["options", "US-CV-1", "--state", str(st), "--module", MINI, "--json"])
    info = json.loads(r.stdout)
    assert "moves" not in info and info["places"] == []
    assert any("placed by the scenario" in n for n in info["notes"])
    data = json.loads(st.read_text())
    st.write_text(json.dumps({**data, "turn": 1, "phase": "movement", "active_side": "NATO"}))
    r = RUN.invoke(app, ["options", "US-CV-1", "--state", str(st), "--module", MINI, "--json"])
    info = json.loads(r.stdout)
    costs = {m["hex"]: m["cost"] for m in info["moves"]}
    assert costs["0204"] == 1 and costs["0205"] == 3  # Restricted Water costs 2 [10.14]
    assert "0404" not in costs  # land [10.12]
    r = RUN.invoke(app, ["options", "US-CV-9", "--state", str(st), "--module", MINI])
    assert r.exit_code == 2 or "did you mean" in (r.output + str(r.exception))


def test_options_group_attacks(tmp_path: Path) -> None:
    """``referee options UNIT`` prints the group attacks the unit can join, ``referee options
    HEX`` every attack of the hex's units [8.3]; ``--max-groups`` caps the printout."""
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
    from tests.rules.test_group_attacks import EXAMPLE

    m = fixture_module("sf75ex")
    st = tmp_path / "s.json"
    st.write_text(build_state(m, EXAMPLE).canonical())
    ex = str(FIXTURES / "sf75ex")
    r = RUN.invoke(app, ["options", "SO-T16.1", "--state", str(st), "--module", ex])
    assert r.exit_code == 0, r.output
    assert (
        "group attack SO-SG-1 SO-T16.1 -> GR-DD-1 TU-DE-1: AS 51 - DEF 20 = 31, column 30, "
        "ECM 2: 1-4 (retreat on 1-4)"
    ) in r.output
    r = RUN.invoke(app, ["options", "1422", "--state", str(st), "--module", ex, "--json"])
    info = json.loads(r.stdout)
    assert info["side"] == "Soviet" and len(info["attacks"]) == 8 and info["untried"] == 0
    r = RUN.invoke(
        app, ["options", "1422", "--state", str(st), "--module", ex, "--max-groups", "3"]
    )
    assert r.exit_code == 0 and "... and 5 more attacks" in r.output
    assert "no effect, no roll" in r.output  # DD vs both F4s: '*' [8.9]
    r = RUN.invoke(app, ["options", "1422", "--state", str(st), "--module", ex, "--png", "x.png"])
    assert r.exit_code != 0


def test_a_state_with_a_hex_off_the_map_is_refused(tmp_path: Path) -> None:
    """``validate --state`` checks that every unit stands on the module's map (the check
    asks the hex map itself, without building the board)."""
    st = _new(tmp_path)
    data = json.loads(st.read_text())
    placed = next(u for u in data["units"] if u["location"])
    stack = data["stacks"].pop(placed["location"])
    data["stacks"]["Atlantis"] = stack
    for u in data["units"]:
        if u["id"] in stack:
            u["location"] = "Atlantis"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    orders = tmp_path / "o.txt"
    orders.write_text("game: g1\nturn: 0\nside: NATO\n[setup]\n")
    r = RUN.invoke(app, ["validate", "--state", str(bad), "--module", MINI, str(orders)])
    why = str(r.exception)  # the UserError main() prints as one line
    assert isinstance(r.exception, UserError) and "does not fit module" in why, r
    assert "'Atlantis'" in why and "on the map" in why, why
