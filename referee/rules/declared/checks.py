"""What the declared referee checks in an orders file, and nothing more [G1]-[G6]: the side
is due [G2]; each piece exists and is the side's own, each location is on the map [G1]; a
move follows the map's declared connections where it has any [G5]; no piece moves into or is
placed on a location the source declares closed to it [G6]; each roll's dice are a dice
expression and its table is one of the module's, with a row for every total the dice can
make [G3], [G4]. Never a rule of the game beyond what the source declares. Pure."""

from __future__ import annotations

from itertools import pairwise

from referee.engine.core import GameState, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.rules.declared.dice_expr import DiceExpr, parse_dice
from referee.rules.declared.facts import DeclaredFacts
from referee.rules.declared.sequence import OVER, step_of
from referee.source.diagnostics import did_you_mean
from referee.source.mapkinds import ANY_KIND
from referee.source.model import Module
from referee.source.tablemodel import NamedTable

MARK_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def check_due(module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
    """[G2] the orders are those of the side and Game-Turn the sequence says are due."""
    if state.active_side is None or state.phase == OVER:
        return [Violation("G2", "the game is over", hint="no more orders are taken")]
    step = step_of(module, state.scenario, state.phase)
    name = step.name if step else state.phase
    want = f"{state.active_side}, Game-Turn {state.turn}, {name}"
    out = []
    if orders.side != state.active_side or orders.turn != state.turn:
        pos = orders.header_pos.get("side") or orders.header_pos.get("turn")
        out.append(
            Violation(
                "G2",
                f"orders of {orders.side} for Game-Turn {orders.turn}; the game awaits {want}",
                pos,
                hint=f"side: {state.active_side} and turn: {state.turn} in the header",
            )
        )
    if orders.phase is not None and orders.phase != state.phase:
        out.append(
            Violation(
                "G2",
                f"orders for phase {orders.phase!r}; the game awaits {want}",
                orders.header_pos.get("phase"),
                hint=f"phase: {state.phase} (or leave the phase line out)",
            )
        )
    return out


def check_order(module: Module, state: GameState, side: str, o: Order) -> list[Violation]:
    """One order's pieces, locations, marks and dice [G1], [G3], [G4]."""
    if o.verb == "roll":
        return check_roll(module, o)
    out = [v for u in o.units if (v := _own_piece(state, side, o, u)) is not None]
    out += [v for loc in o.hexes if (v := _location(module, state.scenario, o, loc)) is not None]
    for mark in o.arg("mark"):
        if not set(mark) <= MARK_CHARS:
            out.append(
                Violation(
                    "G1",
                    f"marker {mark!r} is not one word of letters, digits, '_' or '-'",
                    o.pos_of(mark),
                    hint="mark UNIT disrupted",
                )
            )
    if not out and o.verb in ("move", "place") and checks_closed(state):
        out += check_closed(module, state.units[o.units[0]].id, o)
    if not out and o.verb == "move":
        unit = state.units[o.units[0]]
        if unit.location is not None:
            out += check_connections(module, unit.id, unit.location, o)
        if unit.location is None:
            out.append(
                Violation(
                    "G1",
                    f"{unit.id} is not on the map ({unit.box or 'off the map'}), so it cannot move",
                    o.pos_of(unit.id),
                    unit=unit.id,
                    hint=f"place {unit.id} HEX puts it on the map",
                )
            )
    return out


def check_connections(module: Module, uid: str, start: str, o: Order) -> list[Violation]:
    """[G5] on a map that declares connections (zones and their adjacency, spaces and their
    links and lines), a move goes from each location to one connected to it, a one-way link
    only its way. A step between hexes is not checked; neither is anything the connections
    do not say (a boundary or link closed to some kinds of movement is the game's rule)."""
    m = module.map
    if m.zones is None and (m.spaces is None or not m.spaces.links):
        return []
    from referee.engine.graphboard import board_for

    board = board_for(m)
    path = [start, *o.hexes]
    for a, b in pairwise(path):
        if a == b or not (board.contains(a) and board.contains(b)) or board.adjacent(a, b):
            continue
        nxt = board.neighbours(a)
        return [
            Violation(
                "G5",
                f"{b} is not connected to {a} on the map (no adjacency, line or link"
                + (", and a one-way link runs the other way)" if board.adjacent(b, a) else ")"),
                o.pos_of(b),
                unit=uid,
                hint=f"a move goes one connection at a time; from {a}: " + ", ".join(nxt)
                if nxt
                else f"{a} has no connection",
            )
        ]
    return []


def checks_closed(state: GameState) -> bool:
    """Whether the game checks closed locations [G6]: a game begun before the check (its
    start without the new-game flag ``closed``) replays as it was played."""
    return bool(DeclaredFacts.of(state).flags.get("closed"))


def closed_to(module: Module, location: str, category: str) -> str | None:
    """Why the source closes ``location`` to a piece of ``category``, or ``None`` [G6]: its
    zone or space type is closed to every kind of movement (``closed_to = ["*"]``, a no-entry
    zone) or to the category; or its terrain (a hex's, or the terrain table's row of the
    zone or space type) costs ``-`` for the category, "may not enter". Each reason names the
    declaration, with the game's rule where the source gives one."""
    m = module.map
    kind = (
        m.zones.types.get(m.zones.zones[location].type)
        if m.zones and location in m.zones.zones
        else None
    )
    if kind is None and m.spaces is not None and location in m.spaces.spaces:
        kind = m.spaces.types.get(m.spaces.spaces[location].type)
    if kind is not None and kind.closed(category):
        every = ANY_KIND in kind.closed_to
        return (
            f"its type {kind.name} ({kind.id}) is closed to "
            + ("every kind of movement" if every else category)
            + f" ({kind.origin})"
        )
    terrain_id = m.hexes[location].terrain if location in m.hexes else kind.id if kind else None
    terrain = m.terrain.get(terrain_id) if terrain_id is not None else None
    if terrain is None or category not in terrain.costs or terrain.costs[category] is not None:
        return None
    said = "; ".join(x for x in (terrain.rule and f"rule {terrain.rule}", terrain.notes) if x)
    return (
        f"its terrain {terrain.name} ({terrain.id}) costs '-' for {category} on the terrain "
        f"table, may not enter ({terrain.origin})" + (f": {said}" if said else "")
    )


def check_closed(module: Module, uid: str, o: Order) -> list[Violation]:
    """[G6] a ``move`` enters each location of its path, a ``place`` its location: none may
    be one the source closes to the piece's category (:func:`closed_to`)."""
    piece = module.pieces().get(uid)
    if piece is None:
        return []
    category = piece.unit.category
    for loc in o.hexes:
        why = closed_to(module, loc, category)
        if why is not None:
            return [
                Violation(
                    "G6",
                    f"{uid} ({category}) may not enter {loc}: {why}",
                    o.pos_of(loc),
                    unit=uid,
                    hint=f"`referee options {uid}` lists the locations open to it",
                )
            ]
    return []


def _own_piece(state: GameState, side: str, o: Order, uid: str) -> Violation | None:
    """[G1] the piece exists in the game and belongs to the ordering side."""
    unit = state.units.get(uid)
    if unit is None:
        return Violation(
            "G1",
            f"no piece {uid!r} in this game",
            o.pos_of(uid),
            hint=did_you_mean(uid, sorted(state.units)) or "the scenario's forces list the pieces",
        )
    if unit.side and unit.side != side:  # a piece of no side (an imported module's): any
        return Violation(
            "G1",
            f"{uid} is a piece of {unit.side}, not of {side}",
            o.pos_of(uid),
            unit=uid,
            hint=f"only {unit.side}'s orders may place, move, flip, mark or eliminate it",
        )
    return None


def _location(module: Module, scenario: str, o: Order, loc: str) -> Violation | None:
    """[G1] the location is a hex, zone or space of the map (of an imported module, a
    location of the scenario's boards: ``referee/vassal/foreign/game.py``)."""
    imported = module.game.imported if module.game is not None else None
    sc = imported.scenario(scenario) if imported is not None else None
    if sc is not None:
        names = [k for k, _ in sc.locations]
        if sc.point(loc) is not None:
            return None
    elif module.map.is_location(loc):
        return None
    else:
        names = sorted(module.map.hexes) + list(module.map.location_names())
    if module.map.grid is not None:
        ids = sorted(module.map.hexes)
        span = f"the map's hexes run from {ids[0]} to {ids[-1]}"
    else:
        span = f"the map's locations: {', '.join(names[:8])}" + (", ..." if len(names) > 8 else "")
    return Violation(
        "G1",
        f"no location {loc!r} on the map",
        o.pos_of(loc),
        hint=did_you_mean(loc, names) or span,
    )


def check_roll(module: Module, o: Order) -> list[Violation]:
    """[G3] a dice expression; [G4] a table of the module, a column of it, a row for every
    total the dice can make."""
    (text,) = o.arg("dice")
    try:
        dice = parse_dice(text)
    except ValueError as exc:
        return [Violation("G3", str(exc), o.pos_of(text), hint='roll 2d6 for "attack on 1423"')]
    if o.mode != "on":
        return []
    (name,) = o.arg("table")
    table = module.tables.named.get(name)
    if table is None:
        return [
            Violation(
                "G4",
                f"no table {name!r} in this module",
                o.pos_of(name),
                hint=did_you_mean(name, sorted(module.tables.named))
                or "tables: " + ", ".join(sorted(module.tables.named)),
            )
        ]
    return _check_table_roll(table, dice, o)


def _check_table_roll(table: NamedTable, dice: DiceExpr, o: Order) -> list[Violation]:
    columns = [k.text for k in table.column_keys]
    column = (o.arg("column") or (None,))[0]
    if column is not None and column not in columns:
        return [
            Violation(
                "G4",
                f"table {table.name!r} has no column {column!r}",
                o.pos_of(column),
                hint=did_you_mean(column, columns) or "columns: " + ", ".join(columns),
            )
        ]
    missing = [
        t for t in range(dice.low, dice.high + 1) if table.find(t, column or columns[0]) is None
    ]
    if missing:
        (text,) = o.arg("dice")
        return [
            Violation(
                "G4",
                f"table {table.name!r} has no row for a total of {missing[0]} "
                f"({dice} makes {dice.low} to {dice.high})",
                o.pos_of(text),
                hint="roll the dice the table is read with",
            )
        ]
    return []
