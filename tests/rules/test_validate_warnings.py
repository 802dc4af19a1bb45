"""``referee validate`` foresees what legal orders make certain (issue 12 §1) and reports
every problem of a file in one pass, each at the word or section it concerns (§2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.cli import app
from tests.clirun import Runner
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES, build_state, fixture_module

SF75EX = str(FIXTURES / "sf75ex")
RUN = Runner()

AIR_OFF_BASE: dict[str, Any] = {
    "turn": 2,
    "phase": "movement",
    "side": "Soviet",
    "returning": ["SO-T16.1"],
    "units": [["SO-T16.1", "1322"], ["US-CV-1", "1426"]],
}

NO_ATTACK_AT_ZERO: dict[str, Any] = {
    "turn": 2,
    "phase": "combat",
    "side": "Soviet",
    "units": [["SO-DD-1", "1422"], ["SO-DD-2", "1422"], ["SO-DE-1", "1422"], ["US-CV-1", "1423"]],
}


def _files(tmp: Path, case: dict[str, Any], section: str, body: str) -> tuple[str, str]:
    state = build_state(fixture_module("sf75ex"), case)
    st = tmp / "state.json"
    st.write_text(state.canonical(), "utf-8")
    orders = tmp / "orders.txt"
    orders.write_text(f"# orders\ngame: t\nturn: 2\nside: Soviet\n[{section}]\n{body}\n", "utf-8")
    return str(st), str(orders)


def _validate(st: str, orders: str, *more: str) -> Any:
    return RUN.invoke(app, ["validate", "--state", st, "--module", SF75EX, orders, *more])


def test_air_unit_left_without_a_base_is_a_warning(tmp_path: Path) -> None:
    st, orders = _files(tmp_path, AIR_OFF_BASE, "movement", "move SO-T16.1 1422")
    r = _validate(st, orders)
    assert r.exit_code == 0, r.output
    assert "warning: [9.22] SO-T16.1 eliminated (did not return to a base)" in r.output
    assert "orders.txt:6:6: warning: [9.22]" in r.output  # at the unit's word
    assert "warning: [13.0] victory points at stake" in r.output
    assert "ok: no violations (2 warnings)" in r.output
    strict = _validate(st, orders, "--strict")
    assert strict.exit_code == 1
    data = json.loads(_validate(st, orders, "--json").stdout)
    assert data["ok"] and data["violations"] == []
    assert sorted(w["rule"] for w in data["warnings"]) == ["13.0", "9.22"]
    gh = _validate(st, orders, "--format", "github").output
    assert "::warning file=" in gh and "title=[9.22]::" in gh


def test_forced_retreat_is_a_warning(tmp_path: Path) -> None:
    st, orders = _files(
        tmp_path,
        NO_ATTACK_AT_ZERO,
        "combat",
        "retreat SO-DD-1 -> 1322\nretreat SO-DD-2 -> 1322\nretreat SO-DE-1 -> 1421",
    )
    data = json.loads(_validate(st, orders, "--json").stdout)
    assert data["ok"]
    got = {(w["rule"], w["unit"]) for w in data["warnings"]}
    assert {("8.24", "SO-DD-1"), ("8.24", "SO-DD-2"), ("8.24", "SO-DE-1")} <= got


def test_syntax_reference_and_rule_problems_in_one_pass(tmp_path: Path) -> None:
    st, orders = _files(
        tmp_path,
        AIR_OFF_BASE,
        "movement",
        "mvoe SO-T16.1 1422\nmove SO-XX-9 1422\nmove SO-T16.1 1322 9999",
    )
    data = json.loads(_validate(st, orders, "--json").stdout)
    rules = [(v["rule"], v["line"]) for v in data["violations"]]
    assert ("syntax", 6) in rules
    assert ("orders", 7) in rules
    assert any(line == 8 for _, line in rules), rules


def test_wrong_section_is_placed_at_its_header(tmp_path: Path) -> None:
    st, orders = _files(tmp_path, AIR_OFF_BASE, "combat", "")
    data = json.loads(_validate(st, orders, "--json").stdout)
    wrong = [v for v in data["violations"] if "expected a [movement] section" in v["message"]]
    assert wrong and (wrong[0]["line"], wrong[0]["col"]) == (5, 1)


def test_a_stack_over_the_limit_is_a_warning(tmp_path: Path) -> None:
    case = {
        "turn": 2,
        "phase": "movement",
        "side": "Soviet",
        "units": [
            ["SO-DD-1", "1620"],
            ["SO-DD-2", "1620"],
            ["SO-CG-1", "1620"],
            ["SO-DE-1", "1621"],
        ],
    }
    st, orders = _files(tmp_path, case, "movement", "move SO-DE-1 1620")
    data = json.loads(_validate(st, orders, "--json").stdout)
    assert data["ok"], data
    over = [w for w in data["warnings"] if w["rule"] == "7.0"]
    assert over and "over-stacked" in over[0]["message"], data["warnings"]
