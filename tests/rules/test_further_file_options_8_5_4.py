"""A further [8.5.4] combat file's options (``referee options``, hence the viewer's orders
mode) offer only what ``validate`` accepts there: attacks on the units that advanced after
the 8.24 retreats, no attack on another unit or a Defended hex, and no ``retreat UNIT ->
HEX`` (the 8.24 retreats were made after the first file). The positions are the
conformance cases' (165, 169, 171: a unit next to one that did not advance)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.engine.ruleset import get_ruleset
from tests.conformance.harness import load_case
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

CASES = Path(__file__).resolve().parents[1] / "conformance" / "sixth_fleet_1975"


def _further(case: str) -> tuple[Any, Any, Any]:
    """The module, ruleset and position of a conformance case: a further file awaited."""
    position = load_case(next(CASES.glob(f"{case}-*.json")))["position"]
    module = fixture_module("sf75ex")
    state = build_state(module, position)
    rs = get_ruleset(module.ruleset)
    assert state.data["combat"]["followup_824"], case
    return module, rs, state


def _refused(rs: Any, module: Any, state: Any, line: str) -> list[str]:
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: Soviet\n[combat]\n{line}\n"
    return [v.rule for v in rs.validate(module, state, rs.parse_orders(text, "orders.txt"))]


@pytest.mark.parametrize("case", ["169", "171"])
def test_a_further_file_offers_only_attacks_on_the_units_that_advanced(case: str) -> None:
    module, rs, state = _further(case)
    allowed = set(state.data["combat"]["followup_824"])
    offered: list[str] = []
    for uid, u in sorted(state.units.items()):
        if u.side != "Soviet" or u.location is None:
            continue
        rep = rs.options(module, state, uid)
        for c in rep.data.get("orders") or []:
            assert c["kind"] != "retreat_to", c  # no 8.24 retreat in a further file
            if c["kind"] == "attack":
                targets = c["order"].split(" -> ")[1].split()
                assert set(targets) <= allowed, c
                offered.append(c["order"])
    assert offered == ["attack SO-SG-1 -> US-CV-1"]
    for line in offered:
        assert _refused(rs, module, state, line) == []


def test_the_attack_on_a_unit_that_did_not_advance_is_listed_as_refused() -> None:
    """``referee options`` of the unit next to GR-DD-1 (which did not advance): the attack is
    listed as not allowed, with the validator's reason [8.5.4], and typed anyway it is
    refused by ``validate`` with the same case."""
    module, rs, state = _further("169")
    rep = rs.options(module, state, "SO-SG-1")
    (gr,) = [a for a in rep.data["attacks"] if a["target"] == "GR-DD-1"]
    assert not gr["legal"] and gr["why_not"][0].startswith("[8.5.4] GR-DD-1: after the 8.24")
    assert all(set(a["targets"]) <= {"US-CV-1"} for a in rep.data["group_attacks"])
    assert any("further [8.5.4] file" in n for n in rep.notes)
    assert _refused(rs, module, state, "attack SO-SG-1 -> GR-DD-1") == ["8.5.4"]
    hexes = rs.options(module, state, "1522")
    assert [a["targets"] for a in hexes.data["attacks"]] == [["US-CV-1"]]
