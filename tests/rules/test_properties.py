"""Invariants over whole games of random legal orders (hypothesis chooses the seeds).

After every step: no unit on a hex it may not be in; stacking limits hold whenever no decision
is pending; no eliminated unit on the map and the stacks agree with the units; air units are
"returning" [9.22] only during their own Movement Phase; VP equal the ECM (minimum 1) of the
enemy units destroyed, plus the bonuses [13.0].
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.stacking import overstacked_7_0
from tests.conformance.rulesets.sixth_fleet_1975 import fixture_module
from tests.rules.play import play


def invariants(module: Any, state: GameState) -> None:
    game = Game.of(module, state)
    seen: set[str] = set()
    for h, ids in state.stacks.items():
        assert ids, f"empty stack kept for {h}"
        for u in ids:
            assert state.units[u].location == h, f"{u} listed in {h} but is elsewhere"
            assert u not in seen, f"{u} in two stacks"
            seen.add(u)
    for u in state.units.values():
        if u.location is None:
            assert u.id not in seen
            continue
        assert u.id in seen, f"{u.id} on {u.location} but not in its stack"
        assert u.box is None
        assert game.board.contains(u.location)
        cost = game.board.entry_cost(u.location, game.category(u.id))
        neutral = state.data.get("neutral_airspace") and game.is_air(u.id)
        assert cost is not None or neutral, f"{u.id} on forbidden terrain {u.location}"
        assert not game.enemy_defended(state, u.location, u.side), f"{u.id} in enemy Defended hex"
        if "returning" in u.status:
            assert state.phase == "movement" and state.active_side == u.side, (
                f"{u.id} still off base after its Movement Phase [9.22]"
            )
    for u in state.units.values():
        if u.box == "eliminated":
            assert u.location is None
    if not state.pending:
        for side in game.sides:
            assert not overstacked_7_0(game, state, side), f"{side} over-stacked"
    # VP [13.0], recomputed from the boxes
    score = get_ruleset(module.ruleset).score(module, state)
    want = {s: 0 for s in game.sides}
    for u in state.units.values():
        if u.box == "eliminated":
            want[game.enemy_of(u.side)] += max(game.value(u.id, "ECM"), 1)
    assert dict(score["vp"]) == want
    bonus = sum(b["vp"] for b in score["bonuses"])
    assert score["net"] == want["Soviet"] - want["NATO"] + bonus + score["neutral_airspace_penalty"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_random_legal_games_keep_the_invariants_mini(seed: int) -> None:
    module = fixture_module("mini")
    end = play(module, "long", seed, options=("14.1",), check=lambda s: invariants(module, s))
    assert end.phase == "game-over"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_random_legal_games_keep_the_invariants_examples(seed: int) -> None:
    module = fixture_module("sf75ex")
    play(module, "test", seed, steps=120, check=lambda s: invariants(module, s))


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_random_legal_games_with_the_middle_east_air_forces(seed: int) -> None:
    """The Sixth Fleet data set with optional rules 14.1 and 14.3: the Israeli, Syrian and
    Egyptian air units set up and fight under the normal rules [14.3]."""
    module = fixture_module("sixth_fleet")
    end = play(
        module,
        "short",
        seed,
        steps=40,
        options=("14.1", "14.3"),
        check=lambda s: invariants(module, s),
    )
    facts = end.data["middle_east_14_3"]
    assert facts["roll"] in range(1, 7)
    assert sum(len(f["units"]) for f in facts["forces"]) >= 12 + 12  # Israel + Syria/Egypt
