"""The scripted Soviet player plays to score (issue 12 §5): it holds the [13.12] picket hex
and hunts the NATO units that deny its area bonuses, so the Soviet bonuses fire in scripted
games and benchmarks (before: every campaign a NATO Decisive Victory, no bonus ever)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.engine.core import ScriptedDice
from referee.engine.ruleset import get_ruleset
from referee.engine.scripted import play
from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"


@pytest.mark.parametrize("scenario", ["short", "campaign"])
def test_the_scripted_soviet_player_earns_13_12_and_13_13(scenario: str) -> None:
    module, diags = load_module(ROOT)
    assert module is not None, [str(d) for d in diags.items]
    rng = random.Random(1)

    def dice_for(k: int, text: str) -> ScriptedDice:
        return ScriptedDice([rng.randint(1, 6) for _ in range(200)])

    _steps, final = play(module, scenario, dice_for, game_id="scripted-score")
    score = get_ruleset(module.ruleset).score(module, final)
    held = {b["rule"]: b["holds"] for b in score["bonuses"]}
    assert held["13.12"] and held["13.13"], score
    assert score["level"] != "NATO Decisive Victory", score
