"""What every game's demo shares: its command line, its steps and the play-by-email loop.

A demo (``referee/demos/<game>.py``) says only what is its game's: the :class:`Game` (module
source, scenario, game id, fixed dice seed root, the sides and the demo keys that sign for
them), how its player picks each step's orders (a :class:`Player`), and what the game must
show. Everything else is here, once:

* each step runs the real CLI (in-process, through the Typer app), exactly as a user would
  type it (:func:`run`), so the demo proves the commands work end to end from a fresh clone;
* :func:`run_demo` is the demo's outline: empty the folder, check the module source, build the
  VASSAL module and the printable play aids, make the demo keys, start the game, play it,
  verify the archive, write the viewers, list where everything is;
* :func:`play_steps` signs and adjudicates the orders a :class:`Player` writes, one step after
  the other, reading each new position first (so the orders follow the dice as published, never
  a die assumed in advance);
* :func:`demo_main` is every demo's command line.

The demos are deterministic: the keys come from fixed seeds (:func:`demo_key`) and each
game's dice seed chain from a fixed root (:attr:`Game.seed_root`; ``referee new`` always
draws a random one, so a demo calls :func:`referee.pbem.game.create_game` for that one step).
The same sources give a byte-identical archive on every run. Those keys and seeds are public:
they are for demonstration only and must never sign a real game.
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
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.core import GameState
    from referee.engine.ruleset import Ruleset
    from referee.pbem.keys import PrivateKey
    from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
MARKER = ".referee-demo"
EXAMPLE_RE = re.compile(r"^\d\d-[a-z0-9-]+\.txt$")
NATO_SOVIET: Mapping[str, str] = {"NATO": "nato", "Soviet": "soviet"}
"""The sides of most bundled games and the demo key that signs for each."""


class DemoFailed(Exception):
    """A demo step that must work did not (its output has been printed)."""


@dataclass(frozen=True, slots=True)
class Game:
    """The game a demo plays: ``title`` names it in the heading ("of Sixth Fleet (2019)"),
    ``src`` is its module source, ``scenario`` and ``game_id`` its game's; the dice seed root
    is the SHA-256 of ``seed_text`` (with ``, seed N`` added when ``seed`` is set: another
    fixed root of the same demo, ``--seed N``); ``sides`` maps each side to the demo key that
    signs its orders."""

    title: str
    src: Path
    scenario: str
    game_id: str
    seed_text: str
    sides: Mapping[str, str] = field(default_factory=lambda: dict(NATO_SOVIET))
    seed: int | None = None

    @property
    def seed_root(self) -> bytes:
        """The secret end of the game's dice seed chain (``docs/dice.md``): fixed and public."""
        text = self.seed_text if self.seed is None else f"{self.seed_text}, seed {self.seed}"
        return hashlib.sha256(text.encode()).digest()

    def on_seed(self, seed: int | None) -> Game:
        """The same game on demo seed root number ``seed`` (``None``: this game's own)."""
        return self if seed is None else replace(self, seed=seed)

    def key(self, keys: Path, side: str) -> Path:
        """The private key file that signs ``side``'s orders."""
        if side not in self.sides:
            raise DemoFailed(f"no demo key signs for side {side!r}")
        return keys / f"{self.sides[side]}.key"

    @property
    def key_names(self) -> tuple[str, ...]:
        return ("referee", *self.sides.values())


# ---- example orders files ----------------------------------------------------------------------


def example_files(src: Path) -> list[Path]:
    """The example orders files of a module source, in play order (their names start with a
    two-digit number)."""
    folder = src / "examples"
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


# ---- running commands -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ran:
    exit_code: int
    output: str
    seconds: float


def _invoke(args: list[str]) -> Ran:
    """``referee ARGS`` in this process, through the app the console script builds for them
    (``cli.app_for``: the named command's module alone, not every command's options read
    again for each step of a demo)."""
    from typer.testing import CliRunner

    from referee.cli import app_for
    from referee.errors import UserError

    t0 = time.perf_counter()
    try:
        result = CliRunner().invoke(app_for(args), args, catch_exceptions=False)
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
    (out / MARKER).write_text("made by `python -m referee.demos`; emptied on every run\n")


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


def make_keys(out: Path, names: Sequence[str]) -> Path:
    """The demo key pairs (the referee's and one for each side), written as ``referee
    keygen`` writes them."""
    from referee.pbem.keys import write_key_pair

    folder = out / "keys"
    print(f"\n== Demo keys (as `referee keygen NAME -o {shown(folder)}` would write them)")
    print("   derived from fixed public seeds so the archive is reproducible: demo only")
    for name in names:
        key = demo_key(name)
        key_path, _pub = write_key_pair(key, folder)
        print(f"   {shown(key_path)} (+ .pub)  fingerprint {key.public.short}")
    return folder


def create_demo_game(out: Path, keys: Path, game: Game) -> Any:
    """``out/game`` with the referee's secrets in ``out/referee``: a game of ``game`` between
    the demo keys on its fixed dice seed root (``referee new`` always draws a random one, so
    every demo calls the Python API for this step)."""
    from referee.commands.common import load_checked
    from referee.pbem.game import create_game
    from referee.pbem.keys import load_private, load_public

    return create_game(
        out / "game",
        load_checked(game.src, quiet=True),
        scenario=game.scenario,
        players={side: load_public(keys / f"{name}.pub") for side, name in game.sides.items()},
        referee_key=load_private(keys / "referee.key"),
        game_id=game.game_id,
        referee_dir=out / "referee",
        seed_root=game.seed_root,
    )


def new_game(out: Path, keys: Path, game: Game, *notes: str) -> tuple[Path, Path]:
    """Start the demo's game (:func:`create_demo_game`), saying what it is and what it awaits
    (and each of ``notes``); returns the game archive and the referee's secret folder."""
    game_dir, secret = out / "game", out / "referee"
    args = ["new", shown(game_dir), "--example", game.src.name, "--scenario", game.scenario]
    for side, name in game.sides.items():
        args += ["--player", f"{side}={shown(keys / f'{name}.pub')}"]
    args += ["--referee-key", shown(keys / "referee.key"), "--game-id", game.game_id]
    print(f"\n== A new play-by-email game {game.title}, scenario {game.scenario}")
    print(f"$ referee {' '.join([*args, '--referee-dir', shown(secret)])}")
    seed = "" if game.seed is None else f" number {game.seed}"
    print(f"   (through the Python API, with the demo's fixed dice seed root{seed})")
    for note in notes:
        print(f"   {note}")
    t0 = time.perf_counter()
    made = create_demo_game(out, keys, game)
    print(f"   created game {made.game_id}; report SHA-256 {made.report_sha256[:16]}...")
    if made.awaiting:
        print(f"   waiting for: {made.awaiting['what']}")
    print(f"   ({time.perf_counter() - t0:.2f} s)")
    return game_dir, secret


def begin(out: Path, game: Game) -> tuple[Path, Path, Path]:
    """The demo keys of ``game`` in ``out/keys`` and its game started
    (:func:`new_game`): the game archive, the keys folder and the referee's secret folder."""
    keys = make_keys(out, game.key_names)
    game_dir, secret = new_game(out, keys, game)
    return game_dir, keys, secret


def latest_report(game: Path) -> tuple[Path, dict[str, Any]]:
    turns = sorted(p for p in (game / "turns").iterdir() if p.is_dir() and p.name[0].isdigit())
    folder = turns[-1]
    return folder, json.loads((folder / "report.json").read_text(encoding="utf-8"))


def summary(report: dict[str, Any], kinds: Collection[str] | None = None) -> str:
    """One line per adjudication: its dice, its events (those of ``kinds``; every one but
    notes when ``None``), each pending decision, and what the game waits for next."""
    parts: list[str] = []
    rolls = report.get("rolls") or []
    if rolls:
        parts.append("dice " + " ".join(f"d{r['sides']}={r['value']}" for r in rolls))
    for ev in report.get("events") or []:
        kind = ev.get("kind")
        if (kind != "note") if kinds is None else (kind in kinds):
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


# ---- playing ------------------------------------------------------------------------------------


class Player:
    """Who writes a demo's orders, step by step (:func:`play_steps`). A demo's player
    overrides :meth:`orders` and, to follow what the game shows, :meth:`heard`."""

    reads_secret = False
    """Whether the player is shown the referee's full position (``secret/state.json``: a
    scripted player that takes its own side's view of it) or the public one."""
    shown_kinds: Collection[str] | None = None
    """The kinds of event each step's line on the terminal names (``None``: all but notes)."""
    max_steps = 100
    """A game still going after this many steps has gone wrong."""

    def orders(self, state: GameState) -> str | None:
        """The orders text for the step ``state`` awaits; ``None``: the demo has played
        enough (or the game is over)."""
        raise NotImplementedError

    def file_name(self, step: int, state: GameState, side: str) -> str:
        """The name of step ``step``'s orders file (from 1): the step, turn, side and phase."""
        return f"{step:03d}-t{state.turn}-{side.lower()}-{state.phase.replace('_', '-')}.txt"

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        """What the referee published for the step that ``state`` awaited."""


class RulesetPlayer(Player):
    """A player that writes its orders with the ruleset's help: the module source's module
    and ruleset at hand, and :meth:`accepts` to keep only what ``validate`` accepts."""

    def __init__(self, src: Path) -> None:
        from referee.engine.ruleset import get_ruleset
        from referee.source.loader import load_module

        module, _ = load_module(src)
        if module is None:
            raise DemoFailed(f"the module source {shown(src)} does not load")
        self.module, self.rs = module, get_ruleset(module.ruleset)

    def accepts(self, state: GameState, text: str, orders: int | None = None) -> bool:
        """Whether ``validate`` accepts the orders file ``text`` in ``state`` (and, given
        ``orders``, reads that many orders in it: no line was taken for something else)."""
        return accepted(self.rs, self.module, state, text, orders)


def accepted(
    rs: Ruleset, module: Module, state: GameState, text: str, orders: int | None = None
) -> bool:
    """Whether ruleset ``rs`` parses the orders file ``text`` (into ``orders`` orders, when
    given) and ``validate`` finds nothing wrong with it in ``state``: how a demo's directed
    player keeps only lawful orders, the referee's own checks deciding."""
    from referee.engine.orders import OrdersSyntaxError

    try:
        doc = rs.parse_orders(text, "demo.txt")
    except OrdersSyntaxError:
        return False
    if orders is not None and len(doc.orders) != orders:
        return False
    return not rs.validate(module, state, doc)


def read_state(game: Path, *, secret: bool) -> GameState:
    """The game's current position: the referee's full one (``secret``) or the public one."""
    from referee.engine.core import GameState

    path = game / "secret" / "state.json" if secret else game / "state.json"
    return GameState.from_json(json.loads(path.read_text(encoding="utf-8")))


def play_steps(
    out: Path, game: Game, game_dir: Path, keys: Path, secret: Path, player: Player
) -> int:
    """Sign and adjudicate ``player``'s orders, one step after the other, until it has none
    (or :attr:`Player.max_steps`); each orders file is kept in ``out/orders``. Returns the
    number of steps played."""
    orders_dir = out / "orders"
    orders_dir.mkdir(exist_ok=True)
    played = 0
    for k in range(1, player.max_steps + 1):
        state = read_state(game_dir, secret=player.reads_secret)
        text = player.orders(state)
        if text is None:
            break
        side = example_side(text)
        orders = orders_dir / player.file_name(k, state, side)
        orders.write_text(text, encoding="utf-8")
        folder, report = sign_and_adjudicate(
            game_dir, orders, side, game.key(keys, side), keys, secret
        )
        played = k
        print(f"   -> {shown(folder)}: {summary(report, player.shown_kinds)}")
        player.heard(state, folder, report)
    return played


class ExamplePlayer(Player):
    """The module source's example orders files, in order (``module_src/<id>/examples``)."""

    def __init__(self, src: Path) -> None:
        self.files = example_files(src)
        self.names: list[str] = []

    def orders(self, state: GameState) -> str | None:
        if len(self.names) == len(self.files):
            return None
        template = self.files[len(self.names)]
        self.names.append(template.name)
        return template.read_text(encoding="utf-8")

    def file_name(self, step: int, state: GameState, side: str) -> str:
        return self.names[-1]


def viewers(out: Path, game: Path, sides: Sequence[str]) -> list[Path]:
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


Play = Callable[[Path, Path, Path, Path, Game], Sequence[str]]
"""A demo's play: ``(out, game archive, keys, secret folder, game)`` -> what the game did not
show (empty when it showed everything the demo promises)."""


def run_demo(
    out: Path,
    game: Game,
    play: Play,
    *,
    play_aids_too: bool = True,
    with_viewers: bool = False,
    reveal: bool = False,
) -> Path:
    """A demo's outline: empty ``out``; check the module source; build the VASSAL module and
    the play aids (``play_aids_too``); make the demo keys and start ``game``; ``play`` it and
    fail if it did not show what the demo promises; verify the archive (before and after
    ``referee reveal`` when ``reveal``: a game with referee-only pools); write each side's
    viewer (``with_viewers``); list where everything is. Returns the game archive."""
    t0 = time.perf_counter()
    prepare(out)
    src = shown(game.src)
    run("Check the module source", ["check", src])
    missing = play_aids(out, src) if play_aids_too else ["build", "sheets", "charts"]
    game_dir, keys, secret = begin(out, game)
    lacking = play(out, game_dir, keys, secret, game)
    if lacking:
        raise DemoFailed("the demo game showed no " + ", ".join(lacking))
    if reveal:
        run("Anyone can check the game before the reveal", ["verify", shown(game_dir)])
        run("The referee reveals the hidden pools and rolls", ["reveal", shown(game_dir)])
        run("Anyone can now check every draw", ["verify", shown(game_dir)])
    else:
        run("Anyone can check the whole game", ["verify", shown(game_dir)])
    if with_viewers:
        viewers(out, game_dir, sides=tuple(game.sides))
    listing(out, game_dir, missing)
    print(f"\nDemo finished in {time.perf_counter() - t0:.1f} s.")
    return game_dir


def demo_main(argv: Sequence[str] | None, module: str) -> int:
    """The command line of the demo in ``module`` (``python -m referee.demos.NAME [OUT_DIR]
    [--no-play-aids] [--seed N]``): run its ``demo`` into the folder given, its ``$OUT_ENV``
    or its ``DEFAULT_OUT``; exit 1 with one line when a step it must show did not happen."""
    mod = sys.modules[module]
    name = mod.__spec__.name if mod.__spec__ is not None else module  # "__main__" under -m
    default = Path(os.environ.get(mod.OUT_ENV) or mod.DEFAULT_OUT)
    parser = argparse.ArgumentParser(prog=f"python -m {name}", description=mod.__doc__)
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=default,
        help=f"output folder (default ${mod.OUT_ENV} or {shown(default)}); emptied first",
    )
    parser.add_argument("--no-play-aids", action="store_true", help="skip build, sheets and charts")
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="play on the demo's fixed dice seed root number N instead of its own "
        "(other dice: the demo must still show everything it promises)",
    )
    ns = parser.parse_args(argv)
    try:
        mod.demo(ns.out, play_aids_too=not ns.no_play_aids, seed=ns.seed)
    except DemoFailed as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 1
    return 0
