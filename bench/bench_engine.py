"""Benchmarks of the rules engine (plain script, not a test): ``python bench/bench_engine.py``.

1. validating one 60-order Movement Phase in-process (target < 50 ms);
2. adjudicating a scripted 21-Game-Turn Campaign (every validate + resolve, target < 2 s);
3. the whole ``referee validate`` process, start-up included (target < 0.5 s), and that it
   imports no Pillow, lxml or reportlab;
4. the ``referee options`` attack search [8.3]: every hex of the phasing side in every Combat
   Phase of the recorded game (single and group attacks), slowest hex and total;
5. a random legal game of the same scenario with optional rule 14.3 (Middle East air forces).

Uses ``module_src/sixth_fleet`` when it loads cleanly, else the test fixture ``mini``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.core import ScriptedDice  # noqa: E402
from referee.engine.orders import parse_orders  # noqa: E402
from referee.engine.ruleset import get_ruleset  # noqa: E402
from referee.rules.sixth_fleet_1975.context import Game  # noqa: E402
from referee.rules.sixth_fleet_1975.group_attacks import group_attacks_8_3  # noqa: E402
from referee.rules.sixth_fleet_1975.middle_east import read_table_14_3  # noqa: E402
from referee.rules.sixth_fleet_1975.movement import reachable  # noqa: E402
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from tests.rules.play import header, play  # noqa: E402


def _module():
    module, _ = load_module(ROOT / "module_src" / "sixth_fleet")
    if module is not None and "campaign" in module.scenarios:
        return module, "campaign", ROOT / "module_src" / "sixth_fleet"
    src = ROOT / "tests" / "fixtures" / "modules" / "mini"
    module, _ = load_module(src)
    assert module is not None
    return module, "long", src


def _best(fn, n: int = 7) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    module, scenario, src = _module()
    rs = get_ruleset(module.ruleset)
    print(f"module {module.id}, scenario {scenario}")

    # -- a recorded game: every (state, orders, dice) step
    steps = []

    def record(state) -> None:
        steps.append(state)

    t0 = time.perf_counter()
    end = play(module, scenario, seed=7, steps=1000, check=record)
    t_play = time.perf_counter() - t0
    print(
        f"random legal game to Game-Turn {end.turn} ({end.phase}): {len(steps)} steps, "
        f"{t_play:.2f} s including the random player's own search"
    )

    # -- 1. validate a 60-order Movement Phase
    state = next(s for s in steps if s.phase == "movement" and s.turn >= 2 and not s.pending)
    side = state.active_side
    game = Game.of(module, state)
    rng = random.Random(1)
    lines = []
    units = sorted(u.id for u in state.units.values() if u.side == side and u.location)
    for u in units:
        reach = [r for r in reachable(game, state, u).values() if r.may_end and r.cost > 0]
        if reach:
            r = rng.choice(sorted(reach, key=lambda r: r.hex))
            lines.append(f"move {u} {' '.join(r.path[1:])}")
    while len(lines) < 60:  # pad with orders that re-check every unit's path
        lines += lines[: 60 - len(lines)]
    text = header(state, side) + "[movement]\n" + "\n".join(lines[:60]) + "\n"
    doc = parse_orders(text, "bench.txt", VOCABULARY)
    best, med = _best(lambda: rs.validate(module, state, doc))
    nviol = len(rs.validate(module, state, doc))
    print(
        f"1. validate 60 movement orders: best {best * 1000:.1f} ms, median {med * 1000:.1f} ms "
        f"({len(units)} units of {side}, {nviol} violations found) [target < 50 ms]"
    )

    # -- 2. adjudicate the whole scripted campaign: replay the recorded orders and dice
    script = _script(module, scenario)

    def replay() -> None:
        for st, d, rolls in script:
            out = rs.resolve(module, st, d, ScriptedDice(rolls))
            assert out.ok

    best, med = _best(replay, n=3)
    print(
        f"2. adjudicate a {scenario} of {len(script)} orders files: best {best:.2f} s, "
        f"median {med:.2f} s [target < 2 s]"
    )

    # -- 3. the whole process
    with tempfile.TemporaryDirectory() as tmp:
        sfile = Path(tmp) / "state.json"
        ofile = Path(tmp) / "orders.txt"
        sfile.write_text(state.canonical())
        ofile.write_text(text)
        cmd = [
            sys.executable,
            "-m",
            "referee",
            "validate",
            "--state",
            str(sfile),
            "--module",
            str(src),
            str(ofile),
        ]

        def proc() -> None:
            subprocess.run(cmd, capture_output=True, check=False)

        best, med = _best(proc, n=5)
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from typer.testing import CliRunner; from referee.cli import app; "
                f"CliRunner().invoke(app, {cmd[3:]!r}); "
                "print(sorted(m for m in ('PIL', 'lxml', 'reportlab') if m in sys.modules))",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    print(
        f"3. `referee validate` whole process: best {best:.2f} s, median {med:.2f} s "
        f"[target < 0.5 s]; heavy imports on the path: {probe.stdout.strip() or probe.stderr}"
    )

    # -- 4. the attack search of `referee options`
    worst = (0.0, "", 0, 0)
    total = 0.0
    hexes = 0
    for st in steps:
        if st.phase != "combat" or st.pending or st.active_side is None:
            continue
        g = Game.of(module, st)
        for h in sorted(st.stacks):
            if st.units[st.stacks[h][0]].side != st.active_side:
                continue
            t = time.perf_counter()
            found = group_attacks_8_3(g, st, st.active_side, h)
            dt = time.perf_counter() - t
            total += dt
            hexes += 1
            if dt > worst[0]:
                worst = (dt, h, found.tried, len(found.attacks))
    print(
        f"4. options attack search over {hexes} hexes of {len(steps)} recorded steps: total "
        f"{total * 1000:.0f} ms, slowest hex {worst[1]} {worst[0] * 1000:.1f} ms "
        f"({worst[2]} combinations, {worst[3]} legal)"
    )

    # -- 5. with the Middle East air forces
    if read_table_14_3(module) is not None:
        t0 = time.perf_counter()
        end = play(module, scenario, seed=7, steps=1000, options=("14.3",))
        print(
            f"5. random legal {scenario} with 14.3 to Game-Turn {end.turn} ({end.phase}): "
            f"{time.perf_counter() - t0:.2f} s, 14.3 roll "
            f"{end.data['middle_east_14_3']['roll']}"
        )


def _script(module, scenario):
    """Play once, keeping each (state, orders, dice) so the replay times adjudication only."""
    rs = get_ruleset(module.ruleset)
    script = []
    real_resolve = rs.resolve

    def spy(m, st, d, dice):
        out = real_resolve(m, st, d, dice)
        script.append((st, d, [r.value for r in out.rolls][len(getattr(dice, "_seen", [])) :]))
        dice._seen = list(out.rolls)  # type: ignore[attr-defined]
        return out

    rs.resolve = spy  # type: ignore[method-assign]
    try:
        play(module, scenario, seed=7, steps=1000)
    finally:
        rs.resolve = real_resolve  # type: ignore[method-assign]
    return script


if __name__ == "__main__":
    main()
