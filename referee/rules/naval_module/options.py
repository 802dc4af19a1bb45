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
side's or step's turn [26.12a]). In the Readiness step,
the ``ready`` and ``repair`` lines ``validate`` accepts [25.32], [27.41]. Each is also an
order line the viewer's orders mode points at (``data["orders"]``). Nothing is hidden on the
naval side of the game, so the report is the same for every side.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState, Violation
from referee.engine.orders import parse_orders
from referee.engine.ruleset import OptionsReport
from referee.engine.steps import WithheldDice
from referee.errors import UserError
from referee.rules.naval_module import flotilla, steps
from referee.rules.naval_module import ports as P
from referee.rules.naval_module import sequence as seq
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.vocabulary import VOCABULARY
from referee.source.diagnostics import did_you_mean
from referee.source.model import Module

# refusals about the unit or the step, not the destination: no other move will do
UNIT_MAY_NOT_MOVE = ("orders", "26.31", "26.12a", "30.16f")


def q(name: str) -> str:
    return f'"{name}"' if " " in name else name


def subjects(game: Game, state: GameState, subject: str) -> list[str]:
    """The naval units the subject names: one unit, or those at a location (any case)."""
    if subject in state.units:
        if not game.is_ship(subject):
            raise UserError(f"{subject} is not a naval unit: options covers naval units [25.1]")
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


def ship_options(module: Module, state: GameState, sid: str) -> dict[str, Any]:
    """One naval unit's facts and its legal moves now, each with its NMP cost."""
    game = Game.of(module)
    sh = game.ship(state, sid)
    u = state.units[sid]
    facts = dict(state.data.get("ships", {}).get(sid) or {})
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


def pointing(module: Module, state: GameState, units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The order lines the viewer's orders mode points at (issue 28): each unit's moves
    [26.14b], [32.11] at the place they end in (a sea zone, a port, an all-sea hex: each a
    place of the map), with the zones, ports and hexes of the way, and its Readiness step's
    ``ready``/``repair`` at its own place [25.32], [27.41]. Every line is one ``validate``
    accepted alone."""
    out: list[dict[str, Any]] = []
    for o in units:
        sid = o["unit"]
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
        here = state.units[sid].location
        for line in readiness_lines(module, state, sid):
            c = {"order": line, "kind": line.split()[0], "label": line.split()[0]}
            if here is not None:
                c["at"] = here
            out.append(c)
    return out


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
    return OptionsReport(
        subject=subject,
        lines=tuple(lines),
        data={
            "subject": subject,
            "units": data,
            "orders": pointing(module, state, data),
            "orders_since": 2,  # options files of format 1 had no naval order lines
            "section": seq.SECTION.get(state.phase, state.phase),
        },
        marks=marks or None,
    )
