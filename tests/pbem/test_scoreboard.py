"""The score in a report is a table a player reads: VP by side, each unit lost with the rule
that removed it and who scored it, each bonus with its condition, the level of victory."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from referee.pbem.reports import render_html, render_markdown
from referee.pbem.scoreboard import score_line, scoreboard
from referee.source.loader import load_module
from referee.source.model import Module

SF = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"

SCORE: dict[str, Any] = {
    "rule": "13.0",
    "vp": {"NATO": 6, "Soviet": 4},
    "destroyed": {
        "NATO": [{"unit": "SO-SS-1", "vp": 6, "rule": "8.8"}],
        "Soviet": [{"unit": "GR-DD-2", "vp": 4, "rule": "8.24"}],
    },
    "bonuses": [
        {"id": "aegean", "side": "Soviet", "vp": 10, "holds": True, "rule": "13.11"},
        {"id": "israel_cut_off", "side": "Soviet", "vp": 0, "holds": False, "rule": "13.12"},
    ],
    "neutral_airspace_penalty": 0,
    "net": 8,
    "level": "Draw",
    "final": False,
}


@cache
def sixth_fleet() -> Module:
    module, diags = load_module(SF)
    assert module is not None, [str(d) for d in diags.items]
    return module


def _report(score: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": "g",
        "sequence": 3,
        "title": "Soviet combat",
        "previous_report": None,
        "referee": {"fingerprint": "ab" * 32},
        "module": {"id": "sixth_fleet", "version": "1.0.0", "sha256": "cd" * 32},
        "ruleset": "sixth_fleet_1975",
        "scenario": "short",
        "options": [],
        "orders": None,
        "dice": {},
        "events": [],
        "pending": [],
        "after": {"turn": 2, "phase": "combat"},
        "score": score,
        "awaiting": None,
    }


def test_scoreboard_says_who_lost_and_who_scored() -> None:
    board = scoreboard(sixth_fleet(), SCORE, "short")
    sides = {
        s["name"]: (s["units"], s["bonus"], s["total"], s["destroyed"]) for s in board["sides"]
    }
    assert sides == {"NATO": (6, 0, 6, 1), "Soviet": (4, 10, 14, 1)}
    lost = {
        row["unit"]: (row["owner"], row["rule"], row["vp"], row["scorer"])
        for row in board["losses"]
    }
    assert lost == {
        "SO-SS-1": ("Soviet", "8.8", 6, "NATO"),
        "GR-DD-2": ("NATO", "8.24", 4, "Soviet"),
    }
    aegean = board["bonuses"][0]
    assert aegean["holds"] and aegean["vp"] == 10 and "Aegean" in aegean["text"]
    assert ("neutral airspace penalty", "0") in board["others"]


def test_markdown_and_html_show_tables_not_json() -> None:
    md = render_markdown(sixth_fleet(), _report(SCORE), "ef" * 32, {"units": []})
    score = md[md.index("## Score") :]
    assert '"destroyed"' not in md and "```" not in score
    assert "| NATO | 6 (1 unit) | 0 | **6** |" in score
    assert "| Soviet | 4 (1 unit) | 10 | **14** |" in score
    assert "| GR-DD-2 |" in score and "| NATO | [8.24] | 4 | Soviet |" in score
    assert "| aegean | Soviet | [13.11] | yes | 10 |" in score
    assert "level of victory now **Draw**" in score
    html = render_html(sixth_fleet(), _report(SCORE), "ef" * 32, {"units": []}, None)
    assert '"destroyed"' not in html and "<th>Scored by</th>" in html
    assert "<td>SO-SS-1</td>" in html


def test_a_score_without_losses_says_so() -> None:
    empty = dict(SCORE, vp={"NATO": 0, "Soviet": 0}, destroyed={"NATO": [], "Soviet": []})
    md = render_markdown(sixth_fleet(), _report(empty), "ef" * 32, {"units": []})
    assert "No unit has been destroyed." in md


def test_fractional_vp_of_the_dtp_rules_are_kept_exact() -> None:
    """[DTP 8.57] keeps 1/4 and 1/2: the reports show 19/4, not a crash or a rounding; the
    viewer and ``state show`` the mixed number 4 3/4."""
    from referee.numerals import mixed_number as _mixed
    from referee.pbem.scoreboard import _number, shown_value

    assert _number(Fraction(19, 4)) == "19/4"
    assert _number(Fraction(8, 2)) == 4
    assert _mixed(Fraction(19, 4)) == "4 3/4"
    assert _mixed(Fraction(8, 2)) == 4
    assert _mixed(Fraction(3, 4)) == "3/4"
    assert _mixed(Fraction(-9, 4)) == "-2 1/4"
    assert _mixed(Fraction(-1, 4)) == "-1/4"
    for v in (Fraction(19, 4), Fraction(3, 4), Fraction(-9, 4), Fraction(-1, 4), Fraction(4)):
        assert shown_value(_mixed(v)) == v == shown_value(_number(v))


def test_a_score_in_fractions_is_shown_in_mixed_numbers_and_kept_exact() -> None:
    """The viewer and ``state show`` read the net and a result in words in mixed numbers;
    the report keeps 327/4, as the record does."""
    module = sixth_fleet()
    score = {
        "vp": {"NATO": "60", "Soviet": "567/4"},
        "net": "327/4",
        "result": "Soviet wins by 327/4 VP (Soviet 567/4, NATO 60): Victory [DTP 11.5125]",
        "final": True,
    }
    board = scoreboard(module, score, "short", mixed=True)
    assert board["net"] == "81 3/4"
    assert board["result"] == (
        "Soviet wins by 81 3/4 VP (Soviet 141 3/4, NATO 60): Victory [DTP 11.5125]"
    )
    assert [(s["name"], s["total"]) for s in board["sides"]] == [
        ("NATO", 60),
        ("Soviet", "141 3/4"),
    ]
    line = score_line(module, score, "short")
    assert "net 81 3/4" in line and "wins by 81 3/4 VP" in line and "327/4" not in line
    report = scoreboard(module, score, "short")
    assert report["net"] == "327/4" and report["result"] == score["result"]
    assert [s["total"] for s in report["sides"]] == [60, "567/4"]


def test_a_score_that_says_its_fractions_are_mixed_is_reported_in_mixed_numbers() -> None:
    """A Westpac game begun since the ruleset records ``mixed_fractions_11_5126`` scores with
    ``"fractions": "mixed"``: its reports print 81 3/4 like the viewer [DTP 11.5126]; the
    score's exact values stay in the JSON, and a score without the key (an older game) is
    reported exact as before."""
    module = sixth_fleet()
    score = {
        "vp": {"NATO": "60", "Soviet": "567/4"},
        "net": "327/4",
        "fractions": "mixed",
        "destroyed": {"Soviet": [{"unit": "x", "side": "NATO", "vp": "1/4", "rule": "8.57"}]},
        "final": True,
    }
    board = scoreboard(module, score, "short")
    assert board["net"] == "81 3/4"
    assert [s["total"] for s in board["sides"]] == [60, "141 3/4"]
    assert [row["vp"] for row in board["losses"]] == ["1/4"]
    assert not any(name == "fractions" for name, _ in board["others"])  # a switch, not a score
    md = render_markdown(module, _report(score), "0" * 64, {"units": []})
    assert "**81 3/4**" in md and "141 3/4" in md and "327/4" not in md and "567/4" not in md
    older = {k: v for k, v in score.items() if k != "fractions"}
    assert scoreboard(module, older, "short")["net"] == "327/4"
