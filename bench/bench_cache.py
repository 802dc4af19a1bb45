"""Benchmark the cache where designers, CI and players iterate: whole ``referee`` processes.

Run: ``.venv/bin/python bench/bench_cache.py [--repeat N] [--only validate|build|playaids|turn]
[--demo OUT ...]``.

Cases, each a fresh process, timed ``--repeat`` times (median and best of wall time, and the
median CPU time the process used, user + system, which a busy shared machine inflates less):

- ``validate`` an orders file with a warm cache and with ``--no-cache``;
- ``sheets`` and ``charts`` with a warm cache and with ``--no-cache``;
- ``build`` of the bundled Sixth Fleet source with a cold cache, a warm cache, ``--no-cache``,
  and after editing one unit's value in a copy of the source (what a designer does), with
  the number of new cache entries that rebuild made, i.e. what it computed (the edited
  counter's face and the edited source itself);

and it checks that the module built cold, warm and with ``--no-cache`` is byte-identical;

- ``turn`` (only with ``--only turn``): what a player runs on every turn of a game
  (docs/pbem.md, "The game viewer"), on the archive of a finished demo (``--demo OUT``,
  repeatable: a demo's output folder, e.g. ``python -m referee.demos.dtp_westpac OUT
  --no-play-aids``; without it the Sixth Fleet (1975) demo is played into the temporary
  folder), cut back to the step before its last, whose orders file (the last step's
  ``orders.txt``, its signature block left out) its side then drafts: ``verify --key`` of
  the whole archive, ``viewer --side --key`` and ``validate --state GAME --side`` of the
  orders, each with a warm cache and with ``--no-cache``, and ``sign --game-dir`` (which
  draws nothing and has no ``--no-cache``); it checks that every command succeeds and that
  the viewer is byte-identical with and without the cache.

The cache lives in a temporary folder (``REFEREE_CACHE``), never the user's. Python writes
bytecode as usual (``PYTHONDONTWRITEBYTECODE`` is unset), as on a designer's machine.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "module_src" / "sixth_fleet"
ORDERS = SRC / "examples" / "01-nato-setup.txt"


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall time, CPU time (user + system) and standard output of one process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=ROOT
    )
    out, _ = proc.communicate()
    wall = time.perf_counter() - t0
    _LAST_CODE[0] = proc.returncode
    return wall, _cpu_of_last_child(), out.decode("utf-8", "replace")


_LAST_CHILD_CPU = [0.0]
_LAST_CODE = [0]  # the exit code of the last process :func:`run` ran


def _cpu_of_last_child() -> float:
    """CPU seconds of the child that just finished (the growth of RUSAGE_CHILDREN)."""
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = ru.ru_utime + ru.ru_stime
    used = total - _LAST_CHILD_CPU[0]
    _LAST_CHILD_CPU[0] = total
    return used


def timed(name: str, repeat: int, once: Callable[[], tuple[float, float, str]]) -> list[str]:
    walls, cpus, outs = [], [], []
    for _ in range(repeat):
        wall, cpu, out = once()
        walls.append(wall)
        cpus.append(cpu)
        outs.append(out)
    print(
        f"{name:<44} median {statistics.median(walls):5.2f} s  best {min(walls):5.2f} s  "
        f"CPU median {statistics.median(cpus):5.2f} s   (n={repeat})",
        flush=True,
    )
    return outs


def _entries(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


SIGNATURE = "-----BEGIN SSH SIGNATURE-----"


def _cut(demo: Path, into: Path) -> tuple[Path, str, str]:
    """A copy of the demo's game without its last step, and that step's orders: ``(game, the
    orders' side, their text without the signature block)``. An open game only (each step
    publishes its full position, which becomes the copy's ``state.json``)."""
    game = into / "game"
    shutil.copytree(demo / "game", game)
    turns = sorted(p for p in (game / "turns").iterdir() if p.is_dir())
    last, before = turns[-1], turns[-2]
    if not (before / "state.json").is_file():
        raise SystemExit(f"{demo}: not an open game's demo (no turns/{before.name}/state.json)")
    text = (last / "orders.txt").read_text("utf-8").split(SIGNATURE, 1)[0]
    side = next(ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("side:"))
    shutil.rmtree(last)
    shutil.copyfile(before / "state.json", game / "state.json")
    return game, side, text


def _demo_1975(tmp: Path, env: dict[str, str]) -> Path:
    out = tmp / "demo-1975"
    subprocess.run(
        [sys.executable, "-m", "referee.demos.sixth_fleet_1975", str(out), "--no-play-aids"],
        check=True,
        capture_output=True,
        env=env,
        cwd=ROOT,
    )
    return out


def turn_commands(demo: Path, tmp: Path, env: dict[str, str], repeat: int) -> None:
    """The ``turn`` case on one demo's archive (module docstring)."""
    work = tmp / f"turn-{demo.name}"
    work.mkdir()
    game, side, text = _cut(demo, work)
    key = demo / "keys" / f"{side.lower()}.key"
    orders = work / "orders.txt"
    orders.write_text(text, "utf-8")
    referee = [sys.executable, "-m", "referee"]
    cases = {
        "verify --key": [*referee, "verify", str(game), "--key", str(key), "-q"],
        "viewer": [*referee, "viewer", str(game), "--side", side, "--key", str(key), "-q"],
        "validate": [*referee, "validate", str(orders), "--state", str(game), "--side", side],
    }
    print(f"{demo.name}: {len(list((game / 'turns').iterdir()))} steps, {side} drafts next")
    pages: dict[str, bytes] = {}
    for name, cmd in cases.items():
        for how, extra in (("warm cache", []), ("--no-cache", ["--no-cache"])):
            page = work / f"viewer-{how}.html"
            full = [*cmd, "-o", str(page)] if name == "viewer" else list(cmd)
            full += extra
            once = partial(checked, full, env)
            if how == "warm cache":
                once()  # the cache and the bytecode warmed
            timed(f"  {name}, {how}", repeat, once)
            if name == "viewer":
                pages[how] = page.read_bytes()
    same = len(set(pages.values())) == 1
    print(f"  the viewer byte-identical with a warm cache and --no-cache: {same}")
    if not same:
        raise SystemExit("the cache changed the viewer")
    sign = [*referee, "sign", str(orders), "--key", str(key), "--game-dir", str(game), "-q"]
    sign += ["-o", str(work / "signed.txt")]
    timed("  sign --game-dir", repeat, partial(checked, sign, env))


def checked(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """:func:`run`, stopping the benchmark when the command fails."""
    wall, cpu, out = run(cmd, env)
    if _LAST_CODE[0] != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {_LAST_CODE[0]}: {out[-2000:]}")
    return wall, cpu, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", choices=("validate", "build", "playaids", "turn"))
    parser.add_argument(
        "--demo",
        type=Path,
        action="append",
        default=[],
        metavar="OUT",
        help="turn: a finished demo's output folder (repeatable; default: play Sixth Fleet "
        "(1975)'s)",
    )
    args = parser.parse_args()
    referee = [sys.executable, "-m", "referee"]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["REFEREE_CACHE"] = str(tmp / "cache")
        _cpu_of_last_child()
        print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        if args.only == "turn":  # only when asked: it plays a demo unless given one
            for demo in args.demo or [_demo_1975(tmp, env)]:
                turn_commands(demo.resolve(), tmp, env, args.repeat)
            print(f"load average at the end: {os.getloadavg()[0]:.2f}")
            return
        if args.only in (None, "validate"):
            state = tmp / "state.json"
            subprocess.run(
                [*referee, "state", "new", str(SRC), "--scenario", "short", "-o", str(state)],
                check=True,
                capture_output=True,
                env=env,
                cwd=ROOT,
            )
            cmd = [*referee, "validate", "--state", str(state), "--module", str(SRC), str(ORDERS)]
            run(cmd, env)  # warm the cache and the bytecode
            timed("validate, warm cache", args.repeat, lambda: run(cmd, env))
            timed("validate --no-cache", args.repeat, lambda: run([*cmd, "--no-cache"], env))
        if args.only in (None, "playaids"):
            for command in ("sheets", "charts"):
                cmd = [*referee, command, str(SRC), "-q", "-o", str(tmp / command)]
                run(cmd, env)  # cold
                timed(f"{command}, warm cache", max(1, args.repeat // 2), lambda c=cmd: run(c, env))
                timed(
                    f"{command} --no-cache",
                    max(1, args.repeat // 2),
                    lambda c=cmd: run([*c, "--no-cache"], env),
                )
        if args.only in (None, "build"):
            build = [*referee, "build", "--json"]

            def cold() -> tuple[float, float, str]:
                shutil.rmtree(tmp / "cache", ignore_errors=True)
                return run([*build, str(SRC), "-o", str(tmp / "cold")], env)

            timed("build, cold cache", max(1, args.repeat // 2), cold)
            timed(
                "build, warm cache",
                args.repeat,
                lambda: run([*build, str(SRC), "-o", str(tmp / "warm")], env),
            )
            timed(
                "build --no-cache",
                max(1, args.repeat // 2),
                lambda: run([*build, str(SRC), "-o", str(tmp / "none"), "--no-cache"], env),
            )
            vmods = [next((tmp / d).glob("*.vmod")).read_bytes() for d in ("cold", "warm", "none")]
            print(f"cold, warm and --no-cache modules byte-identical: {len(set(vmods)) == 1}")
            if len(set(vmods)) != 1:
                raise SystemExit("the cache changed the module")
            edited = tmp / "edited"
            shutil.copytree(SRC, edited)
            units = edited / "units.csv"
            lines = units.read_text().splitlines(keepends=True)
            counter = [0]

            def edit_one() -> tuple[float, float, str]:
                # a different value each time, so every run re-draws exactly one counter
                counter[0] += 1
                first = next(i for i, line in enumerate(lines) if line.startswith("id,"))
                header = next(csv.reader([lines[first]]))
                at = next(i for i in range(first + 1, len(lines)) if lines[i][0] not in "#\n")
                row = next(csv.reader([lines[at]]))
                row[header.index("DEF")] = str(12 + counter[0])  # two digits, never seen
                out = io.StringIO()
                csv.writer(out, lineterminator="\n").writerow(row)
                new = [*lines[:at], out.getvalue(), *lines[at + 1 :]]
                units.write_text("".join(new))
                return run([*build, str(edited), "-o", str(tmp / "edit")], env)

            run([*build, str(edited), "-o", str(tmp / "edit")], env)
            entries: list[int] = []

            def edit_and_count() -> tuple[float, float, str]:
                before = _entries(tmp / "cache")
                got = edit_one()
                entries.append(len(_entries(tmp / "cache") - before))
                return got

            timed("build after editing one unit's value", args.repeat, edit_and_count)
            print(f"new cache entries (results computed) per edited rebuild: {sorted(entries)}")


if __name__ == "__main__":
    main()
