"""Benchmark: one bundled demo played in this process, each command's CPU and what it leaves.

Plain script (not a timed test): ``python bench/bench_demo.py [--demo NAME] [--out DIR]
[--json FILE]`` (``NAME`` one of ``python -m referee.demos --only``'s, default
``naval_module``; ``dtp_westpac`` is the costliest). The demo runs as ``make demo`` runs it
(``referee.demos.NAME.main`` with ``--no-play-aids``: every ``referee`` command in this
process), and for each command this script records the CPU it took (``time.process_time``:
user + system) and, after each ``adjudicate``, the number of objects the garbage collector
tracks once a collection has run: what a long run in one process (a demo, the test session, a
script over the library) keeps from one step to the next. A count that grows with every step
is a cache that is not bounded; the demo's printed step times are wall-clock and say little
on a shared machine.

It prints the whole run's CPU, the CPU by command, the live-object count after the first and
the last ``adjudicate`` and the ten types that grew most between them.
"""

from __future__ import annotations

import argparse
import collections
import gc
import importlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.demos import base  # noqa: E402


def live() -> collections.Counter[str]:
    """The objects the collector tracks, by type name, after a full collection."""
    gc.collect()
    return collections.Counter(type(o).__name__ for o in gc.get_objects())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--demo", default="naval_module", help="the demo (referee.demos.NAME)")
    ap.add_argument("--out", type=Path, help="where the demo writes (default: a temp folder)")
    ap.add_argument("--json", type=Path, help="also write every command's row here")
    ns = ap.parse_args(argv)
    mod = importlib.import_module(f"referee.demos.{ns.demo}")
    rows: list[dict[str, Any]] = []
    counts: list[collections.Counter[str]] = []
    invoke = base._invoke

    def timed(args: list[str]) -> Any:
        t0 = time.process_time()
        ran = invoke(args)
        row: dict[str, Any] = {"command": args[0], "cpu": round(time.process_time() - t0, 3)}
        if args[0] == "adjudicate":
            counts.append(live())
            row["live"] = sum(counts[-1].values())
        rows.append(row)
        return ran

    base._invoke = timed
    with tempfile.TemporaryDirectory() as tmp:
        out = ns.out or Path(tmp) / ns.demo
        t0 = time.process_time()
        code = mod.main([str(out), "--no-play-aids"])
        total = time.process_time() - t0
    base._invoke = invoke
    by: dict[str, list[float]] = collections.defaultdict(list)
    for r in rows:
        by[r["command"]].append(r["cpu"])
    print(f"\n== {ns.demo}: exit {code}, {total:.1f} s CPU in all (user + system)")
    for name, cpus in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        print(f"   {name:12} {len(cpus):3} runs  {sum(cpus):7.1f} s  (max {max(cpus):.2f} s)")
    if counts:
        first, last = counts[0], counts[-1]
        steps = len(counts) - 1
        grew = last.copy()
        grew.subtract(first)
        print(
            f"   live objects after adjudicate 1: {sum(first.values()):,}; after adjudicate "
            f"{steps + 1}: {sum(last.values()):,}"
            + (
                f" ({(sum(last.values()) - sum(first.values())) / steps:+,.0f} a step)"
                if steps
                else ""
            )
        )
        top = sorted(grew.items(), key=lambda kv: -kv[1])[:10]
        print("   grew most: " + ", ".join(f"{k} {v:+,}" for k, v in top))
    if ns.json:
        ns.json.write_text(json.dumps({"demo": ns.demo, "cpu": total, "rows": rows}, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
