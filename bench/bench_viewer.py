"""Benchmark the game viewer (issue 17) on a whole Sixth Fleet campaign: 21 Game-Turns.

Plain script: ``.venv/bin/python bench/bench_viewer.py [--dpi N] [--keep DIR]``.

The scripted player plays the 21 Game-Turn Campaign as a real signed archive (as
``bench_campaign.py`` (b) does) with pictures on. Steps hold no viewer (issue 24): the
viewer of each side is made on demand from the views, as ``referee viewer`` does. Printed:
its size after the last step (target: under 5 MB, small enough to email), the time to render
it, and, when Debian's Chromium and chromedriver are installed and ``selenium`` is
importable, the time a headless Chromium takes to open the file and draw the last step
(target: under a second). The archive's size and ``verify``'s time: ``bench_archive.py``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from bench.bench_campaign import SCENARIO, load
from bench.browser import headless_chromium
from bench.signed import new_signed_game
from referee.source.model import Module


def play(game: Path, tmp: Path, module: Module, dpi: int) -> int:
    """The campaign played as a signed archive to its end; the number of steps."""
    g = new_signed_game(game, tmp, module, SCENARIO, picture_dpi=dpi)
    steps = 0
    while (path := g.scripted_file(steps + 1)) is not None:
        g.adjudicate(path)
        steps += 1
    return steps


def open_time(path: Path) -> float | None:
    """Seconds from navigation to the last step drawn, in headless Chromium (best of 3)."""
    with headless_chromium() as d:
        if d is None:
            return None
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            d.get(path.resolve().as_uri())
            d.execute_script("return window.refereeViewer.step()")
            best = min(best, time.perf_counter() - t0)
        return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dpi", type=int, default=40, help="position picture dpi (not 0)")
    parser.add_argument("--keep", type=Path, help="keep the archive in this folder")
    ns = parser.parse_args()
    module = load()
    tmp = Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    try:
        game = (ns.keep or tmp) / "game"
        t0 = time.perf_counter()
        steps = play(game, tmp, module, ns.dpi)
        t_play = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in game.rglob("*") if p.is_file())
        print(f"campaign: {steps} adjudicated steps in {t_play:.1f} s; archive {size / 1e6:.1f} MB")
        from referee.viewer.data import step_from_view
        from referee.viewer.page import render_viewer

        for side in ("NATO", "Soviet"):
            f = tmp / f"viewer-{side}.html"
            docs = [
                step_from_view(json.loads((t / f"view-{side}.json").read_text()))
                for t in sorted((game / "turns").iterdir())
            ]
            t0 = time.perf_counter()
            html = render_viewer(module, docs, side=side, referee="0" * 64)
            t_render = time.perf_counter() - t0
            f.write_text(html)
            opened = open_time(f)
            print(
                f"{f.name}: {f.stat().st_size / 1e6:.2f} MB, {len(docs)} steps, "
                f"rendered in {t_render:.2f} s ({len(html) / 1e6:.2f} MB)"
                + ("" if opened is None else f", opened in Chromium in {opened:.2f} s")
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
