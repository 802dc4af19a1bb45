"""Benchmark a whole Sixth Fleet campaign: 21 Game-Turns played by the scripted player.

Plain script (not a timed test): ``.venv/bin/python bench/bench_campaign.py [--dpi N]``.

(a) **Engine alone.** :func:`referee.engine.scripted.play` writes legal orders for every step of the
    21 Game-Turn Campaign (set-ups, movement, mandatory combat, the Reinforcement Interphase,
    answers to pending decisions) with committed dice of a fixed seed chain; then the recorded
    orders are adjudicated again in-process (parse, validate, resolve) and timed. Target < 2 s.
(b) **Play by email.** A real game archive: ``create_game``, then for every step the scripted
    orders for the archive's position, signed with the side's key and adjudicated (signed
    reports, per-side views, position picture), then ``verify_archive`` of the whole game.
    Target < 3 s. The position picture is the costliest part of a turn folder, so it is
    timed at ``--dpi`` (default 0: no picture) -- run with ``--dpi 40`` for the default.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.signed import SEED_ROOT, new_signed_game
from referee.engine.scripted import orders_sha256, play, replay
from referee.pbem import dice as dicemod
from referee.pbem.verify import verify_archive
from referee.source.loader import load_module
from referee.source.model import Module

REPO = Path(__file__).resolve().parents[1]
SCENARIO = "campaign"


def load() -> Module:
    module, diags = load_module(REPO / "module_src" / "sixth_fleet")
    if module is None:
        raise SystemExit(f"module_src/sixth_fleet does not load: {diags.errors[0]}")
    return module


def engine_alone(module: Module) -> None:
    secret = dicemod.SeedSecret.new("bench", dicemod.DEFAULT_LENGTH, SEED_ROOT)

    def dice_for(k: int, text: str) -> dicemod.CommittedDice:
        return dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text))

    t0 = time.perf_counter()
    steps, final = play(module, SCENARIO, dice_for, game_id="bench")
    t_play = time.perf_counter() - t0
    phases = Counter("answer" if s.text.count("[answer]") else s.phase for s in steps)
    attacks = sum(s.text.count("\nattack ") for s in steps)
    lost = sum(1 for u in final.units.values() if u.box == "eliminated")
    print(
        f"(a) scripted campaign: {len(steps)} steps to Game-Turn {final.turn} ({final.phase}): "
        + ", ".join(f"{n} {p}" for p, n in sorted(phases.items()))
        + f"; {attacks} attacks, {lost} units eliminated"
    )
    print(f"    writing the orders and adjudicating them: {t_play:.2f} s")
    texts = [s.text for s in steps]
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        again = replay(module, SCENARIO, texts, dice_for, game_id="bench")
        best = min(best, time.perf_counter() - t0)
    assert again.canonical() == final.canonical(), "the replay must reach the same position"
    print(f"    adjudicating the recorded campaign, engine alone: {best:.3f} s (best of 3)")


def pbem(module: Module, dpi: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench-campaign-"))
    try:
        game = tmp / "game"
        t0 = time.perf_counter()
        g = new_signed_game(game, tmp, module, SCENARIO, picture_dpi=dpi)
        t_new = time.perf_counter() - t0
        t_orders = t_adj = 0.0
        steps = 0
        while True:
            t0 = time.perf_counter()
            path = g.scripted_file(steps + 1)
            if path is None:
                break
            t1 = time.perf_counter()
            g.adjudicate(path)
            t2 = time.perf_counter()
            t_orders += t1 - t0
            t_adj += t2 - t1
            steps += 1
        t0 = time.perf_counter()
        v = verify_archive(game, module)
        t_verify = time.perf_counter() - t0
        size = sum(p.stat().st_size for p in game.rglob("*") if p.is_file())
        print(
            f"(b) PBEM campaign archive, picture {dpi} dpi: {steps} signed orders files, "
            f"{v.reports} reports, {v.rolls} die rolls, {size / 1e6:.1f} MB"
        )
        print(
            f"    new game {t_new:.2f} s + adjudicate {t_adj:.2f} s "
            f"({t_adj / max(1, steps) * 1000:.0f} ms/step) = {t_new + t_adj:.2f} s; "
            f"verify {t_verify:.2f} s; archive + verify {t_new + t_adj + t_verify:.2f} s"
        )
        print(f"    (writing and signing the scripted orders, not counted: {t_orders:.2f} s)")
    finally:
        shutil.rmtree(tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dpi", type=int, default=0, help="position picture dpi (0: none)")
    parser.add_argument("--skip-pbem", action="store_true", help="only the engine benchmark")
    ns = parser.parse_args()
    module = load()
    engine_alone(module)
    if not ns.skip_pbem:
        pbem(module, ns.dpi)


if __name__ == "__main__":
    main()
