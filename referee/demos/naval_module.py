"""`make naval-demo`: a play-by-email game of the naval module, end to end.

The variant of ``make demo`` (``referee/demos/sixth_fleet_1975.py``) for the ruleset
``naval_module`` on
``module_src/naval_module``: check the source, build the VASSAL module and the play aids, make
the demo keys and a game of the Kerch-Feodosia scenario, then sign and adjudicate the orders of
``module_src/naval_module/examples/`` in order -- a Naval Movement Interdiction Box opposed by a
Soviet naval fighter (a standing order) with the host game's air combat result signed by both
players [31.13], a transport loading at Sevastopol, naval movement with its loss rolls and an
Abort choice written in advance [27.32b], a ship moving in both the Motorized Movement and the
Movement Phase of one player turn, a loss roll after each [26.12a], [27.11], an Axis Reaction
Phase strike on a ship still at sea
[31.22], naval artillery support and an amphibious assault handed to the host game,
the host result signed by both players [30.16], a Readiness roll [25.32] -- and verify the
whole archive. Deterministic: fixed public keys and dice seed root (demo only).

The game is played on one fixed dice seed root (``SEED``), the one whose dice the example
files fit: the dice of a step are derived from the seed root and the signed orders file
(``referee/pbem/dice.py``), so a changed file, a new ruleset rule or a new module version
(new games record the VASSAL piece version) can draw other dice. When they no longer fit, the
demo stops with the file that was refused or with "no Abort choice", and ``SEED`` is moved to a
root that fits again (``--seed N`` plays root ``N``: try 2, 3, ... by hand; never a search in
a test). An Abort decision left open is answered by the owner whenever it arises (``answer
abort-SHIP return``, [27.32b]), so a game without the choices written in advance still plays.

Usage: ``python -m referee.demos.naval_module [OUT_DIR] [--no-play-aids] [--seed N]`` (default
``build/naval-demo``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.core import GameState

# the demo's dice seed root: its game fits every example file and shows a 27.32b Abort choice
# (seed roots 2 to 3 tried in order on 2026-11-29, after new games began to record the VASSAL
# piece version; root 2 refuses an example file)
SEED = 3
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


def example_files() -> list[Path]:
    return base.example_files(SRC)


def abort_choices(game: Path) -> list[str]:
    """The Abort choices made after a Naval Movement Loss roll in the archive [27.32b]: the
    text of each ``abort_return``/``abort_damage`` event of a ship whose loss roll gave an
    Abort result (``A`` or ``ADn``) [27.2] -- in the same report (a choice written in advance)
    or a later one (the answer to the pending decision)."""
    found: list[str] = []
    aborted: set[str] = set()
    for folder in sorted(p for p in (game / "turns").iterdir() if p.is_dir()):
        path = folder / "report.json"
        if not path.is_file():
            continue
        for ev in json.loads(path.read_text(encoding="utf-8")).get("events") or []:
            data = ev.get("data") or {}
            if ev.get("kind") == "loss_roll" and str(data.get("result", "")).startswith("A"):
                aborted.update(data.get("ships") or [])
            elif ev.get("kind") in ("abort_return", "abort_damage") and data.get("ship") in aborted:
                found.append(ev["text"])
    return found


class Examples(base.ExamplePlayer):
    """The example files in order; an Abort decision left open [27.32b] is answered by its
    owner, in a file of its own, before the next example."""

    shown_kinds = ("attack", "retreat", "eliminate", "no-effect")

    def __init__(self) -> None:
        super().__init__(SRC)
        self.files = example_files()
        self.pending: dict[str, Any] | None = None
        self.answer_name = ""

    def orders(self, state: GameState) -> str | None:
        if self.pending is None:
            return super().orders(state)
        pd, side = self.pending, str(self.pending["side"])
        self.answer_name = f"{self.names[-1][:2]}a-{side.lower()}-answer-{pd['id']}.txt"
        return (
            f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[answer]\n"
            f"answer {pd['id']} return\n"
        )

    def file_name(self, step: int, state: GameState, side: str) -> str:
        return self.answer_name if self.pending is not None else self.names[-1]

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        opened = [
            p for p in report.get("pending") or [] if str(p.get("id", "")).startswith("abort-")
        ]
        self.pending = opened[0] if opened else None
        for ev in report.get("events") or []:
            print(f"      [{ev['rule']}] {ev['text']}")


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game) -> list[str]:
    """Every example file played, and a Naval Movement Loss roll with its Abort choice
    [27.32b] (the demo must show one)."""
    base.play_steps(out, game, game_dir, keys, secret, Examples())
    return [] if abort_choices(game_dir) else ["Abort choice after a loss roll [27.32b]"]


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out`` on demo seed root ``seed`` (default :data:`SEED`);
    returns the game archive."""
    return base.run_demo(out, GAME.on_seed(seed), play, play_aids_too=play_aids_too)


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
