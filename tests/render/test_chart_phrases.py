"""Rule citations on the charts: a list of cases reads "a, b"; anything else is shown as the
module source writes it, never cut into pieces ("estimate:, the convoy, ..." was a bug)."""

from __future__ import annotations

import pytest

from referee.render.chart_phrases import cite, rule_list


@pytest.mark.parametrize(
    ("rule", "shown"),
    [
        ("6.4", "6.4"),
        ("11.2B", "11.2B"),
        ("4.0 13.2", "4.0, 13.2"),
        ("DTP 8.2 DTP 8.21", "DTP 8.2, DTP 8.21"),
        ("DTP 11.3 rule 1", "DTP 11.3 rule 1"),
        ("DTP 11.31 rule 5", "DTP 11.31 rule 5"),
        (
            "estimate: the convoy from Canada and the US enters from the south-west",
            "estimate: the convoy from Canada and the US enters from the south-west",
        ),
        (
            "DTP 11.3 rule 2 (Murmansk; the unit is an estimate)",
            "DTP 11.3 rule 2 (Murmansk; the unit is an estimate)",
        ),
        ("", ""),
    ],
)
def test_rule_list(rule: str, shown: str) -> None:
    assert rule_list(rule) == shown


def test_cite() -> None:
    assert cite("8.8 8.9") == " [8.8, 8.9]"
    assert cite("") == ""
