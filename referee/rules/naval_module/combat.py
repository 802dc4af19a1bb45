"""The Combat Phase's naval parts and the host-game hand-off [29.x], [30.1x], [30.3], [31.2x].

Ground combat is the host series'. The referee checks what the naval rules govern (which ship
may support which Defender hex, who may assault from where) and records a **hand-off** for
the host game: an artillery support value for a Declared Attack, an assault's legality and
placement. An assault's result comes back as a ``host`` order, signed first by the phasing
player and then, identically, by the other; only then does it take effect [30.16].
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order
from referee.rules.naval_module import air
from referee.rules.naval_module.amphibious import eligible_30_13a, special_transport_30_3
from referee.rules.naval_module.context import Game, enemy_of, place
from referee.rules.naval_module.host import handoff
from referee.rules.naval_module.losses import parse_result
from referee.rules.naval_module.movement import land
from referee.rules.naval_module.sinking import damage_ship
from referee.rules.naval_module.work import Work
from referee.source.model import Module

MAX_SHIPPING = 3  # [31.23]


# ---- naval artillery --------------------------------------------------------------------------
def support(w: Work, o: Order) -> None:
    """At sea: one ship, on an all-sea hex, in range, attacking only [29.11], [29.12]. In port:
    one ship alone, or two (or one with one ground artillery) within an HQ's command range,
    which the host game checks [29.21]-[29.23]. Readiness does not matter [29.24]."""
    g = w.game
    target = o.hexes[0]
    if target not in g.module.map.hexes:
        w.refuse(
            Violation("29.11", f"{target!r} is not a hex: support goes to a Defender hex", o.pos)
        )
        return
    guns = [u for u in o.units if not g.is_ship(u) and u in g.pieces]
    ships = [u for u in o.units if u not in guns]
    if guns and not ground_artillery_29_22(w, o, guns, ships, target):
        return
    at_sea = []
    for sid in ships:
        u = w.state.units.get(sid)
        if u is None or not g.is_ship(sid) or u.side != w.side or u.location is None:
            w.refuse(
                Violation(
                    "29.11", f"{sid} is not a naval unit of yours in play", o.pos_of(sid), sid
                )
            )
            return
        s = g.ship(w.state, sid)
        if s.artillery <= 0:
            w.refuse(
                Violation("29.11", f"{sid} has no artillery support value", o.pos_of(sid), sid)
            )
            return
        here = g.hex_of(u.location)
        if here is None:
            w.refuse(
                Violation(
                    "29.11",
                    f"{sid} is at sea in a zone, not on an all-sea hex: end its move on "
                    "a hex in range to support",
                    o.pos_of(sid),
                    sid,
                )
            )
            return
        if u.location not in g.ports:
            at_sea.append(sid)
        dist = g.hexes.distance(here, target)
        if dist > s.range:
            w.refuse(
                Violation(
                    "25.12e",
                    f"{sid} is {dist} hexes from {target} (its own hex not counted); "
                    f"its Range is {s.range}",
                    o.pos_of(sid),
                    sid,
                )
            )
            return
    if at_sea and len(ships) > 1:
        w.refuse(Violation("29.11", "at sea only one naval unit supports a Declared Attack", o.pos))
        return
    if len(ships) > 2:
        w.refuse(Violation("29.23", "at most two naval units combine for one attack", o.pos))
        return
    used = {h.get("target") for h in w.facts.handoffs if h["kind"] == "support"}
    if at_sea and target in used:
        w.refuse(
            Violation("29.11", f"{target} already has naval support from a ship at sea", o.pos)
        )
        return
    value = sum(g.ship(w.state, s).artillery for s in ships)
    needs = "HQ command range for both [29.23]" if len(ships) == 2 else ""
    rule = "29.11" if at_sea else "29.21"
    extra: dict[str, Any] = {}
    if guns:
        rule = "29.22"
        needs = f"that {ships[0]} and {guns[0]} are in one HQ's command range [29.22]"
        extra = {"artillery": guns[0]}
    handoff(
        w,
        "support",
        rule,
        f"{' + '.join(ships)} give {value} artillery support points against {target}"
        + (f", combined with {guns[0]}" if guns else "")
        + (f" (the host checks {needs})" if needs else ""),
        ships=ships,
        target=target,
        value=value,
        at_sea=bool(at_sea),
        **extra,
    )
    if at_sea:
        back = list(w.facts.return_to_port)
        w.put(return_to_port=sorted(set(back + at_sea)))


def ground_artillery_29_22(
    w: Work, o: Order, guns: list[str], ships: list[str], target: str
) -> bool:
    """A single naval unit in port may combine with a single ground artillery unit [29.22];
    a ship at sea supports alone [29.11]. The ground unit's own strength and the HQ's command
    range are the host game's: the hand-off names both units so the host checks them."""
    g = w.game
    gun = guns[0]
    u = w.state.units.get(gun)
    d = g.unit(gun)
    if u is None or u.side != w.side or u.location is None:
        w.refuse(Violation("29.22", f"{gun} is not a unit of yours in play", o.pos_of(gun), gun))
        return False
    if not is_ground_artillery(d):
        w.refuse(
            Violation(
                "29.22",
                f"{gun} is not a ground artillery unit: only one may combine with a ship",
                o.pos_of(gun),
                gun,
            )
        )
        return False
    if len(guns) > 1 or len(ships) != 1:
        w.refuse(
            Violation(
                "29.22",
                "a single naval unit combines with a single ground artillery unit",
                o.pos_of(guns[-1]),
                guns[-1],
                "name one ship and one ground artillery unit",
            )
        )
        return False
    s = w.state.units.get(ships[0])
    if s is not None and s.location is not None and s.location not in g.ports:
        w.refuse(
            Violation(
                "29.11",
                f"{ships[0]} is at sea: a ship at sea supports a Declared Attack alone, "
                "combining is for ships in port [29.2]",
                o.pos_of(ships[0]),
                ships[0],
            )
        )
        return False
    return True


def is_ground_artillery(d: Any) -> bool:
    """A ground artillery unit [29.22]: a ground unit with an artillery value, not coast
    artillery (a CD unit fires or supports on its own [27.12], [30.25])."""
    return bool(d.category == "ground" and d.values.get("ART", 0) > 0 and d.type != "CD")


def artillery_partners(module: Module, state: GameState, side: str) -> list[str]:
    """The ground artillery units of ``side`` in play that may combine with a single naval
    unit in port [29.22] (the host game checks the HQ's command range): the candidates the
    options ask the validator of, beside each ship's support line."""
    g = Game.of(module)
    return sorted(
        uid
        for uid, u in state.units.items()
        if u.side == side
        and u.location is not None
        and uid in g.pieces
        and is_ground_artillery(g.unit(uid))
    )


def must_return_29_13(w: Work) -> None:
    """A ship that supported a Declared Attack from the sea returns to port during its side's
    next Movement Phase [29.13]: each must be ordered into a port; the duty ends with that
    phase."""
    g = w.game
    for sid in w.facts.return_to_port:
        u = w.state.units.get(sid)
        if u is None or u.side != w.side or u.location is None:
            continue
        if u.location in g.ports and sid in w.facts.moved:
            continue
        w.refuse(
            Violation(
                "29.13",
                f"{sid} supported a Declared Attack from the sea: it returns to port this "
                "Movement Phase",
                None,
                sid,
                f"move {sid} -> <a friendly port>",
            )
        )


def returned_29_13(w: Work, *, all_due: bool = True) -> None:
    """The Movement Phase is over: the phasing side's return duties are met [29.13]. After
    the Motorized Movement Phase (``all_due`` false) only the ships it brought into port are
    done with theirs (NM-47)."""
    left = [
        sid
        for sid in w.facts.return_to_port
        if (u := w.state.units.get(sid)) is not None
        and (u.side != w.side or not (all_due or u.location in w.game.ports))
    ]
    if left == list(w.facts.return_to_port):
        return  # nothing was due: the position stays as it was
    for sid in sorted(set(w.facts.return_to_port) - set(left)):
        u = w.state.units.get(sid)
        if u is not None and u.location in w.game.ports:
            w.note("returned", "29.13", f"{sid} is back in {u.location} [29.13]", ship=sid)
    w.put(return_to_port=left)


# ---- amphibious assault -----------------------------------------------------------------------
def assault(w: Work, o: Order) -> None:
    """An amphibious assault [30.1]: on a coastal hex [30.14c], by units aboard ships at sea
    next to it [30.11] (flotillas may join [30.16e]); a vacant hex is landed on [30.15b],
    an occupied one is the host game's combat [30.15a]."""
    g = w.game
    target = o.hexes[0]
    if target not in g.module.map.hexes or g.terrain(target) != "coastal":
        w.refuse(
            Violation(
                "30.14c",
                f"{target} is not a coastal hex: assaults go against a coastal hex",
                o.pos_of(target) if target in o.hexes else o.pos,
            )
        )
        return
    placed = dict(w.facts.assault_hexes)
    units: list[str] = []
    ships: list[str] = []
    flotillas = [p for p in o.units if g.is_ship(p) and g.ship(w.state, p).is_flotilla]
    for fid in flotillas:
        if not _flotilla_joins_30_16e(w, o, fid, target):
            return
    for pid in [p for p in o.units if p not in flotillas]:
        sid = _assaulting_unit_30_11(w, o, pid, target, placed)
        if sid is None:
            return
        units.append(pid)
        ships.append(sid)
    if not units:
        w.refuse(
            Violation(
                "30.16e",
                "a flotilla joins an amphibious assault; it makes none alone",
                o.pos,
                hint="name the assaulting ground units too",
            )
        )
        return
    w.put(assault_hexes=placed)
    assaulted = sorted(set(w.facts.assaulted) | set(ships))
    w.put(assaulted=assaulted)
    _assault_made_30_15(w, target, units, ships, flotillas)


def _assaulting_unit_30_11(
    w: Work, o: Order, pid: str, target: str, placed: dict[str, str]
) -> str | None:
    """The ship carrying ``pid`` when it may assault ``target``, else ``None`` after a
    violation: aboard a ship of its side [30.11] at sea, not in port [30.14d], on an all-sea
    hex [30.11] next to the target [30.14c], a unit that may assault
    (:func:`_may_assault_30_13`)."""
    g = w.game
    u = w.state.units.get(pid)
    box = (u.box or "") if u else ""
    if u is None or u.side != w.side or not box.startswith("aboard:"):
        w.refuse(
            Violation("30.11", f"{pid} is not aboard a naval unit of yours", o.pos_of(pid), pid)
        )
        return None
    sid = box[7:]
    sea = w.state.units[sid].location
    if sea in g.ports:
        w.refuse(
            Violation(
                "30.14d", f"{sid} is in port: assaults go from ships at sea", o.pos_of(pid), pid
            )
        )
        return None
    if sea not in g.module.map.hexes or g.terrain(sea) != "sea":
        w.refuse(
            Violation(
                "30.11",
                f"{sid} is not on an all-sea hex opposite the target",
                o.pos_of(pid),
                pid,
                "end its move on an all-sea hex next to the coastal hex",
            )
        )
        return None
    if u.side != "Soviet" and pid in w.facts.activated:
        w.refuse(
            Violation(
                "28.14a",
                f"{pid} loaded in the Motorized Movement Phase, activated for port-to-port "
                "transport: Axis units load for an Amphibious Assault in the Movement Phase",
                o.pos_of(pid),
                pid,
            )
        )
        return None
    if not g.hexes.adjacent(sea, target):
        w.refuse(
            Violation(
                "30.14c",
                f"{pid} is at {sea}, not adjacent to {target}: an assault attacks "
                "only an adjacent coastal hex",
                o.pos_of(pid),
                pid,
            )
        )
        return None
    return sid if _may_assault_30_13(w, o, pid, sea, target, placed) else None


def _may_assault_30_13(
    w: Work, o: Order, pid: str, sea: str, target: str, placed: dict[str, str]
) -> bool:
    """An MSU or HQ lands as special transport [30.3]; a combat unit is eligible [30.13a],
    did not leave a port by Evacuation [30.13b], and is the only one assaulting from its
    all-sea hex this phase [30.14a] (recorded in ``placed``)."""
    g = w.game
    d = g.unit(pid)
    if d.type in ("MSU", "HQ"):
        special = special_transport_30_3(pid, d, bool(g.ground_at(w.state, target, w.side)))
        if special is not None:
            w.refuse(special.at(o, pid))
            return False
        return True
    problem = eligible_30_13a(pid, d)
    if problem is not None:
        w.refuse(problem.at(o, pid))
        return False
    if pid in w.facts.evacuated:
        w.refuse(
            Violation(
                "30.13b",
                f"{pid} left a port by Evacuation: it must land at a port first",
                o.pos_of(pid),
                pid,
            )
        )
        return False
    if sea in placed and placed[sea] != pid:
        w.refuse(
            Violation(
                "30.14a",
                f"{placed[sea]} already assaults from {sea}: "
                "one combat unit per all-sea hex per phase",
                o.pos_of(pid),
                pid,
            )
        )
        return False
    placed[sea] = pid
    return True


def _assault_made_30_15(
    w: Work, target: str, units: list[str], ships: list[str], flotillas: list[str]
) -> None:
    """A vacant coastal hex is landed on without combat [30.15b]; an occupied one is handed
    to the host game's combat [30.15a]."""
    g = w.game
    defenders = g.ground_at(w.state, target, enemy_of(g, w.side))
    if not defenders:
        w.note(
            "assault_vacant",
            "30.15b",
            f"{target} is vacant: {', '.join(units)} land without combat",
            hex=target,
            units=units,
        )
        for sid in sorted(set(ships)):
            land(
                w, sid, [p for p, s in zip(units, ships, strict=True) if s == sid], target, "30.15b"
            )
        advance_flotillas(w, flotillas, target)
        return
    handoff(
        w,
        "assault",
        "30.15a",
        f"amphibious assault by {', '.join(units)} on {target} ({', '.join(defenders)}): "
        "no attack supply, no AA, no retreat, ZOC ignored across the sea hexside; only "
        "the Defender may take Additional Retreat [30.13d], [30.15a], [30.16a]"
        + (f"; with {', '.join(flotillas)} in the combat [30.16e]" if flotillas else ""),
        units=units,
        ships=ships,
        target=target,
        defenders=defenders,
        **({"flotillas": flotillas} if flotillas else {}),
    )


def _flotilla_joins_30_16e(w: Work, o: Order, fid: str, target: str) -> bool:
    """A flotilla of the assaulting side next to the target hex may be included in the
    combat [30.16e] (docs/interpretations.md, NM-42)."""
    g = w.game
    u = w.state.units.get(fid)
    at = g.hex_of(u.location) if u is not None else None
    if u is None or u.side != w.side or at is None:
        w.refuse(
            Violation("30.16e", f"{fid} is not a flotilla of yours on the map", o.pos_of(fid), fid)
        )
        return False
    if not g.hexes.adjacent(at, target):
        w.refuse(
            Violation(
                "30.16e",
                f"{fid} at {at} is not adjacent to {target}: a flotilla joins the assault "
                "on a hex next to it",
                o.pos_of(fid),
                fid,
            )
        )
        return False
    return True


def advance_flotillas(w: Work, flotillas: list[str], target: str) -> None:
    """Flotillas included in an assault that clears the coastal hex advance onto it
    [30.16e]."""
    for fid in flotillas:
        if w.state.units[fid].location is None:
            continue
        w.state = place(w.state, fid, target)
        w.note("flotilla_advance", "30.16e", f"{fid} advances onto {target}", ship=fid, hex=target)


# ---- shipping attacks -------------------------------------------------------------------------
def shipping(w: Work, o: Order) -> None:
    """Interdiction-rated Ready air units strike one declared ship, at sea or in port, in the
    Axis Combat Phase, at sea only in the Axis Reaction Phase [31.22]: one Shipping Attack
    Table roll each [31.21]-[31.26], [32.14]; the AA fire against them is handed to the host
    game first (``air.py``) [31.25]."""
    g = w.game
    if not air.shipping_side_31_22(w, o):
        return
    target = (o.arg("target") or ("",))[0]
    tu = w.state.units.get(target)
    if tu is None or not g.is_ship(target) or tu.side == w.side or tu.location is None:
        w.refuse(
            Violation("31.24", f"{target!r} is not an enemy naval unit in play", o.pos_of(target))
        )
        return
    if not air.shipping_target_31_22(w, o, target):
        return
    if g.ship(w.state, target).is_flotilla:
        w.refuse(
            Violation(
                "32.14",
                f"{target} is a flotilla: air units cannot attack flotillas",
                o.pos_of(target),
            )
        )
        return
    flown = list(w.facts.shipping_flown)
    for pid in o.units:
        if not air.ready_air(w, o, pid, "31.21"):
            return
        if pid in flown:
            w.refuse(
                Violation(
                    "31.24", f"{pid} already flies a Shipping Attack this phase", o.pos_of(pid), pid
                )
            )
            return
        flown.append(pid)
    if len(flown) > MAX_SHIPPING:
        w.refuse(
            Violation(
                "31.23",
                "at most three air units (with escorts) fly Shipping Attacks",
                o.pos_of(o.units[-1]),
            )
        )
        return
    strikers = [p for p in o.units if g.unit(p).values.get("INT", 0) > 0]
    if not strikers:
        w.refuse(Violation("31.21", "none of these air units has an Interdiction rating", o.pos))
        return
    w.put(shipping_flown=flown)
    queue = list(w.facts.shipping_queue)
    queue.append({"air": strikers, "target": target})
    w.put(shipping_queue=queue)


def shipping_column(ship_type: str) -> str:
    if ship_type == "BB":
        return "BB"
    if ship_type in ("CL", "DL"):
        return "CL/DL"
    return "DD/T/Flotilla"


def resolve_shipping(w: Work) -> None:
    """All targets are declared before any roll [31.24]; the AA fire against them goes to the
    host game (``air.py``) [31.25]. Under the reading ``shipping_host_step`` (NM-43) the
    mission's air combat and AA fire come back first as its surviving units (the next step,
    :func:`shipping_result`) and only they roll [31.23], [31.26]; otherwise (NM-18) the order
    listed the survivors and one roll per air unit follows at once. Every unit that flew goes
    to the Flown Box [31.26]."""
    from referee.rules.naval_module.readings import readings_of

    queue = list(w.facts.shipping_queue)
    flown = list(w.facts.shipping_flown)
    host_step = readings_of(w.state).shipping_host_step
    if not host_step:
        air.to_flown_box(w, flown)  # [31.26]
    w.put(shipping_queue=[], shipping_flown=[])
    if not w.live or not queue:
        return
    air.aa_handoffs(w, queue)
    if not host_step:
        roll_shipping(w, queue)
        return
    targets = sorted({str(e["target"]) for e in queue})
    hid = handoff(
        w,
        "shipping",
        "31.23",
        f"air combat against the Shipping Attack of {', '.join(flown)} on "
        f"{', '.join(targets)} (opposing air units), then the AA fire handed off with it; "
        "the mission side signs the surviving mission units, the target's side confirms "
        "them, before any Shipping Attack roll (NM-43)",
        units=flown,
        targets=targets,
    )
    w.put(shipping_combat={"handoff": hid, "units": flown, "queue": queue})


def roll_shipping(w: Work, queue: list[dict]) -> None:
    """One Shipping Attack Table roll per remaining mission unit on its declared ship; the
    damage applies at once [31.26]; an Abort at sea is its owner's choice [27.32b]."""
    table = w.game.module.tables["shipping_attack"]
    for entry in queue:
        sid = entry["target"]
        for pid in entry["air"]:
            if w.state.units[sid].location is None:
                break
            col = shipping_column(w.game.unit(sid).type)
            a, b = w.roll2d6(f"Shipping Attack by {pid} on {sid}", "31.26")
            found = table.lookup(row=a + b, col=col)
            r = parse_result(str(found.text))
            w.note(
                "shipping_attack",
                "31.26",
                f"{pid} attacks {sid}: {col} column, 2d6 {a}+{b} = {a + b}: {r.text}",
                air=pid,
                ship=sid,
                roll=a + b,
                result=r.text,
            )
            damage_ship(w, sid, r.damage, "31.26")
            if r.abort and w.state.units[sid].location is not None:
                in_port = w.state.units[sid].location in w.game.ports
                if not in_port:
                    due = dict(w.facts.abort_due)
                    due[sid] = w.state.units[sid].side
                    w.put(abort_due=due)


def shipping_result(w: Work, orders: list[Order], *, confirming: bool) -> None:
    """The host game's air combat and AA fire against a Shipping Attack mission: the surviving
    mission units, signed by the mission side and then, identically, by the target's side,
    who so confirms the attackers [31.23], [31.25a] (NM-43); then the survivors roll
    [31.24], [31.26] (an escort without an Interdiction rating never rolls [31.21]); then
    every mission unit goes to the Flown Box [31.26]."""
    sc = dict(w.facts.shipping_combat)
    hid = str(sc.get("handoff", ""))
    given: list[str] | None = None
    for o in orders:
        if (o.arg("handoff") or ("",))[0] != hid:
            w.refuse(
                Violation(
                    "31.23", f"no open Shipping Attack hand-off {o.arg('handoff')}", o.pos, hint=hid
                )
            )
            continue
        if given is not None:
            w.refuse(Violation("31.23", f"{hid} has one result, given twice", o.pos))
            continue
        given = list(o.units)
        for pid in given:
            if pid not in sc["units"]:
                w.refuse(
                    Violation(
                        "31.23", f"{pid} did not fly the mission of {hid}", o.pos_of(pid), pid
                    )
                )
    if given is None:
        w.refuse(
            Violation(
                "31.23",
                f"{hid} needs the host game's air combat and AA fire result",
                orders[0].pos if orders else None,
                hint=f"survivors {hid} -> AIR [AIR ...]  or  survivors {hid} none",
            )
        )
        return
    if confirming and sorted(given) != sorted(w.facts.shipping_signed):
        w.refuse(
            Violation(
                "31.23",
                f"{hid}: the mission side signed {w.facts.shipping_signed}, not {given}",
                None,
                hint="both players sign the same host result",
            )
        )
    if w.violations:
        return
    if not confirming:
        w.put(shipping_signed=sorted(given))
        w.note("host_signed", "31.23", f"{hid}: survivors signed: {', '.join(given) or 'none'}")
        return
    offs = [h for h in w.facts.handoffs if h["id"] == hid]
    w.put(
        shipping_combat={},
        shipping_signed=[],
        handoffs=[h for h in w.facts.handoffs if h["id"] != hid],
        handoff_log=[*w.facts.handoff_log, *offs],
    )
    lost = [p for p in sc["units"] if p not in given]
    w.note(
        "shipping_survivors",
        "31.23",
        f"{hid}: {', '.join(given) or 'no mission unit'} survive the air combat and AA fire"
        + (f" ({', '.join(lost)} shot down or turned back)" if lost else ""),
        survivors=sorted(given),
        lost=lost,
    )
    if w.live:
        queue = [{**e, "air": [p for p in e["air"] if p in given]} for e in sc["queue"]]
        roll_shipping(w, [e for e in queue if e["air"]])
    air.to_flown_box(w, list(sc["units"]))  # after the rolls [31.26]


# ---- the host game's results --------------------------------------------------------------
def host_results(w: Work, orders: list[Order], *, confirming: bool) -> None:
    """Every open assault hand-off needs one result; the second signature must repeat the
    first exactly."""
    open_ = {h["id"]: h for h in w.facts.handoffs if h["kind"] == "assault"}
    given: dict[str, str] = {}
    for o in orders:
        hid = (o.arg("handoff") or ("",))[0]
        if hid not in open_:
            w.refuse(
                Violation(
                    "30.16",
                    f"no open assault hand-off {hid!r}",
                    o.pos,
                    hint="open: " + (", ".join(sorted(open_)) or "none"),
                )
            )
            continue
        given[hid] = str(o.mode)
    for hid in sorted(set(open_) - set(given)):
        w.refuse(
            Violation(
                "30.16",
                f"hand-off {hid} needs the host game's result (cleared or held)",
                orders[0].pos if orders else None,
            )
        )
    if confirming:
        first = w.facts.host_signed
        for hid, res in given.items():
            if first.get(hid) != res:
                w.refuse(
                    Violation(
                        "30.16",
                        f"hand-off {hid}: the other player signed {first.get(hid)!r}, not {res!r}",
                        None,
                        hint="both players sign the same host result",
                    )
                )
    if w.violations:
        return
    if not confirming:
        w.put(host_signed=given)
        w.note(
            "host_signed",
            "30.16",
            "host results signed by the phasing player: "
            + ", ".join(f"{k} {v}" for k, v in sorted(given.items())),
            results=given,
        )
        return
    for hid, res in sorted(given.items()):
        h = open_[hid]
        if res == "cleared":
            w.note(
                "assault_cleared",
                "30.16b",
                f"{hid}: {h['target']} cleared: the assaulters must advance onto it",
                handoff=hid,
            )
            side = w.state.units[h["units"][0]].side
            for pid in w.game.ground_at(w.state, h["target"], enemy_of(w.game, side)):
                w.state = place(w.state, pid, None, "host")
                w.note(
                    "defender_gone",
                    "30.16a",
                    f"{pid} leaves {h['target']} by the host game's result (retreat or loss)",
                    unit=pid,
                )
            for sid in sorted(set(h["ships"])):
                mine = [p for p, s in zip(h["units"], h["ships"], strict=True) if s == sid]
                mine = [p for p in mine if w.state.units[p].box == f"aboard:{sid}"]
                if mine:
                    land(w, sid, mine, h["target"], "30.16b")
            advance_flotillas(w, list(h.get("flotillas", [])), h["target"])
        else:
            w.note(
                "assault_held",
                "30.16c",
                f"{hid}: {h['target']} held: the survivors stay at "
                "sea and may assault again next turn without a new loss roll",
                handoff=hid,
            )
    log = list(w.facts.handoff_log) + list(w.facts.handoffs)
    w.put(handoffs=[], host_signed={}, handoff_log=log)
