"""The Movement Phase: evacuation, loading, naval movement, the loss table, unloading
[26.1x]-[26.3x], [27.1x]-[27.2x], [28.1x]-[28.2x].

Every order is checked and carried out by the same code (``Work.dice`` is ``None`` while
validating). The loss table is resolved for each ship or Axis group after all ships have moved
[28.14d]; an Abort result is the owner's choice [27.32b] (from a ``abort`` order or standing
order, or a pending decision); unloading follows, then ships that moved into a friendly port
turn Sailed [26.31].
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Violation
from referee.engine.orders import Order
from referee.rules.naval_module import ports as P
from referee.rules.naval_module.context import aboard, enemy_of, place, set_ship
from referee.rules.naval_module.flotilla import cd_points_on_path, move_flotilla
from referee.rules.naval_module.losses import (
    apply_27_32,
    column_27_2,
    lookup_27_2,
    modifiers_27_2,
)
from referee.rules.naval_module.ranges import cd_doubling_30_24, cd_points_against
from referee.rules.naval_module.readings import readings_of
from referee.rules.naval_module.sequence import BY_ID
from referee.rules.naval_module.ships import READY, SAILED
from referee.rules.naval_module.sinking import damage_ship
from referee.rules.naval_module.transport import load_problems, points_28_13
from referee.rules.naval_module.work import Work

SOVIET = "Soviet"


# ---- ports ---------------------------------------------------------------------------------
def port_friendly(w: Work, port: str, side: str) -> bool:
    """A port is friendly while its side controls it and no enemy ground unit holds it."""
    control = w.facts.control.get(port)
    hex_id = w.game.hex_of(port)
    enemy = enemy_of(w.game, side)
    if hex_id and w.game.ground_at(w.state, hex_id, enemy):
        return False
    return control == side


def capacity_now(w: Work, port: str, side: str, *, loading: bool) -> P.Capacity:
    """This player turn's capacity of ``port`` for ``side`` [26.25]-[26.27], [28.23a]."""
    hex_id = w.game.hex_of(port) or ""
    enemy = enemy_of(w.game, side)
    if _enemy_adjacent(w, hex_id, enemy) and not w.game.ground_at(w.state, hex_id, side):
        return P.Capacity(0, (("26.27c", "enemy adjacent and no friendly ground unit", 0),))
    artillery = sum(p for _, p, _ in w.game.in_range(w.state, enemy, hex_id, ARTILLERY))
    base = any(
        int(w.facts.naval_bases.get(port, 0)) < w.state.turn
        for _ in naval_bases_at(w, hex_id, side)
    )  # [32.22]: from the turn after placement; one set up with the scenario counts at once
    evac = loading and port in w.facts.evacuation
    return P.port_capacity(
        w.game.module,
        port,
        interdiction_level=int(w.facts.interdiction.get(side, 0)),
        artillery_points=artillery,
        naval_base=base,
        evacuation_loading=evac,
    )


ARTILLERY = ("ART", "RRA", "SHA", "CD")


def naval_bases_at(w: Work, hex_id: str, side: str) -> list[str]:
    """The side's Naval Base units on a port's hex [32.2]."""
    return [u for u in w.game.ground_at(w.state, hex_id, side) if w.game.unit(u).type == "NB"]


def _enemy_adjacent(w: Work, hex_id: str, enemy: str) -> bool:
    if not hex_id:
        return False
    return any(w.game.ground_at(w.state, n, enemy) for n in w.game.hexes.neighbours(hex_id))


def _use_port(w: Work, port: str, points: int) -> None:
    used = dict(w.facts.port_used)
    used[port] = int(used.get(port, 0)) + points
    w.put(port_used=used)


def _port_left(w: Work, port: str, side: str, *, loading: bool) -> tuple[int, P.Capacity]:
    cap = capacity_now(w, port, side, loading=loading)
    used = int(w.facts.port_used.get(port, 0))
    return P.remaining_26_25(cap.value, used), cap


# ---- evacuation -----------------------------------------------------------------------------
def evacuate(w: Work, o: Order) -> None:
    port, hint = w.game.name_of(o.hexes[0])
    if port is None or port not in w.game.ports:
        w.refuse(Violation("28.21", f"{o.hexes[0]!r} is not a port", o.pos, hint=hint))
        return
    if not port_friendly(w, port, w.side):
        w.refuse(Violation("28.21", f"{port} is not a friendly port", o.pos))
        return
    evac = dict(w.facts.evacuation)
    evac[port] = w.side
    w.put(evacuation=evac)
    w.note(
        "evacuation",
        "28.22",
        f"Evacuation declared at {port}: loading doubled, no unloading, no General Supply [28.23]",
        port=port,
    )


# ---- loading --------------------------------------------------------------------------------
def load(w: Work, o: Order) -> None:
    g, st = w.game, w.state
    sid = o.carrier or ""
    if not _own_ship(w, sid, o):
        return
    s = g.ship(st, sid)
    where = st.units[sid].location
    if where not in g.ports:
        w.refuse(
            Violation(
                "28.14a", f"{sid} is not in a port: units load only in port", o.pos_of(sid), sid
            )
        )
        return
    if sid in w.facts.moved:
        w.refuse(
            Violation(
                "28.14a", f"{sid} has already moved: units load before it moves", o.pos_of(sid), sid
            )
        )
        return
    port_hex = g.hex_of(where)
    evacuating = where in w.facts.evacuation
    adding: list[tuple[str, Any]] = []
    for pid in o.units:
        u = st.units.get(pid)
        if u is None or u.side != w.side:
            w.refuse(Violation("28.12", f"{pid} is not a unit of yours", o.pos_of(pid), pid))
            continue
        if u.box and u.box.startswith("aboard:"):
            w.refuse(
                Violation(
                    "28.13c",
                    f"{pid} is already aboard {u.box[7:]}: a unit is carried whole by one ship",
                    o.pos_of(pid),
                    pid,
                    "naval units cannot combine to carry a unit",
                )
            )
            continue
        if pid in w.facts.do_not_move:
            w.refuse(Violation("28.24", f"{pid} has a Do Not Move marker", o.pos_of(pid), pid))
            continue
        if g.hex_of(u.location) != port_hex and not evacuating:
            w.refuse(
                Violation(
                    "28.14a",
                    f"{pid} is not in {where}: units and their ship begin together in port",
                    o.pos_of(pid),
                    pid,
                    "only at an Evacuation port may units come from elsewhere [28.23e]",
                )
            )
            continue
        adding.append((pid, g.unit(pid)))
    onboard = [g.unit(c) for c in g.cargo(st, sid)]
    for p in load_problems(s.unit.name, s.capacity, onboard, adding):
        w.refuse(p.at(o, p.unit))
        adding = [(a, d) for a, d in adding if a != p.unit]
    if not adding:
        return
    need = sum(points_28_13(d) for _, d in adding)
    left, cap = _port_left(w, where, w.side, loading=True)
    if need > left:
        w.refuse(
            Violation(
                "26.25",
                f"loading {need} NTP at {where} exceeds the port's capacity: {left} of "
                f"{cap.value} left this player turn",
                o.pos,
                hint="; ".join(f"{what} -> {v} [{r}]" for r, what, v in cap.steps),
            )
        )
        return
    _use_port(w, where, need)
    cargo = g.cargo(w.state, sid) + [a for a, _ in adding]
    w.state = set_ship(w.state, sid, cargo=cargo)
    dnm = dict(w.facts.do_not_move)
    evacuated = list(w.facts.evacuated)
    for pid, d in adding:
        w.state = place(w.state, pid, None, aboard(sid))
        if evacuating:
            evacuated.append(pid)  # "Do Not Move 2 GTs" from the landing [28.24]
            if d.type == "HQ":
                w.note(
                    "hq_non_op", "28.25", f"{pid} goes Non-Op as it loads for Evacuation", unit=pid
                )
    w.put(do_not_move=dnm, evacuated=sorted(set(evacuated)))
    _activated_28_14a(w, adding)
    w.note(
        "load",
        "28.14b",
        f"{', '.join(a for a, _ in adding)} board {s.unit.name} at {where} ({need} NTP; "
        f"port capacity left {left - need})",
        ship=sid,
        units=[a for a, _ in adding],
    )


def _activated_28_14a(w: Work, adding: list[tuple[str, Any]]) -> None:
    """Non-motorized units load in the Motorized Movement Phase only as activated by an
    in-range HQ for port-to-port naval transport (the HQ and its range are the host game's)
    or, Soviet units, for an Amphibious Assault: an Axis unit so loaded makes no assault this
    player turn [28.14a]; a Soviet one moved port to port unloads in the Movement Phase but
    does not move (28.14, the item after g: the host game's)."""
    units = [a for a, d in adding if "motorized" not in d.flags]
    if w.state.phase != "motorized" or not units:
        return
    w.put(activated=sorted({*w.facts.activated, *units}))
    w.note(
        "activated",
        "28.14a",
        f"{', '.join(units)}: not motorized, loaded in the Motorized Movement Phase as "
        "activated by an in-range HQ (place an Activated marker)"
        + (" or for an Amphibious Assault" if w.side == SOVIET else ""),
        units=units,
    )


def _own_ship(w: Work, sid: str, o: Order) -> bool:
    u = w.state.units.get(sid)
    if u is None or not w.game.is_ship(sid) or u.side != w.side:
        w.not_own_ship("25.1", sid, o.pos_of(sid))
        return False
    if u.location is None:
        w.refuse(Violation("27.31", f"{sid} is not in play ({u.box})", o.pos_of(sid), sid))
        return False
    return True


# ---- naval movement --------------------------------------------------------------------------
def move(w: Work, o: Order) -> None:
    g, st = w.game, w.state
    ships = list(o.units)
    if not all(_own_ship(w, s, o) for s in ships):
        return
    if w.side == SOVIET and len(ships) > 1:
        w.refuse(
            Violation(
                "26.12a", "Soviet naval units move one at a time", o.pos_of(ships[1]), ships[1]
            )
        )
        return
    starts = {st.units[s].location for s in ships}
    if len(starts) > 1:
        w.refuse(
            Violation("26.12a", "a group moves only if its ships begin together", o.pos, ships[0])
        )
        return
    moved = list(w.facts.moved)
    if any(g.ship(st, s).is_flotilla for s in ships):  # hex by hex, alone [32.11]
        if len(ships) > 1:
            w.refuse(
                Violation("32.11", "a flotilla moves alone, not in a group of naval units", o.pos)
            )
        else:
            move_flotilla(w, o, ships[0])
        return
    for s in ships:
        sh = g.ship(st, s)
        if sh.status != READY:
            w.refuse(
                Violation(
                    "26.31",
                    f"{s} is Sailed and cannot move until it is Ready"
                    + (
                        ": it ended the Motorized Movement Phase in port [26.12a]"
                        if s in w.facts.moved_motorized
                        else ""
                    ),
                    o.pos_of(s),
                    s,
                    "a Naval Readiness roll makes it Ready [25.32]",
                )
            )
            return
        if s in moved:
            w.refuse(Violation("26.12a", f"{s} has already moved this phase", o.pos_of(s), s))
            return
        if s in w.facts.assaulted:
            w.refuse(
                Violation(
                    "30.16f",
                    f"{s} carried an amphibious assault: no movement this turn",
                    o.pos_of(s),
                    s,
                )
            )
            return
    start = str(next(iter(starts)))
    walk = walk_path(w, o, start, ships)
    if walk is None:
        return
    dest, spent, passed = walk
    allowance = min(g.ship(st, s).nmp for s in ships)
    if spent > allowance:
        w.refuse(
            Violation(
                "26.14",
                f"the move costs {spent} NMP; the allowance is {allowance}"
                + (
                    " (27.36: -1 for damage)"
                    if any(g.ship(st, s).badly_damaged for s in ships)
                    else ""
                ),
                o.pos,
                ships[0],
            )
        )
        return
    for s in ships:
        w.state = place(w.state, s, dest)
        w.state = set_ship(
            w.state,
            s,
            departure=start,
            nmp_spent=spent,
            started_at_sea=start not in g.ports,
            passed=passed,
        )
    w.put(moved=moved + ships)
    w.note(
        "move",
        "26.14b",
        f"{' '.join(ships)}: {start} -> {dest}, {spent} NMP",
        ships=ships,
        start=start,
        to=dest,
        nmp=spent,
    )
    if spent >= 1:
        rolls = list(w.facts.loss_rolls)
        rolls.append({"ships": ships, "order": o.to_json()})
        w.put(loss_rolls=rolls)


def walk_path(w: Work, o: Order, start: str, ships: list[str]) -> tuple[str, int, list] | None:
    """The destination, the NMP spent and the zones passed, or ``None`` after a violation
    [26.14a], [26.14b], [26.12d], [26.24], [26.28], [30.14a]."""
    g = w.game
    here = start
    spent = 0
    passed: list[str] = []
    steps = list(o.hexes)
    if steps and g.name_of(steps[0])[0] == start:
        steps = steps[1:]
    if not steps:
        w.refuse(Violation("26.14", "the path names no location to move to", o.pos))
        return None
    for i, written in enumerate(steps):
        loc, hint = g.name_of(written)
        pos = o.pos_of(written)
        if loc is None:
            hint = hint or "name a sea zone or a port as the map spells it, or a hex id"
            w.refuse(
                Violation("26.11", f"unknown sea zone, port or hex {written!r}", pos, hint=hint)
            )
            return None
        cost = _step_26_14(w, here, loc, i == len(steps) - 1, ships, pos)
        if cost is None:
            return None
        spent += cost
        if loc in g.zones:
            passed.append(loc)
        here = loc
    return here, spent, passed


def _step_26_14(w: Work, here: str, loc: str, last: bool, ships: list[str], pos: Any) -> int | None:
    """One step of a path from ``here`` to ``loc``: its NMP, or ``None`` after a violation.
    Out of a port onto its own zone [26.14a], into an adjacent zone [26.14b] (1 NMP each),
    into a port of this zone that ends the move [26.14b], or onto a hex of this zone."""
    g = w.game
    zone_here = g.zone_of(here)
    if here in g.ports:
        if loc != P.port_zone(g.module, here):
            w.refuse(
                Violation(
                    "26.14a",
                    f"{here} opens only on the {P.port_zone(g.module, here)}",
                    pos,
                    hint="a port is adjacent to one sea zone [26.21]",
                )
            )
            return None
        return 1
    if loc in g.zones:
        if zone_here is None or loc not in g.zones[zone_here].adjacent:
            w.refuse(Violation("26.14b", f"{loc} is not adjacent to {zone_here}", pos))
            return None
        return 1
    if loc in g.ports:
        if P.port_zone(g.module, loc) != zone_here:
            w.refuse(
                Violation(
                    "26.14b",
                    f"{loc} is not adjacent to the {zone_here}",
                    pos,
                    hint=f"{loc} opens on the {P.port_zone(g.module, loc)}",
                )
            )
            return None
        if not last:
            w.refuse(Violation("26.14b", f"entering {loc} ends the move", pos))
            return None
        return 0 if _may_use_port(w, loc, ships, pos) else None
    return 0 if _hex_step_30_14(w, zone_here, loc, last, pos) else None


def _hex_step_30_14(w: Work, zone_here: str | None, loc: str, last: bool, pos: Any) -> bool:
    """A hex: an all-sea hex of the current zone [30.14a], not Shallow Water [26.12d], at no
    cost; it ends the move [26.14b]."""
    g = w.game
    if g.zone_of_hex.get(loc) != zone_here:
        w.refuse(Violation("26.14b", f"hex {loc} is not in the {zone_here}", pos))
        return False
    terrain = g.terrain(loc)
    if terrain == "shallow":
        w.refuse(Violation("26.12d", f"hex {loc} is Shallow Water: no naval movement", pos))
        return False
    if terrain != "sea":
        w.refuse(
            Violation(
                "30.14a",
                f"hex {loc} is not an all-sea hex: ships end only on all-sea hexes",
                pos,
            )
        )
        return False
    if not last:
        w.refuse(Violation("26.14b", f"ending on hex {loc} ends the move", pos))
        return False
    return True


def _may_use_port(w: Work, port: str, ships: list[str], pos: Any) -> bool:
    g = w.game
    for s in ships:
        t = g.unit(s).type
        if not P.admits(g.module, port, t):
            w.refuse(
                Violation(
                    "26.24",
                    f"a {P.port_type(g.module, port).replace('_', ' ')} "
                    f"such as {port} admits no {t}",
                    pos,
                    s,
                    hint="see the Port Characteristics Chart",
                )
            )
            return False
    captured = w.facts.captured
    if port in captured and int(captured[port]) >= w.state.turn:
        w.refuse(
            Violation("26.28", f"{port} was captured this turn: usable from the next turn", pos)
        )
        return False
    if not port_friendly(w, port, w.side):
        w.refuse(Violation("26.2", f"{port} is not a friendly port", pos))
        return False
    return True


# ---- the loss table --------------------------------------------------------------------------
def resolve_losses(w: Work) -> None:
    """Roll the loss table for each ship or group that spent NMP [27.11], [28.14d]."""
    pending = list(w.facts.loss_rolls)
    w.put(loss_rolls=[])
    for entry in pending:
        roll_for(w, list(entry["ships"]), forced_sortie=False)


def _defender_hex_points_30_24(w: Work, ships: list[str], cd_side: str) -> int:
    """Under the reading ``cd_defender_hex_doubles`` (NM-46): ships carrying ground units
    that end on an all-sea hex make Amphibious Assault naval movement, their hex a naval
    Target Hex [30.22]; CD units in a Defender hex next to it count twice [30.24]."""
    g = w.game
    if not readings_of(w.state).cd_defender_hex_doubles:
        return 0
    target = g.hex_of(str(w.state.units[ships[0]].location))
    cargo = any(w.facts.ships.get(s, {}).get("cargo") for s in ships)
    if target is None or g.terrain(target) != "sea" or not cargo:
        return 0
    extra = cd_doubling_30_24(g, w.state, cd_side, target)
    if extra:
        w.note(
            "cd_doubled",
            "30.24",
            f"{target} is a naval Target Hex [30.22]: the CD units in a Defender hex next to "
            f"it count twice (+{extra} points)",
            hex=target,
            points=extra,
        )
    return extra


def roll_for(w: Work, ships: list[str], *, forced_sortie: bool, sailed: bool = False) -> None:
    """The Naval Movement Loss Table roll of ``ships`` [27.2]: its column from the
    interdiction level and the CD points along the way [27.22], then the result applied
    [27.32]. Nothing when only checking: the column feeds the roll alone, and the CD points
    are the costly part (every CD unit against every hex crossing of the way), which
    ``referee options`` would otherwise pay once per candidate move."""
    if not w.live:
        return
    g = w.game
    first = ships[0]
    facts = dict(w.facts.ships.get(first, {}))
    owner = w.state.units[first].side
    enemy = enemy_of(g, owner)
    level = int(w.facts.interdiction.get(owner, 0))
    places = [facts.get("departure"), w.state.units[first].location]
    if facts.get("path"):  # a flotilla's hexes, each CD unit once [32.11]
        cd = cd_points_on_path(g, w.state, enemy, list(facts["path"]))
    else:
        cd = cd_points_against(g, w.state, enemy, places, facts.get("passed", []))
        cd += _defender_hex_points_30_24(w, ships, enemy)
    column, why = column_27_2(level, cd)
    storm = w.facts.weather.get(str(w.state.turn)) == "storm"  # [26.12b note]
    mods = modifiers_27_2(
        g.module,
        interdiction_level=level,
        cd_points=cd,
        forced_sortie_sailed=sailed,
        storm=storm,
    )
    a, b = w.roll2d6(f"Naval Movement Loss Table for {' '.join(ships)}", "27.2")
    modified = a + b + mods.total
    result, how = lookup_27_2(g.module, column, modified)
    w.note(
        "loss_roll",
        why,
        f"{' '.join(ships)}: {column} column, 2d6 {a}+{b}"
        + (f" {mods.total:+d} DRM" if mods.total else "")
        + f" = {modified}: {result.text}",
        ships=ships,
        column=column,
        roll=a + b,
        drm=mods.total,
        result=result.text,
        how=how,
    )
    for s in ships:
        if w.state.units[s].location is None:
            continue
        applied = apply_27_32(
            result,
            started_at_sea=bool(w.facts.ships[s].get("started_at_sea")),
            forced_sortie=forced_sortie,
            storm_only=mods.storm_only,
        )
        if applied.note:
            w.note("abort_as_damage", applied.rule, f"{s}: {applied.note}", ship=s)
        damage_ship(w, s, applied.damage, applied.rule)
        if applied.abort_choice and w.state.units[s].location is not None:
            choices = dict(w.facts.abort_due)
            choices[s] = owner
            w.put(abort_due=choices)


def abort_choice(w: Work, sid: str, choice: str, rule: str = "27.32b") -> None:
    """Return to the departure port (no NMP, no new roll) or one more damage point [27.32b]."""
    due = dict(w.facts.abort_due)
    due.pop(sid, None)
    w.put(abort_due=due)
    if choice == "return":
        back = str(w.facts.ships[sid]["departure"])
        w.state = place(w.state, sid, back)
        w.note(
            "abort_return",
            rule,
            f"{sid} turns back to {back}: no NMP spent, no new roll",
            ship=sid,
            to=back,
        )
    else:
        w.note("abort_damage", rule, f"{sid} ignores the Abort: one more damage point", ship=sid)
        damage_ship(w, sid, 1, rule)


def choice_for(w: Work, sid: str, orders: list[Order]) -> str | None:
    """The owner's choice written in advance: this file's or his standing ``abort`` order."""
    owner = w.state.units[sid].side
    standing = [Order.from_json(x) for x in (w.facts.standing.get(owner) or [])]
    for o in [*orders, *standing]:
        if o.verb == "abort" and sid in o.units:
            return o.mode
    return None


# ---- unloading and the end of the phase -----------------------------------------------------
def unload(w: Work, o: Order) -> None:
    g = w.game
    by_ship: dict[str, list[str]] = {}
    for pid in o.units:
        u = w.state.units.get(pid)
        if u is None or u.side != w.side or not (u.box or "").startswith("aboard:"):
            w.refuse(
                Violation(
                    "28.14e", f"{pid} is not aboard a naval unit of yours", o.pos_of(pid), pid
                )
            )
            return
        by_ship.setdefault(u.box[7:], []).append(pid)  # type: ignore[index]
    for sid, units in by_ship.items():
        where = w.state.units[sid].location
        if where is None:
            continue  # sunk on the way: its passengers are gone [27.33]
        if where not in g.ports:
            w.refuse(
                Violation(
                    "28.14e",
                    f"{sid} is not in a port: units unload only in port "
                    "(an amphibious assault lands them from an all-sea hex [30.1])",
                    o.pos_of(units[0]),
                    units[0],
                )
            )
            return
        if where in w.facts.evacuation:
            w.refuse(
                Violation(
                    "28.23b", f"{where} is under Evacuation: it only loads", o.pos_of(units[0])
                )
            )
            return
        if not port_friendly(w, where, w.side):
            w.refuse(Violation("28.14c", f"{where} is not a friendly port", o.pos_of(units[0])))
            return
        need = sum(points_28_13(g.unit(p)) for p in units)
        left, cap = _port_left(w, where, w.side, loading=False)
        if need > left:
            w.refuse(
                Violation(
                    "26.25",
                    f"unloading {need} NTP at {where} exceeds the port's capacity: "
                    f"{left} of {cap.value} left this player turn",
                    o.pos_of(units[0]),
                    hint="; ".join(f"{what} -> {v} [{r}]" for r, what, v in cap.steps)
                    + "; units that do not fit stay aboard until capacity opens [28.14f]",
                )
            )
            return
        bases = [p for p in units if g.unit(p).type == "NB"]
        hex_id = g.hex_of(where) or where
        if bases and (len(bases) > 1 or naval_bases_at(w, hex_id, w.side)):
            w.refuse(
                Violation(
                    "32.21",
                    f"{where} would hold two Naval Base units: at most one per port hex",
                    o.pos_of(bases[-1]),
                    bases[-1],
                )
            )
            return
        _use_port(w, where, need)
        land(w, sid, units, hex_id, "28.14e")
        if bases:
            placed = dict(w.facts.naval_bases)
            placed[where] = w.state.turn
            w.put(naval_bases=placed)
            w.note(
                "naval_base",
                "32.22",
                f"{bases[0]} placed at {where}: its capacity doubles from Game-Turn "
                f"{w.state.turn + 1}",
                unit=bases[0],
                port=where,
            )


def land(w: Work, sid: str, units: list[str], hex_id: str, rule: str) -> None:
    cargo = [c for c in w.game.cargo(w.state, sid) if c not in units]
    w.state = set_ship(w.state, sid, cargo=cargo)
    dnm = dict(w.facts.do_not_move)
    evacuated = set(w.facts.evacuated)
    for pid in units:
        w.state = place(w.state, pid, hex_id)
        if pid in evacuated:
            dnm[pid] = {"n": 2, "landed": w.state.turn, "side": w.side}
            w.note("do_not_move", "28.24", f"{pid} lands: Do Not Move 2 GTs", unit=pid)
            evacuated.discard(pid)
    w.put(do_not_move=dnm, evacuated=sorted(evacuated))
    w.note(
        "unload",
        rule,
        f"{', '.join(units)} land at {hex_id} from {sid}",
        ship=sid,
        units=units,
        hex=hex_id,
    )


def end_movement(w: Work) -> None:
    """Ships that moved into a friendly port turn Sailed [26.31], except at an Evacuation port
    [28.23d]: at the end of the Motorized Movement Phase too, as the 27.2 example turns
    K.Kavkas over after its Motorized Movement Phase, "not available for further naval
    movement until it returns to its Ready mode" [26.12a]."""
    title = BY_ID[w.state.phase].title
    for sid in w.facts.moved:
        u = w.state.units[sid]
        if w.game.ship(w.state, sid).is_flotilla:
            continue  # no Ready/Sailed status: flotillas are not naval units [32.1]
        if u.location in w.game.ports and u.location not in w.facts.evacuation:
            if port_friendly(w, u.location, u.side):
                w.state = set_ship(w.state, sid, status=SAILED)
                w.note(
                    "sailed",
                    "26.31",
                    f"{sid} ends the {title} in {u.location}: Sailed",
                    ship=sid,
                )
        elif u.location in w.game.ports:
            w.note(
                "stays_ready",
                "28.23d",
                f"{sid} stays Ready at the Evacuation port {u.location}",
                ship=sid,
            )
    if w.state.phase == "motorized":  # for the Movement Phase's refusals [26.31]
        w.put(moved_motorized=sorted(w.facts.moved))
    w.put(moved=[])
