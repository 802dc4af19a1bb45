"""`make naval-demo`: a play-by-email game of the naval module, end to end.

The variant of ``make demo`` (``referee/demo.py``) for the ruleset ``naval_module`` on
``module_src/naval_module``: check the source, build the VASSAL module and the play aids, make
the demo keys and a game of the Kerch-Feodosia scenario, then sign and adjudicate the orders of
``module_src/naval_module/examples/`` in order -- a Naval Movement Interdiction Box, a transport
loading at Sevastopol, naval movement with its loss rolls and an Abort choice written in
advance [27.32b], naval artillery support and an amphibious assault handed to the host game,
the host result signed by both players [30.16], a Readiness roll [25.32] -- and verify the
whole archive. Deterministic: fixed public keys and dice seed root (demo only).

Usage: ``python -m referee.naval_demo [OUT_DIR] [--no-play-aids]`` (default
``build/naval-demo``).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from referee.demo import (
    ROOT,
    DemoFailed,
    demo_key,
    example_side,
    latest_report,
    make_keys,
    play_aids,
    prepare,
    run,
    shown,
    summary,
)

SRC = ROOT / "module_src" / "naval_module"
DEFAULT_OUT = ROOT / "build" / "naval-demo"
GAME_ID = "nm-demo"
SCENARIO = "kerch_feodosia"
# chosen so that the 27.32b Abort choice comes up with the dice of this archive (seed 2)
SEED_ROOT = hashlib.sha256(b"referee demo: naval module, game nm-demo, seed 2").digest()
SIDE_KEYS = {"Soviet": "soviet", "Axis": "axis"}


def example_files() -> list[Path]:
    return sorted(p for p in (SRC / "examples").glob("[0-9][0-9]-*.txt"))


def new_game(out: Path, keys: Path) -> tuple[Path, Path]:
    from referee.commands.common import load_checked
    from referee.pbem.game import create_game
    from referee.pbem.keys import load_private, load_public, write_key_pair

    write_key_pair(demo_key("axis"), keys)
    game, secret = out / "game", out / "referee"
    print(f"\n== A new play-by-email game of {SCENARIO} (fixed demo dice seed root)")
    t0 = time.perf_counter()
    made = create_game(
        game,
        load_checked(SRC, quiet=True),
        scenario=SCENARIO,
        players={s: load_public(keys / f"{k}.pub") for s, k in SIDE_KEYS.items()},
        referee_key=load_private(keys / "referee.key"),
        game_id=GAME_ID,
        referee_dir=secret,
        seed_root=SEED_ROOT,
    )
    print(f"   created game {made.game_id}; waiting for: {(made.awaiting or {}).get('what')}")
    print(f"   ({time.perf_counter() - t0:.2f} s)")
    return game, secret


def play(out: Path, game: Path, keys: Path, secret: Path) -> None:
    orders_dir = out / "orders"
    orders_dir.mkdir()
    for template in example_files():
        text = template.read_text(encoding="utf-8")
        side = example_side(text)
        orders = orders_dir / template.name
        orders.write_text(text, encoding="utf-8")
        key = keys / f"{SIDE_KEYS[side]}.key"
        run(
            f"{template.name}: {side} signs, the referee adjudicates",
            ["sign", shown(orders), "--key", shown(key), "--game-dir", shown(game)],
            show_output=False,
        )
        args = ["adjudicate", shown(game), shown(orders), "--key", shown(keys / "referee.key")]
        run(None, [*args, "--referee-dir", shown(secret)], show_output=False)
        folder, report = latest_report(game)
        print(f"   -> {shown(folder)}: {summary(report)}")
        for ev in report.get("events") or []:
            print(f"      [{ev['rule']}] {ev['text']}")


def demo(out: Path, *, play_aids_too: bool = True) -> Path:
    t0 = time.perf_counter()
    prepare(out)
    src = shown(SRC)
    run("Check the module source", ["check", src])
    if play_aids_too:
        play_aids(out, src)
    keys = make_keys(out)
    game, secret = new_game(out, keys)
    play(out, game, keys, secret)
    run("Anyone can check the whole game", ["verify", shown(game)])
    print(f"\nNaval demo finished in {time.perf_counter() - t0:.1f} s; the game is {shown(game)}")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.naval_demo", description=__doc__)
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--no-play-aids", action="store_true", help="skip build, sheets, charts")
    ns = parser.parse_args(argv)
    try:
        demo(ns.out, play_aids_too=not ns.no_play_aids)
    except DemoFailed as exc:
        print(f"naval demo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
