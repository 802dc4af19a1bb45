"""Sixth Fleet (1975): a unit that cannot make its mandatory attack is offered ``retreat
UNIT -> HEX`` into each hex it may retreat into [8.24], [8.71] (options format 4), each a
line ``validate`` accepts; a unit with an attack to make is offered none."""

from __future__ import annotations

from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
from tests.rules.test_mandatory_8_24 import CASE

ALONE = {**CASE, "units": [["SO-SS-1", "1422"], ["US-F14.1", "1423"], ["US-CV-1", "1423"]]}
"""One submarine next to a carrier group it cannot attack at 0 or better [8.23]."""


def _retreats(case: dict, unit: str) -> tuple[object, object, list[dict]]:
    module = fixture_module("sixth_fleet")
    state = build_state(module, case)
    rep = get_ruleset(module.ruleset).options(module, state, unit, limit=0)  # type: ignore[attr-defined]
    return module, state, [c for c in rep.data["orders"] if c["kind"] == "retreat_to"]


def test_a_unit_that_must_retreat_is_offered_each_hex_validate_accepts() -> None:
    module, state, got = _retreats(ALONE, "SO-SS-1")
    assert got and all(c["since"] == 4 and c["order"].endswith(c["at"]) for c in got)
    rs = get_ruleset(module.ruleset)  # type: ignore[attr-defined]
    for c in got:
        text = f"game: {state.game_id}\nturn: {state.turn}\nside: Soviet\n[combat]\n{c['order']}\n"  # type: ignore[attr-defined]
        assert rs.validate(module, state, parse_orders(text, "t", rs.vocabulary)) == [], c


def test_a_unit_with_an_attack_to_make_retreats_nowhere() -> None:
    assert _retreats(CASE, "SO-SS-1")[2] == []  # the pair of subs may attack [8.21]
