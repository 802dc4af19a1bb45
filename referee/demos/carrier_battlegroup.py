"""`make demo-solitaire`: a whole solitaire game of Carrier Battlegroup by email.

The variant of ``make demo`` for issue 14: the player (USN) against the Soviet side the
referee runs. It checks and builds the module, makes the demo keys (fixed public seeds,
demo only), starts a mission with a fixed dice seed root, then plays it to its end with the
scripted player's orders -- each file signed with the player's key and adjudicated -- through
incidents, contact and Tactical Routines; then ``referee reveal`` releases the referee-only
part and ``referee verify`` proves every draw came from the committed pools and dice.

The game must show incidents, contact, a battle and the game's end over several turns
(:data:`WANTED`, :data:`MIN_STEPS`), whatever the dice: the orders are written from the
published position, and in its first turns (until the game has lasted :data:`MIN_STEPS`
steps) the player's standing order breaks off from a battle where he holds the Tactical Edge
[18.2] instead of ``breakoff no``, so that an early meeting with several converging Soviet
groups (one dice stream sank three escorts and lost the game by VP at its second turn
[24.3]) does not end the mission before it has shown several turns; from then on he
stands and fights. ``--seed N`` plays the demo's seed root number ``N``.

Usage: ``python -m referee.demos.carrier_battlegroup [OUT_DIR] [--no-play-aids] [--seed N]``
(default ``build/demo-solitaire``). ``OUT_DIR`` is emptied first (only an earlier demo's
folder).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.core import GameState

# fixed and public (demo only)
GAME = base.Game(
    "of Carrier Battlegroup (solitaire: the referee plays the Soviet side)",
    base.ROOT / "module_src" / "carrier_battlegroup",
    "mission",
    "cbg-demo",
    "referee demo: Carrier Battlegroup, game cbg-demo, take 3, seed 5",
    {"USN": "usn"},
)
SRC = GAME.src
DEFAULT_OUT = base.BUILD / "demo-solitaire"
OUT_ENV = "REFEREE_DEMO_SOLITAIRE_DIR"
MIN_STEPS = 6  # set-up, outfitting and at least four turns
WANTED = ("incidents", "contact", "battle", "game_over")
"""The kinds of event the game must show."""


class Scripted(base.RulesetPlayer):
    """The ruleset's scripted player, from the referee's full position, to the game's end,
    breaking off in the first turns (module docstring); it notes the kinds of every event."""

    reads_secret = True
    shown_kinds = (
        "mission",
        "incidents",
        "chit",
        "contact",
        "battle",
        "battle_result",
        "game_over",
    )
    max_steps = 40

    def __init__(self, src: Path) -> None:
        super().__init__(src)
        self.seen: set[str] = set()
        self.steps = 1  # the set-up request, report 000

    def orders(self, state: GameState) -> str | None:
        text = self.rs.scripted_orders(self.module, state)  # type: ignore[attr-defined]
        if text is None or self.steps >= MIN_STEPS - 1:
            return text
        careful = text.replace("\nbreakoff no\n", "\nbreakoff yes\n")  # [18.2]
        return careful if careful != text and self.accepts(state, careful) else text

    def file_name(self, step: int, state: GameState, side: str) -> str:
        return f"{step - 1:02d}-usn.txt"

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        self.seen |= {e["kind"] for e in report.get("events") or []}
        self.steps += 1


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game = GAME) -> list[str]:
    """The scripted player's orders, signed and adjudicated, until the game ends; what it did
    not show."""
    player = Scripted(game.src)
    steps = base.play_steps(out, game, game_dir, keys, secret, player)
    lacking = sorted(set(WANTED) - player.seen)
    if steps + 1 < MIN_STEPS:  # and the set-up request
        lacking.append(f"{MIN_STEPS} steps (it lasted {steps + 1}): it should show several turns")
    return lacking


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(out, GAME.on_seed(seed), play, play_aids_too=play_aids_too, reveal=True)


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
