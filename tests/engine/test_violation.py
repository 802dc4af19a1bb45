"""The one violation type (issue 25): a rule check makes it unplaced, the phase places it in
its order, and its JSON form is what reports have always carried."""

from __future__ import annotations

from referee.engine.core import SourcePos, Violation, refusals
from referee.engine.orders import Order

ORDER = Order(
    "move",
    "movement",
    SourcePos("orders.txt", 7, 3),
    units=("US-CV-1",),
    hexes=("1422",),
    cols=(("US-CV-1", 8), ("1422", 19)),
)


def test_a_violation_is_placed_at_its_word_else_at_the_order() -> None:
    found = Violation("5.21", "blocked", code="enemy-units", word="1422", unit="US-CV-1")
    assert found.where is None
    assert found.at(ORDER).where == SourcePos("orders.txt", 7, 19)
    assert found.at(ORDER, "US-CV-1").where == SourcePos("orders.txt", 7, 8)
    assert Violation("5.21", "blocked").at(ORDER).where == SourcePos("orders.txt", 7, 3)
    assert found.at(None) is found  # no order: it stays unplaced
    placed = found.at(ORDER)
    assert (placed.code, placed.word, placed.unit) == ("enemy-units", "1422", "US-CV-1")


def test_the_json_form_and_the_text_are_the_reports_own() -> None:
    v = Violation("8.24", "must retreat", code="c", word="w", unit="SO-DD-1", hint="h")
    v = v.at(ORDER)
    assert v.to_json() == {
        "rule": "8.24",
        "message": "must retreat",
        "where": {"file": "orders.txt", "line": 7, "col": 3},
        "unit": "SO-DD-1",
        "hint": "h",
    }
    assert str(v) == "orders.txt:7:3: [8.24] must retreat (hint: h)"
    # the positional form the engine's callers write: rule, message, where, unit, hint
    assert Violation("1.0", "m", ORDER.pos, "U", "h") == Violation(
        "1.0", "m", where=ORDER.pos, unit="U", hint="h"
    )


def test_warnings_never_refuse() -> None:
    error = Violation("8.24", "refused")
    warning = Violation("8.24", "foreseen", severity="warning")
    assert refusals([warning, error, warning]) == [error]
