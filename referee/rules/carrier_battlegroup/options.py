"""What the USN player may do now (``referee options``), computed by the validator itself.

Every candidate is written as an orders line and kept only when ``turn.check_turn`` (or the
purchase check of [9.0]-[9.3]) accepts it, so what ``options`` lists is what ``validate``
accepts: moves to spaces with their cost, Fuel and stop rule [12.1]-[12.5], launches within
the Flight Deck and range [15.0], [19.0]-[19.2], purchases within the LP [9.0]-[9.3], repairs
[10.0]-[10.3] and the Intelligence attempt [11.0].

Hidden stays hidden [17.0]: the candidates come only from what the player sees
(``view.player_view``: SBG markers, revealed units, the count of coastal defense units), and a
Soviet piece is never described, so the report is the same whatever lies face down.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.core import GameState
from referee.engine.graphboard import PointBoard
from referee.engine.orders import parse_orders
from referee.engine.ruleset import OptionsReport
from referee.errors import UserError
from referee.rules.carrier_battlegroup import (
    cargo,
    draft,
    incidents,
    logistics,
    movement,
    movement_phase,
    turn,
    view,
)
from referee.rules.carrier_battlegroup.damage import CARRIER_SYSTEMS
from referee.rules.carrier_battlegroup.facts import facts_of
from referee.rules.carrier_battlegroup.setup import CARRIER, CVBG
from referee.rules.carrier_battlegroup.vocabulary import VOCABULARY
from referee.source.model import Module

ALL = ("USN", "all")
CARGO = ("cargo", "buy", "LP")
TRACKS = ("fuel", "ammunition", "ew_enhancement", "air_defense")


def q(space: str) -> str:
    return f'"{space}"' if " " in space else space


def _doc_lines(state: GameState, section: str, line: str) -> Any:
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: USN\n[{section}]\n{line}\n"
    return parse_orders(text, "options", VOCABULARY)


def accepted(module: Module, state: GameState, section: str, line: str) -> bool:
    """Whether ``validate`` accepts ``line`` as the one line of a file's ``section`` (a
    force's line: several missiles traded to one ship, options format 6)."""
    return _legal(module, state, section, line)


def _legal(module: Module, state: GameState, section: str, line: str) -> bool:
    return not turn.check_turn(module, state, _doc_lines(state, section, line))


def _public_targets(seen: GameState) -> dict[str, str]:
    """Spaces the player sees Soviet units in, and what he sees there [17.0]."""
    out: dict[str, str] = {}
    for name, g in sorted(facts_of(seen).sbgs.items()):
        out[g["space"]] = name + ("" if g["revealed"] else " (face down)")
    for u in sorted(seen.units.values(), key=lambda u: u.id):
        if u.side == "Soviet" and u.location and not u.id.startswith("SO-SBG"):
            out.setdefault(u.location, "revealed Soviet units")
    c = facts_of(seen).coastal
    n = c["units"] if isinstance(c["units"], int) else len(c["units"])
    if n:
        out.setdefault(c["space"], f"{n} coastal defense unit(s)")
    return out


def moves(module: Module, state: GameState, seen: GameState) -> list[dict[str, Any]]:
    """[12.1]-[12.5]: every space the CVBG may reach, its cost, Fuel, stop and chits."""
    board = PointBoard(module.map)
    here = facts_of(seen).cvbg["space"]
    cruise = movement_phase.allowance(module, seen, spend_fuel=False)
    fast = movement_phase.allowance(module, seen, spend_fuel=True)
    sbg = {g["space"] for g in facts_of(seen).sbgs.values()}
    parent: dict[str, str] = {here: here}
    frontier = [here]
    for _ in range(fast):
        nxt: list[str] = []
        for s in frontier:
            if s != here and movement.must_stop_12_4(board.terrain(s), sbg_here=s in sbg):
                continue
            for n in sorted(board.neighbours(s)):
                if n not in parent:
                    parent[n] = s
                    nxt.append(n)
        frontier = nxt
    lanes = facts_of(seen).mission.get("lanes", [])
    out: list[dict[str, Any]] = []
    for dest in sorted(parent, key=lambda s: (_depth(parent, s), s)):
        if dest == here:
            continue
        path = [dest]
        while parent[path[-1]] != here:
            path.append(parent[path[-1]])
        path.reverse()
        cost = len(path)
        mode = "" if cost <= cruise else "max "
        line = f"move {mode}" + " ".join(q(p) for p in path)
        if not _legal(module, state, "movement", line):
            continue
        kind = board.terrain(dest)
        stop = movement.must_stop_12_4(kind, sbg_here=dest in sbg)
        chits = incidents.chits_to_draw_16_0(
            module,
            facts_of(seen).alert,
            kind,
            objective=dest == facts_of(seen).mission["objective"],
        )
        fuel = 1 if mode and fast > cruise and _needs_fuel(module, seen) else 0
        out.append(
            {
                "space": dest,
                "path": path,
                "spaces": cost,
                "fuel": fuel,
                "stop": (kind.replace("_", " ") + (", an SBG" if dest in sbg else ""))
                if stop
                else None,
                "chits": chits,
                "out_of_lane": movement.out_of_lane_12_5(board, [here, *path], lanes),
                "order": line,
            }
        )
    return out


def _depth(parent: dict[str, str], s: str) -> int:
    d = 0
    while parent[s] != s:
        s, d = parent[s], d + 1
    return d


def _needs_fuel(module: Module, seen: GameState) -> bool:
    return any("nuclear" not in module.piece(p).unit.flags for p in facts_of(seen).cvbg["ships"])


def launches(module: Module, state: GameState, seen: GameState, pid: str) -> list[dict[str, Any]]:
    """[19.0]-[19.2]: the public Soviet spaces this aircraft or missile may strike."""
    out = []
    for space, what in sorted(_public_targets(seen).items()):
        line = f"strike {pid} -> {q(space)}"
        if _legal(module, state, "launch", line):
            out.append({"unit": pid, "space": space, "target": what, "order": line})
    return out


def _purchase_check(module: Module, state: GameState, seen: GameState) -> Callable[[str], bool]:
    """Whether the purchase check accepts one ``buy`` line alone in this step's file [9.0]-[9.3]:
    at the NATO base or in the outfit, within the COD's range [9.3], for the CVBG's ships. One
    check for :func:`purchases` (format 7) and :func:`every_purchase` (format 8)."""
    board = PointBoard(module.map)
    here = facts_of(seen).cvbg["space"]
    at_base = state.phase == "outfit" or board.terrain(here) == "nato_base"
    cod = logistics.cod_range_9_3(module, seen, board) is not None
    ships = facts_of(seen).cvbg["ships"]
    section = "outfit" if state.phase == "outfit" else "logistics"

    def ok(line: str) -> bool:
        orders = list(_doc_lines(seen, section, line).orders)
        return not cargo.check_buys(module, state, orders, ships, at_base=at_base, cod=cod)[1]

    return ok


def purchases(module: Module, state: GameState, seen: GameState) -> list[dict[str, Any]]:
    """[9.0]-[9.3]: each kind of Cargo the LP and the place allow now, one at a time."""
    ok = _purchase_check(module, state, seen)
    out: list[dict[str, Any]] = []
    for item in TRACKS:
        price = cargo.price(module, item)
        most = facts_of(seen).lp // price
        if most and ok(f"buy 1 {item}"):
            out.append({"item": item, "lp": price, "most": most, "order": f"buy {most} {item}"})
    seen_kinds: set[tuple[str, str]] = set()
    for pid in sorted(seen.units):
        u = seen.units[pid]
        if u.side != "USN" or u.box != "available":
            continue
        item = cargo.item_of(module, pid)
        kind = (str(item), module.piece(pid).unit.id)
        if item is None or kind in seen_kinds or not ok(f"buy {pid}"):
            continue
        seen_kinds.add(kind)
        out.append(
            {"item": item, "unit": pid, "lp": cargo.price(module, item), "order": f"buy {pid}"}
        )
    return out


def repairs(module: Module, state: GameState, seen: GameState) -> list[dict[str, Any]]:
    """[10.0]-[10.3]: carrier systems below their start value; Damaged escorts; Damaged
    aircraft."""
    out = []
    for s in CARRIER_SYSTEMS:
        if facts_of(seen).carrier[s] < facts_of(seen).carrier_start[s]:
            line = f"repair {s}"
            if _legal(module, state, "logistics", line):
                out.append({"repair": s, "skips_movement": True, "order": line})
    for pid in facts_of(seen).cvbg["ships"]:
        line = f"repair {pid}"
        c = facts_of(seen).conditions.get(pid, {})
        if c.get("damage") and not c.get("crippled") and _legal(module, state, "logistics", line):
            out.append({"repair": pid, "skips_movement": True, "order": line})
    for pid in sorted(facts_of(seen).air):
        line = f"repair {pid}"
        if facts_of(seen).conditions.get(pid, {}).get("damage") and _legal(
            module, state, "logistics", line
        ):
            out.append({"repair": pid, "skips_movement": False, "order": line})
    return out


def _subject(module: Module, seen: GameState, subject: str) -> str:
    """The subject's kind: all, cvbg, cargo, air (aircraft or missile); or a clear error."""
    if subject in ALL:
        return "all"
    if subject in CARGO:
        return "cargo"
    if subject in ("CVBG", CVBG) or subject in facts_of(seen).cvbg["ships"]:
        return "cvbg"
    if subject in facts_of(seen).air or subject in facts_of(seen).missiles:
        return "air"
    try:
        side = module.piece(subject).unit.side
    except KeyError:
        side = None
    if side == "Soviet":
        raise UserError(
            f"{subject} is a Soviet piece: the game runs the Soviet side [2.2]",
            hint="name a USN unit, CVBG, cargo or USN",
        )
    from referee.source.diagnostics import did_you_mean

    usn = sorted(p for p, u in seen.units.items() if u.side == "USN")
    raise UserError(
        f"{subject!r} is not a USN unit in play",
        hint=did_you_mean(subject, [*usn, "CVBG", "USN", "cargo"])
        or "name a USN unit id, CVBG, cargo or USN",
    )


def options_report(module: Module, state: GameState, subject: str, limit: int) -> OptionsReport:
    """The report ``referee options SUBJECT`` prints (see the module docstring)."""
    seen = (
        view.player_view(state) if isinstance(facts_of(state).pools.get("chits"), list) else state
    )
    kind = _subject(module, seen, subject)
    data: dict[str, Any] = {"subject": subject, "phase": state.phase, "turn": state.turn}
    lines = [f"{subject}: {state.phase} of turn {state.turn}; LP {facts_of(seen).lp}"]
    if state.phase == "setup":  # the one order of set-up [4.0 steps 1-7]
        data["setup"] = [{"order": "begin"}]
        data["orders"] = draft.setup_choices()
        data["orders_since"] = 2  # options files of format 1 had no CBG order lines
        data["section"] = "setup"
        lines += ["  [setup]:", "    begin  (the referee rolls set-up steps 1-7 [4.0])"]
        return OptionsReport(subject, tuple(lines), data, None, ())
    if state.phase not in ("turn", "outfit"):
        lines.append("  no options now" + (": the game is over" if state.phase == "over" else ""))
        return OptionsReport(subject, tuple(lines), data, None, ())
    sections: dict[str, list[dict[str, Any]]] = {}
    if state.phase == "outfit" and kind == "all":
        sections["escorts"] = escort_choices(module, seen)
    if state.phase == "turn" and kind in ("all", "cvbg"):
        sections["moves"] = moves(module, state, seen)
        ships = facts_of(seen).cvbg["ships"] if subject in (*ALL, "CVBG", CVBG) else [subject]
        sections["intel"] = [
            {"unit": s, "order": f"intel {s}", "spends": {INTEL: 1}}
            for s in ships
            if _legal(module, state, "intelligence", f"intel {s}")
        ]
    if state.phase == "turn" and kind in ("all", "air"):
        units = (
            sorted([*facts_of(seen).air, *facts_of(seen).missiles]) if kind == "all" else [subject]
        )
        sections["launches"] = [x for p in units for x in launches(module, state, seen, p)]
    if kind in ("all", "cargo"):
        sections["purchases"] = purchases(module, state, seen)
    if state.phase == "turn" and kind in ("all", "cvbg", "air"):
        rep = repairs(module, state, seen)
        sections["repairs"] = [r for r in rep if kind != "air" or r["repair"] == subject]
    for name, items in sections.items():
        data[name] = items
        if not items:
            continue
        lines.append(f"  {name}:")
        shown = items if not limit else items[:limit]
        lines += [f"    {_describe(name, x)}" for x in shown]
        if limit and len(items) > limit:
            lines.append(f"    ... and {len(items) - limit} more")
    if all(not v for v in sections.values()):
        lines.append("  no action now")
    marks = {m["space"]: "move" for m in sections.get("moves", [])}
    marks.update({x["space"]: "strike" for x in sections.get("launches", [])})
    data["orders"] = pointing(module, state, seen, subject, kind, sections)
    if state.phase == "turn" and kind == "air":
        data["orders"] += trades_5_0(module, state, seen, subject)
    data["orders_since"] = 2  # options files of format 1 had no CBG order lines
    data["section"] = "outfit" if state.phase == "outfit" else "movement"  # the draft's first
    notes = _notes(module, seen)
    return OptionsReport(subject, tuple(lines), data, marks or None, notes)


def pointing(
    module: Module,
    state: GameState,
    seen: GameState,
    subject: str,
    kind: str,
    sections: dict[str, list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The order lines the viewer's orders mode points at for ``subject`` (issue 28,
    :mod:`referee.rules.carrier_battlegroup.draft`): the lines of its sections, each in its
    orders-file section; a ship of the CVBG also offers the group's purchases (the flagship,
    the first ship listed, only: one place for them) [9.0]-[9.3]."""
    here = facts_of(seen).cvbg["space"]
    repairs_of = sections.get("repairs", [])
    out = [
        *draft.move_choices(sections.get("moves", [])),
        *draft.intel_choices(sections.get("intel", []), here),
        *draft.launch_choices(sections.get("launches", [])),
        *[
            c if _repairs_own(subject, kind, r["repair"]) else {**c, "until": ONE_LINE_A_KIND}
            for r, c in zip(repairs_of, draft.repair_choices(repairs_of, here), strict=True)
        ],
    ]
    buys = sections.get("purchases")
    ships = facts_of(seen).cvbg["ships"]
    if buys is None and kind == "cvbg" and ships and subject == ships[0]:
        buys = purchases(module, state, seen)
    section = "outfit" if state.phase == "outfit" else "logistics"
    old = [{**c, "until": ONE_LINE_A_KIND} for c in draft.purchase_choices(buys or [], section)]
    each = draft.purchase_choices(every_purchase(module, state, seen), section) if buys else []
    return out + old + each


ONE_LINE_A_KIND = 7
"""The last options format whose ``buy`` lines are one a track (at the most the LP buy) and
one piece a kind, and whose ``repair`` lines are on every ship of the CVBG: format 8 gives
every count and every piece, each with what it spends [9.1], [9.2], and each repair on the
piece it repairs [10.0]-[10.3] (:mod:`referee.pbem.draft_options`)."""
EACH_LINE = 8
"""The options format from which :func:`every_purchase`'s lines are published."""
LP, HANGAR, MISSILE_ROOM = "LP [9.1]", "Hangar room [9.1]", "cruise missile room [9.2]"
INTEL = "Intelligence attempt [11.0]"
"""The names of what the USN player has to spend in a file (:func:`allowances`)."""


def _repairs_own(subject: str, kind: str, repaired: str) -> bool:
    """Whether ``subject``'s list offers the repair of ``repaired`` in options format 8: a
    carrier system on the carrier, a Damaged escort or aircraft on itself [10.0]-[10.3]
    (``referee options USN``, the whole side's, lists every repair; the CVBG's own marker
    none: it repairs nothing itself)."""
    if kind != "cvbg" or subject in ALL:
        return True
    return repaired == subject or (repaired in CARRIER_SYSTEMS and subject == CARRIER)


def every_purchase(module: Module, state: GameState, seen: GameState) -> list[dict[str, Any]]:
    """[9.0]-[9.2], options format 8: each track's Cargo at every count from 1 to the most
    the LP buy, and every available piece (a second of a kind too), each the purchase check
    accepts alone and each with what it spends of :func:`allowances` (its LP; a carrier
    aircraft's place in the Hangar, a cruise missile's room under the CVBG's ships), so the
    viewer offers a line only while the draft's purchases leave room for it [9.1]."""
    ok = _purchase_check(module, state, seen)
    out: list[dict[str, Any]] = []
    for item in TRACKS:
        price = cargo.price(module, item)
        for n in range(1, facts_of(seen).lp // price + 1):
            if ok(f"buy {n} {item}"):
                spends = {LP: n * price}
                out.append({"lp": price, "order": f"buy {n} {item}", "spends": spends})
    for pid in sorted(seen.units):
        if seen.units[pid].side != "USN" or seen.units[pid].box != "available":
            continue
        item = cargo.item_of(module, pid)
        if item is None or not ok(f"buy {pid}"):
            continue
        spends = {LP: cargo.price(module, item)}
        if item == "carrier_aircraft":
            spends[HANGAR] = 1
        elif item == "cruise_missile":
            spends[MISSILE_ROOM] = 1
        out.append({"lp": spends[LP], "order": f"buy {pid}", "spends": spends})
    return [{**x, "since": EACH_LINE} for x in out]


def allowances(module: Module, state: GameState) -> dict[str, int]:
    """What the USN player has to spend in a turn's (or the outfit's) file, from the
    player's view: the LP [9.1], the carrier aircraft the Hangar still takes [9.1], the
    cruise missiles the CVBG's ships still have room for [9.2], and in a turn the one
    Intelligence attempt [11.0] (options format 8: the choices' ``spends``)."""
    if state.phase not in ("turn", "outfit") or state.pending:
        return {}
    seen = (
        view.player_view(state) if isinstance(facts_of(state).pools.get("chits"), list) else state
    )
    got = facts_of(seen)
    aboard = sum(1 for v in got.air.values() if v == "hangar")
    room = sum(cargo.capacity_of(module, s) for s in got.cvbg["ships"]) - len(got.missiles)
    out = {
        LP: got.lp,
        HANGAR: max(got.carrier.get("Hangar", 8) - aboard, 0),
        MISSILE_ROOM: max(room, 0),
    }
    if state.phase == "turn":
        out[INTEL] = 1
    return out


def escort_choices(module: Module, seen: GameState) -> list[dict[str, Any]]:
    """The escort classes rolled and the available ships of each [4.0 step 7]: one
    ``escort`` line lists them all, within these counts."""
    from referee.rules.carrier_battlegroup.outfit import class_of

    out = []
    for k, n in sorted(facts_of(seen).escort_classes.items()):
        if not n:
            continue
        ships = sorted(
            p
            for p, u in seen.units.items()
            if u.side == "USN" and u.box == "available" and class_of(module, p)[0] == k
        )
        out.append(
            {"order": f"{n} x {k}: " + " ".join(ships), "class": k, "count": n, "ships": ships}
        )
    return out


def _describe(section: str, x: dict[str, Any]) -> str:
    if section == "moves":
        extra = [f"{x['spaces']} space(s)"]
        if x["fuel"]:
            extra.append("1 Fuel [12.2]")
        if x["stop"]:
            extra.append(f"stops: {x['stop']} [12.4]")
        extra.append("no chits" if x["chits"] == 0 else f"{x['chits']} chit(s) [16.0]")
        if x["out_of_lane"]:
            extra.append("Out of Lane [12.5]")
        return f"{x['order']}  ({', '.join(extra)})"
    if section == "launches":
        return f"{x['order']}  ({x['target']})"
    if section == "purchases":
        most = f", up to {x['most']}" if "most" in x else ""
        return f"{x['order']}  ({x['lp']} LP each{most})"
    if section == "repairs":
        return x["order"] + ("  (skips Movement [10.1])" if x["skips_movement"] else "  [10.3]")
    return str(x["order"])


def _notes(module: Module, seen: GameState) -> tuple[str, ...]:
    from referee.rules.carrier_battlegroup.launch import flight_deck_15_0

    deck = flight_deck_15_0(seen)
    notes = [
        f"at most {deck} aircraft launch from the carrier per Launch Phase [15.0], [19.0]",
        "buying Cargo or repairing a carrier system skips the Movement Phase [9.1], [10.1]; "
        "a Cargo aircraft [9.3] or an aircraft's repair [10.3] does not",
        "face-down Soviet units are shown only as what is on the table [17.0]",
    ]
    if CARRIER not in facts_of(seen).cvbg["ships"]:
        notes.append("the carrier is not with the CVBG")
    return tuple(notes)


def side_orders(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """The USN player's orders that no one unit gives, for the viewer's orders mode: the
    outfit's ``escort`` line, composed ship by ship [4.0 step 7]; in a turn (and the outfit)
    the standing ``breakoff`` [18.2] and ``lose`` [14.1] lines, each kept only when the
    validator accepts it (:mod:`referee.rules.carrier_battlegroup.draft`). From the
    player's view only [17.0]."""
    if side != "USN" or state.phase not in ("turn", "outfit") or state.pending:
        return []
    seen = (
        view.player_view(state) if isinstance(facts_of(state).pools.get("chits"), list) else state
    )
    out: list[dict[str, Any]] = []
    if state.phase == "outfit":
        ships = sorted(s for c in escort_choices(module, seen) for s in c["ships"])
        out += draft.escort_compose(ships)
    air = sorted(facts_of(seen).air)
    for c in draft.standing_choices(air):
        line = c["order"] if c["kind"] != "lose" else f"lose {air[0]}"
        if _legal(module, state, "standing", line):
            out.append(c)
    if state.phase == "turn":
        out += [{**c, "since": 4} for c in more_side_orders(module, state, seen)]
    return out


def _composed(
    module: Module, state: GameState, section: str, base: str, units: list[str], label: str
) -> list[dict[str, Any]]:
    """``BASE UNIT ...`` composed unit by unit from those of ``units`` whose one-unit line
    the validator accepts; none when no unit qualifies."""
    ok = [u for u in units if _legal(module, state, section, f"{base} {u}")]
    if not ok:
        return []
    kind = base.split()[0]
    return [{"order": base, "kind": kind, "compose": "words", "from": ok, "label": label,
             "section": section}]  # fmt: skip


WHO = {"yes": "the CVBG breaks off", "all": "the CVBG and the strikes break off"}


def more_side_orders(module: Module, state: GameState, seen: GameState) -> list[dict[str, Any]]:
    """The turn's orders added in options format 4, each kept when the validator accepts it,
    from the player's view [17.0]: the Objective Phase's ``bombard`` [23.1], ``land`` of
    the Marines or SEALs aboard and ``embark`` of those ashore [23.2] (composed unit by unit);
    the standing ``deploy outer`` of the units the player puts in the Outer Zone [20.2]
    (composed) and ``breakoff yes|all -> SPACE`` toward each space next to the CVBG [18.2]."""
    from referee.rules.carrier_battlegroup.objective import MARINES

    out: list[dict[str, Any]] = []
    if _legal(module, state, "objective", "bombard"):
        out.append({"order": "bombard", "kind": "bombard", "label": "shore bombardment [23.1]",
                    "section": "objective"})  # fmt: skip
    marines = sorted(p for p, u in seen.units.items() if u.side == "USN"
                     and module.piece(p).unit.id in MARINES)  # fmt: skip
    out += _composed(module, state, "objective", "land", marines, "amphibious landing [23.2]")
    out += _composed(module, state, "objective", "embark", marines, "back aboard [23.2]")
    facts = facts_of(seen)
    if facts.cvbg is None:  # before set-up step 9 there is no task force to deploy [4.0]
        return out
    cvbg = facts.cvbg
    usn = sorted([*cvbg["ships"], *facts.air])
    out += _composed(module, state, "standing", "deploy outer", usn, "Outer Zone in battle [20.2]")
    here = cvbg["space"]
    for mode in ("yes", "all"):
        for space in sorted(PointBoard(module.map).neighbours(here)):
            line = f"breakoff {mode} -> {q(space)}"
            label = f"{WHO[mode]} to {space}, next to the CVBG now [18.2]"
            if _legal(module, state, "standing", line):
                out.append({"order": line, "kind": "breakoff", "section": "standing",
                            "label": label})  # fmt: skip
    return out


TRADES = 5
"""The options file format that first carries ``trade`` [5.0 step 2c] (a file of format 4
leaves it out, as it was written)."""


def trades_5_0(module: Module, state: GameState, seen: GameState, pid: str) -> list[dict[str, Any]]:
    """Trade Cargo [5.0 step 2c]: ``trade MISSILE -> SHIP`` for a cruise missile the CVBG
    carries, to each other ship of the CVBG that can carry it within its capacity [15.1],
    each kept when the validator accepts it (it skips the Movement Phase, as a Logistics
    Phase action does). One missile a line; several lines trade several."""
    facts = facts_of(seen)
    now = facts.missiles.get(pid)
    if now is None or facts.cvbg is None:
        return []
    here = facts.cvbg["space"]
    out = []
    for ship in facts.cvbg["ships"]:
        line = f"trade {pid} -> {ship}"
        if ship == now or not _legal(module, state, "logistics", line):
            continue
        out.append(
            {
                "order": line,
                "kind": "trade",
                "at": here,
                "section": "logistics",
                "label": f"under {ship} (skips Movement) [5.0 step 2c]",
                "since": TRADES,
            }
        )
    return out
