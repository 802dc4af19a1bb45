"""The largest inputs each reading command accepts, as whole processes, in CPU time (issue 31).

1. ``validate`` of an orders file at the parser's size limit (``MAX_ORDERS_BYTES``, 1 MB)
   for every bundled game: the orders its scripted player wrote for a real position, the
   order lines repeated up to the limit (every repeat is a violation to report, the most
   work a file can ask); for Carrier Battlegroup also the issue's 4,323 ``strike`` lines;
2. ``show-vsav`` of crafted saves at the command parser's limits: just under
   ``MAX_COMMANDS`` tiny commands holding escaped delimiters (the shape that took 6.6 s in
   21 KB), and ``MAX_COMMAND_CHARS`` of long commands.

Run: ``python bench/bench_hostile.py [--saves]`` (a few minutes on a busy machine;
``--saves``: the saves only). Figures go into
docs/performance.md by hand, with the machine, the load and the date.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SOURCES = ("sixth_fleet", "sixth_fleet_dtp", "dtp_denmark_strait", "sixth_fleet_2019")
SOURCES += ("carrier_battlegroup", "naval_module")


def cpu_of(args: list[str]) -> tuple[float, int]:
    """CPU seconds (user + system) of ``referee ARGS`` as a whole process, and its exit."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(
        [sys.executable, "-m", "referee", *args],
        capture_output=True,
        env={**os.environ, "REFEREE_CACHE": str(Path(tempfile.gettempdir()) / "bench-cache")},
        check=False,
    )
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), p.returncode


def a_position(src: Path, steps: int, want: str | None = None) -> tuple[dict, str]:
    """A position of the first ``steps`` scripted steps and the orders written for it: the
    one with the most order lines, or the first whose orders hold ``want``."""
    from referee.engine.orders import parse_orders
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.dice import CommittedDice
    from referee.source.loader import load_module

    module, _ = load_module(src)
    assert module is not None
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, next(iter(module.scenarios)), "bench")
    best: tuple[dict, str] | None = None
    for k in range(steps):
        text = rs.scripted_orders(module, state)  # type: ignore[attr-defined]
        if text is None:
            break
        if want is not None and want in text:
            return state.to_json(), text
        body = [
            ln
            for ln in text.splitlines()
            if ln.strip() and not ln.startswith(("[", "#")) and ":" not in ln.split()[0]
        ]
        if want is None and (best is None or len(body) > len(best[1].splitlines())):
            best = (state.to_json(), text)
        doc = parse_orders(text, "o.txt", rs.vocabulary)
        dice = CommittedDice(b"b" * 32, k, hashlib.sha256(text.encode()).hexdigest(), b"h" * 32)
        state = rs.resolve(module, state, doc, dice).state
    assert best is not None
    return best


def grown(text: str, limit: int) -> str:
    """``text`` with its order lines (not headers, section lines or comments) repeated in
    place until the file is just under ``limit`` bytes."""
    lines = text.splitlines()
    orders = [
        i
        for i, ln in enumerate(lines)
        if ln.strip() and not ln.startswith(("[", "#")) and not ln.split()[0].endswith(":")
    ]
    last = orders[-1]
    extra = [lines[i] for i in orders]
    out = lines[: last + 1]
    size = sum(len(x.encode()) + 1 for x in lines)
    k = 0
    while True:
        add = extra[k % len(extra)]
        if size + len(add.encode()) + 1 >= limit:
            break
        out.append(add)
        size += len(add.encode()) + 1
        k += 1
    return "\n".join(out + lines[last + 1 :]) + "\n"


def orders_at_the_limit(tmp: Path) -> None:
    from referee.engine.orders import MAX_ORDERS_BYTES

    for name in SOURCES:
        src = ROOT / "module_src" / name
        state, text = a_position(src, 20)
        st = tmp / f"{name}.json"
        st.write_text(json.dumps(state), encoding="utf-8")
        o = tmp / f"{name}.txt"
        o.write_text(grown(text, MAX_ORDERS_BYTES), encoding="utf-8")
        lines = o.read_text(encoding="utf-8").count("\n")
        cpu, code = cpu_of(["validate", str(o), "--state", str(st), "--module", str(src), "-q"])
        size = o.stat().st_size
        print(f"validate {name}: {size} bytes, {lines} lines: CPU {cpu:.2f} s (exit {code})")


def cbg_strikes(tmp: Path) -> None:
    """The issue's file: 4,323 ``strike`` lines against a position awaiting them."""
    src = ROOT / "module_src" / "carrier_battlegroup"
    state, text = a_position(src, 12, "\nstrike ")
    head = [ln for ln in text.splitlines() if not ln.startswith("strike")]
    strike = next(ln for ln in text.splitlines() if ln.startswith("strike"))
    launch = head.index("[launch]") + 1
    lines = head[:launch] + [strike] * 4323 + head[launch:]
    st = tmp / "cbg.json"
    st.write_text(json.dumps(state), encoding="utf-8")
    o = tmp / "strikes.txt"
    o.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cpu, code = cpu_of(["validate", str(o), "--state", str(st), "--module", str(src), "-q"])
    print(f"validate carrier_battlegroup, 4,323 strike lines ({o.stat().st_size} bytes): "
          f"CPU {cpu:.2f} s (exit {code})")  # fmt: skip


def _save(body: str) -> bytes:
    from referee.vassal.codec.obfuscation import obfuscate

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", obfuscate(body.encode("utf-8")))
    return buf.getvalue()


def _letters(n: int, seed: int) -> str:
    import random

    rng = random.Random(seed)
    return "".join(rng.choices("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ", k=n))


def saves_at_the_limit(tmp: Path) -> None:
    from referee.vassal.codec.commands import MAX_COMMAND_CHARS, MAX_COMMANDS

    per = 51  # commands in one "chat\\ESC" * 50 + ESC group
    groups = (MAX_COMMANDS - 2) // per
    cases = {
        "escaped (the issue's shape)": "begin_save\x1b"
        + ("chat\\\x1b" * 50 + "\x1b") * groups
        + "end_save",
        # random letters (deflate cannot squeeze them past the zip reader's ratio cap)
        "long commands": "begin_save\x1b"
        + "\x1b".join(
            "CHAT" + _letters(99_990, k) for k in range((MAX_COMMAND_CHARS - 100) // 100_000)
        ),
        "one command": "CHAT" + _letters(MAX_COMMAND_CHARS - 8, 0),
    }
    for label, body in cases.items():
        p = tmp / "crafted.vsav"
        p.write_bytes(_save(body))
        cpu, code = cpu_of(["show-vsav", str(p), "-q"])
        print(f"show-vsav, {label}: {p.stat().st_size} bytes, {len(body)} characters, "
              f"{body.count(chr(27))} ESC: CPU {cpu:.2f} s (exit {code})")  # fmt: skip


def main() -> None:
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        if "--saves" not in sys.argv:
            cbg_strikes(tmp)
            orders_at_the_limit(tmp)
        saves_at_the_limit(tmp)
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
