"""The example orders of ``module_src/sixth_fleet/examples`` are legal, in order, and the
Game-Turn 2 Soviet attack stops at NATO's retreat decision [8.71] whatever the die says.

The files are played through the ruleset alone (no archive), with the demo's committed dice:
seed ``k`` of the chain whose root is :data:`referee.demos.sixth_fleet_1975.DEMO_SEED_ROOT`, and the
hash of the
template text (the real game hashes the signed text; the attack's CRT entry is 1-6, so no
die face can change the outcome -- which ``test_the_retreat_does_not_depend_on_the_die``
checks face by face).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.demos.sixth_fleet_1975 import (
    DEMO_GAME_ID,
    DEMO_SCENARIO,
    DEMO_SEED_ROOT,
    example_files,
    example_side,
)
from referee.engine.core import GameState, ScriptedDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.engine.scripted import orders_for, orders_sha256
from referee.engine.scripted import play as scripted_play
from referee.pbem import dice as dicemod
from referee.rules.sixth_fleet_1975.attack_advanced import followup_8_5_4
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[1] / "module_src" / "sixth_fleet"
PENDING_AFTER = "06-gt2-soviet-combat.txt"
ANSWERED_BY = "07-gt2-nato-answer.txt"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


@cache
def played() -> tuple[tuple[str, GameState, GameState], ...]:
    """(file name, state before, state after) for every example file, in order."""
    m = module()
    rs = get_ruleset(m.ruleset)
    secret = dicemod.SeedSecret.new(DEMO_GAME_ID, dicemod.DEFAULT_LENGTH, DEMO_SEED_ROOT)
    state = rs.new_game(m, DEMO_SCENARIO, DEMO_GAME_ID)
    out = []
    for k, path in enumerate(example_files(SRC), start=1):
        text = path.read_text(encoding="utf-8")
        doc = parse_orders(text, path.name, VOCABULARY)
        violations = rs.validate(m, state, doc)
        assert not violations, (path.name, [str(v) for v in violations])
        dice = dicemod.CommittedDice(secret.seed(k), k, hashlib.sha256(text.encode()).hexdigest())
        outcome = rs.resolve(m, state, doc, dice)
        assert outcome.ok, (path.name, [str(v) for v in outcome.violations])
        out.append((path.name, state, outcome.state))
        state = outcome.state
    return tuple(out)


def test_the_examples_cover_the_first_two_game_turns_in_order() -> None:
    names = [p.name for p in example_files(SRC)]
    assert names == [
        "01-nato-setup.txt",
        "02-soviet-setup.txt",
        "03-gt1-soviet-movement.txt",
        "04-gt2-nato-combat.txt",
        "05-gt2-nato-movement.txt",
        PENDING_AFTER,
        ANSWERED_BY,
        "08-gt2-soviet-movement.txt",
    ]


def test_each_file_is_a_template_for_the_step_it_is_played_at() -> None:
    """Header game/turn/side/phase match the position; no previous-report, no signature."""
    rs = get_ruleset(module().ruleset)
    for name, before, _after in played():
        text = (SRC / "examples" / name).read_text(encoding="utf-8")
        doc = parse_orders(text, name, VOCABULARY)
        assert doc.game_id == DEMO_GAME_ID
        assert doc.turn == before.turn, name
        assert doc.side == example_side(text) == rs.awaiting(module(), before)[0], name
        assert doc.phase == before.phase, name
        assert doc.previous_report is None and "BEGIN REFEREE SIGNATURE" not in text
        assert "#" in text, f"{name} explains its play in comments"


def test_nato_setup_fills_every_coded_hex_and_places_every_unit() -> None:
    """[11.1]: every NATO naval unit on a hex coded with its nationality, 1-3 per hex, every
    coded hex filled; the fixed placements kept; every NATO piece placed."""
    m = module()
    _name, _before, after = played()[0]
    sc = m.scenarios[DEMO_SCENARIO]
    for pool in sc.pools:
        if pool.side != "NATO" or pool.where != "setup_code":
            continue
        per_hex = {h: [u for u in pool.units if after.units[u].location == h] for h in pool.hexes}
        assert all(1 <= len(units) <= 3 for units in per_hex.values()), per_hex
        assert sum(len(v) for v in per_hex.values()) == len(pool.units)
    assert after.units["US-CV-1"].location == "1602"
    assert after.units["US-CV-2"].location == "0812"
    assert after.units["TU-SS-1"].location == "2025"
    assert not [u.id for u in after.units.values() if u.side == "NATO" and u.box == "unplaced"]


def test_soviet_setup_places_every_soviet_unit() -> None:
    _name, _before, after = played()[1]
    assert after.units["SO-SN-1"].location in ("1902", "1404")  # [11.2A]
    assert after.units["SO-SN-2"].location in ("1212", "0615")  # [11.2B]
    assert not [u.id for u in after.units.values() if u.box == "unplaced"]


def test_the_soviet_attack_stops_at_natos_retreat_decision_and_the_answer_clears_it() -> None:
    steps = {name: (before, after) for name, before, after in played()}
    for name, (_before, after) in steps.items():
        if name != PENDING_AFTER:
            assert not after.pending, name
    _before, after = steps[PENDING_AFTER]
    (pd,) = after.pending
    assert (pd.id, pd.side, pd.kind, pd.rule) == ("D2-1", "NATO", "retreat", "8.71")
    assert list(pd.options) == ["1619", "1620"]
    assert get_ruleset(module().ruleset).awaiting(module(), after)[0] == "NATO"
    _before, after = steps[ANSWERED_BY]
    assert not after.pending
    assert after.units["GR-DD-2"].location == "1620"
    assert (after.turn, after.phase, after.active_side) == (2, "movement", "Soviet")


def test_the_final_position() -> None:
    _name, _before, final = played()[-1]
    # NATO has nothing in contact, so its Game-Turn 3 Combat Phase is skipped [8.21]
    assert (final.turn, final.phase, final.active_side) == (3, "movement", "NATO")
    assert not final.pending
    for bomber in ("SO-T22", "SO-T16.1", "SO-T16.2"):  # home again [9.22]
        assert final.units[bomber].location == "2021"
        assert "returning" not in final.units[bomber].status
    assert not [u.id for u in final.units.values() if u.box == "eliminated"]


@pytest.mark.parametrize("face", range(1, 7))
def test_the_retreat_does_not_depend_on_the_die(face: int) -> None:
    """The demo must stop at the decision every time, whatever the committed dice give: the
    attack is on the 40 column, ECM 1 row, entry 1-6 [8.9]."""
    m = module()
    rs = get_ruleset(m.ruleset)
    before = next(b for name, b, _a in played() if name == PENDING_AFTER)
    text = (SRC / "examples" / PENDING_AFTER).read_text(encoding="utf-8")
    outcome = rs.resolve(
        m, before, parse_orders(text, PENDING_AFTER, VOCABULARY), ScriptedDice([face])
    )
    assert [r.value for r in outcome.rolls] == [face]
    assert [p.id for p in outcome.state.pending] == ["D2-1"]


def test_a_wrong_answer_is_refused_with_the_options() -> None:
    m = module()
    rs = get_ruleset(m.ruleset)
    before = next(b for name, b, _a in played() if name == ANSWERED_BY)
    text = (
        (SRC / "examples" / ANSWERED_BY)
        .read_text(encoding="utf-8")
        .replace("answer D2-1 1620", "answer D2-1 1721")
    )
    violations = rs.validate(m, before, parse_orders(text, ANSWERED_BY, VOCABULARY))
    assert violations and violations[0].rule == "8.71"
    assert "1619, 1620" in violations[0].message


# ---- the scripted player (referee/engine/scripted.py, used by bench/bench_campaign.py) ----


# A root the random test once failed with: at step 45, after NATO's 8.24 retreats and the
# Soviet SO-CV-1's advance, the scripted NATO player wrote its mandatory attacks again in the
# further [combat] file, which may attack only the units that advanced [8.5.4].
ROOT_8_5_4 = bytes.fromhex(
    "0b591c9c2d14024e509fba2a810f4ecc"  # Python repr: b"\x0bY\x1c\x9c-\x14\x02NP..."
    "57c6c17f9edaab651d8bf29c5cb89891"
)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(root=st.binary(min_size=32, max_size=32))
@example(root=ROOT_8_5_4)  # once refused: a further [8.5.4] file repeated the first's attacks
def test_the_scripted_player_plays_the_whole_campaign_legally(root: bytes) -> None:
    """Whatever the dice, every scripted file validates (``play`` raises otherwise) and the
    21 Game-Turn Campaign runs through the Reinforcement Interphase to its end [12.2][13.0]."""
    m = module()
    secret = dicemod.SeedSecret.new("scripted", 512, root)

    def dice_for(k: int, text: str) -> dicemod.CommittedDice:
        return dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text))

    steps, final = scripted_play(m, "campaign", dice_for, game_id="scripted")
    assert final.phase == "game-over" and final.turn == m.scenarios["campaign"].turns
    assert [s.side for s in steps if s.phase == "reinforcement"] == ["NATO", "Soviet"]
    assert sum(s.text.count("\nattack ") for s in steps) > 0
    for s in steps:
        if s.pending:  # the next file answers the first pending decision with its first option
            nxt = steps[s.index]
            assert nxt.text.splitlines()[-1].startswith(f"answer {s.pending[0]} ")
    again, _ = scripted_play(m, "campaign", dice_for, game_id="scripted")
    assert [s.text for s in again] == [s.text for s in steps]  # deterministic


def test_the_scripted_player_ends_the_phase_when_units_advanced_after_8_24_retreats() -> None:
    """The further [combat] file after the 8.24 retreats [8.5.4] is empty: no attack there is
    mandatory, and the first file's attacks may not be written again. Replays just the 45
    steps of the campaign (root :data:`ROOT_8_5_4`) that lead to it."""
    m = module()
    rs = get_ruleset(m.ruleset)
    secret = dicemod.SeedSecret.new("scripted", 512, ROOT_8_5_4)
    state = rs.new_game(m, "campaign", "scripted", ())
    for k in range(1, 46):
        text = orders_for(m, state, rs)
        assert text is not None
        doc = parse_orders(text, f"step-{k:03d}.txt", VOCABULARY)
        assert rs.validate(m, state, doc) == [], (k, text)
        before, awaited = state, rs.awaiting(m, state)
        dice = dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text))
        state = rs.resolve(m, state, doc, dice).state
    assert followup_8_5_4(before) == ["SO-CV-1"]  # step 45 is the further file [8.5.4]
    assert text.splitlines()[-1] == "[combat]"  # written empty
    assert awaited == ("NATO", "Game-Turn 9, NATO Combat Phase [8.0]")
    assert rs.awaiting(m, state)[1] != awaited[1] and not followup_8_5_4(state)  # phase over


def test_the_scripted_player_sets_up_the_middle_east_air_forces_with_14_3() -> None:
    """With optional rule 14.3 the set-up includes the Israeli air and the rolled Soviet
    Middle East air [14.3]; both scripted set-up files must validate clean."""
    m = module()
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, "short", "scripted", ("14.3",))
    texts = []
    for face in (4, 4):  # the Soviet 14.3 roll happens while NATO's set-up is resolved
        text = orders_for(m, state, rs)
        assert text is not None
        doc = parse_orders(text, "scripted.txt", VOCABULARY)
        assert rs.validate(m, state, doc) == []
        state = rs.resolve(m, state, doc, ScriptedDice([face])).state
        texts.append(text)
    placed = "\n".join(texts)
    assert "place IS-F4.1 " in placed and "place IS-A4.6 " in placed
    assert any(line.startswith("place SO-I28-") for line in placed.splitlines())  # roll 4
    assert state.phase != "setup"
