"""Forces and movement [8.0]-[8.4.1], with the zone rules of [2.1.2] and [3.3.1].

A force is the units of one action: they start in the same zone [8.1], [2.12], stay together
and move at the speed of the slowest [8.1]. Each zone entered must be adjacent to the last,
across a vertex too [8.0]; an island covering a whole boundary keeps the two sea zones from
touching (the map's geometry) [8.0]. Every check returns a list of :class:`Violation` (rule,
message, the word at fault); the carry-out functions sit next to their checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.core import GameState, UnitState, Violation
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.sixth_fleet_2019.actions import nationality_problem_6_6
from referee.rules.sixth_fleet_2019.control import may_base, straits_problem_3_3_1
from referee.rules.sixth_fleet_2019.facts import facts_of
from referee.rules.sixth_fleet_2019.game import (
    HOLDING,
    NEUTRAL,
    Game,
    aboard,
    zone_of,
)
from referee.rules.sixth_fleet_2019.stacking import air_capacity_7_1_3, fits_aboard

# ---- names ------------------------------------------------------------------------------------


def resolve_zone(game: Game, order: Order, written: str) -> tuple[str | None, Violation | None]:
    """A written zone name as the board spells it, or the problem with the nearest names."""
    name, hint = match_name(written, game.board.zones())
    if name is None:
        hint = hint or 'name a zone as the map spells it; quote a name with spaces ("Aegean Sea")'
        return None, Violation(
            "8.0", f"unknown zone {written!r}", word=written, hint=hint, code="unknown-zone"
        ).at(order)
    return name, None


def target_hint(state: GameState, written: str) -> str:
    """The hint for a target that is no unit of the game: the nearest unit ids, or what a
    target may be [9.0]."""
    return match_name(written, state.units)[1] or "name enemy units in the zone, or `base`"


# ---- the force [8.1], [6.6], [2.11] -------------------------------------------------------------


def force_problems(game: Game, state: GameState, side: str, order: Order) -> list[Violation]:
    """A force: known units of the acting side, on the map, all starting in one zone [8.1],
    of one nationality [6.6], none that already landed away from its base this phase
    [8.3.2], none that can never move or act (markers, strike units, neutrals) [2.11]."""
    out: list[Violation] = []
    zones = set()
    for uid in order.units:
        if uid not in state.units:
            hint = match_name(uid, state.units)[1]
            out.append(
                Violation("8.1", f"no unit {uid!r} in this game", word=uid, hint=hint).at(order)
            )
            continue
        u = state.units[uid]
        if u.side == NEUTRAL:
            out.append(
                Violation(
                    "2.11",
                    f"{uid} is neutral: neutral units join a side only by an event",
                    word=uid,
                    unit=uid,
                ).at(order)
            )
            continue
        if u.side != side:
            out.append(
                Violation("2.11", f"{uid} is not a {side} unit", word=uid, unit=uid).at(order)
            )
            continue
        if game.category(uid) in ("marker", "strike"):
            out.append(
                Violation(
                    "2.9",
                    f"{uid} is a marker or strike unit: it does not move as a force (17.0 is "
                    "not in the seed)",
                    word=uid,
                    unit=uid,
                ).at(order)
            )
            continue
        z = zone_of(game, state, uid)
        if z is None:
            out.append(
                Violation(
                    "8.1", f"{uid} is not on the map ({u.location or u.box})", word=uid, unit=uid
                ).at(order)
            )
            continue
        if "landed_elsewhere" in u.status:
            out.append(
                Violation(
                    "8.3.2",
                    f"{uid} landed away from its base this phase and takes no further action",
                    word=uid,
                    unit=uid,
                ).at(order)
            )
        zones.add(z)
    if len(set(order.units)) != len(order.units):
        out.append(Violation("8.1", "a unit is listed twice in the force").at(order))
    if len(zones) > 1:
        out.append(
            Violation(
                "8.1",
                "all units of a force must start the action in the same zone ("
                + ", ".join(sorted(zones))
                + ")",
            ).at(order)
        )
    if not out:
        msg = nationality_problem_6_6(game, state, list(order.units))
        if msg:
            out.append(
                Violation(
                    "6.6",
                    msg,
                    code="mixed-nationalities",
                    hint="NATO may combine nationalities while Naples has a functional NATO "
                    "base, after turn 1 (6.2); ACE units join any NATO force (8.2)",
                ).at(order)
            )
    return out


def force_kind(game: Game, units: tuple[str, ...]) -> str | None:
    kinds = {game.kind(u) for u in units}
    return kinds.pop() if len(kinds) == 1 else None


def slowest(game: Game, units: tuple[str, ...]) -> int | None:
    """The force moves at its slowest unit's rate [8.1]; ``None`` is unlimited [8.3.1]."""
    rates = [r for r in (game.ma(u) for u in units) if r is not None]
    return min(rates) if rates else None


# ---- one step ---------------------------------------------------------------------------------


def entry_problem(
    game: Game,
    state: GameState,
    side: str,
    kind: str,
    zone: str,
    *,
    last: bool,
    mission: bool = False,
) -> tuple[str, str] | None:
    """(rule, why) when a ``kind`` force may not enter ``zone``; ``last`` when it ends there."""
    if game.zone_type(zone) in ("no_entry", "box"):
        return "2.1.2", f"{zone} is a No Entry area: no unit of either side may enter it"
    if kind == "naval":
        return _naval_entry(game, state, side, zone, last=last)
    if kind == "ground":
        return _ground_entry(game, state, zone)
    return _air_entry(game, state, side, zone, last=last, mission=mission)


def _naval_entry(
    game: Game, state: GameState, side: str, zone: str, *, last: bool
) -> tuple[str, str] | None:
    """Sea zones (the Turkish Straits while the side controls Istanbul [3.3.1]), the side's
    own off-map base, and a naval base it may use at the end of the move [8.4.1]."""
    ztype = game.zone_type(zone)
    if ztype == "sea":
        msg = straits_problem_3_3_1(game, state, side) if zone == "Turkish Straits" else None
        return ("3.3.1", msg) if msg else None
    if ztype == "off_map":
        if game.prop(zone, "side") == side:
            return None
        return "8.4", f"{zone} is the other side's off-map base"
    if last and game.prop(zone, "base") == "naval" and may_base(game, state, zone, side):
        return None
    return (
        "8.4",
        f"naval units may not enter the land zone {zone} (only sea zones, off-map bases "
        "and their side's naval bases [8.4.1])",
    )


def _ground_entry(game: Game, state: GameState, zone: str) -> tuple[str, str] | None:
    """Land zones with a base, never the sea [7.1.2], never a neutral country not brought
    in by an event [2.1.2]."""
    ztype = game.zone_type(zone)
    if ztype in ("sea", "off_map"):
        return (
            "7.1.2",
            f"ground units cross the sea zone {zone} only by amphibious or airborne "
            "movement (8.5.1, 8.6)",
        )
    if ztype == "neutral" and game.prop(zone, "nationality") not in facts_of(state).joined:
        return (
            "2.1.2",
            f"{zone} is neutral: not affiliated with either side unless brought in by an event",
        )
    if not game.has_base(zone):
        return (
            "2.1.2",
            f"{zone} has no base: only air units flying a mission to a zone with a base "
            "may enter it",
        )
    return None


def _air_entry(
    game: Game, state: GameState, side: str, zone: str, *, last: bool, mission: bool
) -> tuple[str, str] | None:
    """Never the other side's off-map base [8.3]; the end of a move (not a mission) on a
    friendly base [8.3] the side may use [8.3.3]."""
    ztype = game.zone_type(zone)
    if ztype == "off_map" and game.prop(zone, "side") != side:
        return "8.3", f"{zone} is the other side's off-map base"
    if last and not mission:
        if not (game.is_land(zone) or ztype == "off_map"):
            return (
                "8.3",
                f"air units must end an action on a friendly base, not in {zone} (patrol, "
                "15.2, is not in the seed)",
            )
        if not may_base(game, state, zone, side):
            return "8.3.3", f"{zone} has no functional base {side} may use"
    return None


# ---- move: one force along a path ---------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    units: tuple[str, ...]
    start: str
    path: tuple[str, ...]  # zones entered, in order
    box: str | None  # a holding box the force ends in (air onto a carrier, ground aboard)


def check_move(
    game: Game, state: GameState, side: str, order: Order
) -> tuple[list[Violation], Move | None]:
    """A force's move along its written path: the force [8.1], its kind of movement, the
    zones it names [8.0], its rate and each zone it enters [8.0]-[8.4.1], and where it ends
    (a holding box [8.3.4], a base's air capacity [7.1.3], a small island [7.1.2]). The
    first problem found, as a list, or the move to carry out."""
    out = force_problems(game, state, side, order)
    if out:
        return out, None
    kind = force_kind(game, order.units)
    bad = _kind_problem(game, state, order, kind)
    if bad or kind is None:
        return [bad] if bad else [], None
    start = zone_of(game, state, order.units[0])
    assert start is not None
    path = _written_path(game, order, start)
    if isinstance(path, Violation):
        return [path], None
    zones, box = path
    bad = _rate_problem(game, order, kind, zones) or _path_problem(
        game, state, side, order, kind, start, zones, box
    )
    if bad is None:
        bad = _end_problem(game, state, side, order, kind, zones[-1] if zones else start, box)
    if bad:
        return [bad], None
    return [], Move(tuple(order.units), start, tuple(zones), box)


def _kind_problem(game: Game, state: GameState, order: Order, kind: str | None) -> Violation | None:
    """One kind of movement per force [8.1]; ground units aboard leave by amphibious assault
    [7.1.2]; static ground units never move [2.8.2]."""
    if kind is None:
        return Violation(
            "8.1", "a force moves by one kind of movement: naval, air or ground units, not a mix"
        ).at(order)
    if kind != "ground":
        return None
    if any(state.units[u].location.startswith(HOLDING) for u in order.units):  # type: ignore[union-attr]
        return Violation(
            "7.1.2", "ground units aboard a ship leave it by amphibious assault (`land`)"
        ).at(order)
    frozen = [u for u in order.units if game.ma(u) == 0]
    if frozen:
        return Violation(
            "2.8.2",
            f"{frozen[0]} has a printed movement allowance of 0: it may not move once placed",
            word=frozen[0],
            unit=frozen[0],
        ).at(order)
    return None


def _written_path(game: Game, order: Order, start: str) -> tuple[list[str], str | None] | Violation:
    """The zones the order names, the start left out, and a holding box it ends in [8.0]."""
    words = list(order.locations)
    zones: list[str] = []
    box = None
    for i, w in enumerate(words):
        z, bad = resolve_zone(game, order, w)
        if bad:
            return bad
        assert z is not None
        if z.startswith(HOLDING) and i == len(words) - 1:
            box = z
            continue
        zones.append(z)
    if zones and zones[0] == start:
        zones = zones[1:]
    if not zones and box is None:
        return Violation(
            "8.0",
            "the path enters no zone",
            hint="after `->` name the zones the force enters, each adjacent to the last",
        ).at(order)
    return zones, box


def _rate_problem(game: Game, order: Order, kind: str, zones: list[str]) -> Violation | None:
    """No more zones than the slowest unit's rate [8.1] (naval [8.4], air [8.3.1])."""
    rate = slowest(game, order.units)
    if kind == "ground":
        rate = None if rate is None else rate * game.param("ground_ma_zones")
    if rate is None or len(zones) <= rate:
        return None
    return Violation(
        {"naval": "8.4", "air": "8.3.1", "ground": "8.1"}[kind],
        f"the force enters {len(zones)} zones; its slowest unit allows {rate}",
        hint="a force moves at the rate of its slowest unit (8.1)",
    ).at(order)


def _path_problem(
    game: Game,
    state: GameState,
    side: str,
    order: Order,
    kind: str,
    start: str,
    zones: list[str],
    box: str | None,
) -> Violation | None:
    """Each zone entered adjacent to the last [8.0], open to the force [2.1.2]-[8.4.1]; a
    naval force stops where enemy units patrol [8.4]."""
    prev = start
    for i, z in enumerate(zones):
        w = _word_for(order, z)
        if not game.board.adjacent(prev, z) or game.board.boundary_blocked(prev, z, kind):
            return Violation(
                "8.0",
                f"{z} is not adjacent to {prev}",
                word=w,
                hint="each zone entered must be adjacent to the last (a shared border or "
                "vertex); an island covering the whole boundary separates two sea zones",
            ).at(order)
        final = i == len(zones) - 1
        mission = kind == "air" and box is not None
        bad_entry = entry_problem(
            game, state, side, kind, z, last=final and (box is None or mission), mission=mission
        )
        if bad_entry:
            return Violation(bad_entry[0], bad_entry[1], word=w).at(order)
        if kind == "naval" and not final:
            enemy_patrol = stoppers_8_4(game, state, side, z)
            if enemy_patrol:
                return Violation(
                    "8.4",
                    f"the force must stop in {z}: enemy units on patrol there "
                    f"({', '.join(enemy_patrol)})",
                    word=w,
                ).at(order)
        prev = z
    return None


def _end_problem(
    game: Game,
    state: GameState,
    side: str,
    order: Order,
    kind: str,
    end: str,
    box: str | None,
) -> Violation | None:
    """Where the force ends: a friendly ship's holding box with room [8.3.4], [7.1.2]; a base
    within its air capacity [7.1.3]; a small island's ground stacking limit [7.1.2]."""
    if box is not None:
        return _box_problem(game, state, side, order, kind, end, box)
    if kind == "air":
        cap = air_capacity_7_1_3(game, state, end, side)
        here = own_here(game, state, side, end, "air")
        if cap is not None and here + len(order.units) > cap:
            return Violation(
                "7.1.3",
                f"the base at {end} holds {cap} {side} air units; {here} are there",
                word=_word_for(order, end),
            ).at(order)
    elif kind == "ground" and game.zone_type(end) == "small_island":
        limit = game.param("small_island_ground")
        if own_here(game, state, side, end, "ground") + len(order.units) > limit:
            return Violation(
                "7.1.2",
                f"only {limit} {side} ground units may stack on {end}",
                word=_word_for(order, end),
            ).at(order)
    return None


def own_here(game: Game, state: GameState, side: str, zone: str, category: str) -> int:
    """How many of ``side``'s units of ``category`` are in ``zone``."""
    return sum(
        1
        for u, s in state.units.items()
        if s.location == zone and s.side == side and game.category(u) == category
    )


def _box_problem(
    game: Game, state: GameState, side: str, order: Order, kind: str, end: str, box: str
) -> Violation | None:
    """A holding box: a ship of the moving side in the zone the force ends in, with room
    for it (CV-capable air [2.7], within the printed capacity) [8.3.4], [7.1.2]."""
    ship = box[len(HOLDING) :]
    if (
        ship not in state.units
        or zone_of(game, state, ship) != end
        or state.units[ship].side != side
    ):
        return Violation(
            "8.3.4", f"{box}: the ship is not a {side} ship in {end}", word=_word_for(order, box)
        ).at(order)
    if not fits_aboard(game, ship, [*aboard(state, ship), *order.units]):
        return Violation(
            "8.3.4" if kind == "air" else "7.1.2",
            f"{ship}'s holding box has no room for the force (only CV-capable air "
            "[2.7], within the printed capacity)",
            word=_word_for(order, box),
        ).at(order)
    return None


def carry_out_move(state: GameState, mv: Move) -> GameState:
    dest = mv.box or (mv.path[-1] if mv.path else mv.start)
    for uid in mv.units:
        u = state.units[uid]
        state = state.with_unit(UnitState(uid, u.side, dest, None, u.status))
    return state


def _word_for(order: Order, zone: str) -> str | None:
    for w in order.locations:
        if w == zone or " ".join(w.split()).casefold() == zone.casefold():
            return w
    return None


# ---- distances for missions [8.3.1] ---------------------------------------------------------


def air_distance(game: Game, a: str, b: str) -> int | None:
    """Zones entered flying from ``a`` to ``b``: the start is not counted [8.3.1]; No Entry
    areas are never entered [2.1.2]."""
    d = game.board.distance(a, b, "air")
    return None if d >= 10**6 else d


def naval_distance(game: Game, state: GameState, side: str, a: str, b: str) -> int | None:
    """Zones a naval force enters on its shortest lawful way from ``a`` to ``b``: through sea
    zones and its own off-map base, the Turkish Straits only while its side controls
    Istanbul [3.3.1], a naval base only at the end [8.4.1], never on past a zone with enemy
    naval units on patrol [8.4]; ``None`` when there is no way."""
    if a == b:
        return 0
    seen = {a: 0}
    frontier = [a]
    while frontier:
        nxt: list[str] = []
        for z in frontier:
            if z != a and stoppers_8_4(game, state, side, z):
                continue
            for n in sorted(game.board.neighbours(z)):
                if n in seen or game.board.boundary_blocked(z, n, "naval"):
                    continue
                if n == b:
                    ok = entry_problem(game, state, side, "naval", n, last=True) is None
                    return seen[z] + 1 if ok else None
                if entry_problem(game, state, side, "naval", n, last=False) is None:
                    seen[n] = seen[z] + 1
                    nxt.append(n)
        frontier = nxt
    return None


def stoppers_8_4(game: Game, state: GameState, side: str, zone: str) -> list[str]:
    """The enemy units in ``zone`` that stop a naval force entering it [8.4]: naval units on
    patrol [15.2], and air units on patrol, which intercept it [15.1] (provisional: 15.0 is
    not in the seed; a unit is on patrol from its `patrol` action until it acts again)."""
    return sorted(
        u
        for u in facts_of(state).patrol
        if u in state.units
        and state.units[u].side not in (side, NEUTRAL)
        and state.units[u].location == zone
        and (game.is_naval(u) or game.category(u) == "air")
    )
