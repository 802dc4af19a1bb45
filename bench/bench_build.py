"""Benchmark ``referee build``: the bundled module and a synthetic 1,000-counter module.

Run: ``.venv/bin/python bench/bench_build.py [--repeat N] [--rows N] [--stages]``.

It prints one line per case: counters, pictures, archive bytes and the best wall time of N
builds, with one rendering process and with all cores, and checks that both give the same
bytes. Each build starts from a freshly loaded module, as ``referee build`` does, so the
per-module caches of the renderer (counter type sizes, fonts aside) start cold every time.
The synthetic module is the test fixture ``mini`` with its roster replaced by 1,000 rows (one
counter each), generated in a temporary folder. ``--stages`` also times the stages of a
serial build one by one: planning, the board, the charts, the counter faces.

The machine is usually shared, so only the best of N runs means anything.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.source.loader import load_module  # noqa: E402
from referee.source.model import Module  # noqa: E402
from referee.vassal.module.module_writer import build_module  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "modules" / "mini"
BUNDLED = ROOT / "module_src" / "sixth_fleet"
T = TypeVar("T")


def synthetic_source(folder: Path, rows: int) -> Path:
    """A copy of ``mini`` whose roster has ``rows`` rows cycling through mini's designs."""
    src = folder / "synthetic"
    shutil.copytree(MINI, src)
    text = (src / "units.csv").read_text()
    reader = list(csv.DictReader(io.StringIO(text)))
    header = list(reader[0].keys())
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, lineterminator="\n")
    writer.writeheader()
    for i in range(rows):
        row = dict(reader[i % len(reader)])
        row["id"] = f"{row['id']}-{i:04d}"
        row["number"] = str(i % 100)
        row["name"] = f"{row['name']} {i}"
        row["count"] = "1"
        writer.writerow(row)
    (src / "units.csv").write_text(out.getvalue())
    # scenarios name mini's piece ids; keep the scenario files valid by dropping them
    toml = (src / "module.toml").read_text()
    toml = toml.replace('scenarios = ["scenarios/skirmish.toml", "scenarios/long.toml"]',
                        "scenarios = []")  # fmt: skip
    (src / "module.toml").write_text(toml)
    return src


def _load(path: Path) -> Module:
    module, diags = load_module(path)
    if module is None:
        raise SystemExit(f"{path} does not load: {[str(d) for d in diags.errors][:3]}")
    return module


def best_of(
    repeat: int, run: Callable[[T], object], setup: Callable[[], T] = lambda: None
) -> float:
    """The best wall time of ``repeat`` calls of ``run(setup())``, not timing ``setup``."""
    best = float("inf")
    for _ in range(repeat):
        arg = setup()
        t0 = time.perf_counter()
        run(arg)
        best = min(best, time.perf_counter() - t0)
    return best


def bench(name: str, src: Path, repeat: int, out: Path) -> None:
    """Build ``src`` ``repeat`` times serially and ``repeat`` times with every core."""
    archives: dict[int, bytes] = {}
    for workers in (1, os.cpu_count() or 1):
        best = float("inf")
        result = None
        for _ in range(repeat):
            module = _load(src)  # cold caches, like a fresh `referee build`
            t0 = time.perf_counter()
            result = build_module(module, out / str(workers), workers=workers)
            best = min(best, time.perf_counter() - t0)
        assert result is not None
        archives[workers] = result.path.read_bytes()
        print(
            f"{name:<28} workers={workers}  counters={result.counters:5d}  "
            f"images={result.images:5d}  bytes={result.bytes:>10,}  best={best:6.2f} s"
        )
    same = len(set(archives.values())) == 1
    print(f"{name:<28} serial and parallel archives byte-identical: {same}")
    if not same:
        raise SystemExit("serial and parallel builds differ")


def stages(name: str, src: Path, repeat: int) -> None:
    """Each stage of a build on its own (best of ``repeat``), in one process."""
    from referee.render.board import board_png
    from referee.render.charts import chart_png
    from referee.render.counters import counter_png
    from referee.vassal.module.module_writer import plan_build

    module = _load(src)
    plan = plan_build(module)
    dpi = plan.dpi

    def faces(fresh: Module) -> None:
        for unit, back in plan.faces:
            counter_png(fresh, fresh.units[index[unit.id]], back=back, dpi=dpi)

    index = {u.id: i for i, u in enumerate(module.units)}
    timings = {
        "plan": best_of(repeat, lambda _: plan_build(module, dpi=dpi)),
        f"board_png {dpi} dpi": best_of(repeat, lambda _: board_png(module, dpi)),
        "charts": best_of(
            repeat, lambda _: [chart_png(module, c.source, dpi=dpi) for c in plan.charts]
        ),
        # a freshly loaded module each time: the type sizes are worked out per module
        f"counter faces ({len(plan.faces)})": best_of(repeat, faces, lambda: _load(src)),
    }
    for stage, seconds in timings.items():
        print(f"{name:<28} {stage:<28} best={seconds:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--stages", action="store_true", help="also time each stage alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        cases = [("mini (fixture)", MINI)]
        if (BUNDLED / "module.toml").is_file():
            cases.append(("sixth_fleet (bundled)", BUNDLED))
        else:
            print("sixth_fleet (bundled): not present yet")
        cases.append((f"synthetic ({args.rows} rows)", synthetic_source(Path(tmp), args.rows)))
        for name, src in cases:
            bench(name, src, args.repeat, out)
            if args.stages:
                stages(name, src, args.repeat)


if __name__ == "__main__":
    main()
