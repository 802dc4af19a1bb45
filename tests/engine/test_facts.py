"""Position facts declared once [issue 25, deliverable 1]: a ruleset's keys of
``state.data`` read typed, written by name, checked at the edge; a ruleset that declares
them reads no raw ``state.data``."""

from __future__ import annotations

import ast
import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NotRequired, TypedDict

import pytest

from referee.engine.core import GameState
from referee.engine.facts import Facts
from referee.engine.ruleset import get_ruleset, position_facts, ruleset_ids
from referee.shapes import ShapeError


class Spot(TypedDict):
    space: str
    units: list[str] | int
    note: NotRequired[str]


@dataclass(frozen=True)
class ToyFacts(Facts):
    ruleset = "toy"

    kind: Literal["a", "b"]
    spot: Spot | None = None
    vp: int = 0
    pools: dict[str, list[str]] = field(default_factory=dict)
    ratio: float = 1.0


def _state(**data) -> GameState:
    return GameState("g", "m", "toy", "s", 1, "p", None, {}, {}, data)


def test_a_fact_absent_reads_as_its_default_and_present_as_the_state_holds_it():
    pools = {"cup": ["a", "b"]}
    f = ToyFacts.of(_state(kind="a", pools=pools))
    assert (f.kind, f.spot, f.vp, f.ratio, f.vassal_pieces) == ("a", None, 0, 1.0, None)
    assert f.pools is pools  # not copied


def test_put_writes_exactly_the_keys_named_byte_for_byte_as_with_data():
    s = _state(kind="a")
    assert ToyFacts.put(s, vp=3, spot=None).canonical() == s.with_data(vp=3, spot=None).canonical()
    assert "ratio" not in json.loads(ToyFacts.put(s, vp=3).canonical())["data"]
    assert ToyFacts.drop(ToyFacts.put(s, vp=3), "vp").canonical() == s.canonical()


def test_the_facts_read_after_a_write_are_those_of_the_whole_new_mapping():
    """``put`` hands the next read the facts it derives from those known before: they must be
    what reading the new mapping afresh gives."""
    s = _state(kind="a", pools={"cup": ["a"]})
    ToyFacts.of(s)  # known before the write
    t = ToyFacts.put(s, vp=3, spot={"space": "X", "units": 2})
    t = ToyFacts.put(t, kind="b")
    derived, fresh = ToyFacts.of(t), ToyFacts.of_data(t.data)
    assert derived is not fresh
    assert derived == fresh
    assert (derived.kind, derived.vp, derived.spot) == ("b", 3, {"space": "X", "units": 2})
    assert derived.pools is t.data["pools"]


def test_an_undeclared_fact_cannot_be_written():
    with pytest.raises(TypeError, match="'bogus' is no fact ToyFacts declares"):
        ToyFacts.put(_state(kind="a"), bogus=1)
    with pytest.raises(TypeError, match="'bogus'"):
        ToyFacts.drop(_state(kind="a"), "bogus")


def test_the_declared_types_are_the_edge_check():
    ToyFacts.check({"kind": "b", "spot": {"space": "X", "units": 3}, "vassal_pieces": 6})
    ToyFacts.check({"kind": "b", "spot": {"space": "X", "units": ["u"], "note": "n"}})
    bad = {
        "$.data.kind": {"kind": "c"},
        "$.data.spot.space": {"kind": "a", "spot": {"space": 7, "units": []}},
        "$.data.spot.units": {"kind": "a", "spot": {"space": "X", "units": "u"}},
        "$.data.spot.extra": {"kind": "a", "spot": {"space": "X", "units": 1, "extra": 1}},
        "$.data.pools.cup[1]": {"kind": "a", "pools": {"cup": ["a", 2]}},
        "$.data.vp": {"kind": "a", "vp": True},
        "$.data.bogus": {"kind": "a", "bogus": 1},
        "$.data.vassal_pieces": {"kind": "a", "vassal_pieces": "6"},
    }
    for path, data in bad.items():
        with pytest.raises(ShapeError) as e:
            ToyFacts.check(data)
        assert e.value.path == path, (path, str(e.value))
    with pytest.raises(ShapeError, match=r"\$\.data\.kind: expected the fact kind"):
        ToyFacts.check({})
    with pytest.raises(ShapeError, match="ruleset toy declares"):
        ToyFacts.check({"kind": "a", "queue": []})


def test_a_type_the_edge_cannot_check_is_refused_when_declared():
    @dataclass(frozen=True)
    class Odd(Facts):
        when: complex = 0j

    with pytest.raises(TypeError, match="cannot be declared"):
        Odd.check({})


def _declaring() -> list[str]:
    """The rulesets that declare facts; a schema registered without rules (a table-only toy
    module some test installs in the same process) has no ruleset object to ask."""
    from referee.source.schema import ruleset_schema

    with_rules = [
        r for r in ruleset_ids() if (s := ruleset_schema(r)) is not None and s.rules is not None
    ]
    return [r for r in with_rules if position_facts(get_ruleset(r)) is not None]


EVENTS = ("e", "ev", "event")
"""Names the code gives an ``Event``, whose ``data`` is the event's record, not the position."""


def _raw_reads(package: Path) -> list[str]:
    """Every ``X.data`` of the package's code (but an event's), ``with_data`` and
    ``evolve(data=...)``: the raw ways into ``state.data``."""
    out: list[str] = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        for node in ast.walk(tree):
            of_event = isinstance(node, ast.Attribute) and (
                isinstance(node.value, ast.Name) and node.value.id in EVENTS
            )
            if isinstance(node, ast.Attribute) and node.attr == "data" and not of_event:
                out.append(f"{path.name}:{node.lineno}: .data")
            if isinstance(node, ast.Attribute) and node.attr == "with_data":
                out.append(f"{path.name}:{node.lineno}: .with_data")
            if isinstance(node, ast.keyword) and node.arg == "data":
                out.append(f"{path.name}:{node.lineno}: data=")
    return out


def test_some_ruleset_declares_its_facts():
    assert {"carrier_battlegroup", "sixth_fleet_1975", "sixth_fleet_dtp", "naval_module"} <= set(
        _declaring()
    )


@pytest.mark.parametrize("ruleset", _declaring())
def test_a_ruleset_that_declares_its_facts_reads_no_raw_state_data(ruleset):
    rs = get_ruleset(ruleset)
    package = Path(importlib.import_module(type(rs).__module__).__file__).parent
    assert _raw_reads(package) == []
