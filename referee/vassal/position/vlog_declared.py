"""A VASSAL log of a declared game turned into its orders file (``import-vlog``).

A declared game (``docs/declared-games.md``) has one ``[orders]`` section per step of a side.
From a log made with the module ``referee build`` wrote for it:

* each counter of the side dragged between hexes becomes one ``move UNIT HEX HEX ...`` line
  (hexes in the order they were dragged to, undone drags dropped); a counter that was off the
  map at the start and ends on a hex becomes ``place UNIT HEX``;
* a chat line that starts with one of the declared ruleset's verbs (``roll 2d6 for "..."``,
  ``roll 2d6 on gunnery heavy``, ``flip``, ``mark``, ``eliminate``) is copied as an order,
  so players ask for the referee's dice from VASSAL's chat; the dice are rolled by the
  referee, never by VASSAL;
* whatever is not an order (another side's counter dragged, a counter dragged off the map,
  deleted or taken from the palette, any other chat line) is listed as a problem and a
  comment, never guessed.

Counters are recognised by the ``UnitId`` property of our module's counters, as for every
game (:func:`referee.vassal.position.vlog_import.read_log`).
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.vocabulary import Vocabulary
from referee.vassal.codec.savefile import SaveGame
from referee.vassal.position.placement import Table
from referee.vassal.position.vlog_import import (
    Expected,
    Imported,
    Problem,
    chat_text,
    drop_undone,
    read_log,
    record_orders,
)

SECTION = "orders"


def import_declared_log(
    table: Table,
    save: SaveGame,
    state: GameState,
    expected: Expected,
    vocab: Vocabulary,
    *,
    source: str = "log",
) -> Imported:
    """The orders file of a declared game's step made from ``save`` (a ``.vlog``)."""
    problems, played, _start, _end, units_of = read_log(table, save, state, expected, source)
    lines: list[str] = []
    paths: dict[str, list[str]] = {}  # unit -> hexes, in the order of each unit's first drag
    out_problems = list(problems)
    verbs = set(vocab.verb_names())
    for s in drop_undone(played.steps):
        unit = units_of.get(s.piece) if s.piece else None
        if s.kind == "chat":
            text = chat_text(s.text)
            if text.split(" ", 1)[0].lower() in verbs - {"move", "place", "answer"}:
                lines.append(" ".join(text.split()))
            elif text:
                out_problems.append(Problem(s.index, f"a chat line that is no order: {text!r}"))
            continue
        if unit is None:
            continue
        why = _not_ours(state, expected.side, unit, s.kind)
        if why:
            out_problems.append(Problem(s.index, why, unit))
            continue
        new = table.locate(*s.new) if s.new else None
        if new is None or new.kind != "hex":
            where = new.name if new is not None and new.name else "off the map"
            out_problems.append(Problem(s.index, f"{unit} was dragged to {where}, no hex", unit))
            continue
        if unit not in paths:
            paths[unit] = []
            lines.append(f"\0{unit}")  # the unit's move, written where it first moved
        if not paths[unit] or paths[unit][-1] != new.name:
            paths[unit].append(new.name)
    orders = tuple(_written(line, paths, state) for line in lines)
    return record_orders(source, expected, SECTION, orders, out_problems)


def _not_ours(state: GameState, side: str, unit: str, kind: str) -> str:
    """Why a step of ``unit`` is no order of ``side`` (empty when it is one)."""
    if kind == "delete":
        return f"{unit} was deleted; write 'eliminate {unit}' to eliminate it"
    if kind not in ("drag", "create"):
        return ""
    own = state.units.get(unit)
    if own is None or own.side != side:
        return f"{unit} is not {side}'s counter"
    return ""


def _written(line: str, paths: dict[str, list[str]], state: GameState) -> str:
    if not line.startswith("\0"):
        return line
    unit = line[1:]
    path = paths[unit]
    if state.units[unit].location is None:  # off the map at the start: placed where it ends
        return f"place {unit} {path[-1]}"
    return f"move {unit} {' '.join(path)}"
