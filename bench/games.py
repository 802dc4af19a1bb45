"""A whole game by a ruleset's scripted player, played in process with seeded dice: the set-up
the benchmarks of whole games and of positions reached in them share (not a benchmark itself:
``make bench`` runs the ``bench_*.py`` scripts).

Every file is checked by ``validate`` before it is resolved (the scripted player is lawful; a
refusal is a bug worth stopping on), and step ``k`` rolls ``SeededDice(k)``, as the whole-game
tests do, so the same game is played on every run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import Ruleset, scripted_player
from referee.source.model import Module


@dataclass(frozen=True)
class Played:
    """One step of the game: its number (and dice seed) ``k``, the position it was played on
    and the one it left, and the wall seconds of reading, checking and resolving its file."""

    k: int
    before: GameState
    after: GameState
    seconds: float


def scripted_game(rs: Ruleset, module: Module, state: GameState) -> Iterator[Played]:
    """Each step of the scripted player's game from ``state`` until it has no orders to give
    (the game is over); stop iterating to stop the game."""
    player = scripted_player(rs)
    assert player is not None, f"{rs.id} has no scripted player"
    k = 0
    while (text := player.scripted_orders(module, state)) is not None:
        k += 1
        t0 = time.perf_counter()
        doc = rs.parse_orders(text, f"step-{k}.txt")
        problems = rs.validate(module, state, doc)
        assert not problems, (k, [str(p) for p in problems], text)
        out = rs.resolve(module, state, doc, SeededDice(k))
        seconds = time.perf_counter() - t0
        yield Played(k, state, out.state, seconds)
        state = out.state
