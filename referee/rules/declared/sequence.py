"""[G2] The declared sequence of play: which side is due, step by step.

The steps are the module's ``[[game.phase]]`` (``referee/source/gamedecl.py``), in order, read
as the engine's sequence of play (``gamedecl.sequence_of_play``, which the VASSAL turn
tracker reads too); a
step of one side (``side = "first"`` or ``"second"``: the scenario's first player or the
other) takes one orders file, a step of neither side passes on its own. Steps marked
``once`` are played once, as Game-Turn 0, before Game-Turn 1. A game that declares no
sequence alternates: the first player, then the second, each Game-Turn. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.source.gamedecl import GamePhase, sequence_of_play
from referee.source.model import Module

RULE = "G2"
DEFAULT_PHASES = (
    GamePhase("first", "First player's turn", "first", RULE),
    GamePhase("second", "Second player's turn", "second", RULE),
)
OVER = "over"


@dataclass(frozen=True, slots=True)
class Step:
    """One step a side acts in: the phase id (``GameState.phase``), its name, the side's id,
    whether it is a set-up step (Game-Turn 0) and the rule case it cites."""

    phase: str
    name: str
    side: str
    once: bool
    rule: str


def acting_steps(module: Module, scenario: str) -> tuple[Step, ...]:
    """The steps a side acts in, set-up steps first, with each side resolved."""
    sc = module.scenario(scenario)
    first = sc.first_player
    second = next((s.id for s in module.sides if s.id != first), first)
    phases = module.game.phases if module.game is not None and module.game.phases else ()
    out = []
    for p in sequence_of_play(phases or DEFAULT_PHASES, RULE):
        if p.acts == "side":
            side = first if p.side == "first" else second
            out.append(Step(p.id, p.title, side, p.once, p.rule))
    return (*(s for s in out if s.once), *(s for s in out if not s.once))


def first_step(module: Module, scenario: str) -> tuple[int, Step]:
    """The Game-Turn and step the game starts at (0 with a set-up step)."""
    steps = acting_steps(module, scenario)
    return (0 if steps[0].once else 1), steps[0]


def step_of(module: Module, scenario: str, phase: str) -> Step | None:
    """The step whose phase id is ``phase``."""
    return next((s for s in acting_steps(module, scenario) if s.phase == phase), None)


def next_step(module: Module, scenario: str, turn: int, phase: str) -> tuple[int, Step] | None:
    """The Game-Turn and step after ``phase`` of ``turn``; ``None`` after the scenario's last
    Game-Turn."""
    steps = acting_steps(module, scenario)
    regular = [s for s in steps if not s.once]
    i = next(i for i, s in enumerate(steps) if s.phase == phase)
    if i + 1 < len(steps) and steps[i + 1].once == steps[i].once:
        return turn, steps[i + 1]
    if not regular:
        return None
    nxt = 1 if steps[i].once else turn + 1
    if nxt > module.scenario(scenario).turns:
        return None
    return nxt, regular[0]
