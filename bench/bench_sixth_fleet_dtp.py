"""Benchmark of the DTP rules (plain script, not a test): ``python bench/bench_sixth_fleet_dtp.py``.

Issue 13 asks that adjudicating one impulse stays well under a second as a whole process.
Measured here, best of 5:

* in-process: ``RULESET.validate`` and ``RULESET.resolve`` of one combat impulse (NATO's SSN
  attacking the Soviet CG it detected: the position of
  ``tests/rules/test_sixth_fleet_dtp_ruleset.py`` after set-up and the four movement phases),
  and of one movement file with a detection;
* as a whole process: ``referee validate`` of that impulse file against the state (Python
  start-up, imports, loading the module source and the state).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.core import GameState, ScriptedDice  # noqa: E402
from referee.engine.orders import parse_orders  # noqa: E402
from referee.rules.sixth_fleet_dtp.ruleset import RULESET  # noqa: E402
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY  # noqa: E402
from referee.source.loader import load_module  # noqa: E402

SRC = ROOT / "module_src" / "sixth_fleet_dtp"
EXAMPLES = ROOT / "module_src" / "sixth_fleet" / "examples"


def _file(state: GameState, side: str, section: str, body: str) -> str:
    return (
        f"game: bench\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"
        f"[{section}]\n{body}\n"
    )


def _play(module, state: GameState, side: str, section: str, body: str, dice: list[int]):  # type: ignore[no-untyped-def]
    doc = parse_orders(_file(state, side, section, body), "o.txt", VOCABULARY)
    out = RULESET.resolve(module, state, doc, ScriptedDice(dice))
    assert out.ok, [str(v) for v in out.violations]
    return out.state


def position(module) -> tuple[GameState, GameState]:  # type: ignore[no-untyped-def]
    """(before the Soviet ship movement, before NATO's first impulse)."""
    state = RULESET.new_game(module, "short", "bench")
    for name in ("01-nato-setup.txt", "02-soviet-setup.txt"):
        raw = (EXAMPLES / name).read_text(encoding="utf-8").replace("game: sf-demo", "game: bench")
        state = RULESET.resolve(
            module, state, parse_orders(raw, name, VOCABULARY), ScriptedDice([])
        ).state
    moving = state
    state = _play(
        module, state, "Soviet", "movement", "move SO-CG-2 1120\ndetect SO-CG-2 -> US-DE-1", [4]
    )
    state = _play(module, state, "NATO", "movement", "detect US-DE-1 -> SO-CG-2", [6])
    state = _play(module, state, "NATO", "movement", "", [])
    state = _play(module, state, "Soviet", "movement", "", [])
    return moving, state


def best(fn, n: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    module, _ = load_module(SRC)
    assert module is not None
    moving, combat = position(module)
    impulse = parse_orders(
        _file(combat, "NATO", "combat", "attack US-SN-2 -> SO-CG-2"), "i.txt", VOCABULARY
    )
    move = parse_orders(
        _file(moving, "Soviet", "movement", "move SO-CG-2 1120\ndetect SO-CG-2 -> US-DE-1"),
        "m.txt",
        VOCABULARY,
    )
    assert RULESET.validate(module, combat, impulse) == []
    v = best(lambda: RULESET.validate(module, combat, impulse))
    r = best(lambda: RULESET.resolve(module, combat, impulse, ScriptedDice([1])))
    m = best(lambda: RULESET.resolve(module, moving, move, ScriptedDice([4])))
    print(f"validate one impulse:         {v * 1000:7.2f} ms")
    print(f"resolve one impulse:          {r * 1000:7.2f} ms")
    print(f"resolve a move + detection:   {m * 1000:7.2f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        st = Path(tmp) / "state.json"
        st.write_text(json.dumps(combat.to_json()), encoding="utf-8")
        orders = Path(tmp) / "impulse.txt"
        orders.write_text(
            _file(combat, "NATO", "combat", "attack US-SN-2 -> SO-CG-2"), encoding="utf-8"
        )
        cmd = [sys.executable, "-m", "referee.cli", "validate", str(orders), "--state", str(st),
               "--module", str(SRC), "-q"]  # fmt: skip
        p = best(lambda: subprocess.run(cmd, check=True, capture_output=True), 3)
    print(f"referee validate (process):   {p * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
