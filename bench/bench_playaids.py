"""Benchmark: counter sheets and charts for the bundled module (target: under 3 s together).

Run: ``.venv/bin/python bench/bench_playaids.py [SRC] [--repeat N]`` (default source:
module_src/sixth_fleet, else the mini test module). Prints the best wall-clock seconds of N
runs per stage, each run on a freshly loaded module (as a fresh ``referee sheets`` /
``referee charts`` process would see it) and writing into a temporary folder. The machine is
usually shared, so only the best of N runs means anything.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from referee.render.playaids import write_charts, write_sheets  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from referee.source.model import Module  # noqa: E402


def _first_loading(candidates: list[Path]) -> tuple[Path, Module]:
    for src in candidates:
        module, _ = load_module(src)
        if module is not None:
            return src, module
    sys.exit("no module source loads")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("src", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    candidates = args.src or [
        REPO / "module_src" / "sixth_fleet",
        REPO / "tests" / "fixtures" / "modules" / "mini",
    ]
    src, module = _first_loading(candidates)
    print(
        f"module: {module.id} ({len(module.units)} roster rows, "
        f"{sum(u.count for u in module.units)} counters), best of {args.repeat}"
    )
    best = {"sheets": 1e9, "charts": 1e9, "sheets + charts": 1e9, "bleed + PNG": 1e9}
    pages = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for _ in range(args.repeat):
            module, _ = load_module(src)  # cold per-module caches, like a fresh process
            assert module is not None
            t0 = time.perf_counter()
            sheets = write_sheets(module, out)
            t1 = time.perf_counter()
            charts = write_charts(module, out)
            t2 = time.perf_counter()
            write_sheets(module, out, png=True, bleed="0.0625in")
            t3 = time.perf_counter()
            for stage, seconds in (
                ("sheets", t1 - t0),
                ("charts", t2 - t1),
                ("sheets + charts", t2 - t0),
                ("bleed + PNG", t3 - t2),
            ):
                best[stage] = min(best[stage], seconds)
            pages = {"sheets": sheets.pages, "charts": charts.pages, "pngs": len(charts.files) - 1}
    print(f"sheets: {best['sheets']:.2f} s ({pages['sheets']} pages)")
    print(f"charts: {best['charts']:.2f} s ({pages['charts']} pages, {pages['pngs']} PNGs)")
    print(f"sheets + charts: {best['sheets + charts']:.2f} s (target < 3 s)")
    print(f"sheets with bleed and PNG previews: {best['bleed + PNG']:.2f} s")


if __name__ == "__main__":
    main()
