"""Benchmark of whole DTP games by the seeded random scripted player (plain script, not a
test): ``.venv/bin/python bench/bench_dtp_campaign.py``.

For each scenario -- the Med under DTP (``short`` and the ``campaign``) [DTP 11.0], Denmark
Strait [DTP 11.3] and Iceland [DTP 11.31] -- the scripted player (``RULESET.scripted_orders``)
plays the whole game in-process with seeded dice: the number of orders files and of combat
impulses, the total time (the scripted player's own search included: it checks every
candidate line with the phase's check), and the time to adjudicate one file
(``validate`` + ``resolve``): median and maximum over all files and over the impulses alone.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from bench.games import scripted_game
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[1]

GAMES = (
    ("sixth_fleet_dtp", "short"),
    ("sixth_fleet_dtp", "campaign"),
    ("dtp_denmark_strait", "denmark_strait"),
    ("dtp_denmark_strait", "iceland"),
)


def play(source: str, scenario: str) -> str:
    module, diags = load_module(ROOT / "module_src" / source)
    assert module is not None, [str(d) for d in diags.items]
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, scenario, f"bench-{scenario}")
    every: list[float] = []
    impulses: list[float] = []
    t0 = time.perf_counter()
    for step in scripted_game(rs, module, state):
        every.append(step.seconds)
        if step.before.phase == "combat":
            impulses.append(step.seconds)
        state = step.after
    k = len(every)
    total = time.perf_counter() - t0
    score = rs.score(module, state)
    return (
        f"| {module.scenarios[scenario].name} | {state.turn} | {k} | {len(impulses)} | "
        f"{total:.2f} s | {statistics.median(every) * 1000:.1f} / {max(every) * 1000:.1f} ms | "
        f"{statistics.median(impulses) * 1000:.2f} / {max(impulses) * 1000:.2f} ms | "
        f"{score['net']} ({score['level']}) |"
    )


def main() -> None:
    print(
        "| game | Game-Turns | files | impulses | whole game | adjudicate a file, median / max "
        "| an impulse, median / max | net VP |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for source, scenario in GAMES:
        print(play(source, scenario), flush=True)


if __name__ == "__main__":
    main()
