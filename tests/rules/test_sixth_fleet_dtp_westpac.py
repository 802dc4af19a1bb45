"""Westpac's rules [DTP 11.5] with the book's worked examples as golden tests.

- DTP-EX-11.5051 (11.505, 11.5051): the set-up order, East Block (all but SG #36), SEATO, then
  SG #36; the East Block may swap its surface groups and subs within the set-up chart's limits
  before finishing; what the limits forbid is refused by ``validate`` with its case.
- DTP-EX-11.5091 (11.5091, 11.5124): LCC #26 Blue Ridge scores 10 VP and CCL #13 Admiral
  Senyavin 6 when sunk, double the usual, the D1/D2 fractions doubled too.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import Event, GameState
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.westpac_setup import SetupStep, setup_steps_11_505
from referee.rules.sixth_fleet_dtp.westpac_victory import ship_vp_11_5124
from referee.source.loader import load_module
from referee.source.model import Module

SOURCE = Path(__file__).resolve().parents[2] / "module_src" / "dtp_westpac"


@cache
def module() -> Module:
    m, diags = load_module(SOURCE)
    assert m is not None, [str(d) for d in diags.items]
    return m


# ---- DTP-EX-11.5091: command ships score double [11.5091, 11.5124] --------------------------


def test_dtp_ex_11_5091_command_ships_score_double() -> None:
    m = module()
    lcc, ccl = m.unit("US-LCC-26"), m.unit("SO-CCL-13")
    sunk = 3
    assert ship_vp_11_5124(lcc.type, lcc.values["ECM"], sunk) == 10  # "LCC #26 is worth 10 VP"
    assert ship_vp_11_5124(ccl.type, ccl.values["ECM"], sunk) == 6  # "CCL #13 is worth 6"
    # "double ECM or applicable fraction" [11.5124]: D2 half, D1 a quarter, doubled
    assert ship_vp_11_5124(lcc.type, lcc.values["ECM"], 2) == 5
    assert ship_vp_11_5124(ccl.type, ccl.values["ECM"], 1) == Fraction(3, 2)
    # an ordinary ship of the same ECM scores the usual value
    assert ship_vp_11_5124("DD", 5, sunk) == 5 and ship_vp_11_5124("DD", 0, sunk) == 1


def test_convoys_score_per_three_damage_levels() -> None:
    # "1 VP is received for each 3 levels of damage ... with fractional points for any
    # remaining D1 or D2 damage levels"; sunk at D12: 4 VP [11.50921, 11.5126]
    assert ship_vp_11_5124("AK", 0, 12) == 4
    assert ship_vp_11_5124("TK", 0, 7) == Fraction(9, 4)
    assert ship_vp_11_5124("AK", 0, 5) == Fraction(3, 2)
    assert ship_vp_11_5124("AK", 0, 3) == 1  # not sunk at D3: one elimination's worth


# ---- DTP-EX-11.5051: the set-up sequence [11.505, 11.5051, 11.5052, 11.5053] ----------------


def test_dtp_ex_11_5051_the_set_up_order() -> None:
    assert setup_steps_11_505("EastBlock", "SEATO") == (
        SetupStep("EastBlock", but=("SO-SG-36",)),  # East Block (all but SG #36)
        SetupStep("SEATO"),  # SEATO (adjustments allowed)
        SetupStep("EastBlock", only=("SO-SG-36",)),  # the East Block places SG #36
    )
    s = module().scenarios["westpac"]
    assert s.setup_order == ("EastBlock", "SEATO") and s.first_player == "EastBlock"


def _east_block_file(state: GameState, changes: dict[str, str]) -> tuple[str, list[str]]:
    """The scripted East Block set-up file with some placements changed, and the problems
    ``validate`` finds in it, each with its place in the file and its case."""
    m = module()
    text = RULESET.scripted_orders(m, state)
    assert text is not None
    lines = [
        f"place {ln.split()[1]} {changes[ln.split()[1]]}"
        if ln.startswith("place ") and ln.split()[1] in changes
        else ln
        for ln in text.splitlines()
    ]
    text = "\n".join(lines) + "\n"
    doc = RULESET.parse_orders(text, "setup.txt")
    return text, [str(p) for p in RULESET.validate(m, state, doc)]


@pytest.fixture(scope="module")
def start() -> GameState:
    return RULESET.new_game(module(), "westpac", "wp-1")


def test_dtp_ex_11_5051_swapping_groups_and_subs_within_the_chart_is_legal(
    start: GameState,
) -> None:
    # the two surface TFs trade hexes (3136 <-> 5823), another escort of each stays in port,
    # and the subs "1 each in" trade hexes among their own [11.5051, 11.5052]
    swap = {
        "SO-CG-2": "5823", "SO-CG-3": "5823", "SO-DD-4": "3033", "SO-DD-5": "5823",
        "SO-CG-6": "3136", "SO-CG-7": "3033", "SO-DD-8": "3136", "SO-DD-9": "3136",
        "SO-SG-37": "5132", "SO-SG-38": "4344", "SO-SG-39": "3343", "SO-SS-43": "2951",
    }  # fmt: skip
    _, problems = _east_block_file(start, {})
    assert problems == []  # the chart's own set-up
    _, problems = _east_block_file(start, swap)
    assert problems == []


@pytest.mark.parametrize(
    ("changes", "want"),
    [
        # both TFs in 3136 [11.5052: "one TF each in the two hexes"]
        ({"SO-CG-6": "3136", "SO-CG-7": "3136", "SO-DD-8": "3136"}, "one each in 3136 and 5823"),
        # the flagship in port, four at sea [11.5052: "one of the escort units"]
        ({"SO-CG-2": "3033", "SO-DD-5": "3136"}, "three stacked units at sea"),
        ({"SO-DD-5": "3136"}, "three stacked units at sea"),
        # two subs of "1 each in" stacked [11.5052]
        ({"SO-SG-38": "4344"}, "one per hex"),
    ],
)
def test_what_the_chart_forbids_is_refused_with_its_case(
    start: GameState, changes: dict[str, str], want: str
) -> None:
    _, problems = _east_block_file(start, changes)
    # file:line:col, the case, what is wrong
    assert any(
        p.startswith("setup.txt:") and "[DTP 11.5052" in p and want in p for p in problems
    ), problems


def test_both_scripted_set_ups_are_lawful_and_the_game_begins() -> None:
    from referee.engine.core import ScriptedDice

    m = module()
    state = RULESET.new_game(m, "westpac", "wp-2")
    sides = []
    for _ in range(3):  # East Block (all but SG #36), SEATO, then SG #36 [DTP 11.505]
        assert state.phase == "setup"
        sides.append(state.active_side)
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        assert ("place SO-SG-36 " in text) == (len(sides) == 3), text
        doc = RULESET.parse_orders(text, "setup.txt")
        assert [str(p) for p in RULESET.validate(m, state, doc)] == [], text
        state = RULESET.resolve(m, state, doc, ScriptedDice([])).state
    assert sides == ["EastBlock", "SEATO", "EastBlock"]
    # Game-Turn 1 opens with the East Block's announcement of hostilities [DTP 11.5101]
    assert state.phase == "hostilities" and state.turn == 1
    assert state.active_side == "EastBlock"


# ---- DTP-EX-11.5134: the Korean land war [11.5134] --------------------------------------------


def test_dtp_ex_11_5134_suwon_cannot_fall_on_turn_4() -> None:
    from referee.rules.sixth_fleet_dtp.westpac_korea import capture_problem_11_5134

    m = module()
    grid = m.map.grid
    assert grid is not None
    suwon = next(p.hex for p in m.map.places if p.name == "Suwon")
    p = capture_problem_11_5134(m.map, grid, suwon, 4, ())
    assert p is not None and p.rule == "DTP 11.5134" and p.code == "capture-not-adjacent"
    # a hex next to two North Korean hexes may fall on turn 4, and then Suwon next to it
    # (one North Korean hex and one captured) on turn 10, the next even AM turn
    first = next(
        h for h in grid.neighbours(suwon) if capture_problem_11_5134(m.map, grid, h, 4, ()) is None
    )
    assert capture_problem_11_5134(m.map, grid, suwon, 10, (first,)) is None
    # only even-numbered AM turns (4, 10, 16 ...): not 7 (odd), not 6 (Night)
    assert capture_problem_11_5134(m.map, grid, first, 7, ()).code == "capture-turn"  # type: ignore[union-attr]
    assert capture_problem_11_5134(m.map, grid, first, 6, ()).code == "capture-turn"  # type: ignore[union-attr]
    # only South Korean hexes
    assert capture_problem_11_5134(m.map, grid, "2441", 4, ()).code == "capture-not-south-korea"  # type: ignore[union-attr]


def test_east_block_and_seato_stand_in_the_soviet_and_nato_places() -> None:
    """[DTP 11.502]: the rules that speak of the Soviet and NATO players (the score's net,
    NATO's bases [DTP 9.15]) read the East Block and SEATO; which bases a nation shares is
    tables/base_rules.csv [DTP 11.5082]."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp.special_bases import other_nato_base_9_15

    m = module()
    g = Game.of(m, RULESET.new_game(m, "westpac", "wp-3"))
    assert (g.flags.soviet_side, g.flags.nato_side) == ("EastBlock", "SEATO")
    assert not other_nato_base_9_15(g, "JA-F4.1", "3845")  # Atsugi: US-marked, in Japan
    assert not other_nato_base_9_15(g, "AU-P3", "4473")  # Guam: Australia may use it
    assert other_nato_base_9_15(g, "JA-F4.1", "2543")  # Osan: US and South Korea only
    assert other_nato_base_9_15(g, "AU-P3", "3845")  # Atsugi: not Australia's


@pytest.mark.slow
def test_a_scripted_westpac_game_keeps_the_invariants_for_its_first_turns() -> None:
    """The scripted player plays both sides through turn 2 (about 25 steps): each file passes
    ``validate``, the invariants hold after every step (one place per unit, damage never down,
    stacking, VP equal to a recount, the report's score table agreeing with the events) and the
    result is a band of the scenario's table [DTP 11.5125]; an LPH put at Pohang lands and
    scores [DTP 11.50942]. The whole 48-turn game is a later benchmark (issue 26)."""
    from referee.engine.core import SeededDice
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece
    from tests.rules.test_sixth_fleet_dtp_games import check
    from tests.rules.test_sixth_fleet_dtp_westpac_score import agrees, westpac_recount

    m = module()
    state = RULESET.new_game(m, "westpac", "wp-play")
    game = Game.of(m, state)
    k = 0
    events: list[Event] = []
    while state.turn <= 2:
        k += 1
        if state.turn == 1 and state.units["US-LPH-28"].location == "2748":
            # the LPH at Pohang before SEATO's first ship movement: it lands [DTP 11.50942]
            state = move_piece(game, state, "US-LPH-28", "2744")
        text = RULESET.scripted_orders(m, state)
        assert text is not None
        doc = RULESET.parse_orders(text, f"step-{k}.txt")
        assert not RULESET.validate(m, state, doc), (k, text)
        out = RULESET.resolve(m, state, doc, SeededDice(k))
        assert out.ok, (k, out.violations)
        assert not check(game, state, out.state), k
        state = out.state
        score = RULESET.score(m, state)
        vp = westpac_recount(game, state)
        assert score["vp"] == {s: str(v) for s, v in vp.items()}, k
        events += out.events
        assert not agrees(game, state, events), k  # the report's score table [DTP 11.5124]
        assert score["level"] in ("SEATO Victory", "Tie", "East Block Victory")
    assert k > 15 and state.turn == 3
    assert [e.data["unit"] for e in events if e.kind == "unload"] == ["US-LPH-28"]
