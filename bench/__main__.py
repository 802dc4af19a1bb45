"""`make bench`: run every benchmark script in turn, each in its own process.

The figures go into docs/performance.md by hand, with the machine and the date; the scripts
are not timed tests, so a slow shared machine never fails the build.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"\n=== {script.name}", flush=True)
        rc = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        if rc != 0:
            print(f"{script.name}: exit {rc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
