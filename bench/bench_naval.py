"""Benchmark a naval campaign: the naval module's Kerch-Feodosia scenario (6 Game-Turns) played
by its scripted player.

Plain script (not a timed test): ``.venv/bin/python bench/bench_naval.py``.

(a) :func:`referee.engine.scripted.play` writes legal orders for every step (readiness and repair,
    the interdiction box, loading, naval movement with its loss rolls, answers to Abort
    decisions, support, assaults and their host results, shipping attacks) with committed dice
    of a fixed seed chain. The scripted player validates each candidate order, so this time is
    mostly validation.
(b) The recorded orders adjudicated again in-process (parse, validate, resolve): the referee's
    own cost for a whole campaign. Target < 2 s.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

from referee.engine.scripted import orders_sha256, play, replay
from referee.pbem import dice as dicemod
from referee.source.loader import load_module

REPO = Path(__file__).resolve().parents[1]
SCENARIO = "kerch_feodosia"
SEED_ROOT = bytes(range(32))


def main() -> None:
    module, diags = load_module(REPO / "module_src" / "naval_module")
    if module is None:
        raise SystemExit(f"module_src/naval_module does not load: {diags.errors[0]}")
    secret = dicemod.SeedSecret.new("bench", dicemod.DEFAULT_LENGTH, SEED_ROOT)

    def dice_for(k: int, text: str) -> dicemod.CommittedDice:
        return dicemod.CommittedDice(secret.seed(k), k, orders_sha256(text))

    t0 = time.perf_counter()
    steps, final = play(module, SCENARIO, dice_for, game_id="bench")
    t_play = time.perf_counter() - t0
    verbs = Counter(
        line.split()[0] for s in steps for line in s.text.splitlines()[3:] if line[:1].isalpha()
    )
    sunk = final.data.get("sunk", [])
    print(
        f"(a) scripted naval campaign: {len(steps)} steps to Game-Turn {final.turn} "
        f"({final.phase}); orders: "
        + ", ".join(f"{n} {v}" for v, n in sorted(verbs.items()))
        + f"; ships sunk: {len(sunk)}"
    )
    print(f"    writing the orders (validating each candidate) and adjudicating: {t_play:.2f} s")
    texts = [s.text for s in steps]
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        again = replay(module, SCENARIO, texts, dice_for, game_id="bench")
        best = min(best, time.perf_counter() - t0)
    assert again.canonical() == final.canonical(), "the replay must reach the same position"
    print(f"(b) adjudicating the recorded campaign, engine alone: {best:.3f} s (best of 3)")


if __name__ == "__main__":
    main()
