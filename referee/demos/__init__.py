"""`make demo`: the main jobs on every bundled game, one demo after the other, then a table.

Each game has its own demo (its own ``make`` target, for one game at a time):

========================  =======================  =====================================
game                      one game alone           what it plays
========================  =======================  =====================================
SPI Sixth Fleet (1975)    ``make demo-sf``         the example orders of the short scenario
Sixth Fleet, DTP rules    ``make demo-dtp``        an Iceland game on the Denmark Strait map
DTP Westpac (1978)        ``make demo-westpac``    PRC entry, a convoy docking, a landing,
                                                   the turn-4 reinforcement phase
Sixth Fleet (2019)        ``make demo-2019``       two turns with events and extra actions
Carrier Battlegroup       ``make demo-solitaire``  a whole solitaire mission, revealed
Naval module (Crimea)     ``make naval-demo``      readiness, losses, transport, assault
Strait Patrol (declared)  ``make demo-declared``   a game with no ruleset: record and dice
========================  =======================  =====================================

Every demo checks its module source, builds its VASSAL module and play aids, plays a signed
game by email with demo keys and a fixed dice seed root, and verifies the archive; each writes
under ``build/`` (``build/demo``, ``build/demo-dtp``, ``build/demo-westpac``...). What they
share is :mod:`referee.demos.base`; each game's module says only what is its game's. A demo
that fails is reported and the others still run; the exit code is 1 if any failed.

Usage: ``python -m referee.demos [--only NAME ...] [--no-play-aids]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Demo:
    name: str  # what --only takes: the module source's id
    title: str
    module: str  # the demo's Python module (its main() takes [OUT_DIR] [--no-play-aids])
    target: str  # its own make target


DEMOS: tuple[Demo, ...] = (
    Demo("sixth_fleet", "SPI Sixth Fleet (1975)", "referee.demos.sixth_fleet_1975", "demo-sf"),
    Demo(
        "dtp_denmark_strait",
        "Sixth Fleet, DTP revised rules",
        "referee.demos.sixth_fleet_dtp",
        "demo-dtp",
    ),
    Demo(
        "dtp_westpac",
        "Sixth Fleet, DTP Westpac (1978)",
        "referee.demos.dtp_westpac",
        "demo-westpac",
    ),
    Demo("sixth_fleet_2019", "Sixth Fleet (2019)", "referee.demos.sixth_fleet_2019", "demo-2019"),
    Demo(
        "carrier_battlegroup",
        "Carrier Battlegroup",
        "referee.demos.carrier_battlegroup",
        "demo-solitaire",
    ),
    Demo("naval_module", "Naval module: the Crimea", "referee.demos.naval_module", "naval-demo"),
    Demo(
        "strait_patrol",
        "Strait Patrol (a declared game)",
        "referee.demos.strait_patrol",
        "demo-declared",
    ),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    demo: Demo
    ok: bool
    seconds: float
    out: Path


def _out_dir(mod: object) -> Path:
    """Where a demo writes: its ``$OUT_ENV`` if the environment sets it, else its default."""
    env = getattr(mod, "OUT_ENV", None)
    chosen = os.environ.get(env) if env else None
    return Path(chosen) if chosen else Path(mod.DEFAULT_OUT)


def run_one(demo: Demo, *, play_aids_too: bool) -> Outcome:
    """One game's demo through its own ``main`` (which prints every step)."""
    mod = importlib.import_module(demo.module)
    out = _out_dir(mod)
    print(f"\n{'=' * 78}\n{demo.title}  (make {demo.target})\n{'=' * 78}", flush=True)
    t0 = time.perf_counter()
    code = mod.main([str(out)] + ([] if play_aids_too else ["--no-play-aids"]))
    return Outcome(demo, code == 0, time.perf_counter() - t0, out)


def table(outcomes: Sequence[Outcome]) -> str:
    from referee.demos.base import shown

    rows = [("game", "result", "time", "output", "alone")]
    for o in outcomes:
        rows.append(
            (
                o.demo.title,
                "ok, verified" if o.ok else "FAILED",
                f"{o.seconds:.0f} s",
                shown(o.out),
                f"make {o.demo.target}",
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return "\n".join("   " + line.rstrip() for line in lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.demos", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=[d.name for d in DEMOS],
        metavar="NAME",
        help="run only this game's demo (repeatable): " + ", ".join(d.name for d in DEMOS),
    )
    parser.add_argument("--no-play-aids", action="store_true", help="skip build, sheets, charts")
    ns = parser.parse_args(argv)
    chosen = [d for d in DEMOS if not ns.only or d.name in ns.only]
    t0 = time.perf_counter()
    outcomes = [run_one(d, play_aids_too=not ns.no_play_aids) for d in chosen]
    print(f"\n== Every bundled game ({time.perf_counter() - t0:.0f} s)\n{table(outcomes)}")
    failed = [o.demo.name for o in outcomes if not o.ok]
    if failed:
        print(f"demos failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
