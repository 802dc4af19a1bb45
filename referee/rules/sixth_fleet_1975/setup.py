"""Set-up [11.0]-[11.2]: checking a side's placements against the scenario's rules.

The scenario says, as data, which pieces are placed for the player (``[[fixed]]``, done by
``new_game``), which go in one of a few hexes (``[[choice]]``, e.g. the Soviet SN in 1902 or
1404 [11.2A]) and which are the player's choice under constraints (``[[pool]]``: naval units
in hexes coded with their nationality, 1 to 3 per coded hex, every coded hex filled [11.1];
air units on the airbases of their nation, 1 to 6 each [11.1][11.2]; carrier air on CAP or in
the carrier's holding box [11.1][11.2]). Optional rule 14.3 adds pools of its own: the Israeli,
Syrian and Egyptian air units on their country's airbases, 1 to 6 per base [14.3]
(:func:`middle_east.pools_14_3`).
"""

from __future__ import annotations

from collections import Counter

from referee.engine.core import Event, GameState, Violation
from referee.engine.driver import push_front
from referee.engine.orders import Order
from referee.engine.steps import Carry
from referee.rules.sixth_fleet_1975.air import HOLDING_BOX_LIMIT, box_contents
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.middle_east import pools_14_3
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12, terrain_case_10_1
from referee.rules.sixth_fleet_1975.position import move_piece, to_box
from referee.rules.sixth_fleet_1975.stacking import AIR_LIMIT, NAVAL_LIMIT, stack_order_7_42
from referee.source.model import ChoicePlacement, SetupPool


def _problem(
    rule: str,
    message: str,
    order: Order | None = None,
    word: str | None = None,
    hint: str | None = None,
    *,
    code: str,
) -> Violation:
    return Violation(rule, message, code=code, word=word, hint=hint).at(order)


def to_place_11_0(game: Game, state: GameState, side: str) -> list[str]:
    """The pieces ``side`` still has to place, sorted."""
    return sorted(u.id for u in state.units.values() if u.side == side and u.box == "unplaced")


def setup_pools(game: Game, state: GameState) -> tuple[SetupPool, ...]:
    """The scenario's pools [11.1][11.2] and, with optional rule 14.3, the Middle East air
    forces in play [14.3]."""
    return (*game.scenario.pools, *pools_14_3(game, state))


def pool_of(pools: tuple[SetupPool, ...], unit: str) -> SetupPool | None:
    for p in pools:
        if unit in p.units:
            return p
    return None


Placements = dict[str, tuple[str, str]]
"""unit -> (``hex``|``cap``|``box``, hex or carrier): what a side's ``place`` orders make."""


def check_setup_11_1(
    game: Game, state: GameState, side: str, orders: list[Order]
) -> tuple[list[Violation], Placements]:
    """Problems with a side's ``place`` orders, and the placements they make:
    unit -> (``hex``|``cap``|``box``, hex or carrier). The steps: the orders themselves
    [11.0], the units left unplaced [11.0], each placement [11.1][11.2][9.62], each pool's
    count per hex [11.1], stacking [7.0][9.41] and the holding boxes [9.62B]."""
    pools = setup_pools(game, state)
    todo = set(to_place_11_0(game, state, side))
    probs, placed = _placements_11_0(state, todo, orders)
    pos = _positions(state, placed)
    order_of = {o.units[0]: o for o in orders if o.verb == "place"}
    probs += _unplaced_11_0(game, pools, sorted(todo - set(placed)))
    choices = {c.unit: c for c in game.scenario.choices}
    for u, (kind, _) in sorted(placed.items()):
        o = order_of[u]
        pool = pool_of(pools, u)
        ch = choices.get(u)
        rule = (pool.rule if pool else ch.rule if ch else "") or "11.0"
        if kind == "hex":
            probs += _hex_placement_11_1(game, state, o, pool, ch, rule)
        else:
            probs += _carrier_placement_9_62(game, o, pool, rule, pos[u] is None and kind == "cap")
    for pool in pools:
        # a pool none of whose units is still to place is not part of this set-up
        if pool.side == side and pool.where != "carrier" and set(pool.units) & todo:
            probs += _pool_counts_11_1(game, pool, pos, todo - set(placed))
    probs += _stacking_7_0(game, state, side, placed, pos)
    probs += _holding_boxes_9_62b(state, placed)
    return probs, placed


def _placements_11_0(
    state: GameState, todo: set[str], orders: list[Order]
) -> tuple[list[Violation], Placements]:
    """The placements the orders make, and the orders that are no set-up order, place a unit
    that is not to be placed now, or place one twice [11.0]."""
    probs: list[Violation] = []
    placed: Placements = {}
    first: dict[str, Order] = {}
    for o in orders:
        if o.verb not in ("place", "stack"):
            probs.append(
                _problem("11.0", f"'{o.verb}' is not a set-up order", o, code="not-a-setup-order")
            )
            continue
        if o.verb == "stack":
            continue
        u = o.units[0]
        if u not in todo:
            why = (
                "is already placed by the scenario"
                if state.units[u].box != "unplaced"
                else ("is not part of the set-up")
            )
            probs.append(_problem("11.0", f"{u} {why}", o, u, code="not-to-place"))
            continue
        if u in placed:
            probs.append(
                _problem(
                    "11.0",
                    f"{u} is placed twice: expected one place order a unit, found a second "
                    f"(the first is on line {first[u].pos.line})",
                    o,
                    u,
                    hint=f"keep one of the two 'place {u}' lines",
                    code="placed-twice",
                )
            )
            continue
        first[u] = o
        if o.mode in ("cap", "box"):
            assert o.carrier is not None
            placed[u] = (o.mode, o.carrier)
        else:
            placed[u] = ("hex", o.hexes[0])
    return probs, placed


def _positions(state: GameState, placed: Placements) -> dict[str, str | None]:
    """Where each placed unit is on the map: its hex, its carrier's hex for CAP (the carrier
    already there or placed now), none in a holding box or over a carrier off the map."""
    pos: dict[str, str | None] = {}
    for u, (kind, where) in placed.items():
        if kind == "hex":
            pos[u] = where
    for u, (kind, cv) in placed.items():
        if kind != "hex":
            cvu = state.units.get(cv)
            pos[u] = (cvu.location if cvu and cvu.location else None) or (
                pos.get(cv) if kind == "cap" else None
            )
    return pos


def _hex_placement_11_1(
    game: Game,
    state: GameState,
    o: Order,
    pool: SetupPool | None,
    ch: ChoicePlacement | None,
    rule: str,
) -> list[Violation]:
    """A unit placed in a hex: terrain it may be in [10.11][10.12], its scenario choice of
    hexes [11.2] and its pool's hexes [11.1] (carrier air goes on CAP or in a box)."""
    u, where = o.units[0], o.hexes[0]
    if entry_cost_5_12(game, state, u, where) is None:
        cat = game.unit(u).category
        return [
            _problem(
                terrain_case_10_1(game, where),  # Prohibited [10.11], land [10.12]
                f"{u} ({cat}) may not be in {where}: expected a hex {cat} units may enter, "
                f"found {game.board.terrain_type(where).name}",
                o,
                where,
                hint=_allowed_hint(game, u, cat, pool, ch),
                code="terrain",
            )
        ]
    probs: list[Violation] = []
    if ch is not None and where not in ch.hexes:
        probs.append(
            _problem(
                rule, f"{u} must be set up in {' or '.join(ch.hexes)}", o, where, code="choice"
            )
        )
    if pool is not None and pool.where == "carrier":
        probs.append(
            _problem(
                rule,
                f"{u} starts on CAP or in the holding box of {pool.carrier}",
                o,
                where,
                hint=f"place {u} cap {pool.carrier}",
                code="carrier-pool",
            )
        )
    elif pool is not None and where not in pool.hexes:
        probs.append(
            _problem(
                rule,
                f"{u} may be set up only in {_hexes_text(game, pool)}",
                o,
                where,
                code="pool-hexes",
            )
        )
    return probs


def _carrier_placement_9_62(
    game: Game, o: Order, pool: SetupPool | None, rule: str, cap_off_map: bool
) -> list[Violation]:
    """A unit placed on CAP or in a holding box: a carrier [9.62], its own pool's carrier
    [11.1], of its nationality [9.62], on the map for CAP [9.62A]."""
    u = o.units[0]
    where = o.carrier
    assert where is not None
    cvd = game.pieces.get(where)
    if cvd is None or cvd.type != "CV":
        return [_problem("9.62", f"{where} is not a carrier", o, where, code="not-a-carrier")]
    probs: list[Violation] = []
    if pool is not None and pool.where == "carrier" and pool.carrier != where:
        probs.append(
            _problem(
                rule,
                f"{u} belongs to {pool.carrier}, not {where}",
                o,
                where,
                code="other-carrier",
            )
        )
    ud = game.unit(u)
    if not ud.has("carrier") or cvd.nationality != ud.nationality:
        probs.append(
            _problem(
                "9.62",
                f"{u} cannot use {where} (carrier air of its nationality only)",
                o,
                where,
                code="carrier-nationality",
            )
        )
    if cap_off_map:
        probs.append(
            _problem("9.62A", f"{where} is not on the map", o, where, code="carrier-off-map")
        )
    return probs


def _pool_counts_11_1(
    game: Game, pool: SetupPool, pos: dict[str, str | None], unplaced: set[str]
) -> list[Violation]:
    """A pool's units per set-up hex: every coded hex filled, 1 to 3 (or the pool's limits)
    [11.1]. ``unplaced``: the side's units still to place, for the hint."""
    probs: list[Violation] = []
    spare = sorted(set(pool.units) & unplaced)  # one a short hex, in order, for the hints
    cnt = Counter(pos[u] for u in pool.units if u in pos and pos[u] is not None)
    rule = pool.rule or "11.1"
    for h in pool.hexes:
        n = cnt.get(h, 0)
        low = max(pool.per_hex_min, 1) if pool.fill_all else pool.per_hex_min
        if pool.fill_all and n < low:
            probs.append(
                _problem(
                    rule,
                    f"set-up hex {h} must get at least {low} unit(s) of this pool "
                    f"({_hexes_text(game, pool)}); it has {n}",
                    hint=_fill_hint(spare[len(probs) :], h),
                    code="too-few",
                )
            )
        elif pool.per_hex_max is not None and n > pool.per_hex_max:
            probs.append(
                _problem(
                    rule,
                    f"hex {h} may get at most {pool.per_hex_max} unit(s) of this pool "
                    f"({_hexes_text(game, pool)}); it has {n}",
                    hint=f"set up {n - pool.per_hex_max} of them in another hex of this pool",
                    code="too-many",
                )
            )
        elif not pool.fill_all and 0 < n < pool.per_hex_min:
            probs.append(
                _problem(
                    rule,
                    f"hex {h} needs at least {pool.per_hex_min} unit(s) of this pool "
                    f"if used; it has {n}",
                    hint=_fill_hint(spare, h, "or leave the hex empty"),
                    code="too-few-if-used",
                )
            )
    return probs


def _stacking_7_0(
    game: Game, state: GameState, side: str, placed: Placements, pos: dict[str, str | None]
) -> list[Violation]:
    """Stacking with what is already there: naval units [7.0], air units [9.41]."""
    naval: Counter[str] = Counter()
    air: Counter[str] = Counter()
    for uid, us in state.units.items():
        if us.side == side and us.location is not None:
            (air if game.is_air(uid) else naval)[us.location] += 1
    for u, h in pos.items():
        if h is not None and placed[u][0] != "box":
            (air if game.is_air(u) else naval)[h] += 1
    probs = [
        _problem(
            "7.0",
            f"{naval[h]} naval units in {h}; the limit is {NAVAL_LIMIT}",
            code="naval-stacking",
        )
        for h in sorted(naval)
        if naval[h] > NAVAL_LIMIT
    ]
    probs += [
        _problem(
            "9.41", f"{air[h]} air units in {h}; the limit is {AIR_LIMIT}", code="air-stacking"
        )
        for h in sorted(air)
        if air[h] > AIR_LIMIT
    ]
    return probs


def _holding_boxes_9_62b(state: GameState, placed: Placements) -> list[Violation]:
    """A carrier's holding box holds at most :data:`HOLDING_BOX_LIMIT` air units [9.62B]."""
    boxes: Counter[str] = Counter()
    for kind, cv in placed.values():
        if kind == "box":
            boxes[cv] += 1
    probs: list[Violation] = []
    for cv, n in sorted(boxes.items()):
        total = n + len(box_contents(state, cv))
        if total > HOLDING_BOX_LIMIT:
            probs.append(
                _problem(
                    "9.62B",
                    f"{total} air units in the holding box of {cv}; "
                    f"the limit is {HOLDING_BOX_LIMIT}",
                    code="holding-box-full",
                )
            )
    return probs


SUMMARY_CODES = frozenset({"unplaced", "unplaced-14.3", "too-few"})
"""What a partial set-up still lacks: summarised one line a group, after the real errors."""

SHOWN_IDS = 8  # unit ids a summary line names before "and N more"


def _unplaced_11_0(game: Game, pools: tuple[SetupPool, ...], units: list[str]) -> list[Violation]:
    """The units still to place [11.0], one problem per set-up pool (optional rule 14.3's
    Israeli air units on their own line [14.3]), naming the first few of them."""
    groups: dict[int, list[str]] = {}
    for u in units:
        pool = pool_of(pools, u)
        groups.setdefault(pools.index(pool) if pool is not None else -1, []).append(u)
    out: list[Violation] = []
    for k, ids in sorted(groups.items()):
        pool = pools[k] if k >= 0 else None
        shown = ", ".join(ids[:SHOWN_IDS]) + (
            f" and {len(ids) - SHOWN_IDS} more" if len(ids) > SHOWN_IDS else ""
        )
        text = _hexes_text(game, pool) if pool is not None else ""
        on_cv = pool is not None and pool.where == "carrier" and pool.carrier
        where = (
            f" ({text})"
            if text
            else (f" (on {pool.carrier}: CAP or its holding box)" if on_cv else "")
        )
        if pool is not None and pool.rule == "14.3":
            out.append(
                _problem(
                    "14.3",
                    f"{len(ids)} unit(s) not placed yet: optional rule 14.3 sets them up on an "
                    f"airbase in {_country_names(game, pool)}: {shown}",
                    hint=f"add: place {ids[0]} HEX ({', '.join(pool.hexes)})",
                    code="unplaced-14.3",
                )
            )
            continue
        out.append(
            _problem(
                "11.0",
                f"{len(ids)} unit(s) not placed yet{where}: {shown}",
                hint=(
                    f"add a line `place UNIT cap {pool.carrier}` (or `box {pool.carrier}`) for "
                    f"each, e.g. place {ids[0]} cap {pool.carrier}"
                    if on_cv and pool is not None
                    else f"add a line `place UNIT HEX` for each, e.g. place {ids[0]} HEX"
                ),
                code="unplaced",
            )
        )
    return out


def _fill_hint(spare: list[str], hex_id: str, other: str = "") -> str:
    """What fills set-up hex ``hex_id`` [11.1]: a ready-to-paste ``place`` line for the first
    unit of the pool still to place, else moving one of the pool's units there."""
    first = f"add 'place {spare[0]} {hex_id}'" if spare else f"move a unit of this pool to {hex_id}"
    return f"{first}{', ' + other if other else ''}"


def _allowed_hint(
    game: Game, u: str, cat: str, pool: SetupPool | None, ch: ChoicePlacement | None
) -> str:
    """Where ``u`` may be set up instead: its scenario choice [11.2], its carrier [9.62], its
    pool's hexes [11.1], else any hex its category may enter [10.1]."""
    if ch is not None:
        return f"{u} may be set up in {' or '.join(ch.hexes)}"
    if pool is not None and pool.where == "carrier" and pool.carrier:
        return f"place {u} cap {pool.carrier}"
    if pool is not None and pool.hexes:
        return f"{u} may be set up in {_hexes_text(game, pool)}"
    return f"choose a hex {cat} units may enter"


def _hexes_text(game: Game, pool: SetupPool) -> str:
    if pool.where == "setup_code":
        shown = ", ".join(pool.hexes[:12]) + (
            f" and {len(pool.hexes) - 12} more" if len(pool.hexes) > 12 else ""
        )
        return f"hexes coded {pool.code}: {shown}"
    if pool.where == "airbase":
        inside = f" in {_country_names(game, pool)}" if pool.countries else ""
        nat = game.module.nationalities.get(pool.nationality or "")
        return f"{nat.name if nat else pool.nationality} airbases{inside} ({', '.join(pool.hexes)})"
    return ", ".join(pool.hexes)


def _country_names(game: Game, pool: SetupPool) -> str:
    names = []
    for code in pool.countries:
        c = game.module.map.countries.get(code)
        names.append(c.name if c is not None else code)
    return " or ".join(names)


def setup_11_0(game: Game, state: GameState, side: str, orders: tuple[Order, ...]) -> Carry:
    """A side's set-up, checked (:func:`check_setup_11_1`) and, when it is legal, carried out:
    the units placed (carrier air on CAP or in the holding box [11.1][9.62]), the carriers of
    the scenario's carrier pools recorded [9.62], then the ``stack`` orders [7.42]."""
    carry = Carry(state)
    probs, placed = check_setup_11_1(game, state, side, list(orders))
    carry.problems.extend(probs)
    if carry.problems:
        return carry
    st = state
    assigned = dict(facts_of(st).assigned or {})
    for pool in game.scenario.pools:
        if pool.where == "carrier" and pool.carrier:
            for u in pool.units:
                assigned[u] = pool.carrier
    for u, (kind, where) in sorted(placed.items(), key=lambda kv: kv[1][0] != "hex"):
        if kind == "hex":
            st = move_piece(game, st, u, where)
    for u, (kind, where) in sorted(placed.items()):
        if kind == "cap":
            loc = st.units[where].location
            assert loc is not None
            st = move_piece(game, st, u, loc)
        elif kind == "box":
            st = to_box(st, u, where)
    carry.state = SixthFleetFacts.put(st, assigned=assigned)
    for o in orders:
        if o.verb == "stack":
            stack_order_7_42(game, carry, side, o)
    carry.events.append(
        Event(
            "setup",
            "11.0",
            f"{side} set-up: {len(placed)} units placed",
            {"side": side, "placed": sorted(placed)},
        )
    )
    return carry


def check_setup(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...]
) -> list[Violation]:
    return setup_11_0(game, state, side, orders).problems


def carry_out_setup(
    game: Game, state: GameState, side: str, orders: tuple[Order, ...], events: list[Event]
) -> GameState:
    carry = setup_11_0(game, state, side, orders)
    events.extend(carry.events)
    return push_front(carry.state, [{"t": "end_phase"}])
