"""Benchmark: a whole Westpac game (DTP 11.5, 48 Game-Turns) played as a signed PBEM game.

Plain script (not a timed test): ``python bench/bench_westpac.py [--turns N] [--keep DIR]``.

The scripted player (``RULESET.scripted_orders``, the lawful seeded random player of the
whole-game tests) writes each side's file; the file is signed with the side's demo key and
adjudicated by the real pipeline (``sign_orders``, ``adjudicate``: authenticate, validate,
resolve with committed dice, write report.md/html/json, the views, the position picture and
save, sign the turn folder), as ``make demo`` does through the command line. After every step
the invariants are checked on the archive's ``state.json``: one place per unit, damage never
down, losses never given back, stacking held (a hex that ship reinforcements left over the
limit only until its owner's ship and sub movement ends [DTP 11.5063]), the score equal to a
recount of the awards table [DTP 11.5124] and the report's score table agreeing with the
events (as ``tests/test_reports_agree.py`` checks for the other games). At the end: the
result from the victory table [DTP 11.5125] and ``verify`` of the complete archive.

It prints the figures ``docs/performance.md`` records: steps, CPU per step (the adjudication,
and the scripted player's file) at the start and the end of the game, the archive's size
(total, and per step at the start and the end) and ``verify``'s CPU. CPU is
``time.process_time`` (user + system of this process).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.cache import activated, cache_from_env  # noqa: E402
from referee.demos.sixth_fleet_1975 import demo_key  # noqa: E402
from referee.engine.core import Event, GameState  # noqa: E402
from referee.pbem.adjudicate import adjudicate  # noqa: E402
from referee.pbem.game import create_game  # noqa: E402
from referee.pbem.signing import sign_orders  # noqa: E402
from referee.pbem.verify import verify_archive  # noqa: E402
from referee.rules.sixth_fleet_1975.context import Game  # noqa: E402
from referee.rules.sixth_fleet_dtp.ruleset import RULESET  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from tests.rules.test_sixth_fleet_dtp_westpac_score import agrees  # noqa: E402
from tests.test_westpac_game_slice import invariants  # noqa: E402

SRC = ROOT / "module_src" / "dtp_westpac"
GAME_ID = "westpac-bench"
SEED_ROOT = hashlib.sha256(b"referee benchmark: Westpac, game westpac-bench").digest()
KEYS = {"EastBlock": "soviet", "SEATO": "nato"}  # demo keys: public seeds, benchmark only
OPTIONS = ("11.5131", "11.5133", "11.5134")  # 11.5132 (the armistice) would end it early
LEVELS = ("SEATO Victory", "Tie", "East Block Victory")
WINDOW = 25  # steps averaged at the start and at the end
DICE_LENGTH = 2048  # the dice seed chain: 48 Game-Turns are some 900 steps (the default 1024)


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _events(report: dict[str, Any]) -> list[Event]:
    return [
        Event(e.get("kind", ""), e.get("rule", ""), e.get("text", ""), e.get("data") or {})
        for e in report.get("events") or []
    ]


def play(tmp: Path, turns: int, log: Path | None = None) -> dict[str, Any]:
    """The game from ``referee new`` to the end (or past Game-Turn ``turns``); each step's
    row is also appended to ``log`` (JSON lines) as it is played, so a run stopped early
    still leaves its figures."""
    module, diags = load_module(SRC)
    assert module is not None, [str(d) for d in diags.items]
    keys = {side: demo_key(name) for side, name in KEYS.items()}
    ref = demo_key("referee")
    game_dir, secret = tmp / "game", tmp / "referee"
    create_game(
        game_dir,
        module,
        scenario="westpac",
        players={side: k.public for side, k in keys.items()},
        referee_key=ref,
        options=OPTIONS,
        game_id=GAME_ID,
        referee_dir=secret,
        seed_root=SEED_ROOT,
        dice_length=DICE_LENGTH,
    )
    state = GameState.from_json(json.loads((game_dir / "state.json").read_text("utf-8")))
    game = Game.of(module, state)
    events: list[Event] = []
    rows: list[dict[str, Any]] = []
    while state.turn <= turns:
        t0 = time.process_time()
        text = RULESET.scripted_orders(module, state)
        if text is None:
            break
        side = text.split("side: ", 1)[1].split("\n", 1)[0]
        path = tmp / "orders.txt"
        path.write_text(sign_orders(text, "orders.txt", keys[side], game_dir).text, "utf-8")
        t1 = time.process_time()
        (step,) = adjudicate(game_dir, [path], referee_key=ref, module=module, referee_dir=secret)
        t2 = time.process_time()
        folder = (
            game_dir / step.folder if not Path(step.folder).is_absolute() else Path(step.folder)
        )
        report = step.report
        after = GameState.from_json(json.loads((game_dir / "state.json").read_text("utf-8")))
        bad = invariants(game, state, after)
        events += _events(report)
        bad += agrees(game, after, events)
        level = RULESET.score(module, after)["level"]
        if bad or level not in LEVELS:
            raise SystemExit(f"step {len(rows) + 1} ({folder.name}): {bad or level}")
        rows.append(
            {
                "turn": state.turn,
                "phase": state.phase,
                "orders_cpu": t1 - t0,
                "adjudicate_cpu": t2 - t1,
                "folder_bytes": _size(folder),
            }
        )
        if log is not None:
            with log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"step": len(rows), "folder": folder.name, **rows[-1]}) + "\n")
        state = after
        if len(rows) % 50 == 0:
            print(
                f"   step {len(rows)}: Game-Turn {state.turn}, {state.phase}; "
                f"archive {_size(game_dir) / 1e6:.1f} MB",
                flush=True,
            )
    t0 = time.process_time()
    v = verify_archive(game_dir, module)
    verify_cpu = time.process_time() - t0
    score = RULESET.score(module, state)
    return {
        "rows": rows,
        "state": state,
        "score": score,
        "verify_cpu": verify_cpu,
        "verify_reports": v.reports,
        "archive_bytes": _size(game_dir),
        "kinds": sorted({e.kind for e in events}),
    }


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python bench/bench_westpac.py", description=__doc__)
    ap.add_argument("--turns", type=int, default=48, help="stop after this Game-Turn (48)")
    ap.add_argument("--keep", type=Path, help="keep the game archive in this folder")
    ap.add_argument("--log", type=Path, help="append each step's figures here (JSON lines)")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="westpac-bench-"))
    try:
        t0 = time.process_time()
        with activated(cache_from_env()):  # as `referee adjudicate` runs
            got = play(tmp, args.turns, args.log)
        total = time.process_time() - t0
        rows, state, score = got["rows"], got["state"], got["score"]
        head, tail = rows[:WINDOW], rows[-WINDOW:]
        print(f"steps: {len(rows)}; last Game-Turn {state.turn}, phase {state.phase}")
        print(f"level: {score['level']} (VP {score['vp']}, net {score['net']})")
        print(f"result: {score.get('result') or 'none: the game is not over'}")
        for name, part in (("first", head), ("last", tail)):
            adj = _mean([r["adjudicate_cpu"] for r in part])
            orders = _mean([r["orders_cpu"] for r in part])
            size = _mean([r["folder_bytes"] for r in part])
            print(
                f"{name} {len(part)} steps (turns {part[0]['turn']}-{part[-1]['turn']}): "
                f"adjudicate {adjudicate_ms(adj)} CPU/step, scripted orders "
                f"{adjudicate_ms(orders)}, turn folder {size / 1024:.0f} KiB/step"
            )
        print(f"archive: {got['archive_bytes'] / 1e6:.1f} MB")
        print(f"verify ({got['verify_reports']} reports): {got['verify_cpu']:.1f} s CPU")
        print(f"whole run: {total:.1f} s CPU; events seen: {' '.join(got['kinds'])}")
        if args.keep:
            shutil.copytree(tmp / "game", args.keep, dirs_exist_ok=True)
        return 0
    finally:
        shutil.rmtree(tmp)


def adjudicate_ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
