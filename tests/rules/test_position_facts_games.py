"""Every position a whole game passes through fits its ruleset's declared position facts
(``docs/rulesets.md``, "Position facts"), and so does every side's view of it: what the
rules write is what the declaration says, so ``--state`` never refuses a state the referee
wrote. Played by the scripted player with fixed dice, for each ruleset that declares them."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from referee.engine.ruleset import get_ruleset, position_facts
from referee.engine.scripted import orders_for
from referee.pbem.dice import CommittedDice
from referee.source.loader import load_module

SRC = Path(__file__).resolve().parents[2] / "module_src"
GAMES = {
    "carrier_battlegroup": ("carrier_battlegroup", "mission"),
    "sixth_fleet_1975": ("sixth_fleet", "short"),
    "sixth_fleet_2019": ("sixth_fleet_2019", "s1970"),
    # DTP [DTP 11.0]: the Med, and the North Atlantic's Denmark Strait [DTP 11.3]
    "sixth_fleet_dtp": ("sixth_fleet_dtp", "short"),
    "dtp_denmark_strait": ("dtp_denmark_strait", "denmark_strait"),
    "dtp_iceland": ("dtp_denmark_strait", "iceland"),  # [DTP 11.31]: Keflavik held at the start
    "naval_module": ("naval_module", "kerch_feodosia"),
}
WESTPAC_STEPS = 60
"""Westpac [DTP 11.50] is long (770 steps): its set-up [DTP 11.505], hostilities, the
reinforcement track and the first Game-Turns, every fact of its own written by then."""


def _play(folder: str, scenario: str, steps: int) -> tuple[int, str | None]:
    """Play the scripted player's game for at most ``steps`` steps, checking every position
    and each side's view of it against the declared facts; the positions checked, and the
    last orders (``None``: the game ended)."""
    module, diags = load_module(SRC / folder)
    assert module is not None, [str(d) for d in diags.items]
    rs = get_ruleset(module.ruleset)
    facts = position_facts(rs)
    assert facts is not None
    state = rs.new_game(module, scenario, "facts")
    sides = [s.id for s in module.sides]
    checked = 0
    text: str | None = ""
    for k in range(1, steps):
        for seen in [state, *(rs.view(module, state, side) for side in sides)]:
            facts.check(seen.data)
            checked += 1
        text = orders_for(module, state, rs)
        if text is None:
            break
        doc = rs.parse_orders(text, f"step-{k:03d}.txt")
        sha = hashlib.sha256(text.encode()).hexdigest()
        dice = CommittedDice(b"f" * 32, k, sha, b"h" * 32)
        state = rs.resolve(module, state, doc, dice).state
    return checked, text


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_position_of_a_game_and_its_views_fit_the_declared_facts(game: str) -> None:
    checked, text = _play(*GAMES[game], 400)
    assert text is None, "the game did not end within 400 steps"
    assert checked > 20


@pytest.mark.slow
def test_every_position_of_a_westpac_slice_and_its_views_fit_the_declared_facts() -> None:
    checked, text = _play("dtp_westpac", "westpac", WESTPAC_STEPS)
    assert text is not None and checked == 3 * (WESTPAC_STEPS - 1)


FROM_CASES = ("naval_module",)
"""The rulesets whose conformance positions are checked too: a scripted game leaves some facts
unwritten (the naval module's weather, captured ports, Naval Bases placed, standing orders),
which the cases set up or write."""


@pytest.mark.parametrize("ruleset", FROM_CASES)
def test_every_position_of_the_conformance_cases_fits_the_declared_facts(ruleset: str) -> None:
    """Each case's position as the harness builds it and as each of its steps leaves it; and
    each declared fact is held by one of them (the declaration names no dead key)."""
    from tests.conformance.harness import ADAPTERS, Play, case_paths, load_case, run_step

    facts = position_facts(get_ruleset(ruleset))
    assert facts is not None
    seen: set[str] = set()
    for path in case_paths(ruleset):
        case = load_case(path)
        if "position" not in case:
            continue
        adapter = ADAPTERS[case["ruleset"]]
        play = Play(adapter, adapter.module(case["position"]), None)
        play.state = adapter.build(play.module, case["position"])
        for i, step in enumerate(case["steps"]):
            try:
                facts.check(play.state.data)
            except Exception as e:
                raise AssertionError(f"{path.name}, before step {i}: {e}") from e
            seen |= set(play.state.data)
            run_step(play, step)
        facts.check(play.state.data)
        seen |= set(play.state.data)
    # every fact declared is one the rules (or a case's set-up) write: none is dead
    unseen = set(facts.declared()) - {"vassal_pieces"} - seen
    assert not unseen, sorted(unseen)
