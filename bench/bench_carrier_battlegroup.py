"""Carrier Battlegroup: how long a turn takes to adjudicate.

1. in-process: the ruleset's ``resolve`` for every step of scripted missions (5 seeds);
2. as a whole process: ``referee adjudicate`` of turn 1 of a signed game, as a player's
   email would be handled (Python start-up, signature checks, reports, pictures included),
   with a cold cache, a warm one and ``--no-cache``, in CPU time.
"""

from __future__ import annotations

import hashlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def in_process() -> None:
    from referee.engine.orders import parse_orders
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.dice import CommittedDice
    from referee.source.loader import load_module

    module, _ = load_module(ROOT / "module_src" / "carrier_battlegroup")
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    times: list[float] = []
    for seed in (b"a", b"b", b"c", b"d", b"e"):
        st = rs.new_game(module, "mission", "bench")
        for k in range(40):
            text = rs.scripted_orders(module, st)  # type: ignore[attr-defined]
            if text is None:
                break
            doc = parse_orders(text, "o.txt", rs.vocabulary)
            dice = CommittedDice(seed * 32, k, hashlib.sha256(text.encode()).hexdigest(), b"h" * 32)
            t0 = time.perf_counter()
            st = rs.resolve(module, st, doc, dice).state
            times.append(time.perf_counter() - t0)
    print(
        f"resolve (in-process): {len(times)} steps, "
        f"median {statistics.median(times) * 1000:.1f} ms,"
        f" max {max(times) * 1000:.1f} ms"
    )


def _signed_turn(out: Path) -> tuple[Path, Path, Path, Path]:
    """A signed game played in-process through set-up and outfitting, with the scripted
    player's turn-1 orders signed: (game, referee dir, orders, keys)."""
    import contextlib
    import io
    import json

    from referee.demos import carrier_battlegroup as demo_solitaire
    from referee.demos.base import begin, prepare, run
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    module, _ = load_module(demo_solitaire.SRC)
    assert module is not None
    rs = get_ruleset("carrier_battlegroup")
    with contextlib.redirect_stdout(io.StringIO()):
        prepare(out)
        game, keys, secret = begin(out, demo_solitaire.GAME)
        for k in range(3):  # set-up, outfitting, then turn 1's orders (signed, not adjudicated)
            full = json.loads((game / "secret" / "state.json").read_text(encoding="utf-8"))
            text = rs.scripted_orders(module, GameState.from_json(full))  # type: ignore[attr-defined]
            orders = out / f"step{k}.txt"
            orders.write_text(text, encoding="utf-8")
            usn = str(keys / "usn.key")
            run(None, ["sign", str(orders), "--key", usn, "--game-dir", str(game)])
            if k < 2:
                run(None, ["adjudicate", str(game), str(orders), "--key",
                           str(keys / "referee.key"), "--referee-dir", str(secret)])  # fmt: skip
    return game, secret, orders, keys


def whole_process() -> None:
    """``referee adjudicate`` of turn 1 (movement, incidents, a battle) as a whole process,
    measured in CPU time (the machine is shared): with a cold cache, warm, and
    ``--no-cache``; each from a fresh copy of the same game, so each does the same work."""
    import os
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        game, secret, orders, keys = _signed_turn(base)
        cache = Path(tmp) / "cache"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["REFEREE_CACHE"] = str(cache)
        runs = [("cold cache", []), ("warm cache", []), ("warm cache", []), ("--no-cache", [])]
        for label, extra in runs:
            work = Path(tmp) / "run"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(base, work)

            def rel(p: Path, work: Path = work) -> Path:
                return work / p.relative_to(base)

            t0 = time.perf_counter()
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(
                [sys.executable, "-m", "referee", "adjudicate", str(rel(game)), str(rel(orders)),
                 "--key", str(rel(keys) / "referee.key"), "--referee-dir", str(rel(secret)),
                 "-q", *extra],
                check=True, capture_output=True, env=env,
            )  # fmt: skip
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            wall = time.perf_counter() - t0
            print(f"referee adjudicate, turn 1 (whole process, {label}): "
                  f"CPU {cpu:.2f} s, wall {wall:.2f} s")  # fmt: skip


if __name__ == "__main__":
    in_process()
    whole_process()
