"""The fuzzing suite, briefly (CI): mutated orders, states, game configs, re-signed reports,
module sources, VASSAL saves and signature blocks through every command that reads them,
for the toy game and for every bundled game (``rules-*``); no internal error, only the
documented exit codes, no run over the time bound. A long run:
``python -m tests.fuzz.fuzz --per-target 3000`` (figures in docs/reliability.md)."""

from __future__ import annotations

import pytest

from tests.fuzz.fuzz import BOUND_S, TARGETS, fuzz


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_mutated_inputs_never_crash(target):
    n = 6 if target.startswith("rules-") else 12  # the bundled games cost more a run
    [tally] = fuzz(n, seed=11, targets=[target]).values()
    assert tally.inputs == n and tally.runs >= n
    assert not tally.crashes, tally.crashes[0]
    assert 70 not in tally.codes
    assert not tally.slow, f"over {BOUND_S} s: {tally.slow[0]}"
