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

from dataclasses import dataclass

from referee.engine.core import GameState


@dataclass(frozen=True, slots=True)
class Phase:
    id: str
    by: str  # "phasing" or "enemy": who writes its orders
    title: str
    rule: str
    # the switch of ``readings.Readings`` a game must have on for this step to be played: a
    # game begun before the step was built skips it, so its archive replays as it was played
    flag: str | None = None


PHASES: tuple[Phase, ...] = (
    Phase("readiness", "phasing", "Naval Readiness Phase", "25.32"),
    Phase("interdiction", "enemy", "Air Interdiction Phase (Naval Movement Interdiction)", "31.1"),
    Phase("aircombat", "enemy", "Air Interdiction Phase: host air combat, mission side", "31.13"),
    Phase(
        "aircombat_confirm",
        "phasing",
        "Air Interdiction Phase: host air combat, the other side",
        "31.13",
    ),
    Phase("motorized", "phasing", "Motorized Movement Phase", "26.12a", "motorized_phase"),
    Phase("movement", "phasing", "Movement Phase", "26.12a"),
    Phase("reaction", "enemy", "Reaction Phase (Axis air against ships at sea)", "31.22"),
    Phase(
        "reaction_air",
        "enemy",
        "Reaction Phase: host air combat and AA fire against the Shipping Attack, mission side",
        "31.23",
    ),
    Phase(
        "reaction_air_confirm",
        "phasing",
        "Reaction Phase: host air combat and AA fire against the Shipping Attack, target side",
        "31.23",
    ),
    Phase("combat", "phasing", "Combat Phase", "29.0"),
    Phase(
        "combat_air",
        "phasing",
        "Combat Phase: host air combat and AA fire against the Shipping Attack, mission side",
        "31.23",
    ),
    Phase(
        "combat_air_confirm",
        "enemy",
        "Combat Phase: host air combat and AA fire against the Shipping Attack, target side",
        "31.23",
    ),
    Phase(
        "coast",
        "enemy",
        "Combat Phase: the enemy's coast artillery and defensive naval support",
        "27.12",
    ),
    Phase("host", "phasing", "host game result, phasing player's signature", "30.16"),
    Phase("host_confirm", "enemy", "host game result, other player's signature", "30.16"),
)
BY_ID = {p.id: p for p in PHASES}
# the phases in which naval units conduct naval movement, each with its own NMP allowance
# [26.12a], [26.14]
NAVAL_MOVEMENT = ("motorized", "movement")
# the orders section of a step: a second signature is written under the first one's section
SECTION = {
    "host_confirm": "host",
    "aircombat_confirm": "aircombat",
    "reaction_air": "shipping",
    "reaction_air_confirm": "shipping",
    "combat_air": "shipping",
    "combat_air_confirm": "shipping",
}
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
    phasing = str(state.data["phasing"])
    return phasing if phase.by == "phasing" else other(sides, phasing)


def describe(state: GameState, sides: tuple[str, ...]) -> str:
    phase = BY_ID[state.phase]
    return (
        f"{actor(state, sides)} orders for the {state.data['phasing']} {phase.title}, "
        f"Game-Turn {state.turn} [{phase.rule}]"
    )
