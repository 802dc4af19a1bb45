"""`make demo`: run the main jobs on the bundled Sixth Fleet module and say where things are.

Each step runs the real CLI (in-process, through the Typer app), exactly as a user would type
it, so the demo proves the commands work end to end from a fresh clone.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "module_src" / "sixth_fleet"
BUILD = ROOT / "build"


def run(title: str, args: list[str]) -> str:
    from referee.cli import app

    print(f"\n== {title}\n$ referee {' '.join(args)}", flush=True)
    t0 = time.perf_counter()
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    out = result.output
    print(out.rstrip())
    print(f"   ({time.perf_counter() - t0:.2f} s, exit {result.exit_code})")
    if result.exit_code != 0:
        print(f"demo: step failed: {title}", file=sys.stderr)
        raise SystemExit(result.exit_code)
    return out


def main() -> None:
    src = str(SRC.relative_to(Path.cwd())) if SRC.is_relative_to(Path.cwd()) else str(SRC)
    run("Check the module source", ["check", src])
    print("\nDemo finished.")


if __name__ == "__main__":
    main()
