"""Air missions against naval units [31.x]: the Naval Movement Interdiction Box with the Soviet
naval fighters opposing it [31.1x], the Shipping Attack's timing and the Flown Box [31.22],
and the Naval AA fire against a Shipping Attack [31.25], handed to the host game.

Air combat and the AA die roll are the host series' ([14.4], not in the text). What the naval
rules decide is who may fly and when, who opposes, what survives does to the Interdiction
Level, who fires AA and with what DRM cap:

* the box [31.11]-[31.13]: the mission player's ``interdict`` order allocates at most three air
  units; the Soviet player opposes with up to three naval fighters -- his standing ``oppose``
  order, else a pending decision -- and when he does the air combat goes to the host game, whose
  result (the surviving box units) both players sign (``survivors``, docs/interpretations.md
  NM-23); the survivors' Interdiction ratings give the level, at most 2; every box unit then
  goes to the Flown Box [31.13];
* Shipping Attacks [31.22]: by Ready (not Flown) air units, in the Axis Combat Phase on Soviet
  ships at sea or in port, in the Axis Reaction Phase on Soviet ships at sea only (NM-24);
* AA [31.25]: the target fires for itself unless it is a Transport; a Transport in port is
  covered by one warship stacked with it that is not itself a target this phase [31.25b]; a
  Transport at sea has no AA; in-range ground AA or HQ fire adds up to +2, only in port; ships
  never add together. The ``shipping`` order lists the air units left after the host game's
  air combat and AA fire (NM-18).
"""

from __future__ import annotations

from itertools import combinations

from referee.engine.core import GameState, PendingDecision, Violation
from referee.engine.orders import Order
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.facts import facts_of
from referee.rules.naval_module.host import handoff
from referee.rules.naval_module.work import Work

MAX_BOX = 3  # [31.11]
MAX_LEVEL = 2  # [31.13]
MAX_OPPOSING = 3  # [31.13]
PORT_AA_MAX = 2  # [31.25a]
SOVIET, AXIS = "Soviet", "Axis"
NONE = "none"
OPPOSE_ID = "oppose-box"


# ---- the Flown Box [31.13], [31.22], [31.26] ---------------------------------------------------
def flown(state: GameState, side: str) -> list[str]:
    """The side's air units in the Flown Box: not Ready for another mission this Game-Turn
    (the host series' refit is not in the text: NM-25)."""
    return list(facts_of(state).flown.get(side, []))


def to_flown_box(w: Work, units: list[str]) -> None:
    box = {k: list(v) for k, v in w.facts.flown.items()}
    for pid in units:
        side = w.state.units[pid].side
        if pid not in box.setdefault(side, []):
            box[side].append(pid)
    w.put(flown={k: sorted(v) for k, v in sorted(box.items())})


def ready_air(w: Work, o: Order, pid: str, rule: str) -> bool:
    """``pid`` is an air unit of the writer and not in the Flown Box [31.22]."""
    u = w.state.units.get(pid)
    if u is None or u.side != w.side or w.game.unit(pid).category != "air":
        from referee.engine.vocabulary import nearest_names_hint

        mine = [
            p
            for p, x in w.state.units.items()
            if x.side == w.side and w.game.unit(p).category == "air"
        ]
        hint = nearest_names_hint(pid, mine) or "your air units: " + ", ".join(sorted(mine))
        w.refuse(Violation(rule, f"{pid} is not an air unit of yours", o.pos_of(pid), pid, hint))
        return False
    if pid in flown(w.state, w.side):
        w.refuse(
            Violation(
                "31.22",
                f"{pid} is in the Flown Box: only Ready air units fly a mission",
                o.pos_of(pid),
                pid,
                hint="air units flown this Game-Turn are Ready again the next one",
            )
        )
        return False
    return True


def _rating(w: Work, pid: str) -> int:
    return int(w.game.unit(pid).values.get("INT", 0))


# ---- the Naval Movement Interdiction Box [31.11]-[31.13] --------------------------------------
def interdiction_phase(w: Work, orders: list[Order], against: str) -> None:
    """Up to three air units in the box, at least one with an Interdiction rating [31.11];
    Soviet naval fighters may oppose it [31.13]; no AA fire against this mission [31.13]."""
    listed: list[str] = []
    for o in orders:
        for pid in o.units:
            if not ready_air(w, o, pid, "31.11"):
                continue
            if pid in listed:
                w.refuse(
                    Violation(
                        "31.11", f"{pid} is listed twice", o.pos_of(pid), pid, hint="name it once"
                    )
                )
                continue
            listed.append(pid)
            if len(listed) > MAX_BOX:
                w.refuse(
                    Violation(
                        "31.11",
                        "at most three air units (mission and escort) in the Naval "
                        "Movement Interdiction Box",
                        o.pos_of(pid),
                        pid,
                    )
                )
    if listed and not [p for p in listed if _rating(w, p) > 0]:
        w.refuse(
            Violation(
                "31.11",
                "no air unit with an Interdiction rating: escorts alone fly no mission",
                orders[0].pos,
            )
        )
    box = {"side": w.side, "against": against, "units": listed}
    if not listed or w.violations or against != SOVIET or not naval_fighters(w.game, w.state):
        set_level(w, box, listed)
        return
    choice = standing_opposition(w.game, w.state)
    if choice is not None:
        oppose(w, box, choice)
        return
    options = opposition_options(naval_fighters(w.game, w.state))
    pd = PendingDecision(
        id=OPPOSE_ID,
        side=SOVIET,
        kind="oppose",
        rule="31.13",
        prompt=f"Soviet naval fighters opposing the Naval Movement Interdiction mission of "
        f"{', '.join(listed)}: none, or up to three joined by '+'",
        options=options,
        context={"box": box},
    )
    w.state = w.state.evolve(pending=(*w.state.pending, pd))
    w.note("decision", "31.13", f"{SOVIET} decides which naval fighters oppose the box")


def naval_fighters(game: Game, state: GameState) -> list[str]:
    """The Soviet naval fighters that may oppose the box: in play, not Flown [31.13]."""
    gone = set(flown(state, SOVIET))
    return [
        u.id
        for u in sorted(state.units.values(), key=lambda x: x.id)
        if u.side == SOVIET
        and u.location is not None
        and game.unit(u.id).category == "air"
        and "naval_fighter" in game.unit(u.id).flags
        and u.id not in gone
    ]


def opposition_options(fighters: list[str]) -> tuple[str, ...]:
    """``none`` and every set of one to three fighters, joined by ``+`` [31.13]."""
    sets = [
        "+".join(c) for n in range(1, MAX_OPPOSING + 1) for c in combinations(sorted(fighters), n)
    ]
    return (NONE, *sets)


def standing_opposition(game: Game, state: GameState) -> list[str] | None:
    """The Soviet standing ``oppose`` order, if any: the fighters named that may still
    oppose (``none``: no opposition) [31.13]."""
    for j in facts_of(state).standing.get(SOVIET) or []:
        o = Order.from_json(j)
        if o.verb == "oppose":
            able = set(naval_fighters(game, state))
            return [p for p in o.units if p in able][:MAX_OPPOSING]
    return None


def check_oppose_order(w: Work, o: Order) -> None:
    """A standing ``oppose`` order names at most three Soviet naval fighters [31.13]."""
    if w.side != SOVIET:
        w.refuse(Violation("31.13", "only Soviet naval fighters oppose the box", o.pos))
        return
    for pid in o.units:
        u = w.state.units.get(pid)
        if u is None or u.side != SOVIET or "naval_fighter" not in w.game.unit(pid).flags:
            w.refuse(
                Violation(
                    "31.13",
                    f"{pid} is not a Soviet naval fighter: other fighters cannot oppose",
                    o.pos_of(pid),
                    pid,
                )
            )
    if len(o.units) > MAX_OPPOSING:
        w.refuse(
            Violation("31.13", "at most three naval fighters oppose the box", o.pos_of(o.units[-1]))
        )


def answer_opposition(w: Work, box: dict, value: str) -> None:
    oppose(w, box, [] if value == NONE else value.split("+"))


def oppose(w: Work, box: dict, fighters: list[str]) -> None:
    """No opposition: the box's units all survive. Opposition: the air combat is the host
    game's, handed off; its signed result sets the level [31.13]."""
    if not fighters:
        w.note("no_opposition", "31.13", "no Soviet naval fighter opposes the box")
        set_level(w, box, list(box["units"]))
        return
    hid = handoff(
        w,
        "air_combat",
        "31.13",
        f"air combat in the Naval Movement Interdiction Box: {', '.join(box['units'])} "
        f"opposed by {', '.join(fighters)}; no AA fire against this mission [31.13 note]; "
        "both players sign which box units survive",
        units=list(box["units"]),
        fighters=fighters,
    )
    w.put(box_combat={**box, "handoff": hid, "fighters": fighters})


def set_level(w: Work, box: dict, survivors: list[str]) -> None:
    """The survivors' Interdiction ratings, at most Level 2, excess ignored; every box unit
    goes to the Flown Box [31.13]."""
    total = sum(_rating(w, p) for p in survivors)
    level = min(MAX_LEVEL, total)
    inter = dict(w.facts.interdiction)
    inter[str(box["against"])] = level
    # who flies in the box, by owner: the VASSAL position shows them there [31.11]
    in_box = dict(w.facts.interdiction_box)
    in_box[str(box["side"])] = sorted(survivors)
    w.put(interdiction=inter, interdiction_box=in_box)
    if not box["units"]:
        return
    lost = [p for p in box["units"] if p not in survivors]
    w.note(
        "interdiction",
        "31.13",
        f"Naval Movement Interdiction Box: {', '.join(survivors) or 'no survivor'}"
        + (f" ({', '.join(lost)} lost in air combat)" if lost else "")
        + f"; Interdiction Level {level}"
        + (" (excess ignored)" if total > level else ""),
        units=survivors,
        level=level,
    )
    to_flown_box(w, list(box["units"]))


def air_combat_result(w: Work, orders: list[Order], *, confirming: bool) -> None:
    """The host game's air combat result for the box, signed by the mission player and then,
    identically, by the Soviet player (NM-23)."""
    bc = dict(w.facts.box_combat)
    hid = str(bc.get("handoff", ""))
    given: list[str] | None = None
    for o in orders:
        if (o.arg("handoff") or ("",))[0] != hid:
            w.refuse(
                Violation(
                    "31.13", f"no open air combat hand-off {o.arg('handoff')}", o.pos, hint=hid
                )
            )
            continue
        if given is not None:
            w.refuse(
                Violation(
                    "31.13",
                    f"{hid} has one result, given twice",
                    o.pos,
                    hint="keep one survivors line",
                )
            )
            continue
        given = list(o.units)
        for pid in given:
            if pid not in bc["units"]:
                w.refuse(
                    Violation(
                        "31.13",
                        f"{pid} is not in the box of {hid}",
                        o.pos_of(pid),
                        pid,
                        hint=f"the box holds {', '.join(bc['units']) or 'no unit'}",
                    )
                )
    if given is None:
        w.refuse(
            Violation(
                "31.13",
                f"{hid} needs the host game's air combat result",
                orders[0].pos if orders else None,
                hint=f"survivors {hid} -> AIR [AIR ...]  or  survivors {hid} none",
            )
        )
        return
    if confirming and sorted(given) != sorted(w.facts.box_signed):
        w.refuse(
            Violation(
                "31.13",
                f"{hid}: the other player signed {w.facts.box_signed}, not {given}",
                None,
                hint="both players sign the same host result",
            )
        )
    if w.violations:
        return
    if not confirming:
        w.put(box_signed=sorted(given))
        w.note("host_signed", "31.13", f"{hid}: survivors signed: {', '.join(given) or 'none'}")
        return
    w.put(box_combat={}, box_signed=[])
    offs = [h for h in w.facts.handoffs if h["id"] == hid]
    w.put(
        handoffs=[h for h in w.facts.handoffs if h["id"] != hid],
        handoff_log=[*w.facts.handoff_log, *offs],
    )
    set_level(w, bc, [p for p in bc["units"] if p in given])


# ---- Shipping Attacks: when [31.22] -------------------------------------------------------------
def shipping_side_31_22(w: Work, o: Order) -> bool:
    """Axis air in the Axis Combat Phase or the Axis Reaction Phase (NM-24) [31.22]."""
    if w.side == AXIS and w.state.phase in ("combat", "reaction"):
        return True
    w.refuse(
        Violation(
            "31.22",
            "Shipping Attack missions fly in the Axis Combat Phase or the Axis Reaction Phase",
            o.pos,
        )
    )
    return False


def shipping_target_31_22(w: Work, o: Order, target: str) -> bool:
    """In the Reaction Phase only naval units still at sea [31.22]."""
    if w.state.phase != "reaction" or w.state.units[target].location not in w.game.ports:
        return True
    w.refuse(
        Violation(
            "31.22",
            f"{target} is in port: in the Reaction Phase air attacks only naval units at sea",
            o.pos_of(target),
        )
    )
    return False


def reaction_due(game: Game, state: GameState) -> bool:
    """The Axis Reaction Phase has a step when the Soviets are phasing, a Soviet naval unit
    (not a flotilla [32.14]) is at sea and a Ready Axis air unit has an Interdiction rating."""
    if facts_of(state).phasing != SOVIET:
        return False
    gone = set(flown(state, AXIS))
    air = any(
        u.side == AXIS
        and game.unit(u.id).category == "air"
        and game.unit(u.id).values.get("INT", 0) > 0
        and u.id not in gone
        for u in state.units.values()
    )
    return air and any(
        u.side == SOVIET
        and u.location is not None
        and u.location not in game.ports
        and game.is_ship(u.id)
        and not game.ship(state, u.id).is_flotilla
        for u in state.units.values()
    )


# ---- Naval AA fire [31.25] ----------------------------------------------------------------------
def aa_firer_31_25(w: Work, sid: str, targets: set[str]) -> tuple[str | None, str]:
    """The naval unit that fires AA for ``sid`` and the case that says so."""
    g = w.game
    u = w.state.units[sid]
    if g.unit(sid).type != "T":
        return sid, "31.25a"
    if u.location not in g.ports:
        return None, "31.25b"
    cover = [
        o.id
        for o in sorted(w.state.units.values(), key=lambda x: x.id)
        if o.side == u.side
        and o.location == u.location
        and o.id != sid
        and g.is_ship(o.id)
        and g.unit(o.id).type != "T"
        and not g.ship(w.state, o.id).is_flotilla
        and o.id not in targets
    ]
    return (cover[0] if cover else None), "31.25b"


def aa_handoffs(w: Work, queue: list[dict]) -> None:
    """One AA hand-off per declared target naval unit [31.25]."""
    targets = {str(e["target"]) for e in queue}
    for sid in sorted(targets):
        air = [p for e in queue if e["target"] == sid for p in e["air"]]
        firer, rule = aa_firer_31_25(w, sid, targets)
        in_port = w.state.units[sid].location in w.game.ports
        cap = PORT_AA_MAX if in_port else 0
        if firer is None:
            text = f"no AA fire for the Transport {sid}: " + (
                "no warship in its port that is not itself attacked" if in_port else "at sea"
            )
        else:
            text = (
                f"{firer} fires AA against {', '.join(air)} attacking {sid}"
                + (" (covering the Transport)" if firer != sid else "")
                + (
                    f"; in-range ground AA or HQ fire adds up to +{cap} in port"
                    if cap
                    else "; no ground AA at sea"
                )
            )
        handoff(w, "aa", rule, text, ship=sid, firer=firer, air=air, port_aa_max=cap)
