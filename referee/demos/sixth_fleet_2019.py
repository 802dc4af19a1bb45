"""`make demo-2019`: a signed play-by-email game of Sixth Fleet (2019), two whole turns.

The variant of ``referee.demos.sixth_fleet_1975`` for the 2019 area-movement game
(``module_src/sixth_fleet_2019``):

1. check the module source; build the VASSAL module, counter sheets and charts;
2. make the demo keys and a game of the 1980s scenario with a fixed dice seed root;
3. for each step until the end of turn 2 -- the Soviet and NATO Random Events Phases [5.1]
   (random events: an extra action or a neutral joining) and Action Phases [6.0] (the C2
   extras of 6.2/6.3, a Soviet force entering Istanbul: a control change [3.2.1]; on turn 2
   a reinforcement arriving, provisional 10.0; strike markers drawn from the hidden cups, EW
   played for an action and CM/SOF strikes, provisional 17.0) -- write the scripted player's
   orders (``RULESET.scripted_orders``, the same lawful player the tests use) from the side's
   own view of the referee's position, sign them with the side's key and adjudicate them;
4. verify the whole archive (the referee's copy holds ``secret/``, so the hidden draws are
   checked too; the game is not over, so nothing is revealed), and list where everything is.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.sixth_fleet_2019 [OUT_DIR] [--no-play-aids]`` (default
``build/demo-2019``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.core import GameState

GAME = base.Game(
    "of Sixth Fleet (2019)",
    base.ROOT / "module_src" / "sixth_fleet_2019",
    "s1980",
    "sf19-demo",
    "referee demo: Sixth Fleet (2019), game sf19-demo",
)
SRC = GAME.src
DEFAULT_OUT = base.BUILD / "demo-2019"
OUT_ENV = "REFEREE_DEMO_2019_DIR"
TURNS = 2
WANTED = ("random_event", "actions", "control")
"""The kinds of event the demo must show."""


class Scripted(base.RulesetPlayer):
    """The ruleset's scripted player (``RULESET.scripted_orders``), each side from its own
    view of the referee's position (the strike cups are hidden: provisional 17.0), until
    turn :data:`TURNS` is over; it notes the kinds of every event."""

    reads_secret = True
    shown_kinds = (
        "random_event",
        "actions",
        "control",
        "attack",
        "neutral_joins",
        "strike_draw",
        "strike_marker",
    )
    max_steps = 39

    def __init__(self, src: Path) -> None:
        super().__init__(src)
        self.kinds: list[str] = []

    def orders(self, state: GameState) -> str | None:
        if state.turn > TURNS or state.phase == "over":
            return None
        seen = self.rs.view(self.module, state, state.active_side)
        return self.rs.scripted_orders(self.module, seen)  # type: ignore[attr-defined]

    def file_name(self, step: int, state: GameState, side: str) -> str:
        return f"{step:02d}-t{state.turn}-{side.lower()}-{state.phase.split('_')[1]}.txt"

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        self.kinds += [e.get("kind", "") for e in report.get("events") or []]


def play_turns(
    out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game = GAME
) -> list[str]:
    """The scripted orders, signed and adjudicated, until turn :data:`TURNS` is over. Returns
    the kinds of every event, so the caller can check the demo showed what it promises."""
    player = Scripted(game.src)
    base.play_steps(out, game, game_dir, keys, secret, player)
    return player.kinds


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game) -> list[str]:
    """:func:`play_turns`; what the game did not show of :data:`WANTED`."""
    kinds = play_turns(out, game_dir, keys, secret, game)
    return [f"{want!r} event" for want in WANTED if want not in kinds]


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(out, GAME.on_seed(seed), play, play_aids_too=play_aids_too)


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
