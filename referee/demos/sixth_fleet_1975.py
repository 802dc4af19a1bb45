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
a fixed root (:data:`GAME`; the ``referee new`` command always draws a random one, so the
demo calls :func:`referee.pbem.game.create_game` for that one step). The same sources give a
byte-identical archive on every run. Those keys and seeds are public: they are for this
demonstration only and must never sign a real game. What every demo shares is in
:mod:`referee.demos.base`.

Usage: ``python -m referee.demos.sixth_fleet_1975 [OUT_DIR] [--no-play-aids] [--seed N]``
(default ``build/demo``, or ``$REFEREE_DEMO_DIR``). ``OUT_DIR`` is emptied first, so running it
twice works; a folder that holds anything else than an earlier demo is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.demos import base

GAME = base.Game(
    "of SPI Sixth Fleet (1975)",
    base.ROOT / "module_src" / "sixth_fleet",
    "short",
    "sf-demo",
    "referee demo: Sixth Fleet (1975), game sf-demo",
)
SRC = GAME.src
DEFAULT_OUT = base.BUILD / "demo"
OUT_ENV = "REFEREE_DEMO_DIR"
SHOWN = ("attack", "retreat", "eliminate", "no-effect")
"""The events each step's line names (with its dice and pending decisions)."""


class Examples(base.ExamplePlayer):
    shown_kinds = SHOWN


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game) -> list[str]:
    """The example orders files, signed and adjudicated in order."""
    base.play_steps(out, game, game_dir, keys, secret, Examples(game.src))
    return []


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(
        out, GAME.on_seed(seed), play, play_aids_too=play_aids_too, with_viewers=True
    )


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
