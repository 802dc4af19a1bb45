"""Basing and stacking [7.0] and the over-stacking penalty [7.2].

Naval units: unlimited in any sea zone [7.1.1]. Ground units: unlimited, except two a side on
a small island [7.1.2]. Air units on the ground: six at a NATO or Soviet airbase, three at a
small-island airbase, two at a friendly neutral base, unlimited off-map; on a mission,
unlimited [7.1.3]. Carriers and amphibians hold what their holding box prints [8.3.4], [2.0
errata]. Enemy units never count against each other [7.3].
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.rules.sixth_fleet_2019.control import may_base
from referee.rules.sixth_fleet_2019.game import HOLDING, REFIT, SIDES, Game
from referee.source.memo import per_module


def air_capacity_7_1_3(game: Game, state: GameState, zone: str, side: str) -> int | None:
    """How many of ``side``'s air units may be on the ground at ``zone`` (``None``:
    unlimited); 0 where the side may not base [3.2.1]."""
    if not may_base(game, state, zone, side):
        return 0
    ztype = game.zone_type(zone)
    if ztype == "off_map":
        return None
    if ztype == "small_island":
        return game.param("small_island_air")
    if ztype == "neutral":
        return game.param("neutral_air")
    return game.param("airbase_air")


def holding_capacity(game: Game, ship: str) -> dict[str, int]:
    box = game.holding_box(ship)
    if box is None:
        return {"air": 0, "vstol": 0, "land": 0}
    return {k: int(game.prop(box, f"capacity_{k}", 0)) for k in ("air", "vstol", "land")}


def fits_aboard(game: Game, ship: str, units: list[str]) -> bool:
    """Whether ``units`` fit a ship's holding box: CV-capable air in the air places, V/STOL
    air first in the V/STOL places [2.0 errata], ground units in the land places [8.3.4]."""
    return _fit(game, holding_capacity(game, ship), units)


def _fit(game: Game, cap: dict[str, int], units: list[str]) -> bool:
    """:func:`fits_aboard` for a holding box of capacity ``cap``."""
    air = [u for u in units if game.category(u) == "air"]
    land = [u for u in units if game.category(u) == "ground"]
    if any(not game.unit(u).has("cv") for u in air) or len(land) > cap["land"]:
        return False
    vstol = [u for u in air if game.unit(u).has("vstol")]
    rest = len(air) - min(len(vstol), cap["vstol"])
    return rest <= cap["air"]


def overstacked_7_2(game: Game, state: GameState) -> list[tuple[str, str, list[str]]]:
    """(rule, place, excess units) for every place over its limit, each side apart [7.3]."""
    out: list[tuple[str, str, list[str]]] = []
    by_loc: dict[tuple[str, str], list[str]] = {}
    # in roster order, whatever order the position was read in (a position read back from
    # its JSON lists units sorted by id): the same excess on the referee's run and on
    # verify's replay (docs/interpretations.md, 7.2)
    rank = per_module(
        game.module, "sixth_fleet_2019.rank", lambda: {p: i for i, p in enumerate(game.roster)}
    )
    for uid in sorted(state.units, key=lambda x: (rank.get(x, len(rank)), x)):
        u = state.units[uid]
        if u.location is not None and u.side in SIDES:
            by_loc.setdefault((u.location, u.side), []).append(uid)
    for (loc, side), uids in sorted(by_loc.items()):
        if loc.startswith(HOLDING):
            ship = loc[len(HOLDING) :]
            if ship not in state.units or state.units[ship].location in (None, REFIT):
                out.append(("8.3.2", loc, uids))
                continue
            excess = holding_excess(game, ship, uids)
            if excess:
                out.append(("7.1.3", loc, excess))
            continue
        if game.zone_type(loc) == "box":
            continue
        ground = [u for u in uids if game.category(u) == "ground"]
        limit = game.param("small_island_ground")
        if game.zone_type(loc) == "small_island" and len(ground) > limit:
            out.append(("7.1.2", loc, ground[limit:]))
        air = [u for u in uids if game.category(u) == "air"]
        if air and (game.is_land(loc) or game.zone_type(loc) == "off_map"):
            cap = air_capacity_7_1_3(game, state, loc, side)
            if cap is not None and len(air) > cap:
                out.append(("7.1.3", loc, air[cap:]))
    return out


def holding_excess(game: Game, ship: str, uids: list[str]) -> list[str]:
    """The units of ``uids`` (in order) that do not fit the ship's holding box once the
    earlier ones are aboard [8.3.4], [2.0 errata]."""
    keep: list[str] = []
    cap = holding_capacity(game, ship)  # once, not once a unit
    for uid in uids:
        if _fit(game, cap, [*keep, uid]):
            keep.append(uid)
    return [u for u in uids if u not in keep]
