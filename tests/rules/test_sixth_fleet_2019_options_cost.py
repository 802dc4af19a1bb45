"""The 2019 options judge each candidate line by the check of its one order
(:data:`referee.rules.sixth_fleet_2019.options.CHECKS`), not by the whole of ``validate``, so
that publishing them at every step stays cheap (issue 25). Here both verdicts are taken on every
candidate of every unit of the acting side, in the scenario's opening position after the
Random Events Phase and in built positions with units in the Refit box and waiting as
reinforcements: they must agree on each, accepted and refused lines both occurring."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_2019 import options
from tests.conformance.rulesets.sixth_fleet_2019 import build_state, module_2019


def opening() -> GameState:
    """The 1980 scenario after its first Random Events Phase: the Soviet Action Phase."""
    module = module_2019()
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "s1980", "cost")
    while not state.phase.endswith("_actions"):
        text = rs.scripted_orders(module, rs.view(module, state, state.active_side))  # type: ignore[attr-defined]
        out = rs.resolve(module, state, rs.parse_orders(text, "o"), SeededDice(7))
        assert out.ok, out.violations
        state = out.state
    return state


def built(case: dict) -> GameState:
    return build_state(module_2019(), case)


REFIT = [["SO-KR-1", "Refit Box"], ["SO-MIG21", "Refit Box"], ["US-CG-1", "Ionian Sea"]]
WAITING = [["SO-MIG23.1", None], ["SO-TU16.1", "Romania"], ["SO-TU16.2", "Romania"]]
WAITING += [["SO-TU16.3", "Romania"], ["SO-TU20", "Romania"], ["SO-IL38", "Romania"]]
WAITING += [["SO-MIG29", "Romania"], ["US-CG-1", "Ionian Sea"]]


@pytest.mark.parametrize(
    ("position", "verbs"),
    [
        (opening, {"move", "attack"}),
        (lambda: built({"turn": 2, "phase": "soviet_actions", "units": REFIT}), {"refit"}),
        (lambda: built({"turn": 2, "phase": "soviet_actions", "units": WAITING}), {"reinforce"}),
    ],
    ids=["opening", "refit", "reinforcements"],
)
def test_each_candidate_is_judged_as_validate_judges_it(
    position, verbs: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every candidate of every third unit of the acting side (all of them in the small
    positions): the same verdict both ways."""
    module = module_2019()
    rs = get_ruleset(module.ruleset)
    state = position()
    fast = options._legal
    verdicts: Counter[tuple[str, bool]] = Counter()

    def both(game, ready, side, line):  # type: ignore[no-untyped-def]
        got = fast(game, ready, side, line)
        assert got == options.validated(game, ready, side, line), line
        verdicts[line.split()[0], got] += 1
        return got

    monkeypatch.setattr(options, "_legal", both)
    side = state.active_side
    mine = sorted(u for u, s in state.units.items() if s.side == side)
    for uid in mine[::3] if len(mine) > 12 else mine:
        rs.options(module, state, uid, limit=0)  # type: ignore[attr-defined]
    for verb in verbs:
        assert verdicts[verb, True] and verdicts[verb, False], verdicts
