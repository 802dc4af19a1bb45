"""Feed mutated inputs to every command that reads them, in-process, and count crashes.

A crash is an exit code outside the documented 0/1/2/75, or "internal error" on standard
error. The targets (issue 11, "how it is checked"):

* ``orders``: a signed orders file, mutated and signed again with the player's real key
  (half of the time) -> ``validate`` and ``adjudicate --dry-run``;
* ``state``: ``state.json`` with one value deleted, retyped or duplicated -> ``validate``,
  ``options``;
* ``game-toml``: ``game.toml`` text mutations -> ``verify``;
* ``report``: a ``report.json`` with one value mutated, re-signed with the referee's real key
  (and its manifest too) -> ``verify``;
* ``module``: one file of a copy of the module source mutated -> ``check``;
* ``vsav``: a VASSAL save with bytes flipped, cut or inserted -> ``show-vsav``.

Run briefly by ``tests/fuzz/test_fuzz_brief.py`` (CI); a long run by hand::

    .venv/bin/python -m tests.fuzz.fuzz --per-target 3000 [--seed N] [--target NAME]

prints one line per target (inputs tried, exit codes seen, crashes) and the first crash's
reproducer, which is kept under ``--keep DIR``. ``docs/reliability.md`` records the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fuzz import real
from tests.fuzz.inprocess import run_cli, speedups
from tests.fuzz.real import real_world
from tests.pbem import toy

toy.install()

from referee.pbem.archive import sha256_hex  # noqa: E402
from referee.pbem.keys import CONTEXT_REPORT, PrivateKey, generate, write_key_pair  # noqa: E402
from referee.pbem.record import CONTEXT_MANIFEST, pretty_json, sign_file  # noqa: E402

TOY = Path(toy.TOY_FIXTURE)
OK_CODES = {0, 1, 2, 75}
ODD_VALUES: list[Any] = [
    None,
    0,
    -1,
    2**63,
    1e308,
    True,
    "",
    "x",
    "0303",
    "NATO",
    [],
    [1],
    {},
    {"a": 1},
    "\u202e",
    [[[[[]]]]],
]


# -- mutators ---------------------------------------------------------------------------


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def mutate_json(rng: random.Random, doc: Any) -> Any:
    """One structural change: a value deleted, retyped, duplicated or swapped."""
    doc = json.loads(json.dumps(doc))
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return rng.choice(ODD_VALUES)
    path = rng.choice(paths)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    how = rng.randrange(5)
    if how == 0:
        del parent[last]
    elif how == 1:
        parent[last] = rng.choice(ODD_VALUES)
    elif how == 2 and isinstance(parent, list):
        parent.insert(last, json.loads(json.dumps(parent[last])))
    elif how == 3:
        other = rng.choice(paths)
        src = doc
        try:
            for k in other:
                src = src[k]
            parent[last] = json.loads(json.dumps(src))
        except (KeyError, IndexError, TypeError):
            parent[last] = None
    else:
        v = parent[last]
        parent[last] = (
            str(v) if not isinstance(v, str) else (v[::-1] if rng.random() < 0.5 else v * 3)
        )
    return doc


def mutate_text(rng: random.Random, text: str) -> str:
    """One textual change: a line deleted, duplicated or swapped, characters inserted or
    flipped, a value made a list, the text cut."""
    lines = text.splitlines(keepends=True) or [""]
    how = rng.randrange(7)
    i = rng.randrange(len(lines))
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 3:
        s = lines[i]
        p = rng.randrange(len(s) + 1)
        lines[i] = s[:p] + rng.choice(["[", "]", '"', "=", ",", "\x00", "é", "{", "#", " "]) + s[p:]
    elif how == 4 and "=" in lines[i]:
        key = lines[i].split("=", 1)[0]
        lines[i] = (
            key + "= " + rng.choice(["[]", "{}", "-1", '""', "true", "1e999", "[[1]]"]) + "\n"
        )
    elif how == 5:
        return text[: rng.randrange(len(text) + 1)]
    else:
        s = lines[i]
        if s:
            p = rng.randrange(len(s))
            lines[i] = s[:p] + chr((ord(s[p]) + 1) % 0x250) + s[p + 1 :]
    return "".join(lines)


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        how = rng.randrange(3)
        p = rng.randrange(len(b) + 1)
        if how == 0 and b:
            b[min(p, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif how == 1:
            del b[p : p + rng.randrange(1, 64)]
        else:
            b[p:p] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    return bytes(b)


# -- the toy game the targets mutate ------------------------------------------------------


@dataclass
class World:
    root: Path
    keys: dict[str, PrivateKey]
    game: Path
    referee_dir: Path
    orders_text: str
    vsav: bytes
    key_paths: dict[str, Path] = field(default_factory=dict)


def make_world(root: Path) -> World:
    from referee.pbem.adjudicate import adjudicate
    from referee.pbem.game import create_game
    from referee.pbem.signing import sign_orders
    from referee.source.loader import load_module

    module, _ = load_module(TOY)
    assert module is not None
    keys = {n: generate(n) for n in ("nato", "soviet", "ref")}
    key_paths = {}
    for n, k in keys.items():
        key_paths[n] = write_key_pair(k, root / "keys")[0]
    game = root / "game"
    ref_dir = root / "secret"
    create_game(
        game,
        module,
        scenario="skirmish",
        players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
        referee_key=keys["ref"],
        game_id="fuzz",
        dice_length=64,
        referee_dir=ref_dir,
        seed_root=bytes(range(32)),
        picture_dpi=0,
    )

    def play(side: str, lines: list[str]) -> str:
        text = "\n".join(lines) + "\n"
        signed = sign_orders(text, "o.txt", keys["nato" if side == "NATO" else "soviet"], game)
        p = root / "o.txt"
        p.write_text(signed.text)
        adjudicate(game, [p], referee_key=keys["ref"], module=module, referee_dir=ref_dir)
        return signed.text

    play("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"])
    play("Soviet", ["place SO-DD-1 0403", "place SO-SG-1 0302", "place SO-T16.1 0506"])
    nxt = sign_orders("attack US-DD-1 SO-SG-1\nmove US-CV-1 0303\n", "o.txt", keys["nato"], game)
    vsav = next(game.glob("turns/*/position.vsav")).read_bytes()
    return World(root, keys, game, ref_dir, nxt.text, vsav, key_paths)


# -- targets ------------------------------------------------------------------------------


def t_orders(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    from referee.pbem.signing import sign_orders

    body = w.orders_text.split("-----BEGIN")[0]
    text = mutate_text(rng, body if rng.random() < 0.5 else w.orders_text)
    if rng.random() < 0.5:
        with contextlib.suppress(Exception):
            text = sign_orders(text, "o.txt", w.keys["nato"], None).text
    p = tmp / "orders.txt"
    p.write_text(text, errors="surrogatepass") if "\ud800" not in text else p.write_bytes(b"x")
    return [
        ["validate", str(p), "--state", str(w.game / "state.json"), "--module", str(TOY)],
        [
            "adjudicate",
            str(w.game),
            str(p),
            "--dry-run",
            "--key",
            str(w.key_paths["ref"]),
            "--module",
            str(TOY),
            "--referee-dir",
            str(w.referee_dir),
        ],
    ]


def t_state(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    doc = json.loads((w.game / "state.json").read_text())
    p = tmp / "state.json"
    p.write_text(json.dumps(mutate_json(rng, doc)))
    o = tmp / "o.txt"
    o.write_text("side: NATO\nmove US-CV-1 0303\n")
    return [
        ["validate", str(o), "--state", str(p), "--module", str(TOY)],
        ["options", "--state", str(p), "--module", str(TOY), "US-CV-1"],
    ]


def _copy_game(w: World, tmp: Path) -> Path:
    g = tmp / "game"
    shutil.copytree(w.game, g)
    return g


def t_game_toml(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    g = _copy_game(w, tmp)
    toml = g / "game.toml"
    toml.write_text(mutate_text(rng, toml.read_text()))
    return [["verify", str(g), "--module", str(TOY)]]


def t_report(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    g = _copy_game(w, tmp)
    folder = rng.choice(sorted((g / "turns").iterdir()))
    rep = mutate_json(rng, json.loads((folder / "report.json").read_text()))
    rbytes = pretty_json(rep)
    key = w.keys["ref"]
    (folder / "report.json").write_bytes(rbytes)
    (folder / "report.json.sig").write_bytes(sign_file(rbytes, key, CONTEXT_REPORT))
    man = json.loads((folder / "manifest.json").read_text())
    man["report_sha256"] = sha256_hex(rbytes)
    if rng.random() < 0.3:
        man = mutate_json(rng, man)
    mbytes = pretty_json(man)
    (folder / "manifest.json").write_bytes(mbytes)
    (folder / "manifest.json.sig").write_bytes(sign_file(mbytes, key, CONTEXT_MANIFEST))
    return [["verify", str(g), "--module", str(TOY)]]


def t_module(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    m = tmp / "module"
    shutil.copytree(TOY, m)
    files = sorted(p for p in m.rglob("*") if p.is_file())
    f = rng.choice(files)
    f.write_text(mutate_text(rng, f.read_text()), errors="replace")
    return [["check", str(m)]]


def t_vsav(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    p = tmp / "position.vsav"
    p.write_bytes(mutate_bytes(rng, w.vsav))
    return [["show-vsav", str(p)]]


def _write(p: Path, text: str) -> Path:
    if "\ud800" in text:
        p.write_bytes(b"x")
    else:
        p.write_text(text, encoding="utf-8", errors="surrogatepass")
    return p


def _sig_lines(rng: random.Random, text: str) -> str:
    """One change inside the signature block only: a character of the armour flipped, a
    line cut, doubled or swapped, the armour's BEGIN/END lines altered, or text after it."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.startswith("-----BEGIN")), None)
    if start is None:
        return mutate_text(rng, text)
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("-----END")), None)
    end = len(lines) - 1 if end is None else end
    i = rng.randrange(start, end + 1)
    how = rng.randrange(6)
    s = lines[i]
    if how == 0 and s.strip():
        p = rng.randrange(len(s.rstrip("\n")) or 1)
        lines[i] = s[:p] + rng.choice("A/+=Z0\x00é ") + s[p + 1 :]
    elif how == 1:
        del lines[i]
    elif how == 2:
        lines.insert(i, s)
    elif how == 3:
        j = rng.randrange(start, end + 1)
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 4:
        lines[i] = rng.choice(["-----BEGIN SSH SIGNATURE-----\n", "-----END SSH SIGNATURE-----\n",
                               "-----BEGIN PGP SIGNATURE-----\n", "\n"])  # fmt: skip
    else:
        lines.insert(end + 1, rng.choice(["-- \nsent from my phone\n", "-----BEGIN X\n", "=\n"]))
    return "".join(lines)


def t_signature(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """The toy game's signed orders with the signature block (only) mutated."""
    p = _write(tmp / "orders.txt", _sig_lines(rng, w.orders_text))
    return [
        [
            "adjudicate",
            str(w.game),
            str(p),
            "--dry-run",
            "--key",
            str(w.key_paths["ref"]),
            "--module",
            str(TOY),
            "--referee-dir",
            str(w.referee_dir),
        ]
    ]


def _mutated(rng: random.Random, text: str) -> str:
    for _ in range(rng.randrange(1, 3)):
        text = mutate_text(rng, text)
    return text


def t_rules_orders(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """A real game's position and the orders its scripted player wrote, mutated ->
    ``validate`` (and, for the first position of a game, signed half of the time and sent
    to ``adjudicate --dry-run`` of that game's archive)."""
    rw = real_world()
    pos = rng.choice(rw.positions)
    st = real.write_state(pos, pos.state, tmp)
    o = _write(tmp / "orders.txt", _mutated(rng, pos.orders))
    out = [["validate", str(o), "--state", str(st), "--module", str(pos.source)]]
    name = pos.source.name
    if pos.state == rw.first[name].state and rng.random() < 0.5:
        from referee.pbem.signing import sign_orders

        keys = rw.keys[name]
        side = str(pos.state.get("active_side") or next(iter(keys)))
        key = keys.get(side) or next(iter(keys.values()))
        with contextlib.suppress(Exception):
            _write(o, sign_orders(o.read_text("utf-8", "replace"), "o.txt", key, None).text)
        game = rw.games[name]
        secret = game.parent / f"{name}-secret"
        key_file = rw.referee_key[name]
        out.append(["adjudicate", str(game), str(o), "--dry-run", "--key", str(key_file)])
        out[-1] += ["--module", str(pos.source), "--referee-dir", str(secret)]
    return out


def t_rules_answers(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """Answers to a real position's pending decisions, mutated -> ``validate``."""
    rw = real_world()
    pos = rng.choice(rw.pending or rw.positions)
    st = real.write_state(pos, pos.state, tmp)
    o = _write(tmp / "orders.txt", _mutated(rng, real.answers_text(pos)))
    return [["validate", str(o), "--state", str(st), "--module", str(pos.source)]]


def t_rules_state(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """A real position's ``state.json`` mutated -> ``validate`` and ``options``."""
    rw = real_world()
    pos = rng.choice(rw.positions)
    st = real.write_state(pos, mutate_json(rng, pos.state), tmp)
    o = _write(tmp / "orders.txt", pos.orders)
    unit = rng.choice(pos.units) if pos.units else "X"
    src = str(pos.source)
    return [
        ["validate", str(o), "--state", str(st), "--module", src],
        ["options", "--state", str(st), "--module", src, unit],
    ]


def t_rules_game_toml(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """A real game archive's ``game.toml`` mutated -> ``verify``."""
    rw = real_world()
    name = rng.choice(sorted(rw.games))
    g = tmp / "game"
    shutil.copytree(rw.games[name], g)
    toml = g / "game.toml"
    toml.write_text(mutate_text(rng, toml.read_text("utf-8")), "utf-8", errors="replace")
    return [["verify", str(g), "--module", str(real.SOURCES / name)]]


def t_rules_module(w: World, rng: random.Random, tmp: Path) -> list[list[str]]:
    """One file of a bundled module source mutated -> ``check``, then ``state new`` (a
    source ``check`` accepts must start a game or be refused, never crash)."""
    rw = real_world()
    src = rng.choice(rw.sources)
    m = tmp / src.name
    shutil.copytree(src, m, ignore=shutil.ignore_patterns("examples", "*.png", "*.pdf"))
    files = sorted(p for p in m.rglob("*") if p.is_file() and p.suffix in (".toml", ".csv", ".txt"))
    f = rng.choice(files)
    f.write_text(_mutated(rng, f.read_text("utf-8")), "utf-8", errors="replace")
    scenario = rng.choice(sorted(p.stem for p in (src / "scenarios").glob("*.toml")) or ["x"])
    return [
        ["check", str(m)],
        ["state", "new", str(m), "--scenario", scenario, "-o", str(tmp / "new.json")],
    ]


TARGETS: dict[str, Callable[[World, random.Random, Path], list[list[str]]]] = {
    "orders": t_orders,
    "state": t_state,
    "game-toml": t_game_toml,
    "report": t_report,
    "module": t_module,
    "vsav": t_vsav,
    "signature": t_signature,
    "rules-orders": t_rules_orders,
    "rules-answers": t_rules_answers,
    "rules-state": t_rules_state,
    "rules-game-toml": t_rules_game_toml,
    "rules-module": t_rules_module,
}


#: The CPU time one command may take on one fuzzed input: the bound docs/reliability.md
#: records (the largest accepted inputs cost a few seconds; docs/performance.md).
BOUND_S = 10.0


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    codes: Counter = field(default_factory=Counter)
    crashes: list[tuple[list[str], int, str]] = field(default_factory=list)
    slow: list[tuple[list[str], float]] = field(default_factory=list)  # runs over BOUND_S
    cpu: float = 0.0  # CPU seconds of all runs
    max_cpu: float = 0.0  # the slowest run's CPU seconds


def _one_input(
    name: str, w: World, rng: random.Random, tmp: Path, tally: Tally, keep: Path | None, i: int
) -> None:
    commands = TARGETS[name](w, rng, tmp)
    tally.inputs += 1
    for args in commands:
        t0 = time.process_time()
        code, err = run_cli(args)
        spent = time.process_time() - t0
        tally.runs += 1
        tally.cpu += spent
        tally.max_cpu = max(tally.max_cpu, spent)
        tally.codes[code] += 1
        crashed = code not in OK_CODES or "internal error" in err
        if crashed:
            tally.crashes.append((args, code, err.strip()[-400:]))
        if spent > BOUND_S:
            tally.slow.append((args, spent))
        if (crashed or spent > BOUND_S) and keep is not None:
            dst = keep / f"{name}-{i}"
            shutil.copytree(tmp, dst, dirs_exist_ok=True)
            with (dst / "commands.txt").open("a", encoding="utf-8") as f:
                f.write(f"exit {code}, {spent:.2f} s CPU: referee {' '.join(args)}\n")


def summary(name: str, t: Tally) -> str:
    return (
        f"{name}: {t.inputs} inputs, {t.runs} runs, exit codes {dict(sorted(t.codes.items()))}, "
        f"{len(t.crashes)} crash(es), {len(t.slow)} over {BOUND_S:.0f} s; CPU {t.cpu:.0f} s, "
        f"slowest run {t.max_cpu:.2f} s"
    )


def fuzz(
    per_target: int | dict[str, int],
    seed: int = 0,
    targets: list[str] | None = None,
    keep: Path | None = None,
    report: Callable[[str], None] | None = None,
    progress_every: int = 0,
) -> dict[str, Tally]:
    """Run ``per_target`` mutated inputs (a count, or a count by target) through each
    target; the tallies by target."""
    out: dict[str, Tally] = {}
    counts = per_target if isinstance(per_target, dict) else {}
    names = targets or list(TARGETS)
    wanted = {n: counts.get(n, 0) if counts else int(per_target) for n in names}  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory(prefix="referee-fuzz-") as td, speedups():
        w = make_world(Path(td) / "world")
        rngs = {n: random.Random(f"{seed}:{n}") for n in names}
        out = {n: Tally() for n in names}
        # round robin over the targets, so that a run stopped early has tried every one
        for i in range(max(wanted.values(), default=0)):
            if STOP:  # SIGTERM (main): end after a whole round, with exact tallies
                if report:
                    report(f"-- stopped after round {i}")
                break
            for name in names:
                if i >= wanted[name]:
                    continue
                tmp = Path(td) / f"{name}-{i}"
                tmp.mkdir()
                try:
                    _one_input(name, w, rngs[name], tmp, out[name], keep, i)
                finally:
                    shutil.rmtree(tmp, ignore_errors=True)
            if report and progress_every and (i + 1) % progress_every == 0:
                total = sum(t.inputs for t in out.values())
                report(f"-- round {i + 1}: {total} inputs")
                for name in names:
                    report(summary(name, out[name]))
        if report:
            for name in names:
                report(summary(name, out[name]))
    return out


def _counts(values: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        name, _, n = v.partition("=")
        if name not in TARGETS or not n.isascii() or not n.isdigit():
            raise SystemExit(f"--count {v!r}: expected TARGET=N, TARGET one of {sorted(TARGETS)}")
        out[name] = int(n)
    return out


#: set by SIGTERM in :func:`main`: the run ends after the round under way and prints its tallies
STOP: list[bool] = []


def _stop(signum: int, frame: object) -> None:
    STOP.append(True)


def main(argv: list[str] | None = None) -> int:
    import signal

    signal.signal(signal.SIGTERM, _stop)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-target", type=int, default=200)
    ap.add_argument("--count", action="append", default=[], metavar="TARGET=N",
                    help="inputs for one target (repeat); only these targets run")  # fmt: skip
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--target", action="append", choices=sorted(TARGETS))
    ap.add_argument("--keep", type=Path, help="copy each crashing or slow input here")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a target's tally every N inputs")  # fmt: skip
    a = ap.parse_args(argv)
    counts = _counts(a.count)
    print(f"seed {a.seed}", flush=True)
    t0, c0 = time.monotonic(), time.process_time()

    def say(line: str) -> None:
        print(line, flush=True)

    tallies = fuzz(
        counts or a.per_target, a.seed, list(counts) or a.target, a.keep, say, a.progress
    )
    print(f"{time.monotonic() - t0:.0f} s, {time.process_time() - c0:.0f} s CPU")
    total = sum(t.inputs for t in tallies.values())
    crashes = sum(len(t.crashes) for t in tallies.values())
    slow = sum(len(t.slow) for t in tallies.values())
    print(f"in all: {total} inputs, {crashes} crash(es), {slow} over {BOUND_S:.0f} s")
    for name, t in tallies.items():
        for args, code, err in t.crashes[:1]:
            print(f"first crash in {name}: exit {code}: referee {' '.join(args)}\n{err}")
        for args, spent in t.slow[:1]:
            print(f"first slow input in {name}: {spent:.1f} s: referee {' '.join(args)}")
    return 1 if crashes or slow else 0


if __name__ == "__main__":
    sys.exit(main())
