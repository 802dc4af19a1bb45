"""The naval module's ``Due`` (docs/rulesets.md): who is awaited, for what, as the core reads it
through ``due_of``; ``awaiting`` is its first entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.commands.common import load_checked
from referee.engine.core import PendingDecision
from referee.engine.ruleset import due_of, get_ruleset
from referee.rules.naval_module import sequence as seq

SRC = Path(__file__).resolve().parents[1] / "module_src" / "naval_module"
NM = get_ruleset("naval_module")


@pytest.fixture(scope="module")
def module() -> Any:
    return load_checked(SRC, quiet=True)


def test_each_step_names_its_side(module: Any) -> None:
    st = NM.new_game(module, "kerch_feodosia", "nm-due")
    (d,) = due_of(NM, module, st)
    assert (d.side, d.kind) == ("Axis", "orders")
    assert d.what.endswith("[25.32]")  # the Naval Readiness Phase of the first player
    # the other player's step: the Naval Movement Interdiction Box [31.1]
    inter = st.evolve(phase="interdiction")
    (d,) = due_of(NM, module, inter)
    assert d.side == "Soviet" and "[31.1]" in d.what
    assert NM.awaiting(module, inter) == (d.side, d.what)


def test_a_pending_abort_is_an_answer(module: Any) -> None:
    st = NM.new_game(module, "kerch_feodosia", "nm-due").evolve(phase="movement")
    pd = PendingDecision(
        id="abort-SU-T-GPB",
        side="Soviet",
        kind="abort",
        rule="27.32b",
        prompt="Abort for SU-T-GPB: return to Sevastopol, or take one more damage point",
        options=("return", "damage"),
        context={"ship": "SU-T-GPB", "phase": "movement"},
    )
    (d,) = due_of(NM, module, st.evolve(pending=(pd,)))
    assert (d.side, d.kind) == ("Soviet", "answer")
    assert "abort-SU-T-GPB" in d.what and d.what.endswith("[27.32b]")


def test_nothing_is_due_once_the_game_is_over(module: Any) -> None:
    st = NM.new_game(module, "kerch_feodosia", "nm-due")
    over = st.evolve(phase=seq.GAME_OVER, active_side=None)
    assert due_of(NM, module, over) == ()
    assert NM.awaiting(module, over)[0] == ""
