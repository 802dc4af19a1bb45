"""Every key of every TOML file of a module source given each value of the wrong type once.

The random fuzzer (``tests/fuzz/fuzz.py``) retypes a value now and then; this walks them all:
each ``key = value`` line of each ``.toml`` file of the source (one per table header and key:
a second ``[[pool]]``'s ``hexes`` is read by the same code as the first) is replaced in turn
by each of :data:`VALUES`, and ``referee check`` runs on the copy, then ``referee state new``
when ``check`` accepts it. A crash is what the fuzzer calls one: an exit code outside 0, 1, 2,
75, or "internal error". Run by hand (``docs/reliability.md``), one source at a time::

    .venv/bin/python -m tests.fuzz.retype module_src/sixth_fleet short

prints each crash with its file, line, key and value, then a tally; exits 1 on any crash.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.fuzz.inprocess import run_cli, speedups
from tests.pbem import toy

toy.install()

# The values the fuzzer's text mutation writes in place of a value (``mutate_text``).
VALUES = ("[]", "{}", "-1", '""', "true", "1e999", "[[1]]")
OK_CODES = {0, 1, 2, 75}


def sites(root: Path) -> Iterator[tuple[Path, int, str]]:
    """Each TOML file's first ``key = value`` line per table header and key."""
    for f in sorted(root.rglob("*.toml")):
        header, seen = "", set()
        for i, line in enumerate(f.read_text("utf-8").splitlines()):
            text = line.strip()
            if text.startswith("["):
                header = text
            elif "=" in text and not text.startswith("#"):
                key = text.split("=", 1)[0].strip()
                if (header, key) not in seen:
                    seen.add((header, key))
                    yield f.relative_to(root), i, key


def _retyped_copy(root: Path, dst: Path, rel: Path, i: int, key: str, value: str) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(root, dst, ignore=shutil.ignore_patterns("examples", "*.png", "*.pdf"))
    p = dst / rel
    lines = p.read_text("utf-8").splitlines(keepends=True)
    lines[i] = f"{key} = {value}\n"
    p.write_text("".join(lines), "utf-8")


def retype(root: Path, scenario: str | None) -> tuple[int, list[str]]:
    """Runs made and crashes found (one line each) for the source at ``root``."""
    runs, crashes = 0, []
    with speedups(), tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / root.name
        for rel, i, key in list(sites(root)):
            for value in VALUES:
                _retyped_copy(root, copy, rel, i, key, value)
                commands = [["check", str(copy)]]
                if scenario:
                    new = ["state", "new", str(copy), "--scenario", scenario]
                    commands.append([*new, "-o", str(Path(tmp) / "new.json")])
                for args in commands:
                    code, err = run_cli(args)
                    runs += 1
                    if code not in OK_CODES or "internal error" in err:
                        crashes.append(f"{rel}:{i + 1}: {key} = {value}: {args[0]}: {err.strip()}")
                        print("CRASH", crashes[-1], flush=True)
                    if code != 0:
                        break
    return runs, crashes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="a module source folder")
    ap.add_argument("scenario", nargs="?", help="a scenario for `state new` (none: check only)")
    a = ap.parse_args(argv)
    if not (a.source / "module.toml").is_file():
        ap.error(f"{a.source}: no module.toml there (name a module source folder)")
    if a.scenario:  # each retyped copy must be able to fail where the source itself does not
        with tempfile.TemporaryDirectory() as tmp:
            new = ["state", "new", str(a.source), "--scenario", a.scenario]
            code, err = run_cli([*new, "-o", str(Path(tmp) / "new.json")])
        if code != 0:
            ap.error(f"`referee state new` fails on the source itself: {err.strip()}")
    t0 = time.process_time()
    runs, crashes = retype(a.source, a.scenario)
    cpu = time.process_time() - t0
    print(f"{a.source}: {runs} runs, {len(crashes)} crash(es), {cpu:.0f} s CPU")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
