"""Benchmark: the awaited side's options (``options-SIDE.json``) in a Westpac position, for the
movement phases, a combat impulse and the rebasing phase (issue 26).

Plain script (not a timed test):
``python bench/bench_dtp_options.py [--runs N] [--refresh] [--only PHASE] [--format N]``.

The positions are those of the scripted Westpac game (``RULESET.scripted_orders``, the seeded
lawful player of the whole-game tests; options 11.5131, 11.5133, 11.5134 as in
``bench_westpac.py``) played in-process with seeded dice until Game-Turn :data:`TURN` awaits
each phase below; each is kept as ``build/bench_dtp_options/PHASE.json`` so later runs
start at once (``--refresh`` plays the game again). For each position the options file of
the awaited side is drafted as ``adjudicate`` drafts it (``draft_options`` on the side's view,
format 3 unless ``--format`` says otherwise), its CPU measured with ``time.process_time``
(user + system of this process, best of ``--runs``), and the SHA-256 of the file's bytes
printed: the bytes must not change when the options get faster (``verify`` renders old
archives' files again).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.games import scripted_game  # noqa: E402
from referee.engine.core import GameState  # noqa: E402
from referee.pbem.draft_options import compact_json, draft_options  # noqa: E402
from referee.rules.sixth_fleet_dtp.ruleset import RULESET  # noqa: E402
from referee.source.loader import load_module  # noqa: E402
from referee.source.model import Module  # noqa: E402

SRC = ROOT / "module_src" / "dtp_westpac"
KEEP = ROOT / "build" / "bench_dtp_options"
GAME_ID = "westpac-options-bench"
OPTIONS = ("11.5131", "11.5133", "11.5134")
TURN = 3
PHASES = (
    "ship_movement_a",
    "ship_movement_b",
    "air_movement_b",
    "air_movement_a",
    "combat",
    "rebasing",
)
"""Both ship and sub movements, both air movements (SEATO's is the figure of
docs/performance.md: some 30 air units over the 60 x 73 map), the first combat impulse and the
rebasing phase (the East Block first)."""
REPORT = {"game_id": GAME_ID, "after": {"turn": TURN, "phase": ""}}
RSHA = "0" * 64
FORMAT = 3
"""The options file's format the SHA-256s of docs/performance.md were taken in (``--format``
drafts another, e.g. today's)."""


def play_to_positions(module: Module) -> dict[str, GameState]:
    """The scripted game from its start until each of :data:`PHASES` is awaited in
    Game-Turn :data:`TURN`."""
    state = RULESET.new_game(module, "westpac", GAME_ID, OPTIONS)
    found: dict[str, GameState] = {}
    for step in scripted_game(RULESET, module, state):
        s = step.after
        if s.turn == TURN and s.phase in PHASES and s.phase not in found:
            found[s.phase] = s
            print(f"   kept {s.phase} (step {step.k + 1})", flush=True)
        if len(found) == len(PHASES) or s.turn > TURN:
            break
    missing = [p for p in PHASES if p not in found]
    assert not missing, f"the game never awaited {missing} in Game-Turn {TURN}"
    return found


def positions(module: Module, refresh: bool) -> dict[str, GameState]:
    """The kept positions, played again when missing or with ``refresh``."""
    files = {p: KEEP / f"{p}.json" for p in PHASES}
    if not refresh and all(f.is_file() for f in files.values()):
        return {p: GameState.from_json(json.loads(f.read_text("utf-8"))) for p, f in files.items()}
    found = play_to_positions(module)
    KEEP.mkdir(parents=True, exist_ok=True)
    for p, st in found.items():
        files[p].write_text(json.dumps(st.to_json(), sort_keys=True), "utf-8")
    return found


def options_bytes(module: Module, state: GameState, version: int = FORMAT) -> tuple[str, bytes]:
    """The awaited side and its ``options-SIDE.json`` bytes in format ``version``, as
    ``adjudicate`` drafts them."""
    side, _ = RULESET.awaiting(module, state)
    view = RULESET.view(module, state, side)
    report = {**REPORT, "after": {"turn": state.turn, "phase": state.phase}}
    doc = draft_options(module, RULESET, report, RSHA, view, side, version)
    return side, compact_json(doc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="runs per position (best kept)")
    ap.add_argument("--refresh", action="store_true", help="play the game to the positions again")
    ap.add_argument("--only", choices=PHASES, action="append", help="this phase only")
    ap.add_argument("--format", type=int, default=FORMAT, help=f"file format ({FORMAT})")
    args = ap.parse_args()
    module, diags = load_module(SRC)
    assert module is not None, [str(d) for d in diags.items]
    kept = positions(module, args.refresh)
    options_bytes(module, kept[PHASES[-1]])  # warm the module's caches once
    total = 0.0
    for phase in args.only or PHASES:
        state = kept[phase]
        best, data, side = float("inf"), b"", ""
        for _ in range(max(1, args.runs)):
            t0 = time.process_time()
            side, data = options_bytes(module, state, args.format)
            best = min(best, time.process_time() - t0)
        doc = json.loads(data)
        choices = sum(len(u.get("choices", [])) for u in doc["units"].values())
        ends = sum(  # a tree's ends: format 3's "ends", format 4's "labels"
            len(t["ends"]) if "ends" in t else sum(len(hs) for hs in t["labels"].values())
            for t in doc["trees"]
        )
        total += best
        print(
            f"{phase:16} Game-Turn {state.turn} {side:9} units {len(doc['units']):3} "
            f"choices {choices:5} tree ends {ends:5} bytes {len(data):7}  "
            f"CPU {best:7.2f} s  sha256 {hashlib.sha256(data).hexdigest()}",
            flush=True,
        )
    print(f"all: {total:.2f} s CPU")


if __name__ == "__main__":
    main()
