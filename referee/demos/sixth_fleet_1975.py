"""`make demo-sf` (the first demo `make demo` runs): the main jobs on the bundled Sixth Fleet
module, and where things are.

Each step runs the real CLI (in-process, through the Typer app), exactly as a user would type
it, so the demo proves the commands work end to end from a fresh clone:

1. check the module source; build the VASSAL module and the printable play aids (each step
   only when its command is registered; a failing play-aid step is reported, not fatal);
2. make the demo keys and a play-by-email game of the 10 Game-Turn scenario;
3. play the hand-written orders of ``module_src/sixth_fleet/examples/`` in order -- each is
   signed with its side's key (``referee sign --game-dir`` fills in ``previous-report:`` and
   the dice nonces, derived from the key, ``docs/dice.md``) and
   adjudicated -- through the Game-Turn 2 Soviet attack that stops at NATO's retreat
   decision [8.71] and NATO's answer;
4. verify the whole archive, write the game viewer of each side (``referee viewer``), and
   list where everything is.

The demo is deterministic: the keys come from fixed seeds and the game's dice seed chain from
a fixed root (:data:`DEMO_SEED_ROOT`; the ``referee new`` command always draws a random one,
so the demo calls :func:`referee.pbem.game.create_game` for that one step). The same sources
give a byte-identical archive on every run. Those keys and seeds are public: they are for
this demonstration only and must never sign a real game.

Usage: ``python -m referee.demos.sixth_fleet_1975 [OUT_DIR] [--no-play-aids]`` (default
``build/demo``, or
``$REFEREE_DEMO_DIR``). ``OUT_DIR`` is emptied first, so running it twice works; a folder
that holds anything else than an earlier demo is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.pbem.keys import PrivateKey

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "module_src" / "sixth_fleet"
BUILD = ROOT / "build"
DEFAULT_OUT = BUILD / "demo"
OUT_ENV = "REFEREE_DEMO_DIR"
MARKER = ".referee-demo"

DEMO_GAME_ID = "sf-demo"
DEMO_SCENARIO = "short"
# The secret end of the game's dice seed chain (docs/dice.md). Fixed and public: demo only.
DEMO_SEED_ROOT = hashlib.sha256(b"referee demo: Sixth Fleet (1975), game sf-demo").digest()
# Key name -> the side it signs for (None: the referee).
DEMO_KEYS: dict[str, str | None] = {"referee": None, "nato": "NATO", "soviet": "Soviet"}
EXAMPLE_RE = re.compile(r"^\d\d-[a-z0-9-]+\.txt$")


class DemoFailed(Exception):
    """A demo step that must work did not (its output has been printed)."""


# ---- the pieces other code reuses (tests, benchmarks) -----------------------------------------


def examples_dir(src: Path = SRC) -> Path:
    return src / "examples"


def example_files(src: Path = SRC) -> list[Path]:
    """The example orders files, in play order (their names start with a two-digit number)."""
    folder = examples_dir(src)
    return sorted(p for p in folder.iterdir() if p.is_file() and EXAMPLE_RE.match(p.name))


def example_side(text: str) -> str:
    """The ``side:`` header of an orders file (which key signs it)."""
    from referee.pbem.envelope import read_header

    side = read_header(text).side
    if side is None:
        raise ValueError("the orders file has no 'side:' header")
    return side


def demo_key(name: str) -> PrivateKey:
    """A key derived from a fixed, public seed, so demo archives are reproducible."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from referee.pbem.keys import PrivateKey, check_name

    check_name(name)
    seed = hashlib.sha256(b"referee demo key (public, never use for a real game): " + name.encode())
    return PrivateKey(Ed25519PrivateKey.from_private_bytes(seed.digest()), name)


def key_for_side(side: str) -> str:
    for name, s in DEMO_KEYS.items():
        if s == side:
            return name
    raise ValueError(f"no demo key signs for side {side!r}")


# ---- running commands -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ran:
    exit_code: int
    output: str
    seconds: float


def _invoke(args: list[str]) -> Ran:
    from typer.testing import CliRunner

    from referee.cli import app
    from referee.errors import UserError

    t0 = time.perf_counter()
    try:
        result = CliRunner().invoke(app, args, catch_exceptions=False)
        code, out = result.exit_code, result.output
    except UserError as exc:  # what `referee` (cli.main) prints as one line
        code, out = exc.exit_code, f"referee: error: {exc}\n"
    return Ran(code, out, time.perf_counter() - t0)


def run(
    title: str | None, args: list[str], *, show_output: bool = True, required: bool = True
) -> Ran:
    """Run ``referee ARGS`` in-process and print the command, its output and its time
    (under a ``== title`` heading unless ``title`` is None: a further command of a step)."""
    if title is not None:
        print(f"\n== {title}")
    print(f"$ referee {' '.join(args)}", flush=True)
    ran = _invoke(args)
    if show_output or ran.exit_code != 0:
        text = ran.output.rstrip()
        if text:
            print(text)
    print(f"   ({ran.seconds:.2f} s, exit {ran.exit_code})", flush=True)
    if ran.exit_code != 0 and required:
        raise DemoFailed(f"step failed: {title}")
    return ran


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def registered_commands() -> set[str]:
    from referee.cli import app

    names: set[str] = set()
    for c in app.registered_commands:
        names.add(c.name or (c.callback.__name__.replace("_", "-") if c.callback else ""))
    return names


# ---- the steps ----------------------------------------------------------------------------------


def prepare(out: Path) -> None:
    """Start from an empty ``out`` (idempotent demo), refusing to empty a foreign folder."""
    if out.exists():
        if not out.is_dir():
            raise DemoFailed(f"{out} exists and is not a folder")
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise DemoFailed(
                f"{out} is not empty and was not made by the demo; choose another folder"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text(
        "made by `python -m referee.demos.sixth_fleet_1975`; emptied on every run\n"
    )


def play_aids(out: Path, src: str) -> list[str]:
    """The VASSAL module, counter sheets and charts; returns the steps that did not work."""
    steps = [
        ("build", "Build the VASSAL module", ["build", src, "-o", shown(out / "vassal"), "-q"]),
        ("sheets", "Print the counter sheets", ["sheets", src, "-o", shown(out / "print"), "-q"]),
        ("charts", "Print the charts and tables", ["charts", src, "-o", shown(out / "print")]),
    ]
    have = registered_commands()
    missing: list[str] = []
    for name, title, args in steps:
        if name not in have:
            print(f"\n== {title}\n   (skipped: this referee has no `{name}` command yet)")
            missing.append(name)
            continue
        if run(title, args, required=False).exit_code != 0:
            print(f"   (the demo goes on without `referee {name}`)")
            missing.append(name)
    return missing


def make_keys(out: Path, names: Sequence[str] = tuple(DEMO_KEYS)) -> Path:
    """The demo key pairs (the referee's and one for each side: :data:`DEMO_KEYS` unless
    ``names`` says), written as ``referee keygen`` writes them."""
    from referee.pbem.keys import write_key_pair

    folder = out / "keys"
    print(f"\n== Demo keys (as `referee keygen NAME -o {shown(folder)}` would write them)")
    print("   derived from fixed public seeds so the archive is reproducible: demo only")
    for name in names:
        key = demo_key(name)
        key_path, _pub = write_key_pair(key, folder)
        print(f"   {shown(key_path)} (+ .pub)  fingerprint {key.public.short}")
    return folder


def create_demo_game(
    out: Path,
    keys: Path,
    src: Path,
    scenario: str,
    game_id: str,
    seed_root: bytes,
    sides: dict[str, str] | None = None,
) -> Any:
    """``out/game`` with the referee's secrets in ``out/referee``: a game of ``scenario`` of
    the module source ``src`` between the demo keys (``sides``: side -> key name, NATO and
    Soviet by default) on the fixed dice seed root ``seed_root`` (``referee new`` always draws
    a random one, so every demo calls the Python API for this step)."""
    from referee.commands.common import load_checked
    from referee.pbem.game import create_game
    from referee.pbem.keys import load_private, load_public

    sides = sides or {"NATO": "nato", "Soviet": "soviet"}
    return create_game(
        out / "game",
        load_checked(src, quiet=True),
        scenario=scenario,
        players={side: load_public(keys / f"{name}.pub") for side, name in sides.items()},
        referee_key=load_private(keys / "referee.key"),
        game_id=game_id,
        referee_dir=out / "referee",
        seed_root=seed_root,
    )


def new_game(out: Path, keys: Path) -> tuple[Path, Path]:
    """The game archive, with the fixed dice seed root (Python API: see the module doc)."""
    game, secret = out / "game", out / "referee"
    args = [
        "new",
        shown(game),
        "--example",
        "sixth_fleet",
        "--scenario",
        DEMO_SCENARIO,
        "--player",
        f"NATO={shown(keys / 'nato.pub')}",
        "--player",
        f"Soviet={shown(keys / 'soviet.pub')}",
        "--referee-key",
        shown(keys / "referee.key"),
        "--game-id",
        DEMO_GAME_ID,
        "--referee-dir",
        shown(secret),
    ]
    print(f"\n== A new play-by-email game\n$ referee {' '.join(args)}")
    print("   (through the Python API, with the demo's fixed dice seed root)")
    t0 = time.perf_counter()
    made = create_demo_game(out, keys, SRC, DEMO_SCENARIO, DEMO_GAME_ID, DEMO_SEED_ROOT)
    print(f"   created game {made.game_id}; report SHA-256 {made.report_sha256[:16]}...")
    if made.awaiting:
        print(f"   waiting for: {made.awaiting['what']}")
    print(f"   ({time.perf_counter() - t0:.2f} s)")
    return game, secret


def latest_report(game: Path) -> tuple[Path, dict[str, Any]]:
    turns = sorted(p for p in (game / "turns").iterdir() if p.is_dir() and p.name[0].isdigit())
    folder = turns[-1]
    return folder, json.loads((folder / "report.json").read_text(encoding="utf-8"))


def summary(report: dict[str, Any]) -> str:
    """One line per adjudication: rolls, the pending decision, what the game waits for."""
    parts: list[str] = []
    rolls = report.get("rolls") or []
    if rolls:
        parts.append("dice " + " ".join(f"d{r['sides']}={r['value']}" for r in rolls))
    for ev in report.get("events") or []:
        if ev.get("kind") in ("attack", "retreat", "eliminate", "no-effect"):
            parts.append(f"{ev['text']} [{ev['rule']}]")
    for p in report.get("pending") or []:
        parts.append(
            f"PENDING {p['id']}, owed by {p['side']}: {p['prompt']} "
            f"({' | '.join(p['options'])}) [{p['rule']}]"
        )
    aw = report.get("awaiting")
    if not report.get("pending"):
        parts.append(f"next: {aw['what']}" if aw else "the game is over")
    return "; ".join(parts)


def sign_and_adjudicate(
    game: Path, orders: Path, who: str, key: Path, keys: Path, secret: Path
) -> tuple[Path, dict[str, Any]]:
    """``referee sign`` with ``key`` (``who`` signs: a side, "the player"), then ``referee
    adjudicate`` with the referee's key in ``keys``; returns the new turn folder and its
    report. Every demo plays its orders files so."""
    run(
        f"{orders.name}: {who} signs, the referee adjudicates",
        ["sign", shown(orders), "--key", shown(key), "--game-dir", shown(game)],
        show_output=False,
    )
    run(
        None,
        [
            "adjudicate",
            shown(game),
            shown(orders),
            "--key",
            shown(keys / "referee.key"),
            "--referee-dir",
            shown(secret),
        ],
        show_output=False,
    )
    return latest_report(game)


def play_examples(out: Path, game: Path, keys: Path, secret: Path) -> None:
    """Sign and adjudicate each example orders file, in order."""
    orders_dir = out / "orders"
    orders_dir.mkdir()
    for template in example_files():
        text = template.read_text(encoding="utf-8")
        side = example_side(text)
        orders = orders_dir / template.name
        orders.write_text(text, encoding="utf-8")
        key = keys / f"{key_for_side(side)}.key"
        folder, report = sign_and_adjudicate(game, orders, side, key, keys, secret)
        print(f"   -> {shown(folder)}: {summary(report)}")


def viewers(out: Path, game: Path, sides: Sequence[str] = ("NATO", "Soviet")) -> list[Path]:
    """The game viewer of each side (``referee viewer``; issue 17): one offline HTML file to
    step through the game on the map, made from that side's views only; turn folders hold
    none (issue 24), so this is how a player gets it."""
    made: list[Path] = []
    for n, side in enumerate(sides):
        path = out / "viewer" / f"viewer-{side}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        run(
            "The game viewer of each side (open it in a browser; it works offline)"
            if n == 0
            else None,
            ["viewer", shown(game), "--side", side, "-o", shown(path)],
        )
        made.append(path)
    return made


def listing(out: Path, game: Path, missing: Sequence[str]) -> None:
    folder, _ = latest_report(game)
    rows: list[tuple[str, list[Path]]] = [
        ("VASSAL module", sorted((out / "vassal").glob("*.vmod"))),
        ("counter sheets, charts", sorted((out / "print").glob("*.pdf"))),
        ("game archive", [game]),
        (
            "latest report",
            [
                p
                for n in ("report.md", "report.html", "position.svg", "position.vsav")
                if (p := folder / n).is_file()
            ],
        ),
        ("game viewer, per side", sorted((out / "viewer").glob("viewer-*.html"))),
        ("signed orders", [out / "orders"]),
        ("demo keys, dice seeds", [out / "keys", out / "referee"]),
    ]
    print("\n== Where everything is")
    for what, paths in rows:
        print(f"   {what + ':':24} " + ("  ".join(shown(p) for p in paths) or "(not made)"))
    if missing:
        print(f"   not made (command missing or failing): {', '.join(missing)}")


def demo_main(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str | None,
    demo: Callable[..., Path],
    out_env: str,
    default_out: Path,
) -> int:
    """The command line of a game's demo (``python -m referee.demos.NAME [OUT_DIR]
    [--no-play-aids]``): run ``demo`` into the folder given, ``$out_env`` or ``default_out``;
    exit 1 with one line when a step it must show did not happen."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "out", nargs="?", type=Path, default=Path(os.environ.get(out_env) or default_out)
    )
    parser.add_argument("--no-play-aids", action="store_true", help="skip build, sheets and charts")
    ns = parser.parse_args(argv)
    try:
        demo(ns.out, play_aids_too=not ns.no_play_aids)
    except DemoFailed as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    return 0


def demo(out: Path, *, play_aids_too: bool = True) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    t0 = time.perf_counter()
    prepare(out)
    src = shown(SRC)
    run("Check the module source", ["check", src])
    missing = play_aids(out, src) if play_aids_too else ["build", "sheets", "charts"]
    keys = make_keys(out)
    game, secret = new_game(out, keys)
    play_examples(out, game, keys, secret)
    run("Anyone can check the whole game", ["verify", shown(game)])
    viewers(out, game)
    listing(out, game, missing)
    print(f"\nDemo finished in {time.perf_counter() - t0:.1f} s.")
    return game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.demos.sixth_fleet_1975", description=__doc__
    )
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=Path(os.environ.get(OUT_ENV) or DEFAULT_OUT),
        help=f"output folder (default ${OUT_ENV} or build/demo); emptied first",
    )
    parser.add_argument("--no-play-aids", action="store_true", help="skip build, sheets and charts")
    ns = parser.parse_args(argv)
    try:
        demo(ns.out, play_aids_too=not ns.no_play_aids)
    except DemoFailed as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
