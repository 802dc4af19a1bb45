"""Benchmark a designer's art on its largest accepted input: a map picture near the pixel
limit (8,400 x 6,000 px, 50 megapixels, turned 2 degrees) under the mini's hex grid.

Run: ``.venv/bin/python bench/bench_art.py [--repeat N]``.

It prints the CPU time (user + system of this process, best of N) of loading the source
(decoding and checking the picture, fitting the anchors, sampling the legend colours) and of
drawing the VASSAL board from it (turning and scaling the picture onto the grid at 100 dpi),
and the process's peak memory. The picture is drawn by the tests' own helper
(``tests/art/pictures.py``) in a temporary folder.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.render.board import render_board  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from tests.art.pictures import Placement, art_source  # noqa: E402

LEGEND = (
    'legend = { high_seas = "#A9CCE3", restricted = "#7FB3D5", land = "#C8B88A", '
    'coastal = "#D4E6B5" }'
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        place = Placement(960.0, 2.0, 700.0, 500.0)
        src, _ = art_source(Path(tmp), place, size=(8400, 6000), extra_board=LEGEND)
        load, board = [], []
        for _ in range(args.repeat):
            t0 = time.process_time()
            module, diags = load_module(src)
            t1 = time.process_time()
            assert module is not None, [str(d) for d in diags.errors]
            render_board(module, 100)
            t2 = time.process_time()
            load.append(t1 - t0)
            board.append(t2 - t1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"map picture 8400 x 6000 px: load + check {min(load):.2f} s CPU, "
        f"board at 100 dpi {min(board):.2f} s CPU, peak memory {peak:.0f} MB"
    )


if __name__ == "__main__":
    main()
