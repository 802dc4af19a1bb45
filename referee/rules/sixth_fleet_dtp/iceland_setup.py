"""[DTP 11.31 rules 1, 3, 4, 5] the Iceland set-up choices that depend on one another.

Rule 1, "up to 6 Soviet air units from Murmansk may be based there [Keflavik] instead": the
scenario fixes the Soviet land-based air in the Murmansk box; in a scenario where a bonus says
the Soviets hold a place from the start (``held_at_start``), the Soviet set-up file may write
``place UNIT HEX`` for up to :data:`KEFLAVIK_LIMIT` of its air units in an off-map box, HEX
being that place's hex (:func:`rebased_11_31_1`; DTP-63). Those orders never reach SPI's
check, which would refuse a unit the scenario already placed.

The scenario gives the players these placements as data (``scenarios/iceland.toml``): the
Kiev TF in a pool of the hexes within 3 of Keflavik [DTP 11.31 rule 3], the Saipan TF in a pool
of the west-edge hexes south of 0121 and the Charles F Adams DDs in a pool [DTP 11.31 rule 4],
each US CV a choice of its Denmark Strait hex or a hex near the west edge [DTP 11.31 rule 5].
SPI's set-up check (:func:`referee.rules.sixth_fleet_1975.setup.check_setup_11_1`, kept by
DTP [11.0]) checks each unit against its own list. What a list cannot say is checked here,
against the other choices of the same file:

* a TF starts as one stack: every unit of the rule 3 pool in one hex, every non-DD unit of the
  rule 4 pools in one hex [DTP-60];
* at least one Adams DD (a DD of a rule 4 pool) in the Saipan TF's hex; each other one with a
  US CV, the TF it was "taken from elsewhere" [DTP 11.31 rule 4][DTP-61];
* a CV choice citing rule 5 is at its first hex (its Denmark Strait place) or 2 to 4 hexes from
  the Saipan TF ("within 4 hexes ... but not adjacent"), and only one CV uses rule 5
  [DTP 11.31 rule 5][DTP-62].

The groups are found by the rule each pool or choice cites, so a scenario without them (Denmark
Strait, the Med) is unaffected.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.stacking import AIR_LIMIT
from referee.rules.sixth_fleet_dtp import north_atlantic, special_bases

RULE_1, RULE_3 = "DTP 11.31 rule 1", "DTP 11.31 rule 3"
RULE_4, RULE_5 = "DTP 11.31 rule 4", "DTP 11.31 rule 5"
KEFLAVIK_LIMIT = 6  # "up to 6 Soviet air units from Murmansk" [DTP 11.31 rule 1]


def held_hexes(game: Game) -> dict[str, str]:
    """Hex -> name of each place a victory bonus says the Soviets hold from the start
    (Iceland's Keflavik [DTP 11.31 rule 1]); empty in other scenarios."""
    out: dict[str, str] = {}
    for b in game.scenario.victory_bonuses:
        name = b.params.get("place")
        if b.params.get("held_at_start") is True and isinstance(name, str):
            h = north_atlantic.place_hex(game, name)
            if h is not None:
                out[h] = name
    return out


def rebased_11_31_1(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> tuple[dict[str, tuple[str, Order]], list[Order]]:
    """The ``place`` orders that base a unit of an off-map box at a place held from the
    start [DTP 11.31 rule 1] (unit -> (hex, order)), and the other orders, for SPI's check.
    Without such a place every order goes to SPI's check."""
    if not held_hexes(game):
        return {}, list(orders)
    boxes = special_bases.off_map_names(game.module)
    moved: dict[str, tuple[str, Order]] = {}
    rest: list[Order] = []
    for o in orders:
        u = o.units[0] if o.verb == "place" and o.units else None
        s = state.units.get(u or "")
        from_box = s is not None and s.side == side and s.box in boxes
        if u is not None and from_box and o.hexes and u not in moved and o.mode is None:
            moved[u] = (o.hexes[0], o)
            continue
        rest.append(o)
    return moved, rest


def check_rebased_11_31_1(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> list[Violation]:
    """Up to 6 air units from an off-map box, each to the held place's hex, within the air
    stacking limit there with the rest of the file [DTP 11.31 rule 1][9.41]."""
    moved, rest = rebased_11_31_1(game, state, side, orders)
    if not moved:
        return []
    held = held_hexes(game)
    probs: list[Violation] = []
    for u, (h, o) in moved.items():
        if not game.is_air(u):
            probs.append(
                Violation(
                    RULE_1,
                    f"{u} is not an air unit: only air units from "
                    f"{state.units[u].box} may be based at {'/'.join(held.values())} instead",
                    code="not-air",
                    word=u,
                    unit=u,
                ).at(o)
            )
        elif h not in held:
            name, hx = next(iter(held.items()))[::-1]
            probs.append(
                Violation(
                    RULE_1,
                    f"{u} starts at {state.units[u].box}, or instead at {name} ({hx}); not in {h}",
                    code="not-keflavik",
                    word=h,
                    unit=u,
                    hint=f"place {u} {hx}, or leave it out to start at {state.units[u].box}",
                ).at(o)
            )
    if len(moved) > KEFLAVIK_LIMIT:
        last = list(moved)[-1]
        probs.append(
            Violation(
                RULE_1,
                f"up to {KEFLAVIK_LIMIT} air units from {state.units[last].box} may be based "
                f"at {'/'.join(held.values())} instead; this file moves {len(moved)}",
                code="too-many-at-keflavik",
                word=last,
                unit=last,
                hint=f"leave {len(moved) - KEFLAVIK_LIMIT} of them at Murmansk",
            ).at(moved[last][1])
        )
    air: Counter[str] = Counter(
        s.location
        for s in state.units.values()
        if s.location and game.is_air(s.id) and s.side == side
    )
    for u, (h, _) in placements(rest).items():
        air[h] += 1 if game.is_air(u) else 0
    for u, (h, o) in moved.items():
        air[h] += 1
        if air[h] == AIR_LIMIT + 1:
            probs.append(
                Violation(
                    "9.41",
                    f"more than {AIR_LIMIT} air units in {h} with {u}",
                    code="air-stacking",
                    word=u,
                    unit=u,
                ).at(o)
            )
    return probs


def placements(orders: Sequence[Order]) -> dict[str, tuple[str, Order]]:
    """Unit -> (hex, order) for the ``place UNIT HEX`` orders of a set-up file (the first one
    of a unit: a second is SPI's ``placed-twice`` fault, reported there)."""
    out: dict[str, tuple[str, Order]] = {}
    for o in orders:
        if o.verb == "place" and o.mode not in ("cap", "box") and o.hexes and o.units:
            out.setdefault(o.units[0], (o.hexes[0], o))
    return out


def pool_units(game: Game, side: str, rule: str) -> list[str]:
    """The units of ``side``'s pools citing ``rule``, in source order."""
    return [u for p in game.scenario.pools if p.side == side and p.rule == rule for u in p.units]


def _one_stack(
    name: str, rule: str, units: list[str], at: dict[str, tuple[str, Order]]
) -> tuple[str | None, list[Violation]]:
    """The one hex ``units`` were placed in, or the problem that they are split [DTP-60]."""
    hexes = sorted({at[u][0] for u in units if u in at})
    first = next((at[u][0] for u in units if u in at), None)  # the TF's hex: its lead ship's
    if len(hexes) <= 1:
        return first, []
    where = ", ".join(f"{u} in {at[u][0]}" for u in units if u in at)
    last = next(u for u in reversed(units) if u in at)
    p = Violation(
        rule,
        f"the {name} starts as one stack: {where}",
        code="tf-split",
        word=at[last][0],
        unit=last,
        hint=f"place every unit of the {name} in the same hex",
    ).at(at[last][1])
    return first, [p]


def check_setup_11_31(
    game: Game, state: GameState, side: str, orders: Sequence[Order]
) -> list[Violation]:
    """The problems of ``side``'s set-up file with the Iceland choices [DTP 11.31 rules 3-5];
    none for a scenario whose pools and choices cite none of them."""
    at = placements(orders)
    probs: list[Violation] = []
    kiev = pool_units(game, side, RULE_3)
    if kiev:
        probs += _one_stack("Kiev TF", RULE_3, kiev, at)[1]
    r4 = pool_units(game, side, RULE_4)
    if not r4:
        return probs
    adams = [u for u in r4 if game.unit(u).type == "DD"]
    saipan_tf = [u for u in r4 if u not in adams]
    saipan, split = _one_stack("Saipan TF", RULE_4, saipan_tf, at)
    probs += split
    if saipan is None:
        return probs  # the units are unplaced: SPI's check says so [11.0]
    cv_hexes = {
        at[u][0] for u in at if game.unit(u).type == "CV" and game.unit(u).nationality == "US"
    }
    with_saipan = [u for u in adams if u in at and at[u][0] == saipan]
    if adams and not with_saipan:
        probs.append(
            Violation(
                RULE_4,
                f"the Saipan TF in {saipan} must be joined by a Charles F Adams DD "
                f"({' or '.join(adams)})",
                code="adams-dd-missing",
                word=saipan,
                hint=f"place {adams[0]} {saipan}",
            ).at(at[saipan_tf[0]][1] if saipan_tf[0] in at else None)
        )
    for u in adams:
        if u in at and u not in with_saipan and at[u][0] not in cv_hexes:
            probs.append(
                Violation(
                    RULE_4,
                    f"{u} in {at[u][0]} is neither with the Saipan TF ({saipan}) nor with a "
                    "US CV, the TF it was taken from [DTP-61]",
                    code="adams-dd-alone",
                    word=at[u][0],
                    unit=u,
                    hint=f"place {u} {saipan}, or in a US CV's hex",
                ).at(at[u][1])
            )
    probs += _cv_near_saipan_11_31_5(game, at, saipan)
    return probs


def _cv_near_saipan_11_31_5(
    game: Game, at: dict[str, tuple[str, Order]], saipan: str
) -> list[Violation]:
    """A rule 5 CV off its own first hex stands 2-4 hexes from the Saipan TF; one at most
    [DTP 11.31 rule 5][DTP-62]."""
    probs: list[Violation] = []
    near: list[str] = []
    own: dict[str, str] = {}
    for c in game.scenario.choices:
        if c.rule != RULE_5 or c.unit not in at or not c.hexes:
            continue
        h, o = at[c.unit]
        if h == c.hexes[0]:
            continue
        d = game.board.distance(h, saipan)
        if not 2 <= d <= 4:
            why = "adjacent to" if d <= 1 else f"{d} hexes from"
            probs.append(
                Violation(
                    RULE_5,
                    f"{c.unit} in {h} is {why} the Saipan TF ({saipan}): a CV TF starts "
                    "within 4 hexes of it but not adjacent (2 to 4 hexes), or in its own "
                    f"hex {c.hexes[0]}",
                    code="cv-tf-distance",
                    word=h,
                    unit=c.unit,
                    hint=f"place {c.unit} {c.hexes[0]}, or 2 to 4 hexes from {saipan}",
                ).at(o)
            )
            continue
        near.append(c.unit)
        own[c.unit] = c.hexes[0]
    if len(near) > 1:
        last = near[-1]
        probs.append(
            Violation(
                RULE_5,
                f"only one CV TF may start near the Saipan TF; {' and '.join(near)} both do",
                code="cv-tf-twice",
                word=at[last][0],
                unit=last,
                hint=f"place {last} {own[last]} (its own hex)",
            ).at(at[last][1])
        )
    return probs
