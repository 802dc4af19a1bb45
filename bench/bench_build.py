"""Benchmark ``referee build``: the bundled module and a synthetic 1,000-counter module.

Run: ``.venv/bin/python bench/bench_build.py [--repeat N]``. It prints one line per case:
counters, pictures, archive bytes and the best wall time of N runs, with one rendering
process and with all cores. The synthetic module is the test fixture ``mini`` with its roster
replaced by 1,000 rows (one counter each), generated in a temporary folder.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.source.loader import load_module  # noqa: E402
from referee.source.model import Module  # noqa: E402
from referee.vassal.module_writer import build_module  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "modules" / "mini"
BUNDLED = ROOT / "module_src" / "sixth_fleet"


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


def bench(name: str, module: Module, repeat: int, out: Path) -> None:
    for workers in (1, os.cpu_count() or 1):
        best = float("inf")
        result = None
        for _ in range(repeat):
            t0 = time.perf_counter()
            result = build_module(module, out, workers=workers)
            best = min(best, time.perf_counter() - t0)
        assert result is not None
        print(
            f"{name:<28} workers={workers}  counters={result.counters:5d}  "
            f"images={result.images:5d}  bytes={result.bytes:>10,}  best={best:6.2f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        bench("mini (fixture)", _load(MINI), args.repeat, out)
        if (BUNDLED / "module.toml").is_file():
            bench("sixth_fleet (bundled)", _load(BUNDLED), args.repeat, out)
        else:
            print("sixth_fleet (bundled): not present yet")
        synth = _load(synthetic_source(Path(tmp), args.rows))
        bench(f"synthetic ({args.rows} rows)", synth, args.repeat, out)


if __name__ == "__main__":
    main()
