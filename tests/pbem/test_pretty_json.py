"""``pretty_json`` writes every signed and rendered JSON file of an archive, and ``verify``
compares those files byte for byte with archives written by ``json.dumps``: its faster
encoder must give exactly ``json.dumps(indent=2, sort_keys=True, ensure_ascii=False)``."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.pbem.record import pretty_json

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
DOCS = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)


def _std(value: object) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


@settings(max_examples=300, deadline=None)
@given(DOCS)
def test_pretty_json_is_json_dumps(value: object) -> None:
    assert pretty_json(value) == _std(value)


def test_edge_cases() -> None:
    for value in (
        {},
        [],
        {"a": {}, "b": [], "c": [[]], "é": 'ü\u2028\n"\\', "z": -0.0},
        [math.inf, -math.inf, 1e300, 2**70, True, None],
        {"k": (1, 2)},
    ):
        assert pretty_json(value) == _std(value)


def test_what_it_does_not_know_goes_to_json_dumps() -> None:
    assert pretty_json({2: "a", 1: 2}) == b'{\n  "1": 2,\n  "2": "a"\n}\n'
