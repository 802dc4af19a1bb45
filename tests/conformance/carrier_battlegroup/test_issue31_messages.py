"""Carrier Battlegroup's violation messages hold to the Sixth Fleet standard (issue 31): what
was expected, what was found, and a hint, with the case cited. One row per message reworded:
the position, the orders, the case and the words expected."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from referee.engine.core import GameState
from referee.rules.carrier_battlegroup import combat_phase
from tests.conformance.rulesets.carrier_battlegroup import doc, module, played, ruleset


def _sea(st: GameState) -> GameState:
    return combat_phase._move_cvbg(st, "North Sea 1")


def _same(st: GameState) -> GameState:
    return st


def _damaged_cgn(st: GameState) -> GameState:
    return st.with_data(conditions={"US-CGN": {"damage": 1, "crippled": True}})


def _no_fuel(st: GameState) -> GameState:
    return st.with_data(fuel=0)


def _lp_0(st: GameState) -> GameState:
    return st.with_data(lp=0)


CASES: list[tuple[str, Callable[[GameState], GameState], str, str, tuple[str, ...]]] = [
    (
        "buy_at_sea",
        _sea,
        "[logistics]\nbuy 1 fuel",
        "9.0",
        ("expected the CVBG at a NATO base", "found it at North Sea 1"),
    ),
    (
        "buy_zero",
        _same,
        "[logistics]\nbuy 0 fuel",
        "9.1",
        ("expected a count of 1 or more", "found 0"),
    ),
    ("lp", _lp_0, "[logistics]\nbuy 1 fuel", "9.1", ("the purchases cost", "expected at most")),
    ("soviet_bought", _same, "[logistics]\nbuy SO-KIROV.1", "2.2", ("expected a USN unit",)),
    (
        "unknown",
        _same,
        "[logistics]\nbuy US-F41.1",
        "9.2",
        ("no unit 'US-F41.1'", "expected a counter"),
    ),
    (
        "two_moves",
        _same,
        '[movement]\nmove "North Sea 1"\nmove "North Sea 1"',
        "12.1",
        ("expected one move per Movement Phase", "found 2"),
    ),
    (
        "not_next",
        _same,
        '[movement]\nmove "North Sea 2"',
        "12.1",
        ("expected a space next to NATO Base (Britain)", "found North Sea 2"),
    ),
    (
        "no_fuel",
        _no_fuel,
        '[movement]\nmove max "North Sea 1"',
        "12.2",
        ("expected 1 Fuel for maximum speed", "found no Fuel"),
    ),
    (
        "twice",
        _same,
        '[launch]\nstrike US-F14.1 US-F14.1 -> "Norwegian Sea 1"',
        "19.0",
        ("expected each unit launched once", "found US-F14.1 twice"),
    ),
    (
        "not_aboard",
        _same,
        '[launch]\nstrike US-P3.1 -> "Norwegian Sea 1"',
        "19.0",
        ("expected a unit aboard the carrier", "found US-P3.1 in available"),
    ),
    (
        "crippled",
        _damaged_cgn,
        "[logistics]\nrepair US-CGN",
        "10.0",
        ("expected a Damaged unit", "found US-CGN Crippled"),
    ),
    (
        "undamaged",
        _same,
        "[logistics]\nrepair US-F14.1",
        "10.3",
        ("expected a Damaged unit", "found US-F14.1 undamaged"),
    ),
    (
        "two_intel",
        _same,
        "[intelligence]\nintel US-CVN-68\nintel US-CVN-68",
        "11.0",
        ("expected one Intelligence attempt per turn", "found 2"),
    ),
    (
        "intel_soviet",
        _same,
        "[intelligence]\nintel US-P3.1",
        "11.1",
        ("expected one ship of the CVBG", "found US-P3.1"),
    ),
    (
        "bombard",
        _same,
        "[objective]\nbombard",
        "23.1",
        ("expected coastal defense units in the CVBG's space", "found none"),
    ),
    (
        "trade",
        _same,
        "[logistics]\ntrade US-TASM.6 -> US-CVN-68",
        "5.0",
        ("expected a cruise missile carried by the CVBG", "found US-TASM.6"),
    ),
]


@pytest.mark.parametrize(
    ("name", "where", "orders", "rule", "words"), CASES, ids=[c[0] for c in CASES]
)
def test_each_message_says_what_was_expected_what_was_found_and_a_hint(
    name: str,
    where: Callable[[GameState], GameState],
    orders: str,
    rule: str,
    words: tuple[str, ...],
) -> None:
    st = where(played(steps=2))
    text = f"game: cbg\nturn: {st.turn}\nside: USN\n\n{orders}\n"
    got = [v for v in ruleset().validate(module(), st, doc(text)) if v.rule == rule]
    assert got, [str(v) for v in ruleset().validate(module(), st, doc(text))]
    v = next((v for v in got if all(w in v.message for w in words)), got[0])
    assert all(w in v.message for w in words), v.message
    assert v.hint, f"{name}: no hint for {v.message!r}"


def test_a_bad_break_off_space_and_the_other_problems_come_in_one_run() -> None:
    """A `breakoff -> SPACE` that names no space [18.2] is reported with the file's other
    problems, an unknown unit among them, in one run."""
    st = played(steps=2)
    text = (
        f"game: cbg\nturn: {st.turn}\nside: USN\n\n[objective]\nembark US-MEU\n"
        '\n[standing]\nbreakoff all -> "Nort Sea 2"\n'
    )
    got = ruleset().validate(module(), st, doc(text))
    assert sorted(v.rule for v in got) == ["18.2", "23.2"], [str(v) for v in got]
    assert all(v.hint for v in got)
    unknown = text.replace("embark US-MEU", "embark US-MEW")
    got = ruleset().validate(module(), st, doc(unknown))
    assert sorted(v.rule for v in got) == ["18.2", "23.2"]
    assert any("no unit 'US-MEW'" in v.message for v in got)
