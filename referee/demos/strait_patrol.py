"""`make demo-declared`: a signed play-by-email game of a declared game, Strait Patrol.

``module_src/strait_patrol`` names no ruleset: its ``module.toml`` declares the game
(``docs/declared-games.md``), and the ``declared`` ruleset referees it for its record and its
dice, not its rules [G1]. The demo:

1. checks the module source; builds the VASSAL module, counter sheets and charts;
2. makes the demo keys and a game of the ``patrol`` scenario with a fixed dice seed root;
3. signs and adjudicates the example orders (``module_src/strait_patrol/examples``): both
   deployments, then two Game-Turns of moves, a free roll [G3], rolls on the declared Gunnery
   Table [G4], a flip, a mark and an elimination;
4. verifies the whole archive and lists where everything is.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.strait_patrol [OUT_DIR] [--no-play-aids]`` (default
``build/demo-declared``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.core import GameState

GAME = base.Game(
    "of Strait Patrol (a declared game)",
    base.ROOT / "module_src" / "strait_patrol",
    "patrol",
    "patrol-demo",
    "referee demo: Strait Patrol, game patrol-demo",
    {"North": "nato", "South": "soviet"},
)
DEFAULT_OUT = base.BUILD / "demo-declared"
OUT_ENV = "REFEREE_DEMO_DECLARED_DIR"


class Examples(base.ExamplePlayer):
    """The example files, noting whether any step rolled dice [G3, G4]."""

    rolled = False

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        self.rolled |= any(e.get("kind") == "roll" for e in report.get("events") or [])


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game) -> list[str]:
    """The example orders files, signed and adjudicated in order; a game with no die rolled
    fails the demo."""
    player = Examples(game.src)
    base.play_steps(out, game, game_dir, keys, secret, player)
    return [] if player.rolled else ["die roll"]


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(out, GAME.on_seed(seed), play, play_aids_too=play_aids_too)


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
