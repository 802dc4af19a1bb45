"""Where several cases forbid the same thing, the violation names the most specific one and
the other as a second citation (issue 12 §5): a retreat into a hex forbidden by stacking
[7.22] or by an enemy zone of control [6.5] leads, the general retreat case [8.71] second;
leaving an enemy-controlled hex [6.11] with the Movement chapter's [5.26] second."""

from __future__ import annotations

from typing import Any

from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.retreat import retreat_barrier
from referee.rules.sixth_fleet_1975.vocabulary import parse_orders
from tests.conformance.harness import build_state, fixture_module
from tests.rules.play import header

RS = get_ruleset("sixth_fleet_1975")


def _violations(case: dict[str, Any], section: str, body: str) -> list[str]:
    m = fixture_module("sf75ex")
    s = build_state(m, case)
    doc = parse_orders(header(s, str(case["side"])) + f"[{section}]\n{body}\n", "o.txt")
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
    assert retreat_barrier(game, s, "SO-DD-1", "1523")[0] == "5.12"  # land
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


def test_leaving_an_enemy_controlled_hex_names_6_11_then_5_26() -> None:
    case = {
        "turn": 2,
        "phase": "movement",
        "side": "Soviet",
        "units": [["SO-DD-1", "1622"], ["US-CV-1", "1623"]],
    }
    got = _violations(case, "movement", "move SO-DD-1 1621")
    assert len(got) == 1 and "[6.11]" in got[0] and got[0].rstrip().endswith("[5.26]"), got
