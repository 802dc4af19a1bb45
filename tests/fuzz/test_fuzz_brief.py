"""The fuzzing suite, briefly (CI): mutated orders, states, game configs, re-signed reports,
module sources and VASSAL saves through every command that reads them; no internal error,
only the documented exit codes. A long run: ``python -m tests.fuzz.fuzz --per-target 3000``
(figures in docs/reliability.md)."""

from __future__ import annotations

import pytest

from tests.fuzz.fuzz import TARGETS, fuzz


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_mutated_inputs_never_crash(target):
    [tally] = fuzz(12, seed=11, targets=[target]).values()
    assert tally.inputs == 12 and tally.runs >= 12
    assert not tally.crashes, tally.crashes[0]
    assert 70 not in tally.codes
