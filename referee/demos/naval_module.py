"""`make naval-demo`: a play-by-email game of the naval module, end to end.

The variant of ``make demo`` for the ruleset ``naval_module`` on ``module_src/naval_module``:
check the source, build the VASSAL module and the play aids, make the demo keys and a game of
the Kerch-Feodosia scenario, play it by email, and verify the whole archive. The game must show
each thing of :data:`WANTED` (the demo fails, saying what is missing, if it does not):

* a Naval Movement Interdiction Box opposed by a Soviet naval fighter (a standing order), the
  host game's air combat result signed by both players [31.13];
* a transport loading at Sevastopol [28.14b];
* naval movement with its Naval Movement Loss rolls [27.1], [27.2], and an Abort decision
  [27.32b] answered by the ship's owner;
* a ship moving in both the Motorized Movement and the Movement Phase of one player turn, a
  loss roll after each [26.12a], [27.11];
* an Axis Reaction Phase strike on a ship still at sea [31.22], its air combat and AA fire the
  host game's [31.23], [31.25a];
* an amphibious assault handed to the host game, the host result signed by both players
  [30.15a], [30.16];
* a Readiness roll [25.32].

The orders follow the published outcomes, never a die assumed in advance (:class:`Director`):
each step plays the example file written for it (``module_src/naval_module/examples/``, the
story above), less every line the position no longer accepts (``validate``: a ship sunk,
turned back or not Ready), with the host game's hand-off numbers read from the position. The
example files write no Abort choice in advance, so every Abort result is a decision its owner
answers in a file of its own (the ruleset's scripted answer: the damage when the ship survives
it, else the return). A step the examples do not cover, and every step after them until the
game has shown all of :data:`WANTED`, is the ruleset's scripted player's. So a changed dice
stream (another seed root, or a new module version recorded in report 000: every orders hash,
hence every roll, changes) plays another game that still shows each event; ``--seed N``
plays the demo's seed root number ``N``.

Usage: ``python -m referee.demos.naval_module [OUT_DIR] [--no-play-aids] [--seed N]`` (default
``build/naval-demo``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.core import GameState
from referee.engine.ruleset import host_handoffs
from referee.pbem.envelope import read_header

SEED = 5
"""The demo's own seed root number: any plays a game showing the same things; on this one the
example files and one answered Abort show them all (25 reports, ``docs/performance.md``)."""
GAME = base.Game(
    "of the naval module",
    base.ROOT / "module_src" / "naval_module",
    "kerch_feodosia",
    "nm-demo",
    "referee demo: naval module, game nm-demo",
    {"Soviet": "soviet", "Axis": "axis"},
    seed=SEED,
)
SRC = GAME.src
DEFAULT_OUT = base.BUILD / "naval-demo"
OUT_ENV = "REFEREE_NAVAL_DEMO_DIR"
MAX_STEPS = 80
"""The examples are some 25 steps; a game still short of :data:`WANTED` past this has gone
wrong."""
HANDOFF = re.compile(r"\bH[0-9]+\b")
SECTION = re.compile(r"^\[([a-z_]+)\]$", re.M)


@dataclass(frozen=True, slots=True)
class Wanted:
    """One thing the demo must show: its name, and the (kind, case) pairs of the events that
    show it (any one of them; none: found otherwise, see :func:`shows`)."""

    what: str
    events: frozenset[tuple[str, str]] = frozenset()


WANTED = {
    "opposed": Wanted(
        "a naval fighter opposing the box, the host's air combat signed by both [31.13]",
        frozenset({("interdiction", "31.13")}),
    ),
    "load": Wanted("a transport loading [28.14b]", frozenset({("load", "28.14b")})),
    "abort": Wanted("an Abort decision answered by the ship's owner [27.32b]"),
    "twice": Wanted(
        "a ship's loss roll after both the Motorized Movement and the Movement Phase [26.12a]"
    ),
    "reaction": Wanted(
        "an Axis Reaction Phase strike on a ship at sea [31.22]",
        frozenset({("shipping_attack", "31.26")}),
    ),
    "assault": Wanted(
        "an amphibious assault handed to the host game, its result signed by both [30.16]",
        frozenset({("assault_cleared", "30.16b"), ("assault_held", "30.16b")}),
    ),
    "readiness": Wanted("a Readiness roll [25.32]", frozenset({("readiness", "25.32")})),
}


def example_files() -> list[Path]:
    return base.example_files(SRC)


def reports(game: Path) -> list[tuple[str, dict[str, Any]]]:
    """Each turn folder's name and report, in order."""
    return [
        (folder.name, json.loads((folder / "report.json").read_text(encoding="utf-8")))
        for folder in sorted(p for p in (game / "turns").iterdir() if p.is_dir())
        if (folder / "report.json").is_file()
    ]


def abort_choices(game: Path) -> list[str]:
    """The Abort choices made after a Naval Movement Loss roll in the archive [27.32b]: the
    text of each ``abort_return``/``abort_damage`` event of a ship whose loss roll gave an
    Abort result (``A`` or ``ADn``) [27.2], in the report of the file that answered the
    pending decision (``answer abort-SHIP ...``)."""
    found: list[str] = []
    aborted: set[str] = set()
    for _, report in reports(game):
        answers = (report.get("orders") or {}).get("answers") or []
        for ev in report.get("events") or []:
            data = ev.get("data") or {}
            if ev.get("kind") == "loss_roll" and str(data.get("result", "")).startswith("A"):
                aborted.update(data.get("ships") or [])
            elif (
                ev.get("kind") in ("abort_return", "abort_damage")
                and data.get("ship") in aborted
                and answers
            ):
                found.append(ev["text"])
    return found


def shows(game: Path) -> dict[str, list[str]]:
    """For each thing of :data:`WANTED` the game has shown, where (``NNN-...: text [case]``)."""
    found: dict[str, list[str]] = {}
    rolled: dict[tuple[int, str], set[str]] = {}  # (turn, ship) -> phases with a loss roll
    for name, report in reports(game):
        turn = int((report.get("orders") or {}).get("turn") or 0)
        for ev in report.get("events") or []:
            line = f"{name}: {ev['text']} [{ev['rule']}]"
            pair = (str(ev.get("kind")), str(ev.get("rule")))
            for key, w in WANTED.items():
                if pair in w.events:
                    found.setdefault(key, []).append(line)
            if ev.get("kind") == "loss_roll":
                for ship in (ev.get("data") or {}).get("ships") or []:
                    phases = rolled.setdefault((turn, ship), set())
                    phases.add(name.rsplit("-", 1)[-1])
                    if {"motorized", "movement"} <= phases:
                        found.setdefault("twice", []).append(line)
    if choices := abort_choices(game):
        found["abort"] = choices
    return found


class Director(base.RulesetPlayer):
    """The demo's player (module docstring): each step's example file, less the lines the
    position refuses; the scripted player's answer to a pending decision; the scripted
    player's orders where no example file fits, and after the examples until the game has
    shown all of :data:`WANTED`."""

    def __init__(self, files: Sequence[Path]) -> None:
        super().__init__(SRC)
        self.examples = [(p.name, p.read_text(encoding="utf-8")) for p in files]
        self.next = 0  # the first example file not played yet
        self.name = ""
        self.last = "00"  # the number of the last example played, for the names of the others
        self.game: Path | None = None
        self.max_steps = MAX_STEPS

    def orders(self, state: GameState) -> str | None:
        scripted = self.rs.scripted_orders(self.module, state)  # type: ignore[attr-defined]
        if scripted is None:
            return None  # the game is over
        side = base.example_side(scripted)
        if state.pending:  # an Abort's choice [27.32b] (or the box's opposition [31.13])
            self.name = f"{self.last}a-{side.lower()}-answer-{state.pending[0].id}.txt"
            return scripted
        at = self.example_for(state.turn, side, step_section(scripted))
        if at is not None:
            name, text = self.examples[at]
            self.next, self.last = at + 1, name[:2]
            fitted = self.fitted(state, text)
            if fitted is not None:
                self.name = name
                return fitted
        elif self.next >= len(self.examples) and self.done():
            return None
        self.name = f"-t{state.turn}-{side.lower()}-{state.phase}.txt"  # numbered below
        return scripted

    def done(self) -> bool:
        """Whether the game has shown every thing of :data:`WANTED`."""
        return self.game is not None and set(shows(self.game)) >= set(WANTED)

    def example_for(self, turn: int, side: str, section: str) -> int | None:
        """The first example file from :attr:`next` on written for this step (its turn, side
        and section); ``None`` when none is (those passed over were for steps the game did
        not have)."""
        for at in range(self.next, len(self.examples)):
            text = self.examples[at][1]
            head = read_header(text)
            if (head.turn, head.side, step_section(text)) == (turn, side, section):
                return at
        return None

    def fitted(self, state: GameState, text: str) -> str | None:
        """The example file less each order line the position refuses, a host hand-off
        number the position does not hold replaced by one it holds [30.16], [31.13], [31.23];
        ``None`` when the file is still refused."""
        keep: list[str] = []
        ids = host_handoffs(self.rs, self.module, state)
        for line in text.splitlines():
            if not is_order(line):
                keep.append(line)
                continue
            named = HANDOFF.findall(line)
            tries = [line] + [HANDOFF.sub(h, line) for h in ids if named and h not in named]
            keep += next(([t] for t in tries if self.legal(state, [*keep, t])), [])
        return "".join(f"{x}\n" for x in keep) if self.legal(state, keep) else None

    def legal(self, state: GameState, lines: list[str]) -> bool:
        return self.accepts(state, "".join(f"{x}\n" for x in lines))

    def file_name(self, step: int, state: GameState, side: str) -> str:
        """An example's own name; an answer after the example it answers; a scripted step
        after the last example played, with its step number."""
        return f"{self.last}s{step:03d}{self.name}" if self.name.startswith("-") else self.name

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        self.game = folder.parent.parent


def step_section(text: str) -> str:
    """The section an orders file is for: its last ``[section]`` line (a file may carry
    ``[standing]`` orders before it)."""
    found = SECTION.findall(text)
    return found[-1] if found else ""


def is_order(line: str) -> bool:
    """An order line of a file (not its header, a section line, a comment or a blank)."""
    x = line.strip()
    return bool(x) and not x.startswith(("#", "[")) and ":" not in x.split()[0]


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game) -> list[str]:
    """The game (:class:`Director`), then what it did not show of :data:`WANTED`, having
    printed where it showed each."""
    base.play_steps(out, game, game_dir, keys, secret, Director(example_files()))
    found = shows(game_dir)
    print("\n== What the game showed, and where (each event as its report gives it)")
    for key, wanted in WANTED.items():
        print(f"   {wanted.what}:")
        for line in found.get(key, [])[:3]:
            print(f"      {line}")
    return [w.what for key, w in WANTED.items() if key not in found]


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out`` on demo seed root ``seed`` (default :data:`SEED`);
    returns the game archive."""
    return base.run_demo(out, GAME.on_seed(seed), play, play_aids_too=play_aids_too)


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
