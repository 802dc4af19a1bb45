"""Benchmark: what keeping the cache within its bound costs a command that stored entries.

Plain script (not a timed test): ``python bench/bench_cache_prune.py [--entries N]
[--runs N]``. A cache folder in a temporary place is filled with ``N`` entries (default
12,000, the size of a user's cache the demos measured, each a few hundred bytes: the count,
not the bytes, is what listing costs), then, each as a command ends (``cache.activated``):

- ``walk``: one entry stored and the whole folder listed (:meth:`referee.cache.Cache.prune`,
  what every storing command did before the ledger);
- ``ledger``: one entry stored and :meth:`~referee.cache.Cache.settle` finding the ledger under
  the bound (what a storing command does now, nearly always);
- ``over``: the same with the bound at what the folder held before the store, so the ledger
  sends it to a walk that prunes to 90 % of the bound (3 runs, each on a folder filled anew).

CPU of the step after the store (``time.process_time``: user + system), median of
``--runs``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.cache import Cache, digest  # noqa: E402

OVER_RUNS = 3


def fill(root: Path, n: int) -> int:
    """``n`` entries of 200 bytes in a cache at ``root`` (one walk to start the ledger);
    the bytes they take."""
    cache = Cache(root, max_bytes=1 << 40)
    for i in range(n):
        cache.put("png", digest("bench entry", i), bytes(200))
    cache.prune()
    return cache.stats.stored_bytes


def timed(root: Path, bound: int, runs: int, how: str) -> float:
    """Median CPU seconds of ``how`` (``prune`` or ``settle``) after one store, ``runs`` times."""
    costs = []
    for i in range(runs):
        cache = Cache(root, max_bytes=bound)
        cache.put("png", digest("bench store", how, bound, i, time.time()), bytes(200))
        t0 = time.process_time()
        cache.prune() if how == "prune" else cache.settle()
        costs.append(time.process_time() - t0)
    return statistics.median(costs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", type=int, default=12_000, help="entries in the folder")
    ap.add_argument("--runs", type=int, default=9, help="runs of each case (median kept)")
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-prune-") as tmp:
        root = Path(tmp) / "cache"
        held = fill(root, ns.entries)
        roomy = held * 4
        walk = timed(root, roomy, ns.runs, "prune")
        ledger = timed(root, roomy, ns.runs, "settle")
        overs = []
        for i in range(OVER_RUNS):  # each on a full folder: a walk prunes a tenth of it
            full = Path(tmp) / f"full-{i}"
            overs.append(timed(full, fill(full, ns.entries), 1, "settle"))
        over = statistics.median(overs)
    print(
        f"{ns.entries} entries ({held / 1e6:.1f} MB): after a store, the whole folder listed "
        f"{walk * 1000:.1f} ms CPU; the ledger under the bound {ledger * 1000:.2f} ms; "
        f"the ledger over the bound (a walk that prunes) {over * 1000:.1f} ms "
        f"(medians of {ns.runs}, {OVER_RUNS})"
    )


if __name__ == "__main__":
    main()
