"""Group attacks [8.3] as ``referee options`` lists them: exactly the attacks the validator
accepts, found by a bounded search.

The property test compares the pruned search with brute force: for random stacks, every
attacker group of the hex against every defender group of one adjacent hex is checked with
``analyse_attack`` (the validator's check); the listing must hold exactly the legal ones.
"""

from __future__ import annotations

import time
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.core import GameState
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.combat import analyse_attack
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.group_attacks import die_range_8_9, group_attacks_8_3
from referee.rules.sixth_fleet_1975.options import hex_attacks, legal_moves
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.model import CrtCell
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

RS = get_ruleset("sixth_fleet_1975")
M = "sf75ex"
# the 7.45 example stack: an F4 above a Greek DD and a Turkish DE, next to Soviet units
EXAMPLE = {
    "turn": 2,
    "phase": "combat",
    "side": "Soviet",
    "units": [
        ["SO-SG-1", "1422"],
        ["SO-DD-1", "1422"],
        ["SO-T16.1", "1422"],
        ["US-F4.1", "1423"],
        ["US-F4.2", "1423"],
        ["GR-DD-1", "1423"],
        ["TU-DE-1", "1423"],
    ],
}


def _key(a: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(a["attackers"]), tuple(a["targets"])


def test_the_example_stack() -> None:
    """SG and T16 have no AA, so they may skip the F4s [7.45] and attack the ships singly or
    as a group [8.31]; the DD has AA and must attack the top F4 first [7.44]; the F4s may be
    attacked as a group, never the lower F4 alone; no group mixes types [8.36]."""
    m = fixture_module(M)
    s = build_state(m, EXAMPLE)
    got = {_key(a): a for a in hex_attacks(Game.of(m, s), s, "1422")["attacks"]}
    assert set(got) == {
        (("SO-DD-1",), ("US-F4.1",)),
        (("SO-DD-1",), ("US-F4.1", "US-F4.2")),
        (("SO-SG-1", "SO-T16.1"), ("GR-DD-1",)),
        (("SO-SG-1",), ("GR-DD-1",)),
        (("SO-T16.1",), ("GR-DD-1",)),
        (("SO-SG-1", "SO-T16.1"), ("GR-DD-1", "TU-DE-1")),
        (("SO-SG-1",), ("GR-DD-1", "TU-DE-1")),
        (("SO-T16.1",), ("GR-DD-1", "TU-DE-1")),
    }
    # the 8.0 example's numbers: SG 30 vs (4x2)+(6x2) in Restricted Water = 10, ECM 2, 1-2
    a = got[(("SO-SG-1",), ("GR-DD-1", "TU-DE-1"))]
    assert (a["differential"], a["column"], a["ecm_row"], a["entry"], a["die_range"]) == (
        "10",
        10,
        2,
        "1-2",
        "1-2",
    )
    assert got[(("SO-DD-1",), ("US-F4.1", "US-F4.2"))]["die_range"] is None  # '*': no roll
    # every listed attack is accepted by the validator, as an orders file
    for att, tgt in got:
        text = f"game: t\nturn: 2\nside: Soviet\n[combat]\nattack {' '.join(att)} -> "
        doc = parse_orders(text + " ".join(tgt) + "\n", "o.txt", VOCABULARY)
        assert RS.validate(m, s, doc) == [], (att, tgt)


def test_unit_options_list_only_the_groups_it_joins() -> None:
    m = fixture_module(M)
    s = build_state(m, EXAMPLE)
    info = legal_moves(Game.of(m, s), s, "SO-T16.1")
    groups = {_key(a) for a in info["group_attacks"]}
    assert groups == {
        (("SO-SG-1", "SO-T16.1"), ("GR-DD-1",)),
        (("SO-SG-1", "SO-T16.1"), ("GR-DD-1", "TU-DE-1")),
        (("SO-T16.1",), ("GR-DD-1", "TU-DE-1")),
    }
    assert info["group_attacks_untried"] == 0


def test_the_phase_record_counts() -> None:
    """An attacker already used may not join [8.13]; once GR-DD-1 has been attacked the DE
    may be attacked alone [7.44]."""
    m = fixture_module(M)
    s = build_state(m, {**EXAMPLE, "combat": {"attacked": ["GR-DD-1"], "used": ["SO-SG-1"]}})
    got = {_key(a) for a in hex_attacks(Game.of(m, s), s, "1422")["attacks"]}
    assert (("SO-T16.1",), ("TU-DE-1",)) in got
    assert not [k for k in got if "SO-SG-1" in k[0]]


def test_die_range() -> None:
    assert die_range_8_9(CrtCell(1, 1)) == "1"
    assert die_range_8_9(CrtCell(1, 4)) == "1-4"
    assert die_range_8_9(CrtCell(None, None)) is None


NATO = ["US-CV-1", "US-CV-2", "US-SN-1", "GR-DD-1", "TU-DE-1"]
NATO_AIR = ["US-F4.1", "US-F4.2", "US-F4.3", "US-P3", "IT-F104.1", "IT-F104.2"]
SOVIET = ["SO-SG-1", "SO-SG-2", "SO-SN-1", "SO-DD-1", "SO-DD-2", "SO-CG-1", "SO-DE-1"]
SOVIET_AIR = ["SO-T16.1", "SO-T16.2"]


@settings(max_examples=30, deadline=None)
@given(
    data=st.data(),
    turn=st.integers(min_value=2, max_value=6),
)
def test_listing_is_exactly_the_legal_attacks(data: st.DataObject, turn: int) -> None:
    """Brute force over every attacker group and every defender group (any subset of one
    hex's enemy units) agrees with the listing: nothing legal is missed, nothing illegal is
    listed [7.44][7.45][8.36][8.41]."""
    m = fixture_module(M)
    naval = data.draw(st.lists(st.sampled_from(SOVIET), min_size=1, max_size=3, unique=True))
    air = data.draw(st.lists(st.sampled_from(SOVIET_AIR), max_size=2, unique=True))
    enemy_naval = data.draw(st.lists(st.sampled_from(NATO), max_size=3, unique=True))
    enemy_air = data.draw(st.lists(st.sampled_from(NATO_AIR), max_size=6, unique=True))
    enemy = data.draw(st.permutations(enemy_air)) + data.draw(st.permutations(enemy_naval))
    attacked = data.draw(st.lists(st.sampled_from(enemy), unique=True)) if enemy else []
    units = [[u, "1422"] for u in air + naval] + [[e, "1423"] for e in enemy]
    case = {"turn": turn, "phase": "combat", "side": "Soviet", "units": units}
    s = build_state(fixture_module(M), {**case, "combat": {"attacked": attacked}})
    game = Game.of(m, s)
    listed = group_attacks_8_3(game, s, "Soviet", "1422")
    assert listed.untried == 0
    got = {(c.attackers, c.targets) for c in listed.attacks}
    want = _brute_force(game, s, air + naval, enemy)
    assert got == want


def _brute_force(game: Game, s: GameState, mine: list[str], enemy: list[str]) -> set:
    order = list(s.stacks.get("1422", ()))
    mine = [u for u in order if u in mine]
    theirs = list(s.stacks.get("1423", ()))
    out = set()
    for a in range(1, len(mine) + 1):
        for att in combinations(mine, a):
            for d in range(1, len(theirs) + 1):
                for tgt in combinations(theirs, d):
                    calc, probs = analyse_attack(game, s, "Soviet", att, tgt)
                    if calc is not None and not probs:
                        out.add((att, tgt))
    return out


def test_a_full_stack_is_searched_quickly() -> None:
    """3 naval and 6 air units against a full enemy stack: every combination examined (no
    cap reached), well under a second."""
    m = fixture_module(M)
    units = [[u, "1422"] for u in [*NATO_AIR, "US-CV-1", "US-CV-2", "GR-DD-1"]]
    units += [[u, "1423"] for u in [*SOVIET_AIR, "SO-DD-1", "SO-DD-2", "SO-CG-1"]]
    s = build_state(m, {"turn": 2, "phase": "combat", "side": "NATO", "units": units})
    t0 = time.perf_counter()
    found = group_attacks_8_3(Game.of(m, s), s, "NATO", "1422")
    assert time.perf_counter() - t0 < 2.0
    assert found.untried == 0 and found.tried > 500
    assert len(found.attacks) > 100
