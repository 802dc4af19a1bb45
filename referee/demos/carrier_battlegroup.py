"""`make demo-solitaire`: a whole solitaire game of Carrier Battlegroup by email.

The variant of ``make demo`` for issue 14: the player (USN) against the Soviet side the
referee runs. It checks and builds the module, makes the demo keys (fixed public seeds,
demo only), starts a mission with a fixed dice seed root, then plays it to its end with the
scripted player's orders -- each file signed with the player's key and adjudicated -- through
incidents, contact and Tactical Routines; then ``referee reveal`` releases the referee-only
part and ``referee verify`` proves every draw came from the committed pools and dice.

Usage: ``python -m referee.demos.carrier_battlegroup [OUT_DIR] [--no-play-aids]`` (default
``build/demo-solitaire``). ``OUT_DIR`` is emptied first (only an earlier demo's folder).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from referee.demos.sixth_fleet_1975 import (
    MARKER,
    DemoFailed,
    create_demo_game,
    demo_key,
    run,
    shown,
    sign_and_adjudicate,
)

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "module_src" / "carrier_battlegroup"
DEFAULT_OUT = ROOT / "build" / "demo-solitaire"
OUT_ENV = "REFEREE_DEMO_SOLITAIRE_DIR"
GAME_ID = "cbg-demo"
SCENARIO = "mission"
# fixed and public (demo only); this take plays 11 turns with contact rolls and battles
SEED_ROOT = hashlib.sha256(b"referee demo: Carrier Battlegroup, game cbg-demo, take 3").digest()
MIN_STEPS = 6  # set-up, outfitting and at least four turns
MAX_STEPS = 40
SHOWN_KINDS = ("mission", "incidents", "chit", "contact", "battle", "battle_result", "game_over")


def prepare(out: Path) -> None:
    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise DemoFailed(f"{out} holds other files; give an empty or new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("made by python -m referee.demos.carrier_battlegroup\n")


def make_keys(out: Path) -> Path:
    from referee.pbem.keys import write_key_pair

    folder = out / "keys"
    print("\n== Demo keys (fixed public seeds: demo only)")
    for name in ("referee", "usn"):
        key_path, _ = write_key_pair(demo_key(name), folder)
        print(f"   {shown(key_path)} (+ .pub)")
    return folder


def new_game(out: Path, keys: Path) -> tuple[Path, Path]:
    game, secret = out / "game", out / "referee"
    print("\n== A new solitaire game: the referee plays the Soviet side")
    made = create_demo_game(out, keys, SRC, SCENARIO, GAME_ID, SEED_ROOT, {"USN": "usn"})
    print(f"   created {made.game_id}; the pools are committed in report 000")
    return game, secret


def play(out: Path, game: Path, keys: Path, secret: Path) -> set[str]:
    """Sign and adjudicate the scripted player's orders until the game ends."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    module, _ = load_module(SRC)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    orders_dir = out / "orders"
    orders_dir.mkdir()
    seen: set[str] = set()
    for k in range(MAX_STEPS):
        full = json.loads((game / "secret" / "state.json").read_text(encoding="utf-8"))
        text = rs.scripted_orders(module, GameState.from_json(full))  # type: ignore[attr-defined]
        if text is None:
            break
        orders = orders_dir / f"{k:02d}-usn.txt"
        orders.write_text(text, encoding="utf-8")
        _folder, report = sign_and_adjudicate(
            game, orders, "the player", keys / "usn.key", keys, secret
        )
        for ev in report.get("events") or []:
            seen.add(ev["kind"])
            if ev["kind"] in SHOWN_KINDS:
                print(f"   [{ev['rule']}] {ev['text']}")
    return seen


def demo(out: Path, *, play_aids_too: bool = True) -> Path:
    t0 = time.perf_counter()
    prepare(out)
    run("Check the module source", ["check", shown(SRC)])
    if play_aids_too:
        run("Build the VASSAL module", ["build", shown(SRC), "-o", shown(out / "vassal")])
    keys = make_keys(out)
    game, secret = new_game(out, keys)
    seen = play(out, game, keys, secret)
    missing = {"incidents", "contact", "battle", "game_over"} - seen
    if missing:
        raise DemoFailed(f"the demo game showed no {', '.join(sorted(missing))}")
    steps = len([p for p in (game / "turns").iterdir() if p.is_dir()])
    if steps < MIN_STEPS:
        raise DemoFailed(f"the demo game lasted {steps} steps; it should show several turns")
    run("Anyone can check the game before the reveal", ["verify", shown(game)])
    run("The referee reveals the hidden pools and rolls", ["reveal", shown(game)])
    run("Anyone can now check every draw", ["verify", shown(game)])
    print(f"\nSolitaire demo finished in {time.perf_counter() - t0:.1f} s: {shown(game)}")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.demos.carrier_battlegroup", description=__doc__
    )
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=Path(os.environ.get(OUT_ENV) or DEFAULT_OUT),
        help=f"output folder (default ${OUT_ENV} or build/demo-solitaire); emptied first",
    )
    parser.add_argument("--no-play-aids", action="store_true", help="skip the VASSAL build")
    ns = parser.parse_args(argv)
    try:
        demo(ns.out, play_aids_too=not ns.no_play_aids)
    except DemoFailed as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
