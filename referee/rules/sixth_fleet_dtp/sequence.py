"""[DTP 4.0, 4.1] the sequence of play, as data, and the day cycle.

DTP replaces SPI's 4.0/4.1: a Game-Turn is seven phases; the scenario names Player A and
Player B (the Med: Soviet A, NATO B [DTP 11.0]); detection happens *inside* the movement
phases, by either player [DTP 4.0, 6.2]. Who acts in each phase is data (:data:`PHASES`):

* ``side`` ``"A"``/``"B"``: that player's orders; the other may answer (detection during
  the enemy's movement [DTP 6.2b]) by a pending decision or a standing order;
* ``"impulses"``: both, alternately, B first, until both have passed [DTP 8.2];
* ``"nobody"``: carried out by the referee with the dice (phase 6's readiness rolls come
  after both players' ``rebase`` orders, so phase 6 is ``"both"``: each player's file);
* ``side`` ``None``: the side the game names, one after the other (SPI's Reinforcement
  Interphase [12.2] of the Med Campaign);
* the Night-only phase 7 is skipped on AM and PM turns.

Turns run AM, PM, Night with turn 1 = AM (digest §2, deduced from 6.62 and Westpac).
"""

from __future__ import annotations

from referee.engine.sequence import Phase, SequenceOfPlay
from referee.source.model import Module

DAY_PARTS = ("AM", "PM", "Night")

PHASES: SequenceOfPlay[None] = SequenceOfPlay(
    (
        Phase(
            "ship_movement_a",
            "Player A ship and sub movement",
            "DTP 4.1",
            side="A",
            sections=("movement",),
            number=1,
        ),
        Phase(
            "ship_movement_b",
            "Player B ship and sub movement",
            "DTP 4.1",
            side="B",
            sections=("movement",),
            number=2,
        ),
        Phase(
            "air_movement_b",
            "Player B air movement",
            "DTP 4.1",
            side="B",
            sections=("movement",),
            number=3,
        ),
        Phase(
            "air_movement_a",
            "Player A air movement",
            "DTP 4.1",
            side="A",
            sections=("movement",),
            number=4,
        ),
        Phase("combat", "Combat phase", "DTP 8.2", "impulses", sections=("combat",), number=5),
        Phase(
            "rebasing",
            "Air rebasing and readiness",
            "DTP 9.22",
            "both",
            sections=("rebasing",),
            number=6,
        ),
        Phase(
            "night",
            "Night: surface Detected markers removed",
            "DTP 6.62",
            "nobody",
            number=7,
            night_only=True,
        ),
    ),
    extra=(
        Phase(
            "reinforcement_a",
            "Player A reinforcement placement",
            "DTP 11.506",
            side="A",
            sections=("reinforcement",),
        ),
        Phase(
            "reinforcement_b",
            "Player B reinforcement placement",
            "DTP 11.506",
            side="B",
            sections=("reinforcement",),
        ),
        Phase(
            "reinforcement_12_2", "Reinforcement Interphase", "12.2", sections=("reinforcement",)
        ),
        Phase(
            "hostilities",
            "Player A announces hostilities",
            "DTP 11.5101",
            side="A",
            sections=("hostilities",),
        ),
    ),
)
"""[DTP 4.1], the engine's phase records: ``side`` ``"A"``/``"B"`` is that player's phase,
``"impulses"`` both alternately, ``"both"`` each player's file, ``"nobody"`` the referee's.
``extra`` holds Westpac's reinforcement phase [DTP 11.5041, 11.506], A first, and the
placements of delayed units before a movement phase [DTP 11.5061, 11.5063]: entered only in a
scenario with the DTP reinforcement track (``westpac_reinforcement``), so not in the declared
sequence of every scenario. The last is SPI's Reinforcement Interphase [12.2], kept in the Med
Campaign ("all other SPI scenario rules apply" [DTP 11.0]): between the Game-Turn after which
reinforcements arrive and the next, each side with reinforcements in set-up order
(``reinforcement.py``), the side the game names (``state.active_side``); entered only in a
game whose ``reinforcement_interphase_12_2`` flag is on."""
BY_ID = PHASES.by_id
INTERPHASE_12_2 = BY_ID["reinforcement_12_2"]
HOSTILITIES_PHASE = BY_ID["hostilities"]
"""Westpac's announcement at the very beginning of a Game-Turn, while hostilities or PRC entry
are still to come [DTP 11.5101, 11.51021] (``westpac_hostilities``)."""


def day_part_4_0(turn: int) -> str:
    """AM, PM or Night: turn 1 is AM, so Night turns are 3, 6, 9... (digest §2)."""
    return DAY_PARTS[(turn - 1) % 3]


def is_night_4_0(turn: int) -> bool:
    return day_part_4_0(turn) == "Night"


def next_phase_4_1(phase_id: str, turn: int) -> tuple[str, int]:
    """The phase after ``phase_id`` on ``turn``: the next of [DTP 4.1], skipping phase 7 on
    AM and PM turns, then phase 1 of the next Game-Turn."""
    i = PHASES.ids.index(phase_id)
    for p in PHASES.phases[i + 1 :]:
        if not p.night_only or is_night_4_0(turn):
            return p.id, turn
    return PHASES.first.id, turn + 1


def players_11_0(module: Module) -> dict[str, str]:
    """Player letter -> side, from the module's players table [DTP 11.0]."""
    t = module.tables["players"]
    c = t.column("player")
    return {str(row[c]): t.row_keys[r].text for r, row in enumerate(t.cells)}
