"""Coast artillery range against ships [27.22], [30.21]-[30.24].

A CD unit reaches a hex within its Range when the line of hexes from it crosses no all-land
hexside and at most one coastal hexside [30.23]. A hexside is all-land between two land hexes,
all-sea between two water hexes, and coastal otherwise (docs/interpretations.md, NM-7).
"""

from __future__ import annotations

import itertools

from referee.engine.core import GameState
from referee.rules.naval_module.context import Game

WATER = ("sea", "shallow")


def hexside_kind(game: Game, a: str, b: str) -> str:
    ta, tb = game.terrain(a), game.terrain(b)
    if ta == "land" and tb == "land":
        return "land"
    if ta in WATER and tb in WATER:
        return "sea"
    return "coastal"


def cd_reaches_30_23(game: Game, cd_hex: str, target: str, rng: int) -> bool:
    if game.hexes.distance(cd_hex, target) > rng:
        return False
    line = game.module.map.grid.line(cd_hex, target)  # type: ignore[union-attr]
    coastal = 0
    for a, b in itertools.pairwise(line):
        kind = hexside_kind(game, a, b)
        if kind == "land":
            return False
        if kind == "coastal":
            coastal += 1
    return coastal <= 1


def cd_units_reaching(game: Game, state: GameState, side: str, hexes: list[str]) -> list:
    """``(piece, points, cd_hex)`` of every CD unit of ``side`` reaching any of ``hexes``."""
    out = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != side or u.location is None:
            continue
        d = game.unit(u.id)
        if d.category != "ground" or d.type != "CD":
            continue
        at = game.hex_of(u.location)
        if at is None:
            continue
        if any(cd_reaches_30_23(game, at, h, d.values.get("RNG", 0)) for h in hexes):
            out.append((u.id, d.values.get("ART", 0), at))
    return out


def cd_points_against(
    game: Game, state: GameState, cd_side: str, places: list, passed_zones: list
) -> int:
    """The CD support points of ``cd_side`` reaching a ship that began, passed or ended at
    these places [27.22], [30.21]: each CD unit once. A place is a port (its hex), an at-sea
    hex, or a zone (no hex: only the zone's ``strait`` hexes count, as for zones passed)."""
    hexes: list[str] = []
    for p in places:
        if p is None:
            continue
        h = game.hex_of(str(p))
        if h is not None:
            hexes.append(h)
    for z in passed_zones:
        strait = game.zones[z].properties.get("strait") if z in game.zones else None
        if isinstance(strait, list):
            hexes.extend(str(h) for h in strait)
    return sum(p for _, p, _ in cd_units_reaching(game, state, cd_side, hexes))
