"""Benchmark a game archive's size, the cost of one step and of ``verify`` (issue 24).

Plain script (not a timed test)::

    .venv/bin/python bench/bench_archive.py campaign          # the 114-step 21-turn campaign
    .venv/bin/python bench/bench_archive.py long --steps 500  # a scripted game of 500 steps
    .venv/bin/python bench/bench_archive.py verify GAME_DIR   # verify an archive (a demo's)

``campaign`` plays the Sixth Fleet 21 Game-Turn Campaign by the scripted player as a real
signed archive (``create_game``, then each step's orders signed by its side and adjudicated in
this process) with pictures at ``--dpi`` (40, as ``docs/performance.md`` measured it before).
``long`` plays the same campaign on a copy of the module source whose scenario runs
``--turns`` Game-Turns (103 by default: a synthetic length, made only here, so that one
game reaches ``--steps`` steps; the rules do not change after Game-Turn 21) and stops after
``--steps`` steps. Both print the CPU time of adjudicating steps 10, 20, 100, 300 and the last (each
the ``adjudicate`` call alone: the scripted player's search and the signing are not counted),
the largest step, the archive's size, its largest step folder against the average, and then
what ``verify`` costs in a fresh process that may use bytecode (CPU, user + system: the
whole archive, then ``--since`` the report ten steps before the end). ``verify`` prints the
same for any archive.

Figures are CPU seconds (``time.process_time``, user + system), never wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.signed import new_signed_game  # noqa: E402
from referee.cache import activated, cache_from_env  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from referee.source.model import Module  # noqa: E402

SCENARIO = "campaign"

VERIFY = """
import json, resource, sys, time
t0 = time.process_time()
from pathlib import Path
from referee.pbem.archive import Archive
from referee.pbem.rulesdata import load_game_module
from referee.pbem.verify import verify_archive
game, src, since = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] or None
module = load_game_module(Archive(game).config(), src)
t1 = time.process_time()
v = verify_archive(game, module, since_sha=since)
t2 = time.process_time()
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"steps": v.reports, "verify": t2 - t1, "load": t1 - t0,
                  "process": u.ru_utime + u.ru_stime, "unchecked": len(v.unchecked),
                  "shas": v.report_shas}))
"""


def module_copy(turns: int, tmp: Path) -> Path:
    """The Sixth Fleet module source with the campaign lengthened to ``turns`` Game-Turns."""
    out = tmp / "sixth_fleet_long"
    shutil.copytree(ROOT / "module_src" / "sixth_fleet", out)
    path = out / "scenarios" / "campaign.toml"
    text = path.read_text()
    assert "\nturns = 21\n" in text
    path.write_text(text.replace("\nturns = 21\n", f"\nturns = {turns}\n", 1))
    return out


def load(src: Path) -> Module:
    module, diags = load_module(src)
    if module is None:
        raise SystemExit(f"{src} does not load: {diags.errors[0]}")
    return module


def play(game: Path, tmp: Path, module: Module, dpi: int, limit: int) -> list[float]:
    """Play until the game ends or ``limit`` steps; the CPU seconds of each adjudication."""
    g = new_signed_game(game, tmp, module, SCENARIO, picture_dpi=dpi, dice_length=limit + 8)
    cost: list[float] = []
    with activated(cache_from_env()):  # as `referee adjudicate` runs
        while len(cost) < limit and (path := g.scripted_file(len(cost) + 1)) is not None:
            t = time.process_time()
            g.adjudicate(path)
            cost.append(time.process_time() - t)
            if len(cost) % 50 == 0:
                print(f"  ... {len(cost)} steps", file=sys.stderr)
    return cost


def sizes(game: Path) -> tuple[int, int, float, str]:
    """(archive bytes, largest step folder's bytes, average step bytes, its name)."""
    total = sum(p.stat().st_size for p in game.rglob("*") if p.is_file())
    steps = {
        d.name: sum(p.stat().st_size for p in d.iterdir())
        for d in (game / "turns").iterdir()
        if d.is_dir()
    }
    name = max(steps, key=lambda n: steps[n])
    return total, steps[name], sum(steps.values()) / len(steps), name


def verify_cost(game: Path, src: Path, since: str = "") -> dict:
    """``verify_archive`` in a fresh process: its CPU, the module's loading, the process.
    The process may write bytecode (this machine's environment sets
    ``PYTHONDONTWRITEBYTECODE``; an installed tool has its bytecode), and a first run writes
    it, so no run pays for compiling the program."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "referee")],
        check=True,
        env=env,
        cwd=ROOT,
    )
    out = subprocess.run(
        [sys.executable, "-c", VERIFY, str(game), str(src), since],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
    )
    return json.loads(out.stdout)


def report_verify(game: Path, src: Path) -> None:
    total, big, avg, name = sizes(game)
    print(
        f"archive: {total / 1e6:.1f} MB, {len(list((game / 'turns').iterdir()))} step folders; "
        f"largest {name} {big / 1e3:.0f} kB = {big / avg:.2f} x the average {avg / 1e3:.0f} kB"
    )
    v = verify_cost(game, src)
    print(
        f"verify: {v['steps']} steps, {v['verify']:.2f} s CPU ({v['verify'] / v['steps'] * 1e3:.0f}"
        f" ms a step; module loading {v['load']:.2f} s; whole process {v['process']:.2f} s), "
        f"{v['unchecked']} file(s) unchecked"
    )
    r = verify_cost(game, src, v["shas"][-1])
    print(
        f"the record alone (verify --since the last report: signatures, chain, dice, replay of "
        f"every step, no file rendered): {r['verify']:.2f} s CPU, "
        f"{r['verify'] / r['steps'] * 1e3:.1f} ms a step"
    )
    if v["steps"] > 10:
        s = verify_cost(game, src, v["shas"][-11])
        print(
            f"verify --since the report 10 steps before the end: {s['verify']:.2f} s CPU "
            f"(whole process {s['process']:.2f} s)"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("campaign", "long", "verify"))
    ap.add_argument("game", nargs="?", type=Path, help="verify: the archive")
    ap.add_argument("--module", type=Path, help="verify: the module source (default: game.toml)")
    ap.add_argument("--dpi", type=int, default=40)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--turns", type=int, default=103)
    ap.add_argument("--keep", type=Path, help="write the archive here (emptied first)")
    args = ap.parse_args()
    if args.what == "verify":
        if args.game is None:
            ap.error("verify needs GAME_DIR")
        from referee.pbem.archive import Archive
        from referee.pbem.rulesdata import module_source

        cfg = Archive(args.game).config()
        report_verify(args.game, module_source(cfg, args.module, None))
        return 0
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if args.what == "long":
            src = module_copy(args.turns, tmp)
            limit = args.steps
        else:
            src, limit = ROOT / "module_src" / "sixth_fleet", 10_000
        module = load(src)
        game = args.keep or tmp / "game"
        if game.exists():
            shutil.rmtree(game)
        cost = play(game, tmp, module, args.dpi, limit)
        n = len(cost)
        marks = [k for k in (10, 20, 100, 300, n) if k <= n]
        print(
            f"{args.what}: {n} steps at {args.dpi} dpi; adjudicate CPU: "
            + ", ".join(f"step {k} {cost[k - 1]:.3f} s" for k in marks)
            + f"; the costliest step {max(cost):.3f} s (step {cost.index(max(cost)) + 1}),"
            f" all {sum(cost):.1f} s"
        )
        report_verify(game, src)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
