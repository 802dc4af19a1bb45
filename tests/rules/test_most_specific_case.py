"""Where several cases forbid the same thing, the violation names the most specific one and
the other as a second citation (issue 12 §5): a retreat into a hex forbidden by stacking
[7.22] or by an enemy zone of control [6.5] leads, the general retreat case [8.71] second;
leaving an enemy-controlled hex [6.43] with [6.11] and the Movement chapter's [5.26] second; an air
unit going from one enemy-controlled hex to another [9.31] with [6.44] second."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.cli import app
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.advance import advance_problem_8_5
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.retreat import retreat_barrier
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from tests.clirun import Runner
from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES, build_state, fixture_module
from tests.rules.play import header

RS = get_ruleset("sixth_fleet_1975")
RUN = Runner()


def _violations(case: dict[str, Any], section: str, body: str) -> list[str]:
    m = fixture_module("sf75ex")
    s = build_state(m, case)
    doc = parse_orders(header(s, str(case["side"])) + f"[{section}]\n{body}\n", "o.txt", VOCABULARY)
    return [str(v) for v in RS.validate(m, s, doc)]


def _retreat_case(extra: list[list[str]]) -> dict[str, Any]:
    return {
        "turn": 2,
        "phase": "combat",
        "side": "Soviet",
        "units": [["SO-DD-1", "1422"], ["US-CV-1", "1423"], *extra],
    }


def test_retreat_into_a_full_hex_names_7_22() -> None:
    full = [["SO-SG-1", "1322"], ["SO-SG-2", "1322"], ["SO-SN-1", "1322"]]
    got = _violations(_retreat_case(full), "combat", "retreat SO-DD-1 -> 1322")
    assert len(got) == 1 and got[0].split(": ", 1)[1].startswith("[7.22]"), got
    assert got[0].endswith("stacking limit [8.71] (hint: legal: 1421 1522)"), got


def test_each_barrier_names_its_own_case() -> None:
    m = fixture_module("sf75ex")
    s = build_state(m, _retreat_case([]))
    game = Game.of(m, s)
    assert retreat_barrier(game, s, "SO-DD-1", "1323") == ("6.5", "an enemy-controlled hex")
    # land: the terrain case that closes it to naval units [10.12], not the MP cost [5.12]
    assert retreat_barrier(game, s, "SO-DD-1", "1523")[0] == "10.12"
    case, why = retreat_barrier(game, s, "SO-DD-1", "1423")
    assert case == "8.71" and "enemy units" in why
    assert retreat_barrier(game, s, "SO-DD-1", "1424")[0] == "8.71"  # not adjacent
    full = build_state(
        m, _retreat_case([["SO-SG-1", "1322"], ["SO-SG-2", "1322"], ["SO-SN-1", "1322"]])
    )
    assert retreat_barrier(game, full, "SO-DD-1", "1322")[0] == "7.22"
    got = _violations(_retreat_case([]), "combat", "retreat SO-DD-1 -> 1323")
    assert len(got) == 1 and got[0].split(": ", 1)[1].startswith("[6.5]"), got
    assert "enemy-controlled hex [8.71]" in got[0], got
    # where [8.71] itself is the only case, it is cited once
    got = _violations(_retreat_case([]), "combat", "retreat SO-DD-1 -> 1423")
    assert len(got) == 1 and got[0].split(": ", 1)[1].startswith("[8.71]"), got
    assert got[0].count("[8.71]") == 1, got


def test_leaving_an_enemy_controlled_hex_names_6_43_then_6_11_and_5_26() -> None:
    case = {
        "turn": 2,
        "phase": "movement",
        "side": "Soviet",
        "units": [["SO-DD-1", "1622"], ["US-CV-1", "1623"]],
    }
    got = _violations(case, "movement", "move SO-DD-1 1621")
    assert len(got) == 1 and got[0].split(": ", 1)[1].startswith("[6.43]"), got
    assert got[0].rstrip().endswith("[6.11, 5.26]"), got


def test_an_air_unit_going_from_one_enemy_controlled_hex_to_another_names_9_31() -> None:
    """[9.31], the air units' own case, first; the general [6.44] second."""
    case = {
        "turn": 2,
        "phase": "movement",
        "side": "NATO",
        "units": [["US-P3", "1322"], ["SO-DD-1", "1323"], ["SO-DD-2", "1421"]],
    }
    got = _violations(case, "movement", "move US-P3 1422")
    assert len(got) == 1 and got[0].split(": ", 1)[1].startswith("[9.31]"), got
    assert got[0].rstrip().endswith("[6.44]"), got


def test_an_advance_cites_the_case_that_forbids_the_hex_then_8_5() -> None:
    """Terrain: [10.12] (naval units never enter land), not the advance rule; stacking: the
    limit that holds throughout the Combat Phase [9.41]; [8.5] second in both."""
    m = fixture_module("sf75ex")
    s = build_state(m, _retreat_case([]))
    game = Game.of(m, s)
    land = advance_problem_8_5(game, s, "SO-DD-1", "1523", "Soviet")
    assert land is not None and land.rule == "10.12" and land.message.endswith("[8.5]")
    full = build_state(
        m, _retreat_case([["SO-SG-1", "1322"], ["SO-SG-2", "1322"], ["SO-SN-1", "1322"]])
    )
    over = advance_problem_8_5(game, full, "SO-DD-1", "1322", "Soviet")
    assert over is not None and over.rule == "9.41" and over.message.endswith("[8.5]")
    assert advance_problem_8_5(game, s, "SO-DD-1", "1322", "Soviet") is None


def test_a_base_claim_on_the_other_sides_base_names_9_16_then_9_22() -> None:
    """A Soviet air unit may never use a NATO base [9.16]: that case leads, not the NATO
    nationality case [9.13]; the return-to-base rule [9.22] is the second citation."""
    case = {
        "turn": 2,
        "phase": "movement",
        "side": "Soviet",
        "units": [["SO-T16.1", "1322"]],
    }
    got = _violations(case, "movement", "move SO-T16.1 1221\nbase SO-T16.1 1221")
    assert len(got) == 1, got
    assert got[0].split(": ", 1)[1].startswith("[9.16]") and got[0].rstrip().endswith("[9.22]")


def test_a_naval_unit_with_no_retreat_hex_is_foreseen_lost_under_8_71() -> None:
    """SO-DD-1 cannot attack the CV at 0 or better and must retreat [8.24]; both hexes it
    could retreat into are enemy-controlled [6.5], so it will be eliminated: the case is
    [8.71] (no legal retreat), not [8.72], which is about air units."""
    case = {
        "turn": 2,
        "phase": "combat",
        "side": "Soviet",
        "units": [["SO-DD-1", "1620"], ["US-CV-1", "1621"], ["GR-DD-1", "1420"]],
    }
    m = fixture_module("sf75ex")
    s = build_state(m, case)
    doc = parse_orders(header(s, "Soviet") + "[combat]\n", "o.txt", VOCABULARY)
    lost = [str(w) for w in RS.warnings(m, s, doc) if "it will be eliminated" in w.message]
    assert len(lost) == 1 and "[8.71] SO-DD-1 in 1620 must retreat [8.24]" in lost[0], lost


def test_a_set_up_in_a_prohibited_hex_names_10_11(tmp_path: Path) -> None:
    """No unit may enter a Prohibited hex [10.11]; [10.12] (naval units and land) is the case
    for a land hex only."""
    st = tmp_path / "s.json"
    mini = str(FIXTURES / "mini")
    r = RUN.invoke(
        app, ["state", "new", mini, "--scenario", "skirmish", "-o", str(st), "--game", "g1"]
    )
    assert r.exit_code == 0, r.output
    rules = {}
    for where in ("0208", "0404"):  # Yugoslav land (Prohibited), then plain land
        o = tmp_path / f"{where}.txt"
        o.write_text(f"game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 {where}\n")
        r = RUN.invoke(app, ["validate", "--state", str(st), "--module", mini, str(o), "--json"])
        rows = json.loads(r.stdout)["violations"]
        rules[where] = {v["rule"] for v in rows if "may not be in" in v["message"]}
    assert rules == {"0208": {"10.11"}, "0404": {"10.12"}}, rules
