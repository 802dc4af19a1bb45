"""Sixth Fleet's declared vocabulary reads orders exactly as the hand-written parser did.

``tests/fixtures/orders/sixth_fleet_1975_legacy.jsonl`` was recorded with the parser that
hard-coded the Sixth Fleet verbs (before the vocabulary became the ruleset's data): 2,000
order lines, valid and broken, each in a section, with the SHA-256 of the parsed document's
canonical JSON, or ``error`` when it refused the line. The declared vocabulary must give
the same document for every line it accepted and refuse every line it refused.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from referee.engine.orders import OrdersSyntaxError, parse_orders
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY

LEGACY = Path(__file__).resolve().parents[1] / "fixtures" / "orders"


def _result(section: str, line: str) -> str:
    try:
        doc = parse_orders(f"[{section}]\n{line}\n", "o.txt", VOCABULARY)
    except OrdersSyntaxError:
        return "error"
    return hashlib.sha256(json.dumps(doc.to_json(), sort_keys=True).encode()).hexdigest()[:16]


def test_same_documents_and_refusals_as_the_legacy_parser() -> None:
    cases = [
        json.loads(t) for t in (LEGACY / "sixth_fleet_1975_legacy.jsonl").read_text().splitlines()
    ]
    assert len(cases) == 2000
    assert sum(c["result"] != "error" for c in cases) > 800  # many valid lines, not just errors
    diffs = [
        (c["section"], c["line"], c["result"], got)
        for c in cases
        if (got := _result(c["section"], c["line"])) != c["result"]
    ]
    assert diffs == []


def test_a_form_in_the_wrong_section_says_what_this_section_takes() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders("[standing]\nadvance US-DD-1 -> 1423\n", "o.txt", VOCABULARY)
    (err,) = exc.value.errors
    assert (err.line, err.col) == (2, 9)
    assert err.message == (
        "expected 'advance UNIT [UNIT ...] -> HEX' only in [combat]; "
        "in [standing] write advance UNIT [UNIT ...] -> HEX when-vacated"
    )
