"""Retreats [8.71]-[8.73] and displacement [8.71].

A retreating unit moves exactly one hex [8.71], into a hex it could enter in movement
(terrain, hexsides, closed areas, enemy Defended hexes), without breaking stacking [7.22] and
never into an enemy-controlled hex [6.5] -- except one controlled only by enemy units that
cannot attack it [8.71]. Only when no such hex exists may it retreat into a hex occupied only
by enemy units that cannot attack it; those are displaced by their owner, and if they cannot
be, the retreating unit is eliminated instead [8.71]. Air units never retreat: they are
eliminated [8.72][9.51]. A unit with no retreat is eliminated [8.71][5.24].
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12, terrain_case_10_1
from referee.rules.sixth_fleet_1975.stacking import room_for_7_22
from referee.rules.sixth_fleet_1975.strengths import can_attack_unit
from referee.rules.sixth_fleet_1975.zoc import in_enemy_zoc


def _enterable(game: Game, state: GameState, unit: str, frm: str, to: str) -> bool:
    """Could ``unit`` enter ``to`` from ``frm`` in normal movement (terrain and hexside only,
    not MP) [8.71]?"""
    if entry_cost_5_12(game, state, unit, to) is None:
        return False
    cat = game.category(unit)
    if cat != "air" and game.board.hexside_blocked(frm, to, cat):
        return False
    if game.enemy_defended(state, to, state.units[unit].side):
        return False
    return closed_area_12_3(game, state, unit, to) is None


def retreat_barrier(game: Game, state: GameState, unit: str, hex_id: str) -> tuple[str, str]:
    """Why ``unit`` may not retreat into ``hex_id``: ``(case, reason)`` with the most
    specific case that forbids it -- stacking [7.22], an enemy zone of control [6.5], an
    enemy Defended hex [10.15], a closed area [12.3][14.4], terrain (Prohibited [10.11], land
    for naval units [10.12]) -- or the general [8.71] (not adjacent, a blocked hexside, enemy
    units that cannot be displaced)."""
    u = state.units[unit]
    if u.location is None or not game.board.adjacent(u.location, hex_id):
        return "8.71", "a retreat is exactly one hex"
    if entry_cost_5_12(game, state, unit, hex_id) is None:
        return terrain_case_10_1(game, hex_id), "it could not enter the terrain in movement"
    closed = closed_area_12_3(game, state, unit, hex_id)
    if closed is not None:
        return closed, "the area is closed to it"
    if game.enemy_defended(state, hex_id, u.side):
        return "10.15", "an undestroyed enemy Defended hex"
    cat = game.category(unit)
    if cat != "air" and game.board.hexside_blocked(u.location, hex_id, cat):
        return "8.71", "it could not cross that hexside in movement"
    if any(state.units[e].side != u.side for e in state.stacks.get(hex_id, ())):
        return "8.71", "enemy units there (entered only by displacing them, if no other hex)"
    if not room_for_7_22(game, state, hex_id, u.side, [unit]):
        return "7.22", "it would break the stacking limit"
    if in_enemy_zoc(game, state, hex_id, u.side, cat):
        return "6.5", "an enemy-controlled hex"
    return "8.71", "not a legal retreat hex now"


def retreat_hexes_8_71(game: Game, state: GameState, unit: str) -> list[str]:
    """The hexes ``unit`` may retreat into without displacing anyone, sorted: those a
    displaced unit could go to (:func:`displace_hexes_8_71`: enterable, not enemy-occupied,
    within stacking [7.22], not enemy-controlled [6.5]); an air unit never retreats."""
    return [] if game.is_air(unit) else displace_hexes_8_71(game, state, unit)


def displacement_hexes_8_71(game: Game, state: GameState, unit: str) -> list[str]:
    """Hexes ``unit`` may retreat into by displacing the enemy units there: occupied only by
    enemy units that cannot attack it, every one of which can itself be displaced [8.71]."""
    u = state.units[unit]
    if u.location is None or game.is_air(unit):
        return []
    out: list[str] = []
    for n in game.board.neighbours(u.location):
        occupants = list(state.stacks.get(n, ()))
        if not occupants or any(state.units[e].side == u.side for e in occupants):
            continue
        if any(can_attack_unit(game, e, unit) for e in occupants):
            continue
        if not _enterable(game, state, unit, u.location, n):
            continue
        if in_enemy_zoc(game, state, n, u.side, game.category(unit)):
            continue
        if not room_for_7_22(game, state, n, u.side, [unit]):
            continue
        if all(displace_hexes_8_71(game, state, e, avoid=u.location) for e in occupants):
            out.append(n)
    return sorted(out)


def displace_hexes_8_71(
    game: Game, state: GameState, unit: str, avoid: str | None = None
) -> list[str]:
    """Where a displaced ``unit`` may go: an adjacent hex it could enter, within stacking,
    not enemy-occupied and not enemy-controlled (for it) [8.71]. Displacement is not a
    retreat, so air units may be displaced [8.71]."""
    u = state.units[unit]
    if u.location is None:
        return []
    out: list[str] = []
    for n in game.board.neighbours(u.location):
        if n == avoid:
            continue
        if not _enterable(game, state, unit, u.location, n):
            continue
        if any(state.units[e].side != u.side for e in state.stacks.get(n, ())):
            continue
        if not room_for_7_22(game, state, n, u.side, [unit]):
            continue
        if in_enemy_zoc(game, state, n, u.side, game.category(unit)):
            continue
        out.append(n)
    return sorted(out)


class RetreatCause(StrEnum):
    """Why a unit retreats; the value is what a queued ``retreat`` task records as its
    ``cause`` (kept as it is in saved games)."""

    CRT = "crt"  # a combat result [8.9][8.71]
    MANDATORY_8_24 = "8.24"  # it could not make its mandatory attack [8.24]

    @staticmethod
    def of(task: Mapping[str, Any]) -> RetreatCause:
        try:
            return RetreatCause(str(task.get("cause")))
        except ValueError:
            return RetreatCause.CRT

    @property
    def rule(self) -> str:
        """The case a retreat of this cause is carried out under."""
        return "8.24" if self is RetreatCause.MANDATORY_8_24 else "8.71"


def retreat_options_8_71(game: Game, state: GameState, unit: str) -> list[str]:
    """Where ``unit`` may retreat now: the plain retreat hexes, or else the hexes it may
    enter by displacing enemy units [8.71]."""
    return retreat_hexes_8_71(game, state, unit) or displacement_hexes_8_71(game, state, unit)
