"""Carrier Battlegroup: how long a turn takes to adjudicate.

1. in-process: the ruleset's ``resolve`` for every step of scripted missions (5 seeds);
2. as a whole process: ``referee adjudicate`` of one turn of a signed game, as a player's
   email would be handled (Python start-up, signature checks, reports, pictures included).
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


def whole_process() -> None:
    from referee import demo_solitaire

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "d"
        demo_solitaire.prepare(out)
        keys = demo_solitaire.make_keys(out)
        game, secret = demo_solitaire.new_game(out, keys)
        orders = out / "turn.txt"
        orders.write_text("[setup]\nbegin\n")
        ref = [sys.executable, "-m", "referee"]
        subprocess.run(
            [*ref, "sign", str(orders), "--key", str(keys / "usn.key"), "--game-dir", str(game)],
            check=True,
            capture_output=True,
        )
        t0 = time.perf_counter()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [
                *ref,
                "adjudicate",
                str(game),
                str(orders),
                "--key",
                str(keys / "referee.key"),
                "--referee-dir",
                str(secret),
            ],
            check=True,
            capture_output=True,
        )
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        print(
            f"referee adjudicate (whole process, set-up step): "
            f"wall {time.perf_counter() - t0:.2f} s,"
            f" CPU {cpu:.2f} s"
        )


if __name__ == "__main__":
    in_process()
    whole_process()
