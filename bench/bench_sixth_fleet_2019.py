"""Benchmark the Sixth Fleet (2019) ruleset: a whole scripted game in-process, and one phase
adjudicated as a whole process (``referee adjudicate`` in a fresh interpreter).

Plain script (not a timed test): ``.venv/bin/python bench/bench_sixth_fleet_2019.py``.

1. The scripted player plays the 1980s scenario to its end (15 turns, 60 orders files) with
   seeded dice, in-process: the total, and the median validate + resolve of one file.
2. ``make demo-2019``'s signed game (two turns, into a temporary folder), then the next four
   steps (both sides' Random Events and Action Phases of turn 3), each signed in-process and
   adjudicated by ``python -m referee adjudicate`` as its own process: the wall time and the
   CPU time (user + system, which the other work on a shared machine does not inflate) of
   each, which include Python's start-up, loading the module source and writing the turn
   folder (reports, position picture, one position-SIDE.vsav and view per side, commitments,
   signatures: the strike cups are hidden, provisional 17.0). The child processes may
   write bytecode even where ``PYTHONDONTWRITEBYTECODE`` is set (compiling every module
   from source on each start costs about 0.3 s, which an installed tool never pays).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.games import scripted_game
from referee.demos import sixth_fleet_2019 as demo_2019
from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.pbem.keys import load_private
from referee.pbem.signing import sign_orders
from referee.source.loader import load_module

REPO = Path(__file__).resolve().parents[1]


def in_process() -> None:
    module, _ = load_module(demo_2019.SRC)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, "s1980", "bench")
    times = []
    t0 = time.perf_counter()
    for step in scripted_game(rs, module, state):
        times.append(step.seconds)
        state = step.after
    k = len(times)
    total = time.perf_counter() - t0
    print(
        f"scripted 1980s game: {k} orders files, {state.turn} turns, {total:.2f} s in all "
        f"(scripted player included); validate + resolve median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
    )


def whole_process() -> None:
    tmp = Path(tempfile.mkdtemp())
    try:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            game = demo_2019.demo(tmp / "demo", play_aids_too=False)
        keys = tmp / "demo" / "keys"
        module, _ = load_module(demo_2019.SRC)
        assert module is not None
        rs = get_ruleset(module.ruleset)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "referee", "--help"],
            check=True,
            cwd=REPO,
            capture_output=True,
            env=env,
        )
        print(f"baseline: python -m referee --help (start-up): {time.perf_counter() - t0:.2f} s")
        for k in range(4):
            # the referee's full position (the strike cups are hidden), the side's view of it
            full = json.loads((game / "secret" / "state.json").read_text("utf-8"))
            state = GameState.from_json(full)
            seen = rs.view(module, state, state.active_side)
            text = rs.scripted_orders(module, seen)  # type: ignore[attr-defined]
            assert text is not None
            side = "nato" if "side: NATO" in text else "soviet"
            signed = sign_orders(text, "o.txt", load_private(keys / f"{side}.key"), game)
            path = tmp / f"o{k}.txt"
            path.write_text(signed.text, encoding="utf-8")
            cmd = [
                sys.executable,
                "-m",
                "referee",
                "adjudicate",
                str(game),
                str(path),
                "--key",
                str(keys / "referee.key"),
                "--referee-dir",
                str(tmp / "demo" / "referee"),
                "-q",
            ]
            c0 = _children_cpu()
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, cwd=REPO, env=env)
            dt = time.perf_counter() - t0
            cpu = _children_cpu() - c0
            what = f"{state.phase} of turn {state.turn}"
            print(f"referee adjudicate, {what} (whole process): {dt:.2f} s wall, {cpu:.2f} s CPU")
    finally:
        shutil.rmtree(tmp)


def _children_cpu() -> float:
    """User + system CPU seconds of the finished child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


if __name__ == "__main__":
    in_process()
    whole_process()
