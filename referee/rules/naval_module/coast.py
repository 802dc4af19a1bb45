"""Coast artillery in the enemy Combat Phase [27.12], [27.31], [30.23], [30.25].

During the phasing player's Combat Phase the *other* player's CD units act: each either makes
a Shipping Attack on one in-range enemy naval or flotilla unit [27.12], [27.12b], or gives its
support strength to one Defender hex, undoubled [30.25] -- never both [27.12a]. A CD unit
reaches a ship's hex through no all-land hexside and at most one coastal hexside [30.23]; a
ship in a sea zone but on no hex is in no CD unit's line of sight (docs/interpretations.md,
NM-7). All CD targets are declared before any roll; one Shipping Attack Table roll per target
naval unit on its column [27.31a], [27.31b], the CD points of every CD unit on it totalled
into one DRM [27.31c]: +1 per point after the first, as on the Naval Movement Loss Table
[27.23] (docs/interpretations.md, NM-CD). The defensive support value goes to the host game
as a hand-off.
"""

from __future__ import annotations

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.naval_module.combat import shipping_column
from referee.rules.naval_module.context import Game, enemy_of
from referee.rules.naval_module.defence import attacked_hexes
from referee.rules.naval_module.host import handoff
from referee.rules.naval_module.losses import parse_result
from referee.rules.naval_module.ranges import cd_reaches_30_23
from referee.rules.naval_module.sinking import damage_ship
from referee.rules.naval_module.work import Work

FIRE, SUPPORT = "fired at a ship", "supported a Defender hex"


def _cd_unit(w: Work, o: Order, pid: str, how: str) -> str | None:
    """The CD unit's hex, or a violation: it must be the acting side's CD unit on the map and
    not used already this phase [27.12a], [30.25]."""
    g = w.game
    u = w.state.units.get(pid)
    if u is None or u.side != w.side or u.location is None or pid not in g.pieces:
        from referee.engine.vocabulary import nearest_names_hint

        mine = [p for p, x in w.state.units.items() if x.side == w.side and x.location]
        hint = nearest_names_hint(pid, mine) or "name one of your units on the map"
        w.refuse(
            Violation("27.12", f"{pid} is not a unit of yours on the map", o.pos_of(pid), pid, hint)
        )
        return None
    d = g.unit(pid)
    if d.category != "ground" or d.type != "CD":
        w.refuse(
            Violation("27.12", f"{pid} is not a coast artillery (CD) unit", o.pos_of(pid), pid)
        )
        return None
    at = g.hex_of(u.location)
    if at is None:
        w.refuse(Violation("27.12", f"{pid} is on no hex of the map", o.pos_of(pid), pid))
        return None
    used = w.facts.cd_used
    if pid in used:
        if used[pid] != how:
            rule = "27.12a"  # a firing CD unit joins no ground combat
        else:
            rule = "27.12b" if how == FIRE else "30.25"  # one ship; one Defender hex
        w.refuse(
            Violation(
                rule,
                f"{pid} already {used[pid]} this Combat Phase: a CD unit makes one Shipping "
                "Attack or supports one Defender hex",
                o.pos_of(pid),
                pid,
            )
        )
        return None
    return at


def _use(w: Work, pid: str, how: str) -> None:
    used = dict(w.facts.cd_used)
    used[pid] = how
    w.put(cd_used=used)


def coast_fire(w: Work, o: Order) -> None:
    """``coastfire CD [CD ...] -> SHIP``: a Shipping Attack by CD units on one enemy naval or
    flotilla unit in range and in line of sight [27.12], [27.12b], [30.23]."""
    g = w.game
    target = (o.arg("target") or ("",))[0]
    tu = w.state.units.get(target)
    if tu is None or not g.is_ship(target) or tu.side == w.side or tu.location is None:
        w.refuse(
            Violation("27.12", f"{target!r} is not an enemy naval or flotilla unit in play", o.pos)
        )
        return
    there = g.hex_of(tu.location)
    if there is None:
        w.refuse(
            Violation(
                "27.12",
                f"{target} is at sea in a zone, on no hex: no CD unit has it in line of sight",
                o.pos_of(target),
                target,
            )
        )
        return
    points = 0
    for pid in o.units:
        at = _cd_unit(w, o, pid, FIRE)
        if at is None:
            return
        rng = g.unit(pid).values.get("RNG", 0)
        if not cd_reaches_30_23(g, at, there, rng):
            w.refuse(
                Violation(
                    "30.23",
                    f"{pid} at {at} does not reach {target} at {there}: Range {rng}, and no fire "
                    "through an all-land hexside or more than one coastal hexside",
                    o.pos_of(pid),
                    pid,
                )
            )
            return
        _use(w, pid, FIRE)
        points += g.unit(pid).values.get("ART", 0)
    queue = dict(w.facts.cd_queue)
    prev = queue.get(target, {"cd": [], "points": 0})
    queue[target] = {"cd": prev["cd"] + list(o.units), "points": prev["points"] + points}
    w.put(cd_queue=queue)


def resolve_coast_fire(w: Work) -> None:
    """Every target declared, then one roll per target naval unit, the CD points on it
    totalled into one DRM [27.31b], [27.31c]; Abort at sea is the owner's choice [27.32b]."""
    queue = dict(w.facts.cd_queue)
    w.put(cd_queue={})
    if not w.live:
        return
    table = w.game.module.tables["shipping_attack"]
    for sid in sorted(queue):
        entry = queue[sid]
        if w.state.units[sid].location is None:
            continue
        col = shipping_column(w.game.unit(sid).type)
        drm = max(0, int(entry["points"]) - 1)
        a, b = w.roll2d6(f"CD Shipping Attack on {sid}", "27.31b")
        row = a + b + drm
        found = table.lookup(row=row, col=col)
        r = parse_result(str(found.text))
        w.note(
            "cd_shipping_attack",
            "27.12",
            f"{', '.join(entry['cd'])} fire at {sid}: {col} column, 2d6 {a}+{b} "
            f"+ DRM {drm} ({entry['points']} CD points, +1 per point after the first "
            f"[27.31c], [27.23]) = {row} ({found.how}): {r.text}",
            cd=list(entry["cd"]),
            ship=sid,
            roll=a + b,
            drm=drm,
            result=r.text,
        )
        damage_ship(w, sid, r.damage, "27.12")
        u = w.state.units[sid]
        if r.abort and u.location is not None and u.location not in w.game.ports:
            due = dict(w.facts.abort_due)
            due[sid] = u.side
            w.put(abort_due=due)


def coast_support(w: Work, o: Order) -> None:
    """``coastsupport CD [CD ...] -> HEX``: CD support strength for one Defender hex of the
    CD side, undoubled, each CD unit once this phase [30.25]; the value goes to the host."""
    g = w.game
    target = o.hexes[0] if o.hexes else ""
    if target not in g.module.map.hexes:
        w.refuse(
            Violation("30.25", f"{target!r} is not a hex: CD support goes to a Defender hex", o.pos)
        )
        return
    if not g.ground_at(w.state, target, w.side):
        w.refuse(
            Violation(
                "30.25",
                f"{target} holds none of your ground units: CD units support a Defender hex",
                o.pos,
            )
        )
        return
    value = 0
    for pid in o.units:
        at = _cd_unit(w, o, pid, SUPPORT)
        if at is None:
            return
        rng = g.unit(pid).values.get("RNG", 0)
        dist = g.hexes.distance(at, target)
        if dist > rng:
            w.refuse(
                Violation(
                    "30.25",
                    f"{pid} is {dist} hexes from {target}; its Range is {rng}",
                    o.pos_of(pid),
                    pid,
                )
            )
            return
        _use(w, pid, SUPPORT)
        value += g.unit(pid).values.get("ART", 0)
    handoff(
        w,
        "cd_support",
        "30.25",
        f"{' + '.join(o.units)} give {value} support points to the Defender hex {target}, "
        "undoubled (doubling is for the Naval Movement Loss Table only)",
        cd=list(o.units),
        target=target,
        value=value,
    )


def coast_phase_due(game: Game, state: GameState, phasing: str) -> bool:
    """The enemy's coast artillery step is played only when one of its CD units reaches a
    phasing naval unit's hex or is within Range of a hex the phasing player attacks (his naval
    support and assault targets and his declared ``attack`` hexes) [27.12], [29.25], [30.25];
    otherwise there is nothing to decide and it is skipped."""
    enemy = enemy_of(game, phasing)
    targets = attacked_hexes(state)
    ships = []
    for u in state.units.values():
        if u.side == phasing and u.location is not None and game.is_ship(u.id):
            h = game.hex_of(u.location)
            if h is not None:
                ships.append(h)
    for u in state.units.values():
        if u.side != enemy or u.location is None or u.id not in game.pieces:
            continue
        d = game.unit(u.id)
        if d.category != "ground" or d.type != "CD":
            continue
        at = game.hex_of(u.location)
        if at is None:
            continue
        rng = d.values.get("RNG", 0)
        if any(cd_reaches_30_23(game, at, h, rng) for h in ships):
            return True
        if any(t in game.module.map.hexes and game.hexes.distance(at, t) <= rng for t in targets):
            return True
    return False
