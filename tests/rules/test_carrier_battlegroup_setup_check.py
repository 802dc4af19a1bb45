"""Carrier Battlegroup's set-up file: ``begin`` once [4.0]. Before, the set-up step checked
nothing: a file without ``begin`` (or with it twice) passed ``validate`` and the referee
rolled set-up steps 1-7 anyway."""

from __future__ import annotations

import pytest

from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset


def _found(body: str) -> list[tuple[str, int | None]]:
    st = played("mission", 0)
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: USN\n\n[setup]\n{body}"
    return [
        (v.rule, v.where.line if v.where else None)
        for v in ruleset().validate(module(), st, doc(text))
    ]


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("begin\n", []),
        ("", [("4.0", None)]),
        ("begin\nbegin\n", [("4.0", 7)]),
        ("begin\n[standing]\nlose XX-NOPE\n", [("2.2", 8)]),
    ],
)
def test_the_set_up_file_says_begin_once(body: str, found: list[tuple[str, int | None]]) -> None:
    assert _found(body) == found
