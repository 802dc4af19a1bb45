"""The sequence of play the naval rules use, declared as data.

The host series' sequence (Naval Readiness, Air Interdiction, Motorized Movement, Movement,
Reaction, Combat, Engineering, Supply Status, Interphase) is not in the text; the naval rules
act in six of its phases, which is what this referee plays: for each player turn the phasing
player's Naval Readiness Phase, the enemy's Air Interdiction (the Naval Movement Interdiction
Box) -- with, when Soviet naval fighters oppose it, the host game's air combat result signed by
the mission player and then the Soviet player [31.13] --, the phasing player's Motorized
Movement Phase and his Movement Phase (a naval unit moves in either or both [26.12a]; the
Motorized Movement Phase only in a game that records the ruling, ``Phase.flag``),
the Axis Reaction Phase when Soviet ships are at sea and Axis air could strike them [31.22], the
phasing player's Combat Phase, the other player's coast artillery and defensive naval support
in that Combat Phase (only when a CD unit has something in reach or a ship in port is in Range
of an attacked hex he holds) [27.12], [29.25], [30.25], then -- when
an assault was handed to the host game -- its result, signed first by the phasing player and
then by the other.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.sequence import Phase, SequenceOfPlay
from referee.rules.naval_module.facts import facts_of

# who writes a phase's orders: the phasing player or the other ("enemy") one; a second
# signature is written under the first one's section
PHASING, ENEMY = "phasing", "enemy"
PHASES: SequenceOfPlay[None] = SequenceOfPlay(
    (
        Phase("readiness", "Naval Readiness Phase", "25.32", side=PHASING),
        Phase(
            "interdiction",
            "Air Interdiction Phase (Naval Movement Interdiction)",
            "31.1",
            side=ENEMY,
        ),
        Phase(
            "aircombat",
            "Air Interdiction Phase: host air combat, mission side",
            "31.13",
            side=ENEMY,
            within="interdiction",
        ),
        Phase(
            "aircombat_confirm",
            "Air Interdiction Phase: host air combat, the other side",
            "31.13",
            side=PHASING,
            sections=("aircombat",),
            within="interdiction",
        ),
        # played only in games begun with this step built (``Phase.flag``); the turn tracker
        # shows it within the Movement Phase (one entry: a position save records the tracker's
        # entries, so an entry of its own would change every save of an older game)
        Phase(
            "motorized",
            "Motorized Movement Phase",
            "26.12a",
            side=PHASING,
            flag="motorized_phase",
            within="movement",
        ),
        Phase("movement", "Movement Phase", "26.12a", side=PHASING),
        Phase("reaction", "Reaction Phase (Axis air against ships at sea)", "31.22", side=ENEMY),
        Phase(
            "reaction_air",
            "Reaction Phase: host air combat and AA fire against the Shipping Attack, mission side",
            "31.23",
            side=ENEMY,
            sections=("shipping",),
            within="reaction",
        ),
        Phase(
            "reaction_air_confirm",
            "Reaction Phase: host air combat and AA fire against the Shipping Attack, target side",
            "31.23",
            side=PHASING,
            sections=("shipping",),
            within="reaction",
        ),
        Phase("combat", "Combat Phase", "29.0", side=PHASING),
        Phase(
            "combat_air",
            "Combat Phase: host air combat and AA fire against the Shipping Attack, mission side",
            "31.23",
            side=PHASING,
            sections=("shipping",),
            within="combat",
        ),
        Phase(
            "combat_air_confirm",
            "Combat Phase: host air combat and AA fire against the Shipping Attack, target side",
            "31.23",
            side=ENEMY,
            sections=("shipping",),
            within="combat",
        ),
        Phase(
            "coast",
            "Combat Phase: the enemy's coast artillery and defensive naval support",
            "27.12",
            side=ENEMY,
            within="combat",
        ),
        Phase(
            "host",
            "host game result, phasing player's signature",
            "30.16",
            side=PHASING,
            within="combat",
        ),
        Phase(
            "host_confirm",
            "host game result, other player's signature",
            "30.16",
            side=ENEMY,
            sections=("host",),
            within="combat",
        ),
    )
)
BY_ID = PHASES.by_id
# the phases in which naval units conduct naval movement, each with its own NMP allowance
# [26.12a], [26.14]
NAVAL_MOVEMENT = ("motorized", "movement")
# the orders section of a step whose section is not named by its id
SECTION = {p.id: p.sections[0] for p in PHASES if p.sections}
# the steps where a Shipping Attack's host results come back, by the phase that flew it
SHIPPING_STEPS = {"reaction": "reaction_air", "combat": "combat_air"}
GAME_OVER = "game_over"


def other(sides: tuple[str, ...], side: str) -> str:
    return next(s for s in sides if s != side)


def player_order(first: str, sides: tuple[str, ...]) -> tuple[str, str]:
    return first, other(sides, first)


def actor(state: GameState, sides: tuple[str, ...]) -> str:
    """Whose orders the current phase takes."""
    phase = BY_ID[state.phase]
    phasing = facts_of(state).phasing
    return phasing if phase.side == PHASING else other(sides, phasing)


def describe(state: GameState, sides: tuple[str, ...]) -> str:
    phase = BY_ID[state.phase]
    return (
        f"{actor(state, sides)} orders for the {facts_of(state).phasing} {phase.title}, "
        f"Game-Turn {state.turn} [{phase.rule}]"
    )
