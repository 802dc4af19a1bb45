"""Carrier Battlegroup: the units the standing orders name are checked like any order's
[2.2]; ``lose`` names aircraft only [14.1]. Before, ``validate`` accepted ``lose XX-NOPE``
and ``lose US-CGN`` (a ship the recovery would silently ignore), and a hand edit of the
viewer's composed line was not caught."""

from __future__ import annotations

import pytest

from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset


def _rules(line: str) -> list[str]:
    st = played("mission", 2)
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: USN\n[standing]\n{line}\n"
    return [v.rule for v in ruleset().validate(module(), st, doc(text))]


@pytest.mark.parametrize(
    ("line", "rules"),
    [
        ("lose US-A6.1 US-A6.2", []),
        ("lose US-CGN", ["14.1"]),
        ("lose XX-NOPE", ["2.2"]),
        ("deploy outer XX-NOPE", ["2.2"]),
    ],
)
def test_standing_orders_name_usn_counters_and_lose_names_aircraft(
    line: str, rules: list[str]
) -> None:
    assert _rules(line) == rules
