"""[DTP 11.5091] Westpac's command ships: to sea, and at sea for the rest of the game.

"The LCC #26, Blue Ridge ... and the CCL #13, Admiral Senyavin are command and communications
ships ... they must move to all sea hexes (LCC 26 on turn 1 and CCL 13 on entry on turn 31)
and remain at sea for the remainder of the game ... They may not exit the map even if
damaged."

So at the end of each of its side's ship and sub movement phases a command ship on the map
stands in an all-sea hex (High Seas or Restricted Water; not a coastal hex, which is a port,
nor land): the LCC starts at Yokosuka and the CCL enters at Vladivostok, so the first ship
movement file of each must take it out (:func:`at_sea_problems_11_5091`), and no ``exit`` is
ever lawful for it (:func:`exit_problem_11_5091`). Their double value is
``westpac_victory.ship_vp_11_5124``. The command ships are the unit types ``LCC`` and ``CCL``
(module data; only Westpac has them), so no other game is touched.
"""

from __future__ import annotations

from collections import deque

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game

RULE = "DTP 11.5091"
COMMAND_SHIP_TYPES = frozenset({"LCC", "CCL"})
ALL_SEA = frozenset({"high_seas", "restricted"})  # no land in the hex [DTP 10.13, 10.14]


def is_command_ship(game: Game, unit: str) -> bool:
    return game.unit(unit).type in COMMAND_SHIP_TYPES


def exit_problem_11_5091(game: Game, unit: str) -> Violation | None:
    """A command ship may not leave the map, damaged or not [DTP 11.5091]."""
    if not is_command_ship(game, unit):
        return None
    return Violation(
        RULE,
        f"{unit} is a command ship: it may not exit the map even if damaged",
        code="command-ship-exit",
        word=unit,
        unit=unit,
        hint="it stays at sea for the rest of the game",
    )


def at_sea_problems_11_5091(game: Game, after: GameState, side: str) -> list[Violation]:
    """Each command ship of ``side`` that a ship and sub movement file leaves outside an
    all-sea hex [DTP 11.5091]."""
    out: list[Violation] = []
    for pid in sorted(after.units):
        u = after.units[pid]
        if u.side != side or u.location is None or not is_command_ship(game, pid):
            continue
        terrain = game.board.terrain(u.location)
        if terrain not in ALL_SEA:
            out.append(
                Violation(
                    RULE,
                    f"{pid} is a command ship: it must move to an all-sea hex and remain at "
                    f"sea, not end the phase in {u.location} ({terrain})",
                    code="command-ship-ashore",
                    word=pid,
                    unit=pid,
                    hint=f"move {pid} to a High Seas hex in this file",
                )
            )
    return out


def path_to_sea(game: Game, start: str, steps: int) -> list[str] | None:
    """A shortest path of at most ``steps`` hexes from ``start`` to an all-sea hex through
    hexes a ship may enter, or None (the scripted player's first move of a command ship)."""
    seen = {start: [start]}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        path = seen[here]
        if game.board.terrain(here) in ALL_SEA and here != start:
            return path[1:]
        if len(path) > steps:
            continue
        for n in sorted(game.board.neighbours(here)):
            if n not in seen and game.board.terrain(n) in (*ALL_SEA, "coastal"):
                seen[n] = [*path, n]
                todo.append(n)
    return None


def to_sea_lines_11_5091(game: Game, state: GameState, side: str) -> list[str]:
    """``move`` lines that take each of ``side``'s command ships out of port (the scripted
    player's, before its other moves): its first ship movement must end at sea."""
    lines: list[str] = []
    for pid in sorted(state.units):
        u = state.units[pid]
        if u.side != side or u.location is None or not is_command_ship(game, pid):
            continue
        if game.board.terrain(u.location) in ALL_SEA:
            continue
        path = path_to_sea(game, u.location, max(1, game.movement_allowance(pid)))
        if path:
            lines.append(f"move {pid} {' '.join(path)}")
    return lines
