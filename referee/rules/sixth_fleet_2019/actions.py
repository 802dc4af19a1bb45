"""Actions [6.0]: how many a side gets, and who may form one force.

Each player receives one action at the start of his Action Phase [6.1], plus NATO's extras
for Crete and the Western Med [6.2] and the Soviet impetus [6.3], plus those random events
give [5.1]. The number is fixed when the phase starts [6.1]; unused actions are lost at its
end [6.0].
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_2019.control import controller, functional
from referee.rules.sixth_fleet_2019.game import NATO, SOVIET, Game, units_in


def nato_extras_6_2(game: Game, state: GameState) -> list[tuple[str, str]]:
    """(rule, reason) for each NATO extra action [6.2]."""
    out = []
    if functional(game, state, "Crete") and controller(state, "Crete") == NATO:
        out.append(("6.2", "Crete has a functional, NATO-controlled base"))
    soviets = [
        u
        for u in units_in(game, state, "Western Med", SOVIET)
        if game.is_naval(u) or game.category(u) == "air"
    ]
    if not soviets:
        out.append(("6.2", "no Soviet naval or air unit is in the Western Med"))
    return out


def soviet_extras_6_3(game: Game, state: GameState) -> list[tuple[str, str]]:
    """(rule, reason) for each Soviet extra action [6.3]. "Two actions on turns 1-4" is read
    as two in all, one more than the usual one (docs/interpretations.md, 6.3)."""
    out = []
    if state.turn <= game.param("soviet_early_turns"):
        out.append(
            ("6.3", f"Soviet impetus: two actions on turns 1-{game.param('soviet_early_turns')}")
        )
    nato_in_straits = [
        u for u in units_in(game, state, "Turkish Straits", NATO) if game.is_naval(u)
    ]
    if controller(state, "Istanbul") == SOVIET and not nato_in_straits:
        out.append(
            ("6.3", "the Soviets control Istanbul and no NATO naval unit is in the Turkish Straits")
        )
    return out


def actions_at_start_6_1(game: Game, state: GameState, side: str) -> list[tuple[str, str]]:
    base = [("6.1", "one action at the start of the Action Phase")] * game.param("base_actions")
    extras = nato_extras_6_2(game, state) if side == NATO else soviet_extras_6_3(game, state)
    return base + extras


def joint_ops_6_2(game: Game, state: GameState) -> bool:
    """Naples with a functional, NATO-controlled base lets NATO combine nationalities, except
    on turn 1 [6.2]."""
    return (
        state.turn > 1 and functional(game, state, "Naples") and controller(state, "Naples") == NATO
    )


def nationality_problem_6_6(game: Game, state: GameState, force: list[str]) -> str | None:
    """One nationality per force [6.6], except ACE units with any NATO country [8.2] and any
    mix under Naples joint operations [6.2]."""
    nats = {game.unit(u).nationality for u in force if not game.unit(u).has("ace")}
    if len(nats) <= 1:
        return None
    if state.units[force[0]].side == NATO and joint_ops_6_2(game, state):
        return None
    return (
        "units of different nationalities (" + ", ".join(sorted(nats)) + ") cannot form one force"
    )
