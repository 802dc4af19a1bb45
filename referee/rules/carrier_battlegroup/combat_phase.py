"""The Combat Phase [5.0 step 6]: contact [18.0] and the Tactical Routine [20.0] in every
space where USN and Soviet units meet, then after the battle [22.8], the result and its
fruits [20.2 step 5], [20.3], withdrawal of the loser, and ammunition [20.5]. One battle per
space per turn [20.4].
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState, Violation
from referee.engine.graphboard import PointBoard
from referee.engine.orders import Order
from referee.engine.vocabulary import match_name
from referee.rules.carrier_battlegroup import (
    aftermath,
    battle,
    contact,
    crews,
    readings,
    soviet,
    victory,
)
from referee.rules.carrier_battlegroup.battle import Battle, Fighter
from referee.rules.carrier_battlegroup.damage import Condition
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.readings import readings_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module


def _cond(module: Module, state: GameState, pid: str) -> Condition:
    u = module.piece(pid).unit
    c = facts_of(state).conditions.get(pid, {})
    carried = sum(1 for s in facts_of(state).missiles.values() if s == pid)
    return Condition(
        u.values["DEF"], int(c.get("damage", 0)), bool(c.get("crippled", False)), missiles=carried
    )


def _fighter(module: Module, state: GameState, pid: str) -> Fighter:
    u = module.piece(pid).unit
    return Fighter(
        pid,
        u.side,
        u.category,
        u.type,
        dict(u.values),
        _cond(module, state, pid),
        glitch="glitch" in u.flags,
        carrier=pid == CARRIER,
    )


def crew_bonuses_21_5(module: Module, state: GameState) -> tuple[dict[str, int], dict[str, int]]:
    """The Crew Chart's additions of the crews aboard: (to the carrier, to its aircraft)."""
    table = module.tables["crew"]
    carrier: dict[str, int] = {}
    pilots: dict[str, int] = {}
    for pid in facts_of(state).crews:
        found = table.find(row=module.piece(pid).unit.name, col="AA")
        if found is None:
            continue
        to = pilots if found.row.text == "Top Gun" else carrier
        for cat in ("AA", "AS", "ASW"):
            to[cat] = to.get(cat, 0) + int(table.lookup(row=found.row.text, col=cat).value)
    return carrier, pilots


def soviet_here(state: GameState, space: str) -> list[str]:
    return sorted(
        u.id
        for u in state.units.values()
        if u.side == "Soviet" and u.location == space and not u.id.startswith("SO-SBG")
    )


def combat_phase(
    module: Module,
    state: GameState,
    dice: Dice,
    strikes: dict[str, list[str]],
    standing: dict[str, Any],
    events: list[Event],
    onward: dict[str, list[str]] | None = None,
) -> GameState:
    """[5.0 step 6] every space with both sides, the CVBG's first. ``strikes``: the standoff
    units at each space; ``onward``: for a unit an SBG stopped on its way [12.4], the spaces
    it flies on to, one after the other, while no contact occurs where it stands."""
    cvbg_space = facts_of(state).cvbg["space"]
    strikes = {k: list(v) for k, v in strikes.items()}
    onward = {k: list(v) for k, v in (onward or {}).items()}
    queue = [cvbg_space, *sorted(s for s in strikes if s != cvbg_space)]
    done: list[str] = []
    inc = facts_of(state).incident or {}
    while queue:
        space = queue.pop(0)
        if space in done:
            continue
        done.append(space)
        state = recon_11_3(module, state, space, strikes.get(space, []), events)
        sov = soviet_here(state, space)
        usn = list(facts_of(state).cvbg["ships"]) if space == cvbg_space else []
        usn += strikes.get(space, [])
        contact_ = False
        if sov and usn:
            auto = bool(inc.get("contact")) and inc.get("space") == space
            state, contact_ = _one_battle(
                module, state, dice, space, usn, sov, auto, standing, events
            )
        if not contact_:
            state, reached = _fly_on_12_4(state, space, strikes, onward, done, events)
            queue += [s for s in reached if s not in queue]
    if readings_of(state).incident_units_leave:
        state = incident_units_leave_18_1(module, state, inc, events)
    return CbgFacts.put(state, incident=None)


def _fly_on_12_4(
    state: GameState,
    space: str,
    strikes: dict[str, list[str]],
    onward: dict[str, list[str]],
    done: list[str],
    events: list[Event],
) -> tuple[GameState, list[str]]:
    """[12.4] no contact at an SBG that stopped standoff units: "Standoff units may continue
    to move", to the next SBG on the way or their target. A space whose battle is already
    fought this turn gives them none [20.4]. Returns the state and the spaces reached, in
    name order, for the Combat Phase to take in turn."""
    going = [p for p in strikes.get(space, []) if onward.get(p)]
    reached: dict[str, list[str]] = {}
    for pid in going:
        to = onward[pid].pop(0)
        strikes[space].remove(pid)
        strikes.setdefault(to, []).append(pid)
        reached.setdefault(to, []).append(pid)
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, to, None, u.status))
    for to, units in sorted(reached.items()):
        late = " (a battle was fought there this turn: no other [20.4])" if to in done else ""
        events.append(
            Event(
                "strike_on",
                "12.4",
                f"no contact at {space}: {', '.join(units)} fly on to {to}{late}",
                {"units": units, "from": space, "to": to},
            )
        )
    return state, [to for to in sorted(reached) if to not in done]


def incident_units_leave_18_1(
    module: Module, state: GameState, inc: dict[str, Any], events: list[Event]
) -> GameState:
    """[18.1 step 4] no contact: the two sides only co-exist "for the rest of that game
    turn"; the units an incident generated that are still in the space, not revealed by a
    battle, go back to their pools face down (docs/interpretations.md, CBG 18.1 step 4)."""
    space = inc.get("space")
    left = [
        p
        for p in inc.get("generated") or []
        if p in state.units
        and state.units[p].location == space
        and p not in facts_of(state).revealed
    ]
    if not left:
        return state
    pools_ = {k: list(v) for k, v in facts_of(state).pools.items()}
    for p in left:
        pool = "standoff" if module.piece(p).unit.category in ("air", "missile") else "warships"
        pools_[pool].append(p)
        state = state.with_unit(UnitState(p, "Soviet", None, "pool"))
    events.append(
        Event(
            "incident_units_leave",
            "18.1",
            f"no contact at {space}: the {len(left)} Soviet unit(s) the incidents generated "
            "leave unseen at the end of the turn [18.1 step 4]",
            {"count": len(left)},
        )
    )
    return CbgFacts.put(state, pools=pools_)


def _attacker_20_1(state: GameState, space: str, auto: bool) -> str:
    """[20.1] the side that entered; incident units attack, except with a Contact chit."""
    if auto:
        return "USN"
    inc = facts_of(state).incident or {}
    if inc.get("space") == space and inc.get("generated"):
        return "Soviet"
    return (
        "USN"
        if facts_of(state).entered == space or space != facts_of(state).cvbg["space"]
        else "Soviet"
    )


def reveal_space(
    state: GameState, space: str, sov: list[str], rule: str, events: list[Event]
) -> GameState:
    """Every Soviet unit in ``space`` face up for good: the SBGs there, the coastal defense
    units, the rest; a Glitch goes back to its pool [17.0], [17.1]. ``rule`` is what
    revealed them: contact [17.0] or an aircraft's reconnaissance [11.3]."""
    hidden = [p for p in sov if p not in facts_of(state).revealed]
    for name, g in facts_of(state).sbgs.items():
        if g["space"] == space and not g["revealed"]:
            state = soviet.reveal_sbg(state, name, rule, events)
    if facts_of(state).coastal["space"] == space and not facts_of(state).coastal["revealed"]:
        state = CbgFacts.put(state, coastal={**facts_of(state).coastal, "revealed": True})
    return soviet.reveal_17_0(
        state,
        [
            p
            for p in hidden
            if p in state.units
            and state.units[p].location == space
            and p not in facts_of(state).revealed
        ],
        rule,
        events,
    )


def recon_11_3(
    module: Module, state: GameState, space: str, flown: list[str], events: list[Event]
) -> GameState:
    """[11.3]: air units flown into a space with an SBG or coastal defense units reveal every
    enemy unit there, contact or not (the battle usually follows)."""
    if not any(module.piece(p).unit.category == "air" for p in flown):
        return state
    sbg = any(g["space"] == space for g in facts_of(state).sbgs.values())
    coastal = facts_of(state).coastal["space"] == space and bool(facts_of(state).coastal["units"])
    if not (sbg or coastal):
        return state
    sov = soviet_here(state, space)
    if all(p in facts_of(state).revealed for p in sov):
        return state
    events.append(
        Event("recon", "11.3", f"{space}: aircraft reconnoitre the space; every unit is revealed")
    )
    return reveal_space(state, space, sov, "11.3", events)


def _one_battle(
    module: Module,
    state: GameState,
    dice: Dice,
    space: str,
    usn: list[str],
    sov: list[str],
    auto: bool,
    standing: dict[str, Any],
    events: list[Event],
) -> tuple[GameState, bool]:
    """The contact roll and, on contact, the Tactical Routine in one space [18.0]-[22.8];
    also whether contact occurred (standoff units an SBG stopped fly on without it
    [12.4])."""
    fighters = [_fighter(module, state, p) for p in usn + sov]
    systems = dict(facts_of(state).carrier)
    attacker = _attacker_20_1(state, space, auto)
    edge = _contact_18_1(module, state, dice, space, usn, sov, auto, events)
    if edge is None:
        return state, False
    # [17.0] contact reveals every Soviet unit in the space
    state = reveal_space(state, space, sov, "17.0", events)
    sov = soviet_here(state, space)
    if "SO-KIEV" in sov:  # [15.0], [20.2 step 2] the five CVL-1 aircraft deploy with it
        aircraft = [
            p
            for p, pc in module.pieces().items()
            if pc.unit.side == "Soviet"
            and "carrier" in pc.unit.flags
            and state.units[p].box != "sunk"
        ]
        # [17.0]: they fight on the Tactical Display, so the player sees them from now on
        state = soviet.reveal_17_0(
            state, [p for p in aircraft if p not in facts_of(state).revealed], "17.0", events
        )
        sov += aircraft
    fighters = [f for f in fighters if f.side == "USN"] + [_fighter(module, state, p) for p in sov]
    if not sov:
        events.append(Event("battle", "17.1", f"{space}: only Glitches were there; no battle"))
        return state, True
    if edge == "USN" and standing.get("breakoff"):
        state, stay = _break_off_18_2(module, state, space, usn, standing, events)
        if not stay:
            return state, True
        fighters = [f for f in fighters if f.side == "Soviet" or f.id in stay]
    b = Battle(space, edge, attacker, fighters, systems, facts_of(state).ammo)
    b.crew, b.pilots = crew_bonuses_21_5(module, state)
    b.readings = readings_of(state)
    events.append(
        Event(
            "battle",
            "20.0",
            f"Tactical Routine at {space}: attacker {attacker}, Tactical Edge {edge}",
            {"space": space},
        )
    )
    battle.deploy_20_2(b, dice, set(standing.get("outer", ())))
    battle.fight_20_2(b, module, dice)
    events.extend(b.events)
    return _after_battle_22_8(module, state, b, events), True


def _contact_18_1(
    module: Module,
    state: GameState,
    dice: Dice,
    space: str,
    usn: list[str],
    sov: list[str],
    auto: bool,
    events: list[Event],
) -> str | None:
    """[18.0], [18.1]: the side with the Tactical Edge ("none": neither), or None when no
    contact occurs. A Contact chit makes contact automatic, the USN attacking [20.1]; the
    Edge it gives is a declared reading (switch ``contact_chit_gives_edge``)."""
    rd = readings_of(state)
    chit = f"{space}: a Contact chit makes contact automatic; the USN attacks"
    tag = readings.label(rd, "contact_chit_gives_edge")
    if auto and rd.contact_chit_gives_edge:
        said = f"{chit} with the Tactical Edge ({tag})" if tag else chit
        events.append(Event("contact", "18.0", said))
        return "USN"
    systems = facts_of(state).carrier
    carrier_ew = crews.carrier_ew_3_5(module, state)
    usn_ews = [carrier_ew if p == CARRIER else module.piece(p).unit.values["EW"] for p in usn]
    sov_ews = [
        module.piece(p).unit.values["EW"] for p in sov if module.piece(p).unit.category != "coastal"
    ]
    standoff_only = space != facts_of(state).cvbg["space"]
    u_r = contact.usn_rating_18_1(
        systems["CIC"], systems["CAG"], usn_ews, standoff_only=standoff_only
    )
    s_r = contact.soviet_rating_18_1(sov_ews, facts_of(state).alert)
    r = dice.roll(6, f"contact at {space}", "18.1")
    res = contact.read_chart_18_1(module, u_r, s_r, r)
    data = {
        "usn": u_r,
        "soviet": s_r,
        "roll": r,
        "total": res.total,
        "contact": res.contact,
        "edge": res.edge,
    }
    sums = f"USN {u_r} - Soviet {s_r} + d6 {r} = {res.total}"
    if auto:
        edge = res.edge if res.contact else "none"
        events.append(
            Event(
                "contact",
                "18.0",
                f"{chit}; the Tactical Edge from the Contact Chart: {sums}: {edge} ({res.how}"
                + (f"; {tag})" if tag else ")"),
                {**data, "contact": True, "edge": edge},
            )
        )
        return edge
    events.append(
        Event(
            "contact",
            "18.1",
            f"{space}: {sums}: "
            + (f"contact, Tactical Edge {res.edge}" if res.contact else "no contact")
            + f" ({res.how})",
            data,
        )
    )
    return res.edge if res.contact else None


def check_break_off_18_2(board: PointBoard, o: Order) -> list[Violation]:
    """``breakoff yes -> SPACE ...``: each space the player names is a space of the map
    (the nearest names as the hint) [18.2]."""
    out: list[Violation] = []
    for written in o.hexes:
        got, hint = match_name(written, board.locations())
        if got is None:
            out.append(
                Violation(
                    "18.2",
                    f"expected a space of the map to break off into, found {written!r}",
                    hint=hint or "write the space's name as the map prints it",
                ).at(o)
            )
    return out


def _break_off_18_2(
    module: Module,
    state: GameState,
    space: str,
    usn: list[str],
    standing: dict[str, Any],
    events: list[Event],
) -> tuple[GameState, list[str]]:
    """[18.2] with the Tactical Edge the player's standing ``breakoff`` takes his units in
    ``space`` out of the battle: the CVBG moves one space closer to a NATO base (his named
    space when one is legal), the aircraft there land at once; "Cruise missiles may not
    break-off", so they stay. 1 Fuel if the CVBG has a non-nuclear ship; none: no break-off.
    Returns the state and the USN units that still fight (all of them: no break-off)."""
    cvbg_here = space == facts_of(state).cvbg["space"]
    if not readings_of(state).breakoff_by_the_player:
        older = _break_off_older_18_2(module, state, space, events) if cvbg_here else None
        return (state, usn) if older is None else (older, [])
    if standing["breakoff"] not in ("all", "yes" if cvbg_here else "strikes"):
        return state, usn
    stay = [p for p in usn if module.piece(p).unit.category == "missile"]
    leave = [p for p in usn if p not in stay]
    needs = any("nuclear" not in module.piece(p).unit.flags for p in facts_of(state).cvbg["ships"])
    if not contact.may_break_off_18_2(
        "USN", cruise_missiles_only=not leave, fuel=facts_of(state).fuel, needs_fuel=needs
    ):
        why = "cruise missiles may not break off" if not leave else "no Fuel: no break-off"
        events.append(Event("breakoff", "18.2", f"{space}: {why}"))
        return state, usn
    said = f"{space}: "
    if cvbg_here:
        to, how = _break_off_space(module, state, space, standing.get("breakoff_to") or [])
        if to is None:
            events.append(Event("breakoff", "18.2", f"{space}: no space to break off into"))
            return state, usn
        state = _move_cvbg(state, to)
        said += f"the CVBG breaks off to {to} ({how})"
    aircraft = [p for p in leave if module.piece(p).unit.category == "air"]
    if aircraft:
        state = _land_18_2(module, state, aircraft)
        said += ("; " if cvbg_here else "") + f"{', '.join(aircraft)} break off and land"
    if needs:
        state = CbgFacts.put(state, fuel=facts_of(state).fuel - 1)
    said += " (1 Fuel)" if needs else ""
    if stay:
        said += f"; {', '.join(stay)} may not break off and fight on"
    events.append(
        Event("breakoff", "18.2", said, {"to": facts_of(state).cvbg["space"], "land": aircraft})
    )
    return state, stay


def _break_off_older_18_2(
    module: Module, state: GameState, space: str, events: list[Event]
) -> GameState | None:
    """[18.2] as a game begun before ``breakoff_by_the_player`` plays it: the CVBG, one
    space closer to the nearest NATO base, never into an SBG; 1 Fuel for non-nuclear ships;
    every unit in its space leaves the battle (None: no break-off)."""
    needs = any("nuclear" not in module.piece(p).unit.flags for p in facts_of(state).cvbg["ships"])
    if needs and facts_of(state).fuel < 1:
        events.append(Event("breakoff", "18.2", "no Fuel: the CVBG cannot break off"))
        return None
    to = _toward_base(module, state, space, "nato_base")
    if to is None:
        events.append(Event("breakoff", "18.2", "no space to break off into"))
        return None
    state = _move_cvbg(state, to)
    if needs:
        state = CbgFacts.put(state, fuel=facts_of(state).fuel - 1)
    said = f"the CVBG breaks off to {to}" + (" (1 Fuel)" if needs else "")
    events.append(Event("breakoff", "18.2", said, {"to": to}))
    return state


def _land_18_2(module: Module, state: GameState, aircraft: list[str]) -> GameState:
    """[18.2] "Air units that break-off must immediately land (recover)": carrier aircraft
    in the carrier's hangar, land-based ones on their base [15.2]."""
    air = dict(facts_of(state).air)
    for pid in aircraft:
        if "land" in module.piece(pid).unit.flags:
            state = state.with_unit(UnitState(pid, "USN", air[pid], None))
        else:
            air[pid] = "hangar"
            state = state.with_unit(UnitState(pid, "USN", None, f"hangar:{CARRIER}"))
    return CbgFacts.put(state, air=air)


def _break_off_space(
    module: Module, state: GameState, space: str, wanted: list[str]
) -> tuple[str | None, str]:
    """[18.2] where the CVBG breaks off to: "one space closer to any NATO base, into any
    adjacent playable sea space (or into a NATO Base), but never into a space containing a
    SBG". The first space of the player's list that is legal; else (the referee's default)
    one space toward the nearest NATO base. Returns the space and how it was chosen."""
    board = PointBoard(module.map)
    bases = [s for s in board.locations() if board.terrain(s) == "nato_base"]
    sbgs = {g["space"] for g in facts_of(state).sbgs.values()}
    legal = {
        n
        for n in board.neighbours(space)
        if n not in sbgs and any(board.distance(n, b) < board.distance(space, b) for b in bases)
    }
    for written in wanted:
        got = match_name(written, board.locations())[0]
        if got in legal:
            return got, "the first legal space of your breakoff list"
    default = _toward_base(module, state, space, "nato_base")
    if wanted:
        return default, (
            f"none of {', '.join(wanted)} is adjacent, closer to a NATO base and free of "
            "SBGs: one space toward the nearest NATO base"
        )
    return default, "your breakoff names no space: one space toward the nearest NATO base"


def _toward_base(module: Module, state: GameState, space: str, base: str) -> str | None:
    """An adjacent space closer to a friendly base with no enemy SBG/warships [18.2], [20.2 5]."""
    board = PointBoard(module.map)
    closed = soviet.closed_bases_23_2(state) if base == "soviet_base" else set()
    bases = [s for s in board.locations() if board.terrain(s) == base and s not in closed]
    if not bases:
        return None

    def dist(s: str) -> int:
        return min(board.distance(s, b) for b in bases)

    here = dist(space)
    enemy = (
        {g["space"] for g in facts_of(state).sbgs.values()}
        if base == "nato_base"
        else soviet.usn_spaces(state)
    )
    for n in sorted(board.neighbours(space), key=lambda s: (dist(s), s)):
        if dist(n) < here and n not in enemy:
            return n
    return None


def _move_cvbg(state: GameState, to: str) -> GameState:
    for pid in [*facts_of(state).cvbg["ships"], "US-CVBG"]:
        u = state.units[pid]
        state = state.with_unit(UnitState(pid, u.side, to, None, u.status))
    return CbgFacts.put(state, cvbg={**facts_of(state).cvbg, "space": to})


def _after_battle_22_8(
    module: Module, state: GameState, b: Battle, events: list[Event]
) -> GameState:
    """After the battle: the losses [22.8], then the result and what follows from it."""
    state = aftermath.losses_22_8(module, state, b, events)
    return _result_20_2(module, state, b, events)


def _result_20_2(module: Module, state: GameState, b: Battle, events: list[Event]) -> GameState:
    """[20.2 step 5] the result, its fruits [20.3], the loser's withdrawal [20.2 step 5],
    Ammunition [20.5] and the carrier's sinking [24.2]."""
    result = battle.result_20_2(b)
    cvbg_in = any(f.id == CARRIER for f in b.fighters)
    aircraft_only = not cvbg_in and all(f.category == "air" for f in b.side("USN"))
    events.append(
        Event(
            "battle_result",
            "20.2",
            f"battle at {b.space}: "
            + ("a draw" if result == "draw" else f"{result} wins")
            + _missiles_in_result(b),
            {"result": result},
        )
    )
    fruits = victory.fruits_20_3(result, cvbg=cvbg_in, aircraft_only=aircraft_only)
    if fruits:
        sysd = dict(facts_of(state).carrier)
        for k, d in fruits.items():
            sysd[k] = max(0, sysd[k] + d)
        state = CbgFacts.put(state, carrier=sysd)
        events.append(
            Event("fruits", "20.3", ", ".join(f"{k} {d:+d}" for k, d in fruits.items()), fruits)
        )
    state = crews.camera_crew_3_5(module, state, result, b.space, events)
    state = _loser_withdraws_20_2(module, state, b, result, cvbg_in, events)
    if not aircraft_only:
        ammo = max(0, facts_of(state).ammo - 1)
        state = CbgFacts.put(state, ammo=ammo)
        events.append(Event("ammunition", "20.5", f"Ammunition -> {ammo}", {"ammo": ammo}))
    if b.carrier_sunk:
        state = CbgFacts.put(state, result="defeat: the carrier is sunk [24.2]")
    return state


def _missiles_in_result(b: Battle) -> str:
    """The declared reading behind the result when missiles fought [20.2 step 5]."""
    if not any(f.category == "missile" for f in b.fighters):
        return ""
    how = "left out of" if b.readings.battle_result_without_missiles else "counted in"
    said = readings.label(b.readings, "battle_result_without_missiles")
    if not said:
        return ""
    return f" (missiles {how} the tallies: {said})"


def _loser_withdraws_20_2(
    module: Module,
    state: GameState,
    b: Battle,
    result: str,
    cvbg_in: bool,
    events: list[Event],
) -> GameState:
    """[20.2 step 5] the loser moves one space toward a base of its own."""
    if result == "Soviet" and cvbg_in and not b.carrier_sunk:
        to = _toward_base(module, state, b.space, "nato_base")
        if to:
            state = _move_cvbg(state, to)
            events.append(Event("withdraw", "20.2", f"the CVBG withdraws to {to}", {"to": to}))
    elif result == "USN":
        for name, g in sorted(facts_of(state).sbgs.items()):
            if g["space"] == b.space:
                to = _toward_base(module, state, b.space, "soviet_base")
                if to:
                    state = soviet.move_sbg_13_0(module, state, name, 1, to, "20.2", events)
    return state


def bombard_23_1(module: Module, state: GameState, dice: Dice, events: list[Event]) -> GameState:
    """[23.1]: the USN attacks the coastal defense units here, all in the Inner Zone, as in
    a normal battle [21.0]."""
    space = facts_of(state).cvbg["space"]
    coastal = list(facts_of(state).coastal["units"])
    hidden = [p for p in coastal if p not in facts_of(state).revealed]
    state = soviet.reveal_17_0(state, hidden, "23.1", events)
    state = CbgFacts.put(state, coastal={**facts_of(state).coastal, "revealed": True})
    fighters = [_fighter(module, state, p) for p in [*facts_of(state).cvbg["ships"], *coastal]]
    b = Battle(space, "USN", "USN", fighters, dict(facts_of(state).carrier), facts_of(state).ammo)
    b.crew, b.pilots = crew_bonuses_21_5(module, state)
    b.readings = readings_of(state)
    for f in b.fighters:
        f.zone = "Inner"
    battle.fight_20_2(b, module, dice)
    events.extend(b.events)
    return _after_battle_22_8(module, state, b, events)
