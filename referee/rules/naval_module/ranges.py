"""Coast artillery range against ships [27.22], [30.21]-[30.24].

A ship is caught when it begins, ends or passes within a CD unit's range [27.22]. Its path is
zones, ports and at most one final hex [26.14b], so "passes" is read (NM-45, switch
``cd_forced_crossings``) as: at each crossing from one zone to the next, the CD units reaching
the pair of adjacent hexes it crosses between, the pair the fewest points reach; a zone's
``strait`` hexes, where a map gives them, also count.

A CD unit reaches a hex within its Range when the line of hexes from it crosses no all-land
hexside and at most one coastal hexside [30.23]. A hexside is all-land between two land hexes,
all-sea between two water hexes, and coastal otherwise (docs/interpretations.md, NM-7).
"""

from __future__ import annotations

import itertools

from referee.engine.core import GameState
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.readings import readings_of

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
    hex, or a zone (no hex: only the zone's ``strait`` hexes count, as for zones passed).
    Under the reading ``cd_forced_crossings`` (NM-45) a ship that passes from one zone to the
    next also passes within range of every CD unit that covers that crossing wherever it is
    made (:func:`cd_units_on_crossings_27_22`)."""
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
    found = {u: pts for u, pts, _ in cd_units_reaching(game, state, cd_side, hexes)}
    if readings_of(state).cd_forced_crossings:
        first = game.zone_of(str(places[0])) if places and places[0] is not None else None
        zones = [z for z in [first, *passed_zones] if z is not None]
        found.update(cd_units_on_crossings_27_22(game, state, cd_side, zones, set(found)))
    return sum(found.values())


def crossing_pairs(game: Game, a: str, b: str) -> list[tuple[str, str]]:
    """The adjacent hex pairs (one of zone ``a``, one of zone ``b``) a ship passing from
    ``a`` into ``b`` crosses between: wherever it passes, it is in one of them and then the
    other [26.14b]."""
    inside_b = set(game.zones[b].hexes) if b in game.zones else set()
    pairs = []
    for x in game.zones[a].hexes if a in game.zones else ():
        pairs += [(x, y) for y in sorted(game.hexes.neighbours(x)) if y in inside_b]
    return pairs


def cd_units_on_crossings_27_22(
    game: Game, state: GameState, side: str, zones: list[str], counted: set[str]
) -> dict[str, int]:
    """Piece -> support points of the CD units of ``side`` a ship that passed through
    ``zones`` in order could not avoid at its crossings [27.22], [30.21]: at each crossing
    it passes between the pair of adjacent hexes that the fewest further points reach (the
    moving player's best route, docs/interpretations.md NM-45); ``counted`` units (already
    reaching its other places) add nothing."""
    batteries = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        d = game.unit(u.id)
        if u.side != side or u.location is None or d.category != "ground" or d.type != "CD":
            continue
        at = game.hex_of(u.location)
        if at is not None:
            batteries.append((u.id, at, d.values.get("RNG", 0), d.values.get("ART", 0)))
    out: dict[str, int] = {}
    for a, b in itertools.pairwise(zones):
        pairs = crossing_pairs(game, a, b) if a != b else []
        best: dict[str, int] | None = None
        for x, y in pairs:
            here = {
                uid: pts
                for uid, at, rng, pts in batteries
                if uid not in counted | set(out)
                and (cd_reaches_30_23(game, at, x, rng) or cd_reaches_30_23(game, at, y, rng))
            }
            if best is None or sum(here.values()) < sum(best.values()):
                best = here
        out.update(best or {})
    return out


def defender_hexes_30_24(game: Game, state: GameState, cd_side: str, target: str) -> set[str]:
    """The Defender hexes of a naval Target Hex (NM-46): the coastal hexes next to the
    all-sea hex where Amphibious Assault naval movement ends [30.22] that hold ground units of
    ``cd_side``, the hexes the carried units may assault [30.14c]."""
    return {
        h
        for h in game.hexes.neighbours(target)
        if game.terrain(h) == "coastal" and game.ground_at(state, h, cd_side)
    }


def cd_doubling_30_24(game: Game, state: GameState, cd_side: str, target: str) -> int:
    """The CD points added against a naval Target Hex because their CD units are in a
    Defender hex: each such unit reaching the Target Hex counts twice [30.24] (once more than
    :func:`cd_points_against` counts it)."""
    defender = defender_hexes_30_24(game, state, cd_side, target)
    return sum(
        points
        for _, points, at in cd_units_reaching(game, state, cd_side, [target])
        if at in defender
    )
