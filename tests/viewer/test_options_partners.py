"""Options format 7's partners (issue 28): a unit with no line of a verb of its own that may
join another unit's line of it. The naval module's ground artillery unit gives no ``defend``
line (the defence from port is the ship's [29.25]), but a single ship in port combines with a
single ground artillery unit [29.22]: the ship's ``defend`` line lists, as its partners,
exactly the units of the side whose two-unit line with it the validator accepts.

The prepared position: the Kerch-Feodosia opening with the Axis 46th Infantry moved next to
the Romanian destroyer's port (Ak-Mechet, hex 0919; 0920 within its Range of 2 [25.12e]), in
the Axis step of the Soviet Combat Phase after the Soviet player declared an attack on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import referee.pbem.draft_options as drafts
from referee.commands.common import load_checked
from referee.engine.core import GameState
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.pbem.draft_options import draft_options
from referee.rules.naval_module.context import Game, place
from referee.rules.naval_module.facts import NavalFacts
from referee.rules.naval_module.vocabulary import VOCABULARY

SRC = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"
NM = get_ruleset("naval_module")
SHIP, HEX = "RO-DD-RF", "0920"


@pytest.fixture(scope="module")
def module() -> Any:
    return load_checked(SRC, quiet=True)


def defence(module: Any) -> GameState:
    """The Axis defence step [29.25] of the prepared position (the module docstring)."""
    st = NM.new_game(module, "kerch_feodosia", "nm-partners")
    st = place(st, "DE-INF-46", HEX)
    st = st.evolve(phase="coast", active_side="Axis").with_data(phasing="Soviet")
    return NavalFacts.put(st, declared_attacks=[HEX])


def refusals(module: Any, st: GameState, line: str) -> list[Any]:
    text = f"game: {st.game_id}\nturn: {st.turn}\nside: Axis\n[coast]\n{line}\n"
    return NM.validate(module, st, parse_orders(text, "t", VOCABULARY))


def test_the_ships_defend_line_lists_exactly_the_partners_validate_accepts(module: Any) -> None:
    """Every Axis ground unit is asked: those the validator accepts beside the ship (the
    artillery and the rail artillery) are the line's partners, and no other; the infantry,
    the armour and the coast artillery are refused with 29.22. No unit has a partner on a
    line of another verb."""
    st = defence(module)
    view = NM.view(module, st, "Axis")
    doc = draft_options(module, NM, {}, "0" * 64, view, "Axis")
    assert doc["format"] == "referee-draft-options/8"
    rest = f"-> {HEX}"
    assert [c["order"] for c in doc["units"][SHIP]["choices"]] == [f"defend {SHIP} {rest}"]
    g = Game.of(module)
    ground = sorted(
        u
        for u, s in st.units.items()
        if s.side == "Axis" and s.location is not None and g.unit(u).category == "ground"
    )
    accepted = [u for u in ground if not refusals(module, st, f"defend {SHIP} {u} {rest}")]
    assert accepted == ["DE-ART-1", "DE-RRA-1"]
    assert doc["units"][SHIP]["partners"] == {"defend": {rest: accepted}}
    for u in sorted(set(ground) - set(accepted)):
        got = refusals(module, st, f"defend {SHIP} {u} {rest}")
        assert [v.rule for v in got] == ["29.22"], (u, got)
    assert [u for u, e in doc["units"].items() if e.get("partners")] == [SHIP]
    # hidden stays hidden: a partner is a unit of the side in its own view (the naval
    # module's view hides nothing, but the hook is asked on the view, never the full state)
    assert all(view.units[u].side == "Axis" for u in accepted)


def test_no_partner_where_the_validator_refuses_the_pair(module: Any) -> None:
    """With both artillery units already supporting another Defender hex this Combat Phase
    [29.22], the ship still has its own line but no partner."""
    st = defence(module)
    st = NavalFacts.put(st, defended={"DE-ART-1": "1725", "DE-RRA-1": "1725"})
    for gun in ("DE-ART-1", "DE-RRA-1"):
        assert [v.rule for v in refusals(module, st, f"defend {SHIP} {gun} -> {HEX}")] == ["29.22"]
    doc = draft_options(module, NM, {}, "0" * 64, NM.view(module, st, "Axis"), "Axis")
    assert [c["order"] for c in doc["units"][SHIP]["choices"]] == [f"defend {SHIP} -> {HEX}"]
    assert "partners" not in doc["units"][SHIP]


def test_a_format_6_file_is_written_again_without_partners(module: Any) -> None:
    """``verify`` renders a format-6 file in format 6: the same position gives no partners
    there, and otherwise the same bytes as format 7's file without them."""
    st = defence(module)
    view = NM.view(module, st, "Axis")
    now = draft_options(module, NM, {}, "0" * 64, view, "Axis")
    old = draft_options(module, NM, {}, "0" * 64, view, "Axis", 6)
    assert old["format"] == "referee-draft-options/6"
    assert not any("partners" in e for e in old["units"].values())
    for e in now["units"].values():
        e.pop("partners", None)
    now["format"] = old["format"]
    assert json.dumps(now, sort_keys=True) == json.dumps(old, sort_keys=True)
    assert drafts.PARTNERS == 7 < drafts.OPTIONS_VERSION
