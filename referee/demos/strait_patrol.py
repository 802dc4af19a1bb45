"""`make demo-declared`: a signed play-by-email game of a declared game, Strait Patrol.

``module_src/strait_patrol`` names no ruleset: its ``module.toml`` declares the game
(``docs/declared-games.md``), and the ``declared`` ruleset referees it for its record and its
dice, not its rules [G1]. The demo:

1. checks the module source; builds the VASSAL module, counter sheets and charts;
2. makes the demo keys and a game of the ``patrol`` scenario with a fixed dice seed root;
3. signs and adjudicates the example orders (``module_src/strait_patrol/examples``): both
   deployments, then two Game-Turns of moves, a free roll [G3], rolls on the declared Gunnery
   Table [G4], a flip, a mark and an elimination;
4. verifies the whole archive and lists where everything is.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.strait_patrol [OUT_DIR] [--no-play-aids]`` (default
``build/demo-declared``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path

from referee.demos import sixth_fleet_1975 as base

SRC = base.ROOT / "module_src" / "strait_patrol"
DEFAULT_OUT = base.BUILD / "demo-declared"
OUT_ENV = "REFEREE_DEMO_DECLARED_DIR"
GAME_ID = "patrol-demo"
SCENARIO = "patrol"
SEED_ROOT = hashlib.sha256(b"referee demo: Strait Patrol, game patrol-demo").digest()
KEYS = {"North": "nato", "South": "soviet"}  # the demo's two player keys, one per side


def play_examples(out: Path, game: Path, keys: Path, secret: Path) -> list[str]:
    """Sign and adjudicate each example orders file, in order; the kinds of every event."""
    orders_dir = out / "orders"
    orders_dir.mkdir()
    kinds: list[str] = []
    for template in base.example_files(SRC):
        text = template.read_text(encoding="utf-8")
        side = base.example_side(text)
        orders = orders_dir / template.name
        orders.write_text(text, encoding="utf-8")
        key = keys / f"{KEYS[side]}.key"
        folder, report = base.sign_and_adjudicate(game, orders, side, key, keys, secret)
        events = report.get("events") or []
        kinds += [e.get("kind", "") for e in events]
        shown = [f"{e['text']} [{e['rule']}]" for e in events if e.get("kind") != "note"]
        aw = report.get("awaiting")
        shown.append(f"next: {aw['what']}" if aw else "the game is over")
        print(f"   -> {base.shown(folder)}: {'; '.join(shown)}")
    return kinds


def demo(out: Path, *, play_aids_too: bool = True) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    t0 = time.perf_counter()
    base.prepare(out)
    src = base.shown(SRC)
    base.run("Check the module source", ["check", src])
    missing = base.play_aids(out, src) if play_aids_too else ["build", "sheets", "charts"]
    keys = base.make_keys(out)
    game, secret = out / "game", out / "referee"
    print(f"\n== A new play-by-email game of Strait Patrol (a declared game), scenario {SCENARIO}")
    made = base.create_demo_game(out, keys, SRC, SCENARIO, GAME_ID, SEED_ROOT, sides=KEYS)
    print(f"   created game {made.game_id}; waiting for: {(made.awaiting or {}).get('what')}")
    kinds = play_examples(out, game, keys, secret)
    if "roll" not in kinds:
        raise base.DemoFailed("the demo game rolled no dice")
    base.run("Anyone can check the whole game", ["verify", base.shown(game)])
    base.listing(out, game, missing)
    print(f"\nDemo finished in {time.perf_counter() - t0:.1f} s.")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(
        argv,
        prog="python -m referee.demos.strait_patrol",
        description=__doc__,
        demo=demo,
        out_env=OUT_ENV,
        default_out=DEFAULT_OUT,
    )


if __name__ == "__main__":
    raise SystemExit(main())
