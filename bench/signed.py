"""A Sixth Fleet game played by email in this process, as the benchmarks of whole signed games
set it up (not a benchmark itself: ``make bench`` runs the ``bench_*.py`` scripts): the
players' and referee's keys, ``create_game`` with the benchmarks' fixed dice seed root, and
each step's orders -- the scripted player's for the archive's position -- signed by the side
that owes them and adjudicated, with the referee's secret folder beside the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.engine.scripted import orders_for
from referee.pbem.adjudicate import adjudicate
from referee.pbem.game import create_game
from referee.pbem.keys import generate
from referee.pbem.signing import sign_orders
from referee.source.model import Module

SEED_ROOT = bytes(range(32))
"""The fixed dice seed root of the benchmarks' games: the same game on every run."""
SIDES = {"NATO": "nato", "Soviet": "soviet"}


@dataclass(frozen=True)
class SignedGame:
    """A game archive ``game`` with its keys (``nato``, ``soviet``, ``ref``), the module it is
    played with and ``tmp``, where the orders files and the referee's secret folder go."""

    game: Path
    tmp: Path
    module: Module
    keys: dict[str, Any]

    @property
    def secret(self) -> Path:
        return self.tmp / "secret"

    def scripted_file(self, number: int) -> Path | None:
        """The scripted player's orders for the archive's position, signed by the side that
        owes them, written as ``tmp/NNN.txt``; ``None`` once the game is over."""
        state = GameState.from_json(json.loads((self.game / "state.json").read_text()))
        text = orders_for(self.module, state)
        if text is None:
            return None
        side = text.split("side: ", 1)[1].split("\n", 1)[0]
        return self.signed_file(text, side, f"{number:03d}.txt")

    def signed_file(self, text: str, side: str, name: str) -> Path:
        """``text`` signed by ``side``'s key, written as ``tmp/name``."""
        signed = sign_orders(text, name, self.keys[SIDES[side]], self.game)
        path = self.tmp / name
        path.write_text(signed.text)
        return path

    def adjudicate(self, path: Path) -> Any:
        """The signed file ``path`` adjudicated by the referee: the step made."""
        return adjudicate(
            self.game,
            [path],
            referee_key=self.keys["ref"],
            module=self.module,
            referee_dir=self.secret,
        )


def new_signed_game(
    game: Path, tmp: Path, module: Module, scenario: str, **create: Any
) -> SignedGame:
    """A new game of ``scenario`` at ``game`` between NATO and the Soviet player with fresh
    keys, game id ``bench``, the fixed seed root (unless ``create`` gives one) and the rest of
    ``create_game``'s options from ``create`` (``picture_dpi``, ``dice_length``...)."""
    keys = {n: generate(n) for n in ("nato", "soviet", "ref")}
    create.setdefault("seed_root", SEED_ROOT)
    create_game(
        game,
        module,
        scenario=scenario,
        players={side: keys[k].public for side, k in SIDES.items()},
        referee_key=keys["ref"],
        game_id="bench",
        referee_dir=tmp / "secret",
        **create,
    )
    return SignedGame(game, tmp, module, keys)
