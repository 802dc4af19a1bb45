"""Benchmark the awaited side's options (issue 28): size and CPU of each demo's largest
``options-SIDE.json``, and how fast that side's viewer opens with it embedded.

Plain script: ``.venv/bin/python bench/bench_options.py [DEMO_OUT ...] [--no-browser]
[--every]``, each ``DEMO_OUT`` a finished demo's output folder (``python -m referee.demos
--only NAME`` writes it: ``game/``, ``keys/``, ``referee/``); by default every demo ``make
demo`` has written. For each: the step whose options file is the
largest (opened from the side's encrypted part with the demo's key in a game that hides
information), its bytes and format; the CPU time (user + system, best of 3, in-process after
one warm-up) of computing it again with ``draft_options`` on the side's view, and whether
the bytes are the published ones; then that side's viewer of the game cut back to that step
(``referee viewer``, so the file is the one embedded) and, when Debian's Chromium and
chromedriver are installed and ``selenium`` is importable, the time headless Chromium takes
to open it (Performance API, best of 3: navigation to ``DOMContentLoaded``, to the first
contentful paint, the first counter drawn on the map, and ``load``). Budgets (issue 28): a
few hundred KB a file (300 KB here), under a second to open, the options' CPU well under a
second. With ``--every``, also every step's options computed again (one run each after a
warm-up): their CPU in all, the costliest, and the steps whose bytes are not the published
ones (none, or a faster search changed what is offered).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BUDGET_BYTES = 300_000
BUDGET_OPEN_S = 1.0


def _published(out: Path) -> list[tuple[str, str, bytes]]:
    """The turn folder, side and bytes of each of the demo's options files (from the parts
    of a game that hides information, opened with the demo's keys)."""
    from referee.pbem.archive import Archive
    from referee.pbem.draft_options import is_options_file
    from referee.pbem.keys import load_private, passphrase_source
    from referee.pbem.parts import identity_of, open_part, part_file

    archive = Archive(out / "game")
    keys = {
        side: load_private(out / "keys" / f"{side.lower()}.key", passphrase_source(None))
        for side in sorted(archive.config().players)
        if (out / "keys" / f"{side.lower()}.key").is_file()
    }
    out_files: list[tuple[str, str, bytes]] = []
    for t in archive.turn_dirs():
        found: dict[str, bytes] = {
            f.name: f.read_bytes() for f in t.path.iterdir() if is_options_file(f.name)
        }
        for side, key in keys.items():
            if (t.path / part_file(side)).is_file():
                files = open_part(archive, t, side, [identity_of(key)])
                found.update({n: b for n, b in files.items() if is_options_file(n)})
        for _, data in sorted(found.items()):
            out_files.append((t.name, json.loads(data)["side"], data))
    if not out_files:
        raise SystemExit(f"{out}: no step publishes an options file")
    return out_files


def _full_state(game: Path, turn: str) -> Any:
    from referee.engine.core import GameState

    for p in (
        game / "turns" / turn / "state.json",
        game / "secret" / "turns" / turn / "state.json",
    ):
        if p.is_file():
            return GameState.from_json(json.loads(p.read_bytes()))
    raise SystemExit(f"{game}: no full position of {turn} (the referee's secret folder)")


def options_cpu(
    out: Path, turn: str, side: str, published: bytes, runs: int = 3
) -> tuple[float, bool]:
    """CPU seconds (best of ``runs`` after a warm-up) of the step's options computed again
    on the side's view, and whether the bytes are the published ones (the header aside in a
    game whose side reads its own record: the CPU is the same)."""
    from referee.commands.pbem import game_module
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.archive import Archive
    from referee.pbem.draft_options import FORMATS, compact_json, draft_options

    game = out / "game"
    module = game_module(game, None, None)
    rs = get_ruleset(Archive(game).config().ruleset)
    doc = json.loads(published)
    version = next(v for v, f in FORMATS.items() if f == doc["format"])
    view = rs.view(module, _full_state(game, turn), side)
    report_file = game / "turns" / turn / "report.json"
    report = json.loads(report_file.read_bytes()) if report_file.is_file() else {}
    rsha = doc["report_sha256"]
    again = draft_options(module, rs, report, rsha, view, side, version)  # warm-up
    best = float("inf")
    for _ in range(runs):
        c0 = time.process_time()
        again = draft_options(module, rs, report, rsha, view, side, version)
        best = min(best, time.process_time() - c0)
    same = compact_json(again) == published
    if not same:  # the header is the side's own record's: compare what the units are offered
        same = {k: again[k] for k in ("units", "trees")} == {k: doc[k] for k in ("units", "trees")}
    return best, same


def side_viewer(out: Path, turn: str, side: str, into: Path) -> Path:
    """``referee viewer`` of ``side`` on a copy of the game cut back to ``turn``."""
    game = into / "game"
    shutil.copytree(out / "game", game)
    for t in sorted((game / "turns").iterdir()):
        if t.name > turn:
            shutil.rmtree(t)
    if (game / "turns" / turn / "state.json").is_file():
        shutil.copyfile(game / "turns" / turn / "state.json", game / "state.json")
    page = into / f"viewer-{side}.html"
    key = out / "keys" / f"{side.lower()}.key"
    cmd = [sys.executable, "-m", "referee", "viewer", str(game), "--side", side, "-o", str(page)]
    if key.is_file():
        cmd += ["--key", str(key)]
    subprocess.run(cmd, check=True, capture_output=True)
    return page


OPEN_JS = """
const n = performance.getEntriesByType('navigation')[0];
const fcp = performance.getEntriesByName('first-contentful-paint')[0];
return [n.domContentLoadedEventEnd, fcp ? fcp.startTime : null, window.__mapDrawn || null,
        n.loadEventEnd];
"""
MARK_JS = """
window.__mapDrawn = null;
new MutationObserver(function (_, obs) {
  if (document.querySelector('#units > *')) {
    window.__mapDrawn = performance.now(); obs.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""


def open_times(page: Path) -> list[float] | None:
    """Milliseconds from navigation to DOMContentLoaded, first contentful paint, the map's
    picture in the page, and load (best of 3 each), in headless Chromium; ``None`` without
    a browser."""
    from bench.browser import headless_chromium

    with headless_chromium() as d:
        if d is None:
            return None
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MARK_JS})
        best = [float("inf")] * 4
        for _ in range(3):
            d.get(page.resolve().as_uri())
            d.execute_script("return window.refereeViewer.step()")
            got = d.execute_script(OPEN_JS)
            best = [min(b, g) if g is not None else b for b, g in zip(best, got, strict=True)]
        return best


def made_demos() -> list[Path]:
    """The output folders of the bundled demos (``python -m referee.demos``, each at its
    default place or its ``$OUT_ENV``) that hold a finished game."""
    import importlib

    from referee.demos import DEMOS

    found = []
    for demo in DEMOS:
        mod = importlib.import_module(demo.module)
        env = getattr(mod, "OUT_ENV", None)
        out = Path((os.environ.get(env) if env else None) or mod.DEFAULT_OUT)
        if (out / "game" / "turns").is_dir() and (out / "keys").is_dir():
            found.append(out)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "demos",
        nargs="*",
        type=Path,
        help="finished demos' output folders (default: those of `make demo` that exist)",
    )
    parser.add_argument("--no-browser", action="store_true", help="skip the open times")
    parser.add_argument(
        "--every",
        action="store_true",
        help="also the CPU of every step (one run each), each file compared with the published",
    )
    ns = parser.parse_args()
    from referee.pbem.archive import Archive

    demos = ns.demos or made_demos()
    if not demos:
        print("no finished demo to measure: run `make demo` first, or name demos' folders")
        return

    print(
        f"{platform.node()}: {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    over = False
    for out in demos:
        files = _published(out)
        turn, side, data = max(files, key=lambda f: len(f[2]))
        fmt = json.loads(data)["format"].rsplit("/", 1)[-1]
        cpu, same = options_cpu(out, turn, side, data)
        cfg = Archive(out / "game").config()
        line = (
            f"{cfg.module_id}: largest options {turn} {side}: {len(data) / 1000:.1f} kB "
            f"(format {fmt}), {cpu:.3f} s CPU, same bytes: {'yes' if same else 'NO'}"
        )
        over |= len(data) > BUDGET_BYTES
        if not ns.no_browser:
            tmp = Path(tempfile.mkdtemp(prefix="bench-options-"))
            try:
                page = side_viewer(out, turn, side, tmp)
                times = open_times(page)
                line += f"; viewer {page.stat().st_size / 1e6:.2f} MB"
                if times is not None:
                    dcl, fcp, drawn, load = times
                    line += (
                        f", opens: DOMContentLoaded {dcl:.0f} ms, first paint {fcp:.0f} ms, "
                        f"map {drawn:.0f} ms, load {load:.0f} ms"
                    )
                    over |= load > BUDGET_OPEN_S * 1000
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        print(line, flush=True)
        if ns.every:
            costs = [(*options_cpu(out, t, sd, d, 1), t, sd) for t, sd, d in files]
            worst = max(costs)
            differ = [f"{t} {sd}" for _, same, t, sd in costs if not same]
            print(
                f"  every step: {len(costs)} files, {sum(c for c, *_ in costs):.2f} s CPU in "
                f"all; the costliest {worst[2]} {worst[3]} {worst[0]:.3f} s; same bytes: "
                + (f"NO: {', '.join(differ)}" if differ else "all"),
                flush=True,
            )
    print(
        f"budgets: {BUDGET_BYTES / 1000:.0f} kB a file, {BUDGET_OPEN_S:.0f} s to open: "
        + ("EXCEEDED" if over else "met")
    )


if __name__ == "__main__":
    main()
