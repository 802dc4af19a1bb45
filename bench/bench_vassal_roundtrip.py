"""Benchmark the VASSAL round trip: set-up saves, position saves, reading them, importing logs.

Run: ``.venv/bin/python bench/bench_vassal_roundtrip.py [MODULE_SRC]`` (default: the Sixth
Fleet source, else the mini test module). Prints the best of several runs for each step.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.vassal.codec.commands import AddPiece, Compound, LogEntry, MovePiece
from referee.vassal.codec.pieces import Stack
from referee.vassal.codec.savefile import read_save_bytes, save_to_bytes
from referee.vassal.codec.tabletop import replay
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.setups import scenario_setups
from referee.vassal.position.survey import survey
from referee.vassal.position.vlog_import import Expected, import_log

ROOT = Path(__file__).resolve().parents[1]


def best(label: str, fn: Callable[[], object], runs: int = 5) -> object:
    times = []
    result: object = None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    print(f"{label:<46} {min(times) * 1000:9.1f} ms")
    return result


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "module_src" / "sixth_fleet"
    module, _ = load_module(src)
    if module is None:
        src = ROOT / "tests" / "fixtures" / "modules" / "mini"
        module, _ = load_module(src)
    assert module is not None
    print(f"module: {module.name} {module.version} ({len(module.pieces())} counters)")
    table = best("layout (plan + set-up area), dpi 150", lambda: table_for(module), runs=3)
    assert not isinstance(table, type(None))
    t = table_for(module)
    best("every scenario's set-up save", lambda: scenario_setups(t))
    scenario = next(iter(module.scenarios))
    state = get_ruleset(module.ruleset).new_game(module, scenario, "bench")
    data = position_vsav_bytes(t, state)
    print(f"position.vsav of {scenario!r}: {len(data):,} bytes, {len(state.units)} units")
    best("write position.vsav (bytes)", lambda: position_vsav_bytes(t, state))
    best(
        "read it back (unzip, parse, replay, survey)",
        lambda: survey(t, replay(read_save_bytes(data).commands).end),
    )

    # a log with 200 drags of the units on the map, hex to neighbouring hex and back
    save = read_save_bytes(data)
    top = replay(save.commands).end
    on_map = [(pid, top.point(pid)) for pid in top.pieces if top.point(pid)[0] == t.main_map]
    steps = []
    grid = module.map.grid
    for i in range(200):
        pid, (map_id, x, y) = on_map[i % len(on_map)]
        here = t.point_hex(x, y)
        assert here is not None
        there = grid.neighbours(here)[0]
        _, nx, ny = t.hex_point(there)
        steps.append(LogEntry(MovePiece(pid, map_id, nx, ny, None, map_id, x, y, None, "pw")))
        stack = Stack.build(map_id, nx, ny, [pid])
        steps.append(LogEntry(AddPiece(str(2_000_000_000_001 + i), stack.type, stack.state or "")))
        steps.append(LogEntry(MovePiece(pid, map_id, x, y, None, map_id, nx, ny, None, "pw")))
    assert isinstance(save.commands, Compound)
    log = save_to_bytes(
        Compound((*save.commands.children, *steps)),
        savedata=save.savedata,
        moduledata=save.moduledata,
    )
    side = state.active_side or module.sides[0].id
    expected = Expected(module.name, module.version, "bench", 1, side, "movement")
    print(f"log with 400 drags: {len(log):,} bytes")
    best(
        "import-vlog of it (read + translate)",
        lambda: import_log(t, read_save_bytes(log), state, expected, source="bench.vlog"),
    )
    result = import_log(t, read_save_bytes(log), state, expected, source="bench.vlog")
    print(f"  -> {len(result.orders)} orders, {len(result.problems)} not translated")


if __name__ == "__main__":
    main()
