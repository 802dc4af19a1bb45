"""The engine's phase record and sequence of play (``engine/sequence.py``) and its one step
runner (``engine/steps.py``): what every ruleset's ``resolve`` is."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.core import GameState, Outcome, ScriptedDice, Violation
from referee.engine.sequence import Phase, SequenceOfPlay
from referee.engine.steps import Carry, WithheldDice, checking, refused, run_step


def _state(phase: str = "a") -> GameState:
    return GameState("g", "m", "toy", "s", 1, phase, "X", {}, {})


SEQ: SequenceOfPlay[str] = SequenceOfPlay(
    (
        Phase("a", "A Phase", "1.0", side="X", sections=("a",), steps="check a"),
        Phase("b", "B Phase", "2.0", "impulses", sections=("b", "b2")),
        Phase("c", "End", "3.0", "nobody", night_only=True),
    ),
    extra=(Phase("r", "Reinforcements", "4.0", side="Y", sections=("r",)),),
)


def test_a_sequence_finds_its_phases_in_order() -> None:
    assert SEQ.ids == ("a", "b", "c")
    assert SEQ.first.id == "a"
    assert SEQ.after("a") is SEQ["b"] and SEQ.after("c") is None
    assert SEQ.of(_state("b")) is SEQ["b"] and SEQ.of(_state("over")) is None
    assert "r" in SEQ and SEQ.get("r") is not None and "r" not in SEQ.ids
    assert SEQ["a"].steps == "check a" and SEQ["b"].steps is None
    assert SEQ["b"].section == "b" and SEQ["c"].section is None
    assert SEQ["a"].takes_orders and not SEQ["c"].takes_orders


def test_a_phase_declared_twice_or_an_unknown_actor_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        SequenceOfPlay((Phase("a", "A", "1.0"), Phase("a", "A again", "1.1")))
    with pytest.raises(ValueError, match="unknown 'acts'"):
        Phase("a", "A", "1.0", "everyone")  # type: ignore[arg-type]


class _Rules:
    def __init__(self, bad: list[Violation]) -> None:
        self.bad = bad
        self.carried = 0

    def validate(self, module: Any, state: GameState, orders: Any) -> list[Violation]:
        return self.bad

    def carry_out(self, module: Any, state: GameState, orders: Any, dice: Any) -> Outcome:
        self.carried += 1
        dice.roll(6, "the carry-out's die")
        return Outcome(state.evolve(turn=2), (), tuple(dice.rolls))


def test_a_refused_file_is_not_carried_out_and_rolls_nothing() -> None:
    rules = _Rules([Violation("1.0", "no")])
    dice = ScriptedDice([4])
    out = run_step(rules, None, _state(), None, dice)  # type: ignore[arg-type]
    assert not out.ok and out.state == _state() and out.rolls == () and out.events == ()
    assert rules.carried == 0 and dice.rolls == []
    assert refused(_state(), [Violation("1.0", "no")]).violations == out.violations


def test_a_valid_file_is_carried_out_with_the_dice() -> None:
    rules = _Rules([])
    out = run_step(rules, None, _state(), None, ScriptedDice([4]))  # type: ignore[arg-type]
    assert out.ok and out.state.turn == 2 and [r.value for r in out.rolls] == [4]
    assert rules.carried == 1


def test_withheld_dice_record_nothing_and_say_so() -> None:
    dice = WithheldDice()
    assert dice.roll(6, "a die while checking") == 1 and dice.rolls == []
    assert checking(dice) and checking(None) and not checking(ScriptedDice([1]))
    carry = Carry(_state())
    assert carry.checking and not Carry(_state(), dice=ScriptedDice([1])).checking
    carry.refuse(Violation("1.0", "no", code="code"))
    assert [p.code for p in carry.problems] == ["code"]
