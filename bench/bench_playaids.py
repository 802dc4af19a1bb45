"""Benchmark: counter sheets and charts for the bundled module (target: under 3 s together).

Run: .venv/bin/python bench/bench_playaids.py [SRC]   (default: module_src/sixth_fleet, else
the mini test module). Prints wall-clock seconds per stage; writes into a temporary folder.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from referee.render.playaids import write_charts, write_sheets
from referee.source.loader import load_module

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    candidates = [Path(a) for a in sys.argv[1:]] or [
        REPO / "module_src" / "sixth_fleet",
        REPO / "tests" / "fixtures" / "modules" / "mini",
    ]
    module = None
    for src in candidates:
        module, _ = load_module(src)
        if module is not None:
            break
    if module is None:
        sys.exit("no module source loads")
    print(
        f"module: {module.id} ({len(module.units)} roster rows, "
        f"{sum(u.count for u in module.units)} counters)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        t0 = time.perf_counter()
        sheets = write_sheets(module, out)
        t1 = time.perf_counter()
        charts = write_charts(module, out)
        t2 = time.perf_counter()
        write_sheets(module, out, png=True, bleed="0.0625in")
        t3 = time.perf_counter()
    print(f"sheets: {t1 - t0:.2f} s ({sheets.pages} pages)")
    print(f"charts: {t2 - t1:.2f} s ({charts.pages} pages, {len(charts.files) - 1} PNGs)")
    print(f"sheets + charts: {t2 - t0:.2f} s (target < 3 s)")
    print(f"sheets with bleed and PNG previews: {t3 - t2:.2f} s")


if __name__ == "__main__":
    main()
