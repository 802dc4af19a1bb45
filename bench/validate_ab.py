"""Validate speed of this tree against an older checkout, on a loaded machine (plain script).

``python bench/validate_ab.py --old DIR [--rounds 5] [--callgrind]``

``bench/bench_engine.py`` times item 1 (validating one 60-order Movement Phase) in one
process; on a machine shared with other work its figure moves by more than the 10 % the
project allows between versions (issue 10). This script compares two versions fairly:

* the position and the orders are made once, by the **older** tree's random player (the same
  recipe as ``bench_engine.py``), and both trees validate exactly those;
* each round runs the old tree, then this one, in fresh processes one right after the other,
  so both see the same load; each process reports its best and median of ``--reps`` calls;
* ``--callgrind`` also counts the instructions one validate executes in each tree
  (``valgrind --tool=callgrind``: a run with ``--reps`` calls minus a run with none), which
  does not depend on the load at all.

``DIR`` is a checkout of the older commit, e.g. ``git worktree add --detach /tmp/old fbf3ec5``
(the commit whose figure ``docs/performance.md`` quotes). Both trees must have
``module_src/sixth_fleet`` and ``tests/rules/play.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MAKE = """
import random, sys
from pathlib import Path
from referee.rules.sixth_fleet_1975.movement import reachable
from referee.source.loader import load_module
from tests.rules.play import header, play
try:
    from referee.rules.sixth_fleet_1975.context import Game
except ImportError:
    Game = None
module, _ = load_module(Path("module_src/sixth_fleet"))
steps = []
play(module, "campaign", seed=7, steps=1000, check=steps.append)
state = next(s for s in steps if s.phase == "movement" and s.turn >= 2 and not s.pending)
side, rng, lines = state.active_side, random.Random(1), []
for u in sorted(u.id for u in state.units.values() if u.side == side and u.location):
    r = reachable(Game.of(module, state), state, u) if Game else reachable(module, state, u)
    r = [x for x in r.values() if x.may_end and x.cost > 0]
    if r:
        x = rng.choice(sorted(r, key=lambda x: x.hex))
        lines.append(f"move {u} {' '.join(x.path[1:])}")
while len(lines) < 60:
    lines += lines[: 60 - len(lines)]
Path(sys.argv[1]).write_text(state.canonical())
Path(sys.argv[2]).write_text(header(state, side) + "[movement]\\n" + "\\n".join(lines[:60]) + "\\n")
"""

TIME = """
import json, statistics, sys, time
from pathlib import Path
from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
module, _ = load_module(Path("module_src/sixth_fleet"))
rs = get_ruleset(module.ruleset)
state = GameState.from_json(json.loads(Path(sys.argv[1]).read_text()))
doc = parse_orders(Path(sys.argv[2]).read_text(), "bench.txt", VOCABULARY)
assert not rs.validate(module, state, doc), "the orders must be legal in both trees"
ts = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    rs.validate(module, state, doc)
    ts.append(time.perf_counter() - t)
if ts:
    print(min(ts) * 1000, statistics.median(ts) * 1000)
"""


def _run(tree: Path, code: str, *args: str, prefix: tuple[str, ...] = ()) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    cmd = [*prefix, sys.executable, "-c", code, *args]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr.strip()[-2000:]}")
    return done.stdout + done.stderr


def _instructions(tree: Path, state: str, orders: str, reps: int) -> float:
    """Instructions of one validate in ``tree`` (callgrind: ``reps`` calls minus none)."""
    counts = []
    for n in (0, reps):
        out = _run(
            tree,
            TIME,
            state,
            orders,
            str(n),
            prefix=("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
        )
        counts.append(int(re.search(r"Collected : (\d+)", out).group(1)))  # type: ignore[union-attr]
    return (counts[1] - counts[0]) / reps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="checkout of the older commit")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=400, help="validate calls per process")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions")
    a = ap.parse_args()
    trees = {"old": a.old.resolve(), "new": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        state, orders = str(Path(tmp) / "state.json"), str(Path(tmp) / "orders.txt")
        _run(trees["old"], MAKE, state, orders)
        best: dict[str, list[float]] = {"old": [], "new": []}
        med: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(a.rounds):
            for name, tree in trees.items():
                b, m = map(float, _run(tree, TIME, state, orders, str(a.reps)).split())
                best[name].append(b)
                med[name].append(m)
            print(
                f"round {r + 1}: old best {best['old'][-1]:.3f} ms (median "
                f"{med['old'][-1]:.3f}), new best {best['new'][-1]:.3f} ms (median "
                f"{med['new'][-1]:.3f})"
            )
        bo, bn = min(best["old"]), min(best["new"])
        print(
            f"best of all rounds: old {bo:.3f} ms, new {bn:.3f} ms ({(bn / bo - 1) * 100:+.1f} %)"
        )
        if a.callgrind:
            io = _instructions(trees["old"], state, orders, 50)
            inn = _instructions(trees["new"], state, orders, 50)
            print(
                f"instructions per validate: old {io / 1e6:.2f} M, new {inn / 1e6:.2f} M "
                f"({(inn / io - 1) * 100:+.1f} %)"
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
