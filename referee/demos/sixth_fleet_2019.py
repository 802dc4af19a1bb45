"""`make demo-2019`: a signed play-by-email game of Sixth Fleet (2019), two whole turns.

The variant of ``referee.demos.sixth_fleet_1975`` for the 2019 area-movement game
(``module_src/sixth_fleet_2019``):

1. check the module source; build the VASSAL module, counter sheets and charts;
2. make the demo keys and a game of the 1980s scenario with a fixed dice seed root;
3. for each step until the end of turn 2 -- the Soviet and NATO Random Events Phases [5.1]
   (random events: an extra action or a neutral joining) and Action Phases [6.0] (the C2
   extras of 6.2/6.3, a Soviet force entering Istanbul: a control change [3.2.1]; on turn 2
   a reinforcement arriving, provisional 10.0; strike markers drawn from the hidden cups, EW
   played for an action and CM/SOF strikes, provisional 17.0) -- write the scripted player's
   orders (``RULESET.scripted_orders``, the same lawful player the tests use) from the side's
   own view of the referee's position, sign them with the side's key and adjudicate them;
4. verify the whole archive (the referee's copy holds ``secret/``, so the hidden draws are
   checked too; the game is not over, so nothing is revealed), and list where everything is.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.sixth_fleet_2019 [OUT_DIR] [--no-play-aids]`` (default
``build/demo-2019``).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path

from referee.demos import sixth_fleet_1975 as base

SRC = base.ROOT / "module_src" / "sixth_fleet_2019"
DEFAULT_OUT = base.BUILD / "demo-2019"
OUT_ENV = "REFEREE_DEMO_2019_DIR"
GAME_ID = "sf19-demo"
SCENARIO = "s1980"
SEED_ROOT = hashlib.sha256(b"referee demo: Sixth Fleet (2019), game sf19-demo").digest()
TURNS = 2


def new_game(out: Path, keys: Path) -> tuple[Path, Path]:
    game, secret = out / "game", out / "referee"
    print(f"\n== A new play-by-email game of Sixth Fleet (2019), scenario {SCENARIO}")
    made = base.create_demo_game(out, keys, SRC, SCENARIO, GAME_ID, SEED_ROOT)
    print(f"   created game {made.game_id}; waiting for: {(made.awaiting or {}).get('what')}")
    return game, secret


def summary(report: dict) -> str:
    parts = []
    for ev in report.get("events") or []:
        if ev.get("kind") in (
            "random_event",
            "actions",
            "control",
            "attack",
            "neutral_joins",
            "strike_draw",
            "strike_marker",
        ):
            parts.append(f"{ev['text']} [{ev['rule']}]")
    aw = report.get("awaiting")
    parts.append(f"next: {aw['what']}" if aw else "the game is over")
    return "; ".join(parts)


def play_turns(out: Path, game: Path, keys: Path, secret: Path) -> list[str]:
    """Scripted orders, signed and adjudicated, until turn ``TURNS`` is over. Returns the
    kinds of every event, so the caller can check the demo showed what it promises."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    module, _ = load_module(SRC)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    orders_dir = out / "orders"
    orders_dir.mkdir()
    kinds: list[str] = []
    for k in range(1, 40):
        # the referee's full position (the strike cups are hidden: provisional 17.0); the
        # scripted player plays from its own side's view of it, as a player would
        state = GameState.from_json(json.loads((game / "secret" / "state.json").read_text("utf-8")))
        if state.turn > TURNS or state.phase == "over":
            break
        seen = rs.view(module, state, state.active_side)
        text = rs.scripted_orders(module, seen)  # type: ignore[attr-defined]
        assert text is not None
        side = base.example_side(text)
        name = f"{k:02d}-t{state.turn}-{side.lower()}-{state.phase.split('_')[1]}.txt"
        orders = orders_dir / name
        orders.write_text(text, encoding="utf-8")
        key = keys / f"{base.key_for_side(side)}.key"
        folder, report = base.sign_and_adjudicate(game, orders, side, key, keys, secret)
        kinds += [e.get("kind", "") for e in report.get("events") or []]
        print(f"   -> {base.shown(folder)}: {summary(report)}")
    return kinds


def demo(out: Path, *, play_aids_too: bool = True) -> Path:
    t0 = time.perf_counter()
    base.prepare(out)
    src = base.shown(SRC)
    base.run("Check the module source", ["check", src])
    missing = base.play_aids(out, src) if play_aids_too else ["build", "sheets", "charts"]
    keys = base.make_keys(out)
    game, secret = new_game(out, keys)
    kinds = play_turns(out, game, keys, secret)
    for want in ("random_event", "actions", "control"):
        if want not in kinds:
            raise base.DemoFailed(f"the demo game showed no {want!r} event")
    base.run("Anyone can check the whole game", ["verify", base.shown(game)])
    base.listing(out, game, missing)
    print(f"\nDemo finished in {time.perf_counter() - t0:.1f} s.")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(
        argv,
        prog="python -m referee.demos.sixth_fleet_2019",
        description=__doc__,
        demo=demo,
        out_env=OUT_ENV,
        default_out=DEFAULT_OUT,
    )


if __name__ == "__main__":
    raise SystemExit(main())
