"""The scripted player's orders for Sixth Fleet (1975): simple, deterministic and always legal.

``RULESET.scripted_orders`` (used by :mod:`referee.engine.scripted`, for benchmarks and long
end-to-end tests) writes, for whatever step a position awaits, the orders text a plain but
lawful player would send:

* **set-up** [11.1][11.2]: each ``[[choice]]`` unit on its first hex; each pool's units dealt
  round-robin over the pool's hexes (every coded hex and airbase filled, 1-3 naval units per
  hex [7.0], at most the pool's limit of air units [9.41]); carrier air in its carrier's
  holding box [9.62B], where it moves with the carrier;
* **movement** [5.0]: a side that scores for cutting a coast off [13.12] keeps its
  ``PICKETS`` nearest naval units on (or heading for) the sea hex next to the most of that
  coast's hexes; every other naval unit goes to the reachable hex nearest to an enemy unit --
  for a side with area bonuses [13.11][13.13], an enemy unit inside those areas (none: it
  stays) -- (ties: the cheaper, then the lower hex id), within the stacking limit [7.0]; air
  units stay on their bases, and one that must return [9.22] flies to the nearest base it
  can reach;
* **combat** [8.0]: exactly the mandatory attacks -- from every hex in an enemy zone of
  control, its best legal attack by differential [8.21]; when a hex has none, its units
  retreat [8.24] to their first legal hex; the further file that may attack units which
  advanced after those retreats [8.5.4] is empty (such an attack is never mandatory), which
  ends the phase;
* **reinforcements** [12.2]: carriers first, each unit on its first legal hex, carrier air in
  the holding box of its carrier;
* **answers**: the first option of the pending decision.

Every move and attack comes from the rules' own legal-option functions (``reachable``,
``best_attacks_from``, ``retreat_hexes_8_71``, ``entry_hexes_12_2``: what ``referee options``
shows), so the orders are legal by construction. The functions here compute; no I/O.
"""

from __future__ import annotations

from collections import Counter

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16, carrier_here_9_62
from referee.rules.sixth_fleet_1975.attack_advanced import followup_8_5_4
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import (
    best_attacks_from,
    must_retreat_8_24,
    obligated_hexes_8_21,
)
from referee.rules.sixth_fleet_1975.movement import reachable
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.reinforcement import due_12_2, entry_hexes_12_2
from referee.rules.sixth_fleet_1975.retreat import displacement_hexes_8_71, retreat_hexes_8_71
from referee.rules.sixth_fleet_1975.setup import setup_pools
from referee.rules.sixth_fleet_1975.stacking import AIR_LIMIT, NAVAL_LIMIT, counts
from referee.rules.sixth_fleet_1975.victory import coast_13_12
from referee.source.model import Module

SECTION = {
    seq.SETUP: "setup",
    seq.MOVEMENT: "movement",
    seq.COMBAT: "combat",
    seq.REINFORCEMENT: "reinforcement",
}


# ---- the orders for one step ----------------------------------------------------------------


def header(state: GameState, side: str) -> str:
    return f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n"


def orders_for(module: Module, state: GameState, rs: Ruleset) -> str | None:
    """The orders text for the step ``state`` awaits; ``None`` when the game is over."""
    side, _what = rs.awaiting(module, state)
    if not side:
        return None
    if state.pending:
        pd = state.pending[0]
        return header(state, pd.side) + f"[answer]\nanswer {pd.id} {pd.options[0]}\n"
    game = Game.of(module, state)
    if state.phase == seq.SETUP:
        body = setup_orders(game, state, side)
    elif state.phase == seq.MOVEMENT:
        body = movement_orders(game, state, side)
    elif state.phase == seq.COMBAT:
        body = combat_orders(game, state, side)
    elif state.phase == seq.REINFORCEMENT:
        body = reinforcement_orders(game, state, side)
    else:
        return None
    lines = [f"[{SECTION[state.phase]}]", *body]
    return header(state, side) + "\n".join(lines) + "\n"


def setup_orders(game: Game, state: GameState, side: str) -> list[str]:
    """Choices on their first hex; pools dealt round-robin within their limits [11.0]."""
    todo = {u.id for u in state.units.values() if u.side == side and u.box == "unplaced"}
    lines: list[str] = []
    naval: Counter[str] = Counter()
    air: Counter[str] = Counter()
    for u in state.units.values():
        if u.side == side and u.location is not None:
            (air if game.is_air(u.id) else naval)[u.location] += 1
    for c in game.scenario.choices:
        if c.unit in todo:
            lines.append(f"place {c.unit} {c.hexes[0]}")
            naval[c.hexes[0]] += 0 if game.is_air(c.unit) else 1
            todo.discard(c.unit)
    for pool in setup_pools(game, state):  # the scenario's, plus 14.3's when it is on
        units = [u for u in pool.units if u in todo]
        if not units:
            continue
        if pool.where == "carrier":
            lines += [f"place {u} box {pool.carrier}" for u in units]
            todo.difference_update(units)
            continue
        hexes = list(pool.hexes)
        per_pool: Counter[str] = Counter()
        cap = pool.per_hex_max if pool.per_hex_max is not None else AIR_LIMIT
        for i, u in enumerate(units):
            is_air = game.is_air(u)
            box, limit = (air, AIR_LIMIT) if is_air else (naval, NAVAL_LIMIT)
            for k in range(len(hexes)):
                h = hexes[(i + k) % len(hexes)]
                if per_pool[h] < cap and box[h] < limit:
                    per_pool[h] += 1
                    box[h] += 1
                    lines.append(f"place {u} {h}")
                    todo.discard(u)
                    break
    return lines


def distance_to_nearest(game: Game, sources: list[str]) -> dict[str, int]:
    """Hex -> hexes to the nearest of ``sources`` (a breadth-first search over the whole map
    from all of them at once: one pass instead of a distance per hex and enemy)."""
    dist = {h: 0 for h in sources}
    frontier = list(sources)
    while frontier:
        nxt: list[str] = []
        for h in frontier:
            for n in game.board.neighbours(h):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def _is_base(game: Game, state: GameState, unit: str, hex_id: str) -> bool:
    return (
        airbase_usable_9_16(game, state, unit, hex_id)
        or carrier_here_9_62(game, state, unit, hex_id) is not None
    )


def objective_areas_13_1(game: Game, side: str) -> set[str]:
    """The areas ``side`` scores for keeping clear of enemy units [13.11][13.13]."""
    return {
        str(b.params["area"])
        for b in game.scenario.victory_bonuses
        if b.side == side
        and b.condition in ("no_enemy_in_area", "no_enemy_naval_in_area")
        and b.params.get("area")
    }


PICKETS = 2
"""Naval units the scripted player keeps on its [13.12] picket hex (the stacking limit is 3)."""


def picket_hexes_13_12(game: Game, side: str) -> list[str]:
    """Where ``side``'s naval units stand to earn a [13.12] bonus of its own: the sea hexes
    next to the most coastal hexes the line of communications would start from (a unit there
    controls them all, and a controlled starting hex cuts the line -- docs/interpretations.md
    [13.12]); best first, ties by hex id. Empty when ``side`` has no such bonus."""
    out: list[str] = []
    for b in game.scenario.victory_bonuses:
        if b.side != side or b.condition != "israel_cut_off":
            continue
        starts = set(coast_13_12(game, b))
        cover: Counter[str] = Counter()
        for h in starts:
            for n in game.board.neighbours(h):
                if game.board.terrain(n) in ("high_seas", "restricted") and n not in starts:
                    cover[n] += 1
        out += [h for h, _ in sorted(cover.items(), key=lambda hc: (-hc[1], hc[0]))]
    return out


def pickets(game: Game, state: GameState, side: str) -> dict[str, str]:
    """Naval unit -> the picket hex it holds or heads for [13.12]: the nearest naval unit
    (by hexes, ties by id) to the best picket hex, ``PICKETS`` of them (a lone picket is
    soon sunk), so that the rest keep fighting."""
    hexes = picket_hexes_13_12(game, side)[:1]
    if not hexes:
        return {}
    dist = distance_to_nearest(game, hexes)
    naval = sorted(
        (dist.get(u.location, 1_000_000), u.id)
        for u in state.units.values()
        if u.side == side and u.location is not None and not game.is_air(u.id)
    )
    return {uid: hexes[0] for _, uid in naval[:PICKETS]}


def movement_orders(game: Game, state: GameState, side: str) -> list[str]:
    """Naval units toward the nearest enemy, except a picket that holds the hex earning its
    side's [13.12] bonus; returning air units to the nearest base."""
    enemy_hexes = sorted(
        {u.location for u in state.units.values() if u.side != side and u.location is not None}
    )
    wanted = objective_areas_13_1(game, side)
    if wanted:  # a side with area bonuses hunts the enemy units that deny them [13.11][13.13]
        inside = {h for a in sorted(wanted) for h in game.board.locations_in_area(a)}
        enemy_hexes = [h for h in enemy_hexes if h in inside]
    far = 1_000_000  # no enemy on the map: nothing to move toward
    dist = distance_to_nearest(game, enemy_hexes)
    posts = pickets(game, state, side)
    post_dist = {h: distance_to_nearest(game, [h]) for h in set(posts.values())}
    naval: Counter[str] = Counter()
    air: Counter[str] = Counter()
    for h in state.stacks:
        naval[h], air[h] = counts(game, state, h, side)
    lines: list[str] = []
    mine = sorted(u.id for u in state.units.values() if u.side == side and u.location is not None)
    for uid in mine:
        here = state.units[uid].location
        assert here is not None
        is_air = game.is_air(uid)
        if is_air and "returning" not in state.units[uid].status:
            continue  # based air stays where it is
        reach = reachable(game, state, uid)
        box, limit = (air, AIR_LIMIT) if is_air else (naval, NAVAL_LIMIT)
        cands = [r for h, r in reach.items() if h != here and r.may_end and box[h] < limit]
        if is_air:  # the nearest base it can use [9.22]
            cands = [r for r in cands if _is_base(game, state, uid, r.hex)]
            ranked = sorted(cands, key=lambda r: (r.cost, r.hex))
        elif uid in posts:  # the picket: toward its post, and stay there [13.12]
            d = post_dist[posts[uid]]
            now = d.get(here, far)
            cands = [r for r in cands if d.get(r.hex, far) < now]
            ranked = sorted(cands, key=lambda r: (d.get(r.hex, far), r.cost, r.hex))
        else:  # closer to the nearest enemy unit, then cheaper
            now = dist.get(here, far)
            cands = [r for r in cands if dist.get(r.hex, far) < now]
            ranked = sorted(cands, key=lambda r: (dist.get(r.hex, far), r.cost, r.hex))
        if not ranked:
            continue
        best = ranked[0]
        box[here] -= 1
        box[best.hex] += 1
        lines.append(f"move {uid} {' '.join(best.path[1:])}")
    return lines


def combat_orders(game: Game, state: GameState, side: str) -> list[str]:
    """Exactly the mandatory attacks [8.21], and the retreats of hexes that have none [8.24].

    A further file after the 8.24 retreats may attack only the units that advanced [8.5.4];
    no such attack is mandatory (an advance creates no new obligation, docs/interpretations.md
    [8.5.4]), so this player writes it empty, which ends the phase. Writing the mandatory
    attacks again there would be refused [8.5.4]."""
    if followup_8_5_4(state):
        return []
    lines: list[str] = []
    used: set[str] = set()
    for h in obligated_hexes_8_21(game, state, side):
        best = [b for b in best_attacks_from(game, state, side, h) if not set(b.attackers) & used]
        if best:
            b = best[0]
            lines.append(f"attack {' '.join(b.attackers)} -> {' '.join(b.targets)}")
            used.update(b.attackers)
            continue
        if best_attacks_from(game, state, side, h):
            continue  # its attackers are busy elsewhere: the obligation goes unmet [8.21]
        for u in must_retreat_8_24(game, state, side, h):
            opts = retreat_hexes_8_71(game, state, u) or displacement_hexes_8_71(game, state, u)
            if len(opts) > 1:
                lines.append(f"retreat {u} -> {opts[0]}")
    return lines


def reinforcement_orders(game: Game, state: GameState, side: str) -> list[str]:
    """Carriers first, then every unit on its first legal hex; carrier air boxed [12.2]."""
    due = sorted(due_12_2(game, state, side), key=lambda ur: (game.unit(ur[0]).type != "CV", ur[0]))
    lines: list[str] = []
    for u, r in due:
        ud = game.unit(u)
        if ud.has("carrier") and r.entry != "airbases":
            cvs = [
                x
                for x, _ in due
                if game.unit(x).type == "CV"
                and game.unit(x).nationality == ud.nationality
                and state.units[x].location is not None
            ]
            if cvs:
                lines.append(f"place {u} box {cvs[0]}")
                continue
        hexes = entry_hexes_12_2(game, state, u, r)
        if hexes:
            lines.append(f"place {u} {hexes[0]}")
            state = move_piece(game, state, u, hexes[0])
    return lines
