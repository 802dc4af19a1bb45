"""Benchmark of ``referee adjudicate`` of one DTP combat impulse as a whole process (plain
script, not a test): ``.venv/bin/python bench/bench_dtp_adjudicate.py [RUNS] [WORKDIR]``.

A signed Med-under-DTP game (``short``) is set up through the CLI in-process (keys, ``new``,
SPI's example set-ups, four empty movement files), then the first combat impulse (a NATO
``pass`` [DTP 8.2]) is adjudicated RUNS times (default 5) by ``referee adjudicate`` in a
child process, each time on a fresh copy of the game, with ``PYTHONDONTWRITEBYTECODE`` unset
(this workplace sets it; it costs about 0.3 s a process). Prints the CPU time (user +
system) and wall time of each run; the first run of a new picture cache is the cold one.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.pbem.cliflow import Table, cli  # noqa: E402
from tests.pbem.test_sixth_fleet_dtp_pbem import DTP, _example  # noqa: E402


def main(runs: int, work: Path) -> None:
    root = work / "game-root"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    t = Table(root, DTP, ("NATO", "Soviet"))
    t.new("short")
    t.send("NATO", *_example("01-nato-setup.txt"))
    t.send("Soviet", *_example("02-soviet-setup.txt"))
    for side, phase in (
        ("Soviet", "ship_movement_a"),
        ("NATO", "ship_movement_b"),
        ("NATO", "air_movement_b"),
        ("Soviet", "air_movement_a"),
    ):
        t.send(side, "game: g", "turn: 1", f"side: {side}", f"phase: {phase}", "", "[movement]")
    snap = root / "snap"
    shutil.copytree(t.game, snap / "game")
    shutil.copytree(root / "referee-secret", snap / "secret")
    impulse = root / "impulse.txt"
    impulse.write_text("game: g\nturn: 1\nside: NATO\nphase: combat\n\n[combat]\npass\n")
    code, out = cli("sign", impulse, "--key", t.key("nato"), "--game-dir", t.game)
    assert code == 0, out
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    referee = Path(sys.executable).with_name("referee")
    cpus, walls = [], []
    for i in range(runs):
        shutil.rmtree(t.game)
        shutil.copytree(snap / "game", t.game)
        shutil.rmtree(root / "referee-secret")
        shutil.copytree(snap / "secret", root / "referee-secret")
        r0, w0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        p = subprocess.run(
            [str(referee), "adjudicate", str(t.game), str(impulse), "--key",
             str(t.key("referee")), "--module", str(DTP), "--referee-dir",
             str(root / "referee-secret")],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        wall, r1 = time.perf_counter() - w0, resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        assert p.returncode == 0, p.stdout + p.stderr
        cpus.append(cpu)
        walls.append(wall)
        print(f"run {i}: CPU {cpu:.3f} s, wall {wall:.3f} s", flush=True)
    print(f"CPU best {min(cpus):.3f} s, median {sorted(cpus)[len(cpus) // 2]:.3f} s; ", end="")
    print(f"wall best {min(walls):.3f} s; load average {os.getloadavg()}")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    main(n, Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp()))
