"""Benchmark the PBEM referee: one adjudication end to end, and verify of a long archive.

Plain script (not a timed test): ``.venv/bin/python bench/bench_pbem.py [MODULE_SRC]``.
It plays the mini test module (``tests/fixtures/modules/mini``, the longest scenario) with the
real Sixth Fleet (1975) ruleset: a fixed legal set-up, then empty orders for every phase until
the game ends or a decision is owed. (A full Sixth Fleet set-up needs a generator of legal
placements for every pool; give another module source only if empty set-ups are legal there.)

Each step adjudicated: read and authenticate the signed orders, validate, resolve with
committed dice, render report.md, report.html with the position picture, the per-side views,
sign, write the turn folder atomically.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.signed import new_signed_game
from referee.pbem.problems import Refusal
from referee.pbem.verify import verify_archive
from referee.source.loader import load_module
from referee.source.model import Module

REPO = Path(__file__).resolve().parents[1]
SETUP = {
    "NATO-setup": "[setup]\nplace US-DD-1 0202\nplace US-F4.2 box US-CV-1\n",
    "Soviet-setup": "[setup]\nplace SO-DD-1 0506\nplace SO-SG-1 0405\nplace SO-T16.1 0608\n",
    "Soviet-reinforcement": "[reinforcement]\nplace SO-T16.2 0608\n",
}


def pick_module(arg: str | None) -> Module:
    m, diags = load_module(Path(arg) if arg else REPO / "tests/fixtures/modules/mini")
    if m is None:
        raise SystemExit(f"the module source does not load: {diags.errors[0]}")
    return m


def main() -> None:
    module = pick_module(sys.argv[1] if len(sys.argv) > 1 else None)
    scenario = max(module.scenarios, key=lambda s: module.scenarios[s].turns)
    tmp = Path(tempfile.mkdtemp())
    try:
        game = tmp / "game"
        t0 = time.perf_counter()
        g = new_signed_game(game, tmp, module, scenario, picture_dpi=40, seed_root=None)
        print(f"module {module.id}, scenario {scenario}: new game {time.perf_counter() - t0:.3f} s")
        times: list[float] = []
        steps = 0
        while True:
            state_side = _awaited(game)
            if state_side is None:
                break
            side, section = state_side
            text = SETUP.get(f"{side}-{section}", "") if module.id == "mini" else ""
            text = text or f"[{section}]\n"
            path = g.signed_file(text, side, f"o{steps}.txt")
            t0 = time.perf_counter()
            try:
                g.adjudicate(path)
            except Refusal as exc:
                print(f"stopped after {steps} steps: an empty orders file was refused: {exc}")
                break
            times.append(time.perf_counter() - t0)
            steps += 1
        if times:
            print(
                f"adjudicate one step end to end (picture at 40 dpi): median "
                f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms "
                f"over {len(times)} steps"
            )
        sf, _ = load_module(REPO / "module_src/sixth_fleet")
        if sf is not None:
            from referee.picture.svg import position_svg

            rs_state = _sf_state(sf)
            t0 = time.process_time()
            position_svg(sf, None, rs_state, (), 40)
            t1 = time.process_time()
            position_svg(sf, None, rs_state, (), 40)
            print(
                f"sixth_fleet position.svg at 40 dpi: {t1 - t0:.3f} s CPU the first "
                f"(the map's geometry), {time.process_time() - t1:.3f} s the next"
            )
        t0 = time.perf_counter()
        v = verify_archive(game, module)
        dt = time.perf_counter() - t0
        per = dt / max(1, v.reports) * 1000
        print(f"verify {v.reports} reports: {dt:.3f} s ({per:.0f} ms/report)")
    finally:
        shutil.rmtree(tmp)


def _sf_state(sf: Module):
    from referee.engine.ruleset import get_ruleset

    scen = next(iter(sorted(sf.scenarios)))
    return get_ruleset(sf.ruleset).new_game(sf, scen, "bench")


def _awaited(game: Path) -> tuple[str, str] | None:
    import json

    st = json.loads((game / "state.json").read_text())
    if st["active_side"] is None and not st["pending"]:
        return None
    if st["pending"]:
        return None  # an empty file cannot answer a decision; stop here
    phase = st["phase"]
    section = {"setup": "setup", "movement": "movement", "combat": "combat"}.get(phase, phase)
    return st["active_side"], section


if __name__ == "__main__":
    main()
