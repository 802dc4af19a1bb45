"""The orders language: headers, sections, verbs, errors with positions, JSON, bounds."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import orders as core
from referee.engine.orders import Order, OrdersDoc, OrdersSyntaxError
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY


def parse_orders(text: str, file: str) -> OrdersDoc:
    """The one parser with Sixth Fleet (1975)'s vocabulary, as its ruleset calls it."""
    return core.parse_orders(text, file, VOCABULARY)


def parse_orders_json(text: str | bytes, file: str) -> OrdersDoc:
    return core.parse_orders_json(text, file, VOCABULARY)


GOOD = """\
# NATO orders for Game-Turn 2
game: g1
turn: 2
side: NATO
phase: combat
previous-report: 3f2a9c

[combat]
attack US-CV-1 US-DD-1 -> SO-SG-1     # the sub first
attack US-F4.1 -> hex:2025
advance US-DD-1 -> 1423
retreat US-CV-1 -> 1602

[standing]
retreat US-SN-1 prefer 1424 1425
retreat 1423 prefer 1524
displace US-F4.2 prefer 1311
advance US-CV-1 -> 1422 when-vacated
eliminate SO-SG-1 SO-DD-1
"""


def test_a_full_file() -> None:
    doc = parse_orders(GOOD, "nato.txt")
    assert (doc.game_id, doc.turn, doc.side, doc.phase, doc.previous_report) == (
        "g1",
        2,
        "NATO",
        "combat",
        "3f2a9c",
    )
    assert doc.sections == ("combat",)
    a = doc.orders[0]
    assert (a.verb, a.units, a.targets) == ("attack", ("US-CV-1", "US-DD-1"), ("SO-SG-1",))
    assert (a.pos.line, a.pos.col) == (9, 1)
    assert a.col_of("SO-SG-1") == 27
    assert doc.orders[1].targets == ("hex:2025",)
    assert doc.orders[3].mode == "to"
    s = doc.standing
    assert [o.mode for o in s] == ["prefer", "prefer-hex", "prefer", "when-vacated", None]
    assert s[1].hexes == ("1423", "1524")
    assert s[4].units == ("SO-SG-1", "SO-DD-1")


def test_every_error_is_collected_with_its_position() -> None:
    text = (
        "game: g\nturn: two\nside: NATO\n[movment]\nmove X\n"
        "[movement]\nmove US-CV-1 16O2\nfly X 1\n"
    )
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders(text, "o.txt")
    errs = [str(e) for e in exc.value.errors]
    assert any(e.startswith("o.txt:4:2:") and "did you mean 'movement'" in e for e in errs)
    assert any(e.startswith("o.txt:7:14:") and "four-digit hex id" in e for e in errs)
    assert any(e.startswith("o.txt:8:1:") and "order verb" in e for e in errs)
    assert any(e.startswith("o.txt:2:1:") and "Game-Turn number" in e for e in errs)


def test_verb_in_the_wrong_section() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders("[movement]\nattack A -> B\n", "o.txt")
    assert "belongs in: [combat]" in str(exc.value)


def test_orders_before_a_section_get_a_hint() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders("move US-CV-1 1602\n", "o.txt")
    assert "put [movement]" in str(exc.value)


def test_signature_block_is_skipped() -> None:
    text = (
        "game: g\nturn: 1\nside: NATO\n[movement]\nmove A 0101\n"
        "-----BEGIN REFEREE SIGNATURE-----\nnot: orders\n[combat]\n"
        "-----END REFEREE SIGNATURE-----\n"
    )
    doc = parse_orders(text, "o.txt")
    assert doc.sections == ("movement",) and len(doc.orders) == 1


def test_binary_and_huge_input_refused() -> None:
    with pytest.raises(OrdersSyntaxError, match="NUL"):
        parse_orders("game: g\n\x00\n", "o.txt")
    with pytest.raises(OrdersSyntaxError, match="limit"):
        parse_orders("# x\n" * 300_000, "o.txt")
    with pytest.raises(OrdersSyntaxError, match="control character"):
        parse_orders("[movement]\nmove A\x07 0101\n", "o.txt")


def test_json_orders() -> None:
    data = {
        "game": "g",
        "turn": 2,
        "side": "NATO",
        "sections": {
            "movement": ["move US-CV-1 1602 1603", {"verb": "move", "args": ["US-DD-1", "1422"]}]
        },
    }
    doc = parse_orders_json(json.dumps(data), "o.json")
    assert [o.units[0] for o in doc.orders] == ["US-CV-1", "US-DD-1"]
    assert parse_orders(json.dumps(data), "o.json").turn == 2  # the one parser reads JSON too


def test_json_bounds() -> None:
    deep = "[" * 50 + "]" * 50
    with pytest.raises(OrdersSyntaxError, match="nested 51 deep"):
        parse_orders_json('{"sections": ' + deep + "}", "o.json")
    with pytest.raises(OrdersSyntaxError, match="UTF-8"):
        parse_orders_json(b'{"game": "\xff"}', "o.json")
    with pytest.raises(OrdersSyntaxError, match="limit"):
        parse_orders_json(b" " * 1_000_001, "o.json")
    with pytest.raises(OrdersSyntaxError, match="expected JSON"):
        parse_orders_json("{", "o.json")
    with pytest.raises(OrdersSyntaxError, match="words may not hold spaces"):
        parse_orders_json('{"sections": {"movement": [{"verb": "move", "args": ["a b"]}]}}', "o")


def test_order_json_round_trip() -> None:
    for o in parse_orders(GOOD, "nato.txt").orders:
        assert Order.from_json(json.loads(json.dumps(o.to_json()))) == o


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    """Garbage never raises anything but OrdersSyntaxError."""
    try:
        parse_orders(text, "fuzz.txt")
    except OrdersSyntaxError as exc:
        assert all(e.line >= 1 and e.col >= 1 for e in exc.errors)


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    )
)
def test_any_json_parses_or_fails_cleanly(value: object) -> None:
    with contextlib.suppress(OrdersSyntaxError):
        parse_orders_json(json.dumps(value), "fuzz.json")
