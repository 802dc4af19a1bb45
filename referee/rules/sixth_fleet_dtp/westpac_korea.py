"""[DTP 11.5134] the optional Korean land war: which South Korean hex the East Block may take.

"Each even numbered AM turn the East Block player chooses a hex in South Korea which he
'captures' in the land war ... EACH HEX CHOSEN MUST BE ADJACENT TO TWO HEXES EITHER IN NORTH
KOREA OR ALREADY EAST BLOCK CONTROLLED. This means Suwon cannot be occupied on turn 4."

The countries are the map's ``[country]`` layer (module_src/dtp_westpac: ``k`` North Korea,
``s`` South Korea, nationalities ``NK`` and ``Ko``); the turn's day part is the scenario's
calendar (turn 1 AM: AM turns are 1, 4, 7, ...; the even ones 4, 10, 16, ...). What a capture
does to the hex (SEATO air there eliminated, a base or defended hex destroyed) is not here.
"""

from __future__ import annotations

from collections.abc import Collection

from referee.engine.problems import Problem
from referee.hexgrid import HexGrid
from referee.source.model import MapDef

RULE = "DTP 11.5134"
NORTH, SOUTH = "NK", "Ko"
NEEDED = 2  # "adjacent to two hexes"
AM_EVERY = 3  # AM, PM, Night [DTP 6.62]


def nationality_of(map_def: MapDef, hex_id: str) -> str | None:
    """The nationality of the country a hex lies in, if any (the ``[country]`` layer)."""
    h = map_def.hexes.get(hex_id)
    if h is None or h.country is None:
        return None
    return map_def.countries[h.country].nationality


def capture_turn_11_5134(turn: int) -> bool:
    """An even-numbered AM turn (turn 1 is AM) [DTP 11.5134]."""
    return turn % AM_EVERY == 1 and turn % 2 == 0


def capture_problem_11_5134(
    map_def: MapDef, grid: HexGrid, hex_id: str, turn: int, controlled: Collection[str]
) -> Problem | None:
    """Why the East Block may not capture ``hex_id`` on ``turn`` with ``controlled`` (the South
    Korean hexes it has taken), or None if it may [DTP 11.5134]."""
    if not capture_turn_11_5134(turn):
        return Problem(
            RULE,
            f"a Korean hex is captured only on even-numbered AM turns, not on turn {turn}",
            "capture-turn",
            hex_id,
            hint="the next is turn " + str(_next_capture_turn(turn)),
        )
    if nationality_of(map_def, hex_id) != SOUTH or hex_id in controlled:
        return Problem(
            RULE,
            f"{hex_id} is not a South Korean hex still held by SEATO",
            "capture-not-south-korea",
            hex_id,
        )
    held = [
        n for n in grid.neighbours(hex_id) if nationality_of(map_def, n) == NORTH or n in controlled
    ]
    if len(held) < NEEDED:
        return Problem(
            RULE,
            f"{hex_id} is adjacent to {len(held)} hex(es) in North Korea or East Block "
            f"controlled ({', '.join(held) or 'none'}); it must be adjacent to {NEEDED}",
            "capture-not-adjacent",
            hex_id,
            hint="choose a hex next to two North Korean or captured hexes",
        )
    return None


def _next_capture_turn(turn: int) -> int:
    t = turn + 1
    while not capture_turn_11_5134(t):
        t += 1
    return t
