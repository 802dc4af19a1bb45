"""What an own piece may be ordered to do now in a declared game (``referee options``, the
viewer's orders mode) [G1], [G5], [G6]: everything the generic referee would accept for it,
from the declaration alone, never from the game's rules.

* a piece on the map may ``move`` to each location the map connects to its own (a zone's
  adjacency, a space's lines and links, a neighbouring hex); on a map that declares no
  connections (the locations of a module imported from VASSAL) to every location; it may be
  flipped, marked and eliminated;
* a piece off the map (not eliminated) may be placed on every location;
* never into a location the source closes to the piece's category [G6] (a no-entry zone,
  a terrain it may not enter), in a game that checks it (the new-game flag ``closed``);
* only while its side is due [G2]; a piece of no side (an imported module's) is anyone's.

Each choice is an order line ``validate`` accepts. Pure.
"""

from __future__ import annotations

import re
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import OptionsReport
from referee.errors import UserError
from referee.rules.declared.checks import closed_to
from referee.rules.declared.sequence import OVER
from referee.source.diagnostics import did_you_mean
from referee.source.gamedecl import not_rules
from referee.source.model import Module

SECTION = "orders"
_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$|^[0-9]{4}$")


def written(location: str) -> str:
    """A location as an order writes it: one word as is, else in double quotes."""
    return location if _WORD.match(location) else f'"{location}"'


def _locations(module: Module, state: GameState) -> list[str]:
    """Every location a piece may be placed on: the scenario's boards' locations for an
    imported module, else the map's hexes, zones and spaces."""
    imported = module.game.imported if module.game is not None else None
    sc = imported.scenario(state.scenario) if imported is not None else None
    if sc is not None:
        return [k for k, _ in sc.locations]
    return [*sorted(module.map.hexes), *module.map.location_names()]


def _reach(module: Module, state: GameState, at: str) -> list[str]:
    """Where a piece at ``at`` may move in one connection [G5]: the map's neighbours, or every
    location of a map that declares no connections."""
    m = module.map
    connected = m.grid is not None or m.zones is not None or (m.spaces and m.spaces.links)
    if not connected:
        return [loc for loc in _locations(module, state) if loc != at]
    from referee.engine.graphboard import board_for

    board = board_for(m)
    return list(board.neighbours(at)) if board.contains(at) else []


def _open(module: Module, uid: str, places: list[str]) -> list[str]:
    """``places`` less those the source closes to the piece's category [G6]."""
    piece = module.pieces().get(uid)
    if piece is None:
        return places
    return [p for p in places if closed_to(module, p, piece.unit.category) is None]


def _choices(
    module: Module, state: GameState, uid: str, closed: bool
) -> tuple[list[dict[str, Any]], str]:
    unit = state.units[uid]
    if unit.location is None:
        if unit.box == "eliminated":
            return [], f"{uid} is eliminated"
        places = _locations(module, state)
        places = _open(module, uid, places) if closed else places
        return [
            {"order": f"place {uid} {written(p)}", "kind": "place", "at": p, "label": "place"}
            for p in places
        ], f"{uid} is off the map: it may be placed on any of {len(places)} locations"
    reach = _reach(module, state, unit.location)
    reach = _open(module, uid, reach) if closed else reach
    out: list[dict[str, Any]] = [
        {
            "order": f"move {uid} {written(p)}",
            "kind": "move",
            "at": p,
            "path": [p],
            "label": "move",
        }
        for p in reach
    ]
    out += [
        {"order": f"flip {uid}", "kind": "flip", "label": "flip"},
        {"order": f"eliminate {uid}", "kind": "eliminate", "label": "eliminate"},
    ]
    return out, (
        f"{uid} at {unit.location}: may move to {len(reach)} location(s) "
        "(one connection at a time), be flipped, marked or eliminated"
    )


def options_report(
    module: Module,
    state: GameState,
    subject: str,
    limit: int,
    *,
    choices: bool = True,
    closed: bool = True,
) -> OptionsReport:
    """``referee options PIECE`` [G1], [G2], [G5], [G6]; without ``choices`` (a game begun
    before options were published) the piece's lines without order choices and marks;
    without ``closed`` (a game begun before [G6]) closed locations too."""
    unit = state.units.get(subject)
    if unit is None:
        raise UserError(
            f"no piece {subject!r} in this game",
            hint=did_you_mean(subject, sorted(state.units)) or "name a piece of the game",
        )
    name = module.pieces()[subject].unit.name if subject in module.pieces() else subject
    lines = [f"{subject} ({name}), {unit.side or 'a piece of no side'}"]
    data: dict[str, Any] = {"unit": subject, "section": SECTION, "orders": []}
    due = state.active_side is not None and state.phase != OVER
    if not due or (unit.side and unit.side != state.active_side):
        lines.append(
            "  no options now: "
            + ("the game is over" if not due else f"{state.active_side} is due, not {unit.side}")
        )
        said = (f"A declared game, {not_rules(closed)}.",)
        return OptionsReport(subject, tuple(lines), data, None, said)
    listed, summary = _choices(module, state, subject, closed)
    if choices:
        data["orders"] = listed
    lines.append(f"  {summary}")
    shown = listed if limit <= 0 else listed[:limit]
    lines += [f"    {c['order']}" for c in shown]
    if len(shown) < len(listed):
        lines.append(f"    ... and {len(listed) - len(shown)} more (--format json lists all)")
    marks = {c["at"]: c["kind"] for c in listed if "at" in c} if choices else {}
    notes = (f"A declared game, {not_rules(closed)}.", "mark PIECE WORD puts any marker word on it")
    return OptionsReport(subject, tuple(lines), data, marks or None, notes)
