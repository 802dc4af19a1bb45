"""[8.24] the search for a legal attack from an obligated hex covers every group of its units,
not only the whole stack and each unit alone (issue 12 §5)."""

from __future__ import annotations

from referee.engine.core import Event, GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import best_attacks_from, retreats_owed_8_24
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

CASE = {
    "module": "sixth_fleet",
    "scenario": "short",
    "turn": 2,
    "phase": "combat",
    "side": "Soviet",
    "units": [
        ["SO-F.1", "1422"],
        ["SO-SS-1", "1422"],
        ["SO-SS-2", "1422"],
        ["US-F14.1", "1423"],
        ["US-CV-1", "1423"],
    ],
}


def _position() -> tuple[Game, GameState]:
    module = fixture_module("sixth_fleet")
    state = build_state(module, CASE)
    return Game.of(module, state), state


def test_the_pair_of_subs_is_found() -> None:
    game, state = _position()
    best = best_attacks_from(game, state, "Soviet", "1422")
    assert [(b.attackers, b.targets, b.differential) for b in best] == [
        (("SO-SS-1", "SO-SS-2"), ("US-CV-1",), 0)
    ]


def test_end_of_combat_retreats_nobody_when_a_group_could_attack() -> None:
    game, state = _position()
    ev: list[Event] = []
    tasks = retreats_owed_8_24(game, state, "Soviet", ev)
    assert tasks == []
    assert [(e.kind, e.rule) for e in ev] == [("obligation-unmet", "8.21")]
