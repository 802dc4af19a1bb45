"""A scripted player: simple, deterministic and always legal orders, for any ruleset.

For benchmarks, property tests and long end-to-end tests, :func:`play` plays a whole game
in-process with the ruleset's own scripted player on both sides: the ruleset's
``ScriptedPlayer`` capability (``scripted_orders(module, state)``, ``docs/rulesets.md``)
writes the orders text a plain but lawful player would send for the step the position awaits;
this module parses it in the ruleset's vocabulary, validates it, and resolves it with the dice
it is given. A file the ruleset refuses raises :class:`ScriptError` naming the step, the
orders and the violations.
The functions here compute; they do no I/O, and they reach the ruleset only through the
registry (:func:`referee.engine.ruleset.get_ruleset`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine.core import Dice, GameState
from referee.engine.ruleset import Ruleset, get_ruleset, scripted_player
from referee.source.model import Module


class ScriptError(RuntimeError):
    """The scripted player wrote orders the ruleset refused: a bug here or in the rules."""


@dataclass(frozen=True, slots=True)
class Step:
    """One orders file of a scripted game and what it led to."""

    index: int  # 1-based, as the PBEM turn folders count adjudications
    side: str
    turn: int
    phase: str
    text: str
    pending: tuple[str, ...]  # decision ids pending after it


def orders_for(module: Module, state: GameState, ruleset: Ruleset | None = None) -> str | None:
    """The orders text for the step ``state`` awaits; ``None`` when the game is over."""
    rs = ruleset or get_ruleset(module.ruleset)
    player = scripted_player(rs)
    if player is None:
        from referee.errors import UserError

        raise UserError(
            f"ruleset {rs.id!r} has no scripted player",
            hint="a ruleset offers one as the ScriptedPlayer capability (docs/rulesets.md)",
        )
    text: str | None = player.scripted_orders(module, state)
    return text


# ---- a whole game -----------------------------------------------------------------------------


def orders_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


DiceFor = Callable[[int, str], Dice]


def play(
    module: Module,
    scenario: str,
    dice_for: DiceFor,
    *,
    game_id: str = "scripted",
    options: tuple[str, ...] = (),
    max_steps: int = 2_000,
) -> tuple[list[Step], GameState]:
    """Play a whole game with the scripted player on both sides, in-process.

    ``dice_for(k, text)`` gives the dice for adjudication ``k`` (1-based) of orders ``text``
    (e.g. :class:`referee.pbem.dice.CommittedDice` of a fixed seed chain). Returns every step
    and the final position."""
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, scenario, game_id, options)
    steps: list[Step] = []
    for k in range(1, max_steps + 1):
        text = orders_for(module, state, rs)
        if text is None:
            return steps, state
        doc = rs.parse_orders(text, f"step-{k:03d}.txt")
        problems = rs.validate(module, state, doc)
        if problems:
            raise ScriptError(
                f"step {k} ({rs.awaiting(module, state)[1]}): the scripted orders were refused:\n"
                + "\n".join(str(p) for p in problems)
                + "\n--- orders ---\n"
                + text
            )
        out = rs.resolve(module, state, doc, dice_for(k, text))
        if out.violations:
            raise ScriptError(
                f"step {k}: refused during resolution: " + "; ".join(map(str, out.violations))
            )
        steps.append(
            Step(
                k,
                doc.side or "",
                state.turn,
                state.phase,
                text,
                tuple(p.id for p in out.state.pending),
            )
        )
        state = out.state
    raise ScriptError(f"the game did not end within {max_steps} steps")


def replay(
    module: Module, scenario: str, texts: list[str], dice_for: DiceFor, *, game_id: str
) -> GameState:
    """Adjudicate recorded orders texts again (validate + resolve each), for timing."""
    rs = get_ruleset(module.ruleset)
    state = rs.new_game(module, scenario, game_id)
    for k, text in enumerate(texts, start=1):
        doc = rs.parse_orders(text, f"step-{k:03d}.txt")
        if rs.validate(module, state, doc):
            raise ScriptError(f"step {k}: the recorded orders no longer validate")
        state = rs.resolve(module, state, doc, dice_for(k, text)).state
    return state
