"""What a naval unit may do now (``referee options``), computed by the validator itself.

The subject is a naval unit or a location (a port, a sea zone or a hex) whose naval units are
shown. For each unit: its status [25.31], damage against its Protection Rating [27.31], NMP
allowance [26.14], [27.36] and cargo [28.14]; then every move it may make in this step. Each
candidate move -- the cheapest chain of sea zones to each zone within the allowance [26.14b],
then ending there, in one of its ports or on one of its hexes -- is written as an orders line
and kept only when ``steps.run`` (what ``validate`` runs) accepts it, so what ``options``
lists is what ``validate`` accepts. The all-sea hexes of one zone share one verdict, that of
the first of them: the validator's only checks of the hex itself are its zone and its
terrain [30.14a], [26.12d], which every candidate meets (a ship's reach is a thousand hexes
under a dozen zones; ``tests/test_naval_options.py`` judges every hex alone too). When
nothing is legal, the first refusal is given with its case (a Sailed unit [26.31], another
side's or step's turn [26.12a]). In the Readiness step, the ``ready`` and ``repair`` lines
``validate`` accepts [25.32], [27.41]. In a naval movement step, each moving unit's Abort
choice made in advance [27.32b]. A ground or air unit is a subject too: the ships of its port
it may board [28.14a] or, aboard, its going ashore [28.14e]; in a combat step its Shipping
Attack [31.21], coast artillery fire and support [27.12], [30.25] or amphibious assault
[30.11]; a ship in port its defensive support [29.25]; the side's own orders, the
interdiction box [31.11] and the host game's results [31.13], [31.23], [30.16]. Each is also
an order line the viewer's orders mode points at (``data["orders"]``, :func:`side_orders`;
all but the moves, ``ready`` and ``repair`` since options format 4). Nothing is hidden on
the naval side of the game, so the report is the same for every side.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from referee.engine.core import GameState, Violation
from referee.engine.orders import parse_orders
from referee.engine.ruleset import OptionsReport
from referee.engine.steps import WithheldDice
from referee.errors import UserError
from referee.rules.naval_module import defence, flotilla, steps
from referee.rules.naval_module import ports as P
from referee.rules.naval_module import sequence as seq
from referee.rules.naval_module.air import MAX_BOX
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.facts import facts_of
from referee.rules.naval_module.vocabulary import VOCABULARY
from referee.source.diagnostics import did_you_mean
from referee.source.model import Module

# refusals about the unit or the step, not the destination: no other move will do
UNIT_MAY_NOT_MOVE = ("orders", "26.31", "26.12a", "30.16f")


def q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def subjects(game: Game, state: GameState, subject: str) -> list[str]:
    """The naval units the subject names: one unit (a naval unit, or a ground unit that
    ships carry [28.12]), or the naval units at a location (any case)."""
    if subject in state.units:
        if not game.is_ship(subject) and not is_land_or_air(game, subject):
            raise UserError(
                f"{subject} is not a naval unit: options covers naval units [25.1], the "
                "ground units they carry [28.12] and the air units that strike them [31.2]"
            )
        return [subject]
    loc = subject if subject in game.module.map.hexes else game.name_of(subject)[0]
    if loc is not None:
        return sorted(
            u.id for u in state.units.values() if u.location == loc and game.is_ship(u.id)
        )
    ships = sorted(u for u in state.units if game.is_ship(u))
    hint = did_you_mean(subject, [*ships, *game.zones, *game.ports])
    raise UserError(
        f"unknown naval unit or location {subject!r}"
        + (f"; {hint}" if hint else "")
        + "; give a unit id, a port, a sea zone or a hex"
    )


def paths(game: Game, start: str, allowance: int) -> dict[str, list[str]]:
    """The cheapest chain of sea zones to each zone within ``allowance`` NMP [26.14b]: a
    port opens on its one zone for 1 NMP [26.14a]; each further zone costs 1."""
    if start in game.ports:
        first = P.port_zone(game.module, start)
        if allowance < 1:
            return {}
        frontier = [(first, [first])]
    else:
        zone = game.zone_of(start)
        if zone is None:
            return {}
        frontier = [(zone, [])]
    best: dict[str, list[str]] = {}
    while frontier:
        nxt: list[tuple[str, list[str]]] = []
        for zone, path in frontier:
            if zone in best:
                continue
            best[zone] = path
            if len(path) < allowance:
                for adj in sorted(game.zones[zone].adjacent):
                    if adj not in best:
                        nxt.append((adj, [*path, adj]))
        frontier = nxt
    return best


def is_land_or_air(game: Game, pid: str) -> bool:
    """A ground unit (a naval unit may carry it [28.12]; a CD unit fires at ships [27.12]) or
    an air unit (Shipping Attacks [31.2]): a subject of ``options`` beside the naval units."""
    return (
        pid in game.pieces
        and not game.is_ship(pid)
        and game.unit(pid).category in ("ground", "air")
    )


def awaited(game: Game, state: GameState) -> str:
    """The side the game awaits, as ``validate`` sees it [26.12a]."""
    if state.pending:
        return state.pending[0].side
    return "" if state.phase == seq.GAME_OVER else seq.actor(state, game.sides)


def _check(
    state: GameState, side: str, line: str, module: Module, section: str | None = None
) -> list[Violation]:
    """What ``validate`` says of a one-line file by ``side`` in ``section``; by default the
    naval movement step the game is in ([motorized] or [movement] [26.12a]; [movement] in
    any other step)."""
    if section is None:
        section = state.phase if state.phase in seq.NAVAL_MOVEMENT else "movement"
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[{section}]\n{line}\n"
    doc = parse_orders(text, "options", VOCABULARY)
    game = Game.of(module)
    return steps.check_header(game, state, doc, awaited(game, state)) or list(
        steps.run(game, state, doc, WithheldDice()).violations
    )


def accepted(module: Module, state: GameState, side: str, line: str) -> bool:
    """Whether ``validate`` accepts ``line`` as the one line of ``side``'s file in the
    section of the step ``state`` is in (a force's line: the viewer's forces, options
    format 5)."""
    return not _check(state, side, line, module, _section(state))


def ship_options(module: Module, state: GameState, sid: str) -> dict[str, Any]:
    """One naval unit's facts and its legal moves now, each with its NMP cost."""
    game = Game.of(module)
    sh = game.ship(state, sid)
    u = state.units[sid]
    facts = dict(facts_of(state).ships.get(sid) or {})
    start = u.location
    out: dict[str, Any] = {
        "unit": sid,
        "side": u.side,
        "type": sh.type,
        "at": start if start is not None else u.box,
        "status": sh.status,
        "damage": sh.damage,
        "protection": sh.protection,
        "nmp": sh.nmp,
        "cargo": list(facts.get("cargo") or []),
        "moves": [],
        "refused": None,
    }
    if start is None:
        out["refused"] = {"rule": "27.31", "message": f"{sid} is not on the map"}
        return out
    if sh.is_flotilla:
        return _flotilla_options(module, state, sid, out)
    moves: list[dict[str, Any]] = []
    first_refusal: Violation | None = None
    for zone, path in sorted(paths(game, start, sh.nmp).items()):
        ends = [] if zone == start else [zone]
        ends += sorted(p for p in game.ports if P.port_zone(module, p) == zone and p != start)
        at_sea = [h for h in sorted(game.zones[zone].hexes) if game.terrain(h) == "sea"]
        verdict: list[Violation] | None = None  # the zone's all-sea hexes: one verdict
        for end in [*ends, *at_sea]:
            chain = path if end == zone else [*path, end]
            if not chain or end == start:
                continue
            line = f"move {sid} -> " + " ".join(q(x) for x in chain)
            if end in ends or verdict is None:
                refused = _check(state, u.side, line, module)
                verdict = refused if end not in ends else None
            else:
                refused = verdict
            if not refused:
                moves.append({"to": end, "path": chain, "nmp": len(path), "line": line})
                continue
            first_refusal = first_refusal or refused[0]
            if refused[0].rule in UNIT_MAY_NOT_MOVE:
                out["refused"] = {"rule": refused[0].rule, "message": refused[0].message}
                return out
    kind = {"zone": 0, "port": 1, "hex": 2}
    out["moves"] = sorted(
        moves,
        key=lambda m: (
            m["nmp"],
            kind["zone" if m["to"] in game.zones else "port" if m["to"] in game.ports else "hex"],
            m["path"],
        ),
    )
    if not moves and first_refusal is not None:
        out["refused"] = {"rule": first_refusal.rule, "message": first_refusal.message}
    return out


def _flotilla_options(
    module: Module, state: GameState, sid: str, out: dict[str, Any]
) -> dict[str, Any]:
    """A flotilla's moves: the cheapest hex path to each hex within its allowance [32.11],
    [22.41] (docs/interpretations.md, NM-41), each kept only when ``validate`` accepts it."""
    game = Game.of(module)
    side = state.units[sid].side
    out["nmp"] = flotilla.allowance(game, sid)
    moves: list[dict[str, Any]] = []
    first: Violation | None = None
    for hex_id, (cost, path) in sorted(flotilla.reachable(game, state, sid).items()):
        line = f"move {sid} -> " + " ".join(path)
        refused = _check(state, side, line, module)
        if refused:
            first = first or refused[0]
            if refused[0].rule in ("orders", "26.12a"):
                out["refused"] = {"rule": refused[0].rule, "message": refused[0].message}
                return out
            continue
        to = next((p for p, sp in sorted(game.ports.items()) if sp.hex == hex_id), hex_id)
        moves.append({"to": to, "path": path, "nmp": cost, "line": line})
    out["moves"] = sorted(moves, key=lambda m: (m["nmp"], m["path"]))
    if not moves and first is not None:
        out["refused"] = {"rule": first.rule, "message": first.message}
    return out


def readiness_lines(module: Module, state: GameState, sid: str) -> list[str]:
    """In the phasing player's Readiness step: ``ready SID`` [25.32] and ``repair SID``
    [27.41], each when ``validate`` accepts it as the step's one-line file."""
    side = state.units[sid].side
    if state.pending or state.phase != "readiness" or awaited(Game.of(module), state) != side:
        return []
    return [
        line
        for line in (f"ready {sid}", f"repair {sid}")
        if not _check(state, side, line, module, "readiness")
    ]


def _section(state: GameState) -> str:
    """The orders section of the step ``state`` is in."""
    return seq.SECTION.get(state.phase, state.phase)


def _movers_step(module: Module, state: GameState, side: str) -> bool:
    """Whether ``side`` is the one a naval movement step awaits now [26.12a]."""
    return (
        not state.pending
        and state.phase in seq.NAVAL_MOVEMENT
        and awaited(Game.of(module), state) == side
    )


def _enemy_ships(game: Game, state: GameState, side: str) -> list[str]:
    return sorted(
        u.id
        for u in state.units.values()
        if u.side != side and game.is_ship(u.id) and u.location is not None
    )


def _cargo_candidates(game: Game, state: GameState, pid: str, aboard: str | None) -> list[str]:
    """In a naval movement step: aboard a ship in port, ``unload PID`` [28.14e]; ashore in a
    port, ``load PID -> SHIP`` for each of the side's ships there [28.14a]."""
    u = state.units[pid]
    at = state.units[aboard].location if aboard is not None else u.location
    if at not in game.ports:
        return []
    if aboard is not None:
        return [f"unload {pid}"]
    here = game.hex_of(at)
    ships = sorted(
        s.id
        for s in state.units.values()
        if s.side == u.side and game.is_ship(s.id) and s.location in game.ports
        and game.hex_of(s.location) == here and not game.ship(state, s.id).is_flotilla
    )  # fmt: skip
    return [f"load {pid} -> {sid}" for sid in ships]


def _combat_candidates(
    game: Game, state: GameState, pid: str, aboard: str | None, section: str
) -> list[str]:
    """In a combat step: an air unit's Shipping Attack on each enemy naval unit in play
    [31.21]; a CD unit's fire at each enemy ship on a hex [27.12] and its support of each
    attacked hex [30.25]; a unit aboard a ship on an all-sea hex, its assault on each hex next
    to it [30.11]. ``validate`` keeps the legal ones (range, line of sight, Ready, ...)."""
    u = state.units[pid]
    d = game.unit(pid)
    if section in ("combat", "reaction") and d.category == "air":
        return [f"shipping {pid} -> {t}" for t in _enemy_ships(game, state, u.side)]
    if section == "coast" and d.category == "ground" and d.type == "CD":
        targets = [t for t in _enemy_ships(game, state, u.side) if game.hex_of(
            state.units[t].location) is not None]  # fmt: skip
        return [f"coastfire {pid} -> {t}" for t in targets] + [
            f"coastsupport {pid} -> {h}" for h in defence.attacked_hexes(state)
        ]
    if section == "combat" and aboard is not None:
        sea = state.units[aboard].location
        if sea in game.module.map.hexes:
            return [f"assault {pid} -> {h}" for h in sorted(game.hexes.neighbours(sea))]
    return []


def unit_options(module: Module, state: GameState, pid: str) -> dict[str, Any]:
    """A ground or air unit's part in this step, each line one ``validate`` accepts alone:
    its load or unload [28.14a], [28.14e] in a naval movement step; its Shipping Attack
    [31.21], coast artillery fire or support [27.12], [30.25] or amphibious assault [30.11]
    in a combat step. Where the ship ends after a drafted move decides an unload, and the
    force a line joins decides an attack, so ``validate`` stays the judge of the file."""
    game = Game.of(module)
    u = state.units[pid]
    aboard = u.box[7:] if (u.box or "").startswith("aboard:") else None
    at = state.units[aboard].location if aboard in state.units else u.location
    out: dict[str, Any] = {
        "unit": pid,
        "side": u.side,
        "type": game.unit(pid).type,
        "at": at if at is not None else u.box,
        "aboard": aboard,
        "lines": [],
    }
    if state.pending or awaited(game, state) != u.side:
        return out
    section = _section(state)
    if state.phase in seq.NAVAL_MOVEMENT:
        candidates = _cargo_candidates(game, state, pid, aboard)
    else:
        candidates = _combat_candidates(game, state, pid, aboard, section)
    out["lines"] = [ln for ln in candidates if not _check(state, u.side, ln, module, section)]
    return out


def abort_lines(module: Module, state: GameState, sid: str) -> list[str]:
    """In a naval movement step, the Abort choice made in advance for a unit that may move:
    ``abort SID return`` or ``abort SID damage`` [27.32b], each when ``validate`` accepts it
    alone."""
    side = state.units[sid].side
    if not _movers_step(module, state, side):
        return []
    return [
        line
        for line in (f"abort {sid} return", f"abort {sid} damage")
        if not _check(state, side, line, module)
    ]


VERB_RULES = {
    "load": "28.14a",
    "unload": "28.14e",
    "shipping": "31.21",
    "coastfire": "27.12",
    "coastsupport": "30.25",
    "assault": "30.11",
    "defend": "29.25",
}
"""The rule case of each line a ground or air unit (or a defending ship) is offered."""


ABORT_LABELS = {
    "return": "if it Aborts: back to its departure port [27.32b]",
    "damage": "if it Aborts: one more damage point, and on [27.32b]",
}
"""What each Abort choice made in advance does, as the viewer labels it."""


def _unit_choices(state: GameState, o: dict[str, Any]) -> list[dict[str, Any]]:
    """A ground or air unit's lines as choices (options format 4), each at the place it
    names: the port of a load or unload, the target ship's place, the hex of a support or an
    assault. A load goes first in its section: units load before their ship moves
    [28.14a]."""
    out: list[dict[str, Any]] = []
    for line in o["lines"]:
        verb, last = line.split()[0], line.split()[-1]
        at = state.units[last].location if last in state.units else last
        c: dict[str, Any] = {"order": line, "kind": verb, "since": 4}
        c["at"] = o["at"] if verb in ("load", "unload") else at
        c["label"] = f"[{VERB_RULES[verb]}]"
        if verb == "load":
            c["first"] = True
        out.append(c)
    return out


def _unit_text(o: dict[str, Any]) -> list[str]:
    """``referee options`` of a ground or air unit: where it is, and its lines."""
    where = f"aboard {o['aboard']} at {o['at']}" if o["aboard"] else f"at {o['at']}"
    out = [f"{o['unit']} ({o['type']}, {o['side']}) {where}"]
    out += [f"  {ln}  [{VERB_RULES[ln.split()[0]]}]" for ln in o["lines"]]
    if not o["lines"]:
        out.append(
            "  nothing to order for it in this step (naval transport [28.1x], Shipping "
            "Attacks [31.2x], coast artillery [27.12], assaults [30.1x])"
        )
    return out


def defend_lines(module: Module, state: GameState, sid: str) -> list[str]:
    """In the enemy's Combat Phase, ``defend SHIP -> HEX`` for each attacked hex the ship may
    support from port [29.12], [29.25], each when ``validate`` accepts it alone."""
    side = state.units[sid].side
    game = Game.of(module)
    if state.pending or _section(state) != "coast" or awaited(game, state) != side:
        return []
    return [
        line
        for line in (f"defend {sid} -> {h}" for h in defence.attacked_hexes(state))
        if not _check(state, side, line, module, "coast")
    ]


def pointing(module: Module, state: GameState, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The order lines the viewer's orders mode points at (issue 28): each unit's moves
    [26.14b], [32.11] at the place they end in (a sea zone, a port, an all-sea hex: each a
    place of the map), with the zones, ports and hexes of the way, its Abort choice in advance
    [27.32b], and its Readiness step's ``ready``/``repair`` at its own place [25.32],
    [27.41]; a ground unit's ``load`` or ``unload`` [28.14a], [28.14e]. Every line is one
    ``validate`` accepted alone."""
    out: list[dict[str, Any]] = []
    for o in units:
        sid = o["unit"]
        if "lines" in o:  # a ground or air unit
            out.extend(_unit_choices(state, o))
            continue
        for m in o["moves"]:
            out.append(
                {
                    "order": m["line"],
                    "kind": "move",
                    "at": m["to"],
                    "path": list(m["path"]),
                    "label": f"cost {m['nmp']}",
                }
            )
        if o["moves"]:
            for line in abort_lines(module, state, sid):
                label = ABORT_LABELS[line.split()[-1]]
                out.append({"order": line, "kind": "abort", "label": label, "since": 4})
        for line in defend_lines(module, state, sid):
            target = line.split()[-1]
            label = "[29.25]"
            out.append({"order": line, "kind": "defend", "at": target, "label": label, "since": 4})
        here = state.units[sid].location
        for line in readiness_lines(module, state, sid):
            c = {"order": line, "kind": line.split()[0], "label": line.split()[0]}
            if here is not None:
                c["at"] = here
            out.append(c)
    return out


def _interdict(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """``interdict AIR ...`` composed unit by unit from the side's Ready air units each of
    which ``validate`` accepts in the box, alone or, an escort, beside the first unit with an
    Interdiction rating [31.11]; the count (at most three) is the validator's."""
    game = Game.of(module)
    air = sorted(
        u.id
        for u in state.units.values()
        if u.side == side and u.id in game.pieces and game.unit(u.id).category == "air"
    )
    alone = [a for a in air if not _check(state, side, f"interdict {a}", module, "interdiction")]
    lead = next(iter(alone), None)
    if lead is None:
        return []
    escorts = [
        a
        for a in air
        if a not in alone
        and not _check(state, side, f"interdict {lead} {a}", module, "interdiction")
    ]
    return [
        {
            "order": "interdict",
            "kind": "interdict",
            "compose": "words",
            "from": sorted([*alone, *escorts]),
            "label": "the air units in the Naval Movement Interdiction Box, at most 3 [31.11]",
            "section": "interdiction",
            "since": 4,
            "most": 3,  # [31.11] the viewer stops the line at three (format 5)
        }
    ]


def _survivors(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """The host game's result of the open air combat hand-off (the box's [31.13] or a
    Shipping Attack's [31.23]): every set of the mission's units that may have survived, each
    line kept when ``validate`` accepts it (the second signature only the first's)."""
    section = _section(state)
    known = facts_of(state)
    combat = dict(known.box_combat if section == "aircombat" else known.shipping_combat)
    hid, units = str(combat.get("handoff", "")), list(combat.get("units") or [])
    if not hid or len(units) > MAX_BOX:  # at most 3 a mission: at most 8 sets [31.11], [31.21]
        return []
    out: list[dict[str, Any]] = []
    for n in range(len(units), -1, -1):
        for alive in combinations(units, n):
            line = f"survivors {hid} -> {' '.join(alive)}" if alive else f"survivors {hid} none"
            if not _check(state, side, line, module, section):
                label = f"{n} of {len(units)} survive"
                out.append({"order": line, "kind": "survivors", "label": label, "section": section})
    rule = "31.13" if section == "aircombat" else "31.23"
    return [{**c, "label": f"{c['label']} [{rule}]", "since": 4} for c in out]


def _host(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """Each open assault hand-off's result, ``cleared`` or ``held`` [30.16]: a line per
    hand-off and result (``group``: the hand-off, a later choice replaces the earlier), each
    kept when ``validate`` accepts it beside the other hand-offs' results (the second
    signature: only the first's)."""
    known = facts_of(state)
    open_ = sorted(h["id"] for h in known.handoffs if h["kind"] == "assault")
    signed = dict(known.host_signed)
    out: list[dict[str, Any]] = []
    for hid in open_:
        rest = [f"host {h} {signed.get(h, 'held')}" for h in open_ if h != hid]
        for result in ("cleared", "held"):
            line = f"host {hid} {result}"
            if not _check(state, side, "\n".join([line, *rest]), module, "host"):
                out.append(
                    {
                        "order": line,
                        "kind": "host",
                        "group": hid,
                        "label": f"{result} [30.16]",
                        "section": "host",
                        "since": 4,
                    }
                )
    return out


def side_orders(module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
    """The orders of the whole side that no one naval unit gives, for the viewer's orders
    mode (options format 4): the Naval Movement Interdiction Box's air units [31.11], and the
    host game's results each player signs in turn: the survivors of an air combat [31.13],
    [31.23] and an assault's result [30.16]. None in another side's step."""
    game = Game.of(module)
    if state.pending or awaited(game, state) != side:
        return []
    section = _section(state)
    if section == "interdiction":
        return _interdict(module, state, side)
    if section in ("aircombat", "shipping"):
        return _survivors(module, state, side)
    if section == "host":
        return _host(module, state, side)
    return []


def options_report(module: Module, state: GameState, subject: str, limit: int) -> OptionsReport:
    """``referee options SUBJECT`` for the naval module (see the module docstring)."""
    game = Game.of(module)
    units = subjects(game, state, subject)
    lines: list[str] = []
    marks: dict[str, str] = {}
    data: list[dict[str, Any]] = []
    if not units:
        lines.append(f"no naval unit at {subject}")
    for sid in units:
        if not game.is_ship(sid):
            o = unit_options(module, state, sid)
            data.append(o)
            lines.extend(_unit_text(o))
            continue
        o = ship_options(module, state, sid)
        data.append(o)
        cargo = f", carrying {' '.join(o['cargo'])}" if o["cargo"] else ""
        lines.append(
            f"{sid} ({o['type']}, {o['side']}) at {o['at']}: {o['status']}, damage "
            f"{o['damage']} of Protection {o['protection']}, {o['nmp']} NMP{cargo} "
            "[25.31], [27.31], [27.36]"
        )
        if o["refused"]:
            r = o["refused"]
            lines.append(f"  no move now: {r['message']} [{r['rule']}]")
            continue
        if game.ship(state, sid).is_flotilla:
            shown = o["moves"] if limit <= 0 else o["moves"][:limit]
            for m in shown:
                lines.append(f"  {m['line']}  ({m['nmp']} MP, flotilla movement) [32.11]")
                marks.setdefault(game.hex_of(m["to"]) or m["to"], f"{m['nmp']}")
            if len(shown) < len(o["moves"]):
                lines.append(f"  ... {len(o['moves']) - len(shown)} more (--format json lists all)")
            continue
        ends = [m for m in o["moves"] if m["to"] not in game.module.map.hexes]
        at_sea = [m for m in o["moves"] if m["to"] in game.module.map.hexes]
        shown = ends if limit <= 0 else ends[:limit]
        for m in shown:
            lines.append(f"  {m['line']}  ({m['nmp']} NMP) [26.14b]")
            hex_id = game.hex_of(m["to"])
            if hex_id is not None:
                marks.setdefault(hex_id, f"{m['nmp']}")
        if len(shown) < len(ends):
            lines.append(f"  ... {len(ends) - len(shown)} more (--format json lists all)")
        by_zone: dict[str, list[dict[str, Any]]] = {}
        for m in at_sea:
            by_zone.setdefault(game.zone_of(m["to"]) or "", []).append(m)
            marks.setdefault(m["to"], f"{m['nmp']}")
        for zone, ms in sorted(by_zone.items(), key=lambda kv: (kv[1][0]["nmp"], kv[0])):
            lines.append(
                f"  or end on any of {len(ms)} all-sea hexes of the {zone} "
                f"({ms[0]['nmp']} NMP), e.g. {ms[0]['line']} [26.14b], [30.14a]"
            )
    report = {
        "subject": subject,
        "units": data,
        "orders": pointing(module, state, data),
        "orders_since": 2,  # options files of format 1 had no naval order lines
        "section": seq.SECTION.get(state.phase, state.phase),
    }
    return OptionsReport(subject, tuple(lines), report, marks or None)
