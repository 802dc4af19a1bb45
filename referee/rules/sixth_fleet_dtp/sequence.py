"""[DTP 4.0, 4.1] the sequence of play, as data, and the day cycle.

DTP replaces SPI's 4.0/4.1: a Game-Turn is seven phases; the scenario names Player A and
Player B (the Med: Soviet A, NATO B [DTP 11.0]); detection happens *inside* the movement
phases, by either player [DTP 4.0, 6.2]. Who acts in each phase is data (:data:`PHASES`):

* ``"A"``/``"B"``: that player's orders; the other may answer (detection during the enemy's
  movement [DTP 6.2b]) by a pending decision or a standing order;
* ``"impulses"``: both, alternately, B first, until both have passed [DTP 8.2];
* ``"nobody"``: carried out by the referee with the dice (phase 6's readiness rolls come
  after both players' ``rebase`` orders, so phase 6 is ``"both"``: each player's file);
* ``"interphase"``: the side the game names, one after the other (SPI's Reinforcement
  Interphase [12.2] of the Med Campaign);
* the Night-only phase 7 is skipped on AM and PM turns.

Turns run AM, PM, Night with turn 1 = AM (digest §2, deduced from 6.62 and Westpac).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules.sixth_fleet_dtp.schema import SEQUENCE
from referee.source.model import Module

DAY_PARTS = ("AM", "PM", "Night")


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of [DTP 4.1]: the engine's ``state.phase`` id, who acts, the orders section
    it reads, and the case."""

    number: int
    id: str
    name: str
    acts: str  # "A" | "B" | "impulses" | "both" | "nobody" | "interphase"
    section: str
    rule: str
    night_only: bool = False


PHASES: tuple[Phase, ...] = (
    Phase(1, "ship_movement_a", "Player A ship and sub movement", "A", "movement", "DTP 4.1"),
    Phase(2, "ship_movement_b", "Player B ship and sub movement", "B", "movement", "DTP 4.1"),
    Phase(3, "air_movement_b", "Player B air movement", "B", "movement", "DTP 4.1"),
    Phase(4, "air_movement_a", "Player A air movement", "A", "movement", "DTP 4.1"),
    Phase(5, "combat", "Combat phase", "impulses", "combat", "DTP 8.2"),
    Phase(6, "rebasing", "Air rebasing and readiness", "both", "rebasing", "DTP 9.22"),
    Phase(7, "night", "Night: surface Detected markers removed", "nobody", "", "DTP 6.62", True),
)
REINFORCEMENT_PHASES: tuple[Phase, ...] = (
    Phase(
        0, "reinforcement_a", "Player A reinforcement placement", "A", "reinforcement", "DTP 11.506"
    ),
    Phase(
        0, "reinforcement_b", "Player B reinforcement placement", "B", "reinforcement", "DTP 11.506"
    ),
)
"""Westpac's reinforcement phase [DTP 11.5041, 11.506], A first, and the placements of delayed
units before a movement phase [DTP 11.5061, 11.5063]: entered only in a scenario with the DTP
reinforcement track (``westpac_reinforcement``), so not in the declared sequence of every
scenario."""
INTERPHASE_12_2 = Phase(
    0, "reinforcement_12_2", "Reinforcement Interphase", "interphase", "reinforcement", "12.2"
)
"""SPI's Reinforcement Interphase [12.2], kept in the Med Campaign ("all other SPI scenario
rules apply" [DTP 11.0]): between the Game-Turn after which reinforcements arrive and the
next, each side with reinforcements in set-up order (``reinforcement.py``); entered only in a
game whose ``reinforcement_interphase_12_2`` flag is on."""
BY_ID = {p.id: p for p in (*PHASES, *REINFORCEMENT_PHASES, INTERPHASE_12_2)}


def day_part_4_0(turn: int) -> str:
    """AM, PM or Night: turn 1 is AM, so Night turns are 3, 6, 9... (digest §2)."""
    return DAY_PARTS[(turn - 1) % 3]


def is_night_4_0(turn: int) -> bool:
    return day_part_4_0(turn) == "Night"


def next_phase_4_1(phase_id: str, turn: int) -> tuple[str, int]:
    """The phase after ``phase_id`` on ``turn``: the next of [DTP 4.1], skipping phase 7 on
    AM and PM turns, then phase 1 of the next Game-Turn."""
    i = [p.id for p in PHASES].index(phase_id)
    for p in PHASES[i + 1 :]:
        if not p.night_only or is_night_4_0(turn):
            return p.id, turn
    return PHASES[0].id, turn + 1


def players_11_0(module: Module) -> dict[str, str]:
    """Player letter -> side, from the module's players table [DTP 11.0]."""
    t = module.tables["players"]
    c = t.column("player")
    return {str(row[c]): t.row_keys[r].text for r, row in enumerate(t.cells)}


def sequence_matches_schema() -> bool:
    """The phases here are the schema's declared sequence (the VASSAL tracker's), in order:
    the same seven steps after set-up, A's and B's in the same places."""
    declared = [(d.id, d.name, d.rule, d.player) for d in SEQUENCE if not d.once]
    who = {"A": "first", "B": "second"}
    return declared == [(p.id, p.name, p.rule, who.get(p.acts, "")) for p in PHASES]
