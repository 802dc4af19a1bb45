"""A VASSAL log made on an area or point-to-point map, turned into an orders file.

The hex importer (:mod:`referee.vassal.position.vlog_import`) writes Sixth Fleet (1975)'s own
orders.
This one serves any ruleset whose vocabulary writes locations by name (zones, spaces, ports:
``LocationSyntax.name``), on a map with zones or spaces, and it learns everything it writes
from that vocabulary (``referee/engine/vocabulary.py``), never from a ruleset's code:

* **Moves.** VASSAL reports a counter dropped in a zone or on a space by that zone's or
  space's own name (:meth:`referee.vassal.position.placement.Table.locate`). Each counter's drags
  become the ruleset's ``move`` verb, written in the shape of its first form: with units
  (``move UNIT [UNIT ...] -> ZONE [ZONE ...]``, Sixth Fleet 2019, the naval module), counters
  that were dragged as one stack along the same path sharing one line; or without units
  (``move SPACE [SPACE ...]``, Carrier Battlegroup's CVBG), when every counter of the side
  that moved followed one path. A name with spaces is written in double quotes, as every
  name-location vocabulary reads it. Two places in a row that are not adjacent (a drag across
  several zones, which VASSAL records as its end only) get a comment asking for the places in
  between; an undone drag is dropped.
* **Other orders.** VASSAL has no notion of an attack or a launch, so, as on the hex map, a
  chat line that starts with one of the vocabulary's verbs (``attack``, ``strike``,
  ``patrol``...) is copied as an order into that verb's section.
* **Nothing guessed.** A drag off every zone and space, onto another side's counter, a
  counter deleted or taken from the palette, a chat line that is not an order: each is a
  :class:`~referee.vassal.position.vlog_import.Problem` and a comment at its place in the file.

Which orders the step due accepts is the ruleset's to say: ``referee validate`` then checks
the file as it checks any other.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.vocabulary import BARE_NAME_RE, Vocabulary
from referee.errors import UserError
from referee.source.model import Module
from referee.vassal.codec.savefile import SaveGame
from referee.vassal.position.placement import Table
from referee.vassal.position.vlog_import import (
    Drag,
    Expected,
    Imported,
    Problem,
    chat_text,
    drop_undone,
    read_log,
)

__all__ = ["import_named_log", "written_name"]

PLACES = ("zone", "space")


def written_name(name: str) -> str:
    """A zone or space name as an orders file writes it: as is when it is one plain word,
    else in double quotes (``docs/orders.md``)."""
    return name if BARE_NAME_RE.match(name) else f'"{name}"'


def adjacent(module: Module, a: str, b: str) -> bool:
    """Whether a piece may go from place ``a`` to place ``b`` in one step on the map: zones
    listed as adjacent, spaces joined by a link or a line (one way where directed), or a
    port and the zone it opens on."""
    m = module.map
    if m.zones is not None and a in m.zones.zones and b in m.zones.zones[a].adjacent:
        return True
    if m.spaces is None:
        return False
    spaces = m.spaces
    for s, z in ((a, b), (b, a)):
        if s in spaces.spaces and spaces.spaces[s].zone == z:
            return True
    for link in spaces.links:
        if (link.a, link.b) == (a, b) or (not link.directed and (link.b, link.a) == (a, b)):
            return True
    for line in spaces.lines.values():
        for x, y in zip(line.spaces, line.spaces[1:], strict=False):
            if (x, y) == (a, b) or (not line.directed and (y, x) == (a, b)):
                return True
    return False


class _Writer:
    """The orders, section by section, each line at the log step it comes from (a move at
    its counter's first drag), so the file reads in the order the player acted."""

    def __init__(self, vocab: Vocabulary) -> None:
        self.lines: dict[str, list[tuple[int, int, str]]] = {}
        self.orders: list[tuple[int, int, str]] = []
        self.problems: list[Problem] = []
        self.vocab = vocab
        self._seq = 0

    def _add(self, section: str, step: int, text: str) -> tuple[int, int, str]:
        self._seq += 1
        entry = (step, self._seq, text)
        self.lines.setdefault(section, []).append(entry)
        return entry

    def problem(self, section: str, step: int, message: str, unit: str | None = None) -> None:
        self.problems.append(Problem(step, message, unit))
        where = f"step {step}" if step else "start"
        self._add(section, step, f"# NOT TRANSLATED ({where}): {message}")

    def order(self, section: str, step: int, line: str) -> None:
        self.orders.append(self._add(section, step, line))

    def comment(self, section: str, step: int, text: str) -> None:
        self._add(section, step, f"# {text}")

    def has_orders(self, section: str) -> bool:
        return any(not t.startswith("#") for _, _, t in self.lines.get(section, []))

    def order_lines(self) -> tuple[str, ...]:
        return tuple(t for _, _, t in sorted(self.orders))

    def text(self, header: list[str]) -> str:
        out = list(header)
        for name in self.vocab.all_sections():
            if name in self.lines:
                out += ["", f"[{name}]", *(t for _, _, t in sorted(self.lines[name]))]
        return "\n".join(out) + "\n"


def _move_shape(vocab: Vocabulary) -> tuple[str, bool, bool]:
    """The ``move`` verb's section, whether its first form names units, and whether it writes
    ``->`` before the path."""
    verb = vocab.verb("move")
    if verb is None or not verb.forms:
        raise UserError(
            f"the {vocab.ruleset} orders have no 'move' verb, so a VASSAL log cannot be read",
            hint="write the orders file by hand (docs/orders.md)",
        )
    parts = verb.forms[0].parts
    with_units = any(p.kind == "unit" for p in parts)
    arrow = any(p.kind == "keyword" and "->" in p.choices for p in parts)
    return verb.sections[0], with_units, arrow


def import_named_log(
    table: Table,
    save: SaveGame,
    state: GameState,
    expected: Expected,
    vocab: Vocabulary,
    *,
    source: str = "log",
) -> Imported:
    """Translate ``save`` (a ``.vlog`` of a module with zones or spaces) into an orders file
    in ``vocab``'s words for the step ``expected``.

    Raises :class:`UserError` for a log from another module, holding counters the module
    never had, or a game awaiting an answer; everything else that cannot be translated is a
    :class:`Problem`."""
    problems, played, _start, end, units_of = read_log(table, save, state, expected, source)
    section, with_units, arrow = _move_shape(vocab)
    w = _Writer(vocab)
    w.problems.extend(problems)
    on_table = [c.unit for c in end if c.unit]
    for u in sorted({u for u in on_table if on_table.count(u) > 1}):
        w.problem(section, 0, f"{u} is on the table more than once (a copy from the palette?)", u)

    def ours(unit: str) -> bool:
        us = state.units.get(unit)
        return us is not None and us.side == expected.side

    drags: list[Drag] = []
    for s in drop_undone(played.steps):
        unit = units_of.get(s.piece) if s.piece else None
        if s.kind == "drag" and unit:
            drag = Drag.of(table, s, unit)
            if drag is None:
                continue
            if not ours(unit):
                w.problem(section, s.index, f"{unit} is not {expected.side}'s counter", unit)
                continue
            drags.append(drag)
        elif s.kind == "create" and unit:
            w.problem(section, s.index, f"{unit} was taken from the palette onto the table", unit)
        elif s.kind == "delete" and unit:
            w.problem(section, s.index, f"{unit} was deleted; eliminations are the referee's", unit)
        elif s.kind == "chat":
            _chat_order(w, vocab, section, s.index, chat_text(s.text))
    _moves(w, table.module, drags, section, with_units, arrow)
    if not w.has_orders(section):
        w.comment(section, 10**9, f"no counter of {expected.side}'s was moved in this log")
    header = [
        f"# Orders made from the VASSAL log {source} by `referee import-vlog`.",
        "# Check every line against the log, add what VASSAL cannot show (chat lines that",
        "# start with a verb become orders), then sign the file as usual.",
        f"game: {expected.game_id}",
        f"turn: {expected.turn}",
        f"side: {expected.side}",
    ]
    text = w.text(header)
    ordered = sorted(w.problems, key=lambda p: p.step)
    return Imported(text, section, w.order_lines(), tuple(ordered))


def _chat_order(w: _Writer, vocab: Vocabulary, section: str, step: int, text: str) -> None:
    """A chat line whose first word is one of the vocabulary's verbs (not ``move``, which
    drags give) becomes an order in that verb's section."""
    first = text.split(maxsplit=1)[0].lower() if text.strip() else ""
    verb = vocab.verb(first) if first and first != "move" else None
    if verb is not None:
        w.order(verb.sections[0], step, " ".join(text.split()))
    elif first in ("move",):
        w.problem(section, step, f"a move typed in the chat ({text!r}); drag the counters")


def _moves(
    w: _Writer,
    module: Module,
    drags: list[Drag],
    section: str,
    with_units: bool,
    arrow: bool,
) -> None:
    """Each counter's path of places, in the order counters first moved; then the lines."""
    paths: dict[str, list[tuple[str, int]]] = {}
    start: dict[str, str | None] = {}
    stacked: dict[str, bool] = {}
    for d in drags:
        if d.new.kind not in PLACES:
            w.problem(
                section, d.step, f"{d.unit} was dragged to {d.new}, not to a zone or space", d.unit
            )
            continue
        if d.unit not in paths:
            paths[d.unit] = []
            start[d.unit] = d.old.name if d.old.kind in PLACES else None
        paths[d.unit].append((d.new.name, d.step))
        stacked[d.unit] = stacked.get(d.unit, False) or d.as_stack
    lead = "move -> " if arrow and not with_units else "move "
    if not with_units:
        different = {tuple(n for n, _ in p) for p in paths.values()}
        if len(different) > 1:
            units = ", ".join(paths)
            first = min(st for p in paths.values() for _, st in p)
            w.problem(section, first, f"{units} moved along different paths; they move as one")
            return
        if paths:
            unit, path = next(iter(paths.items()))
            _gaps(w, module, section, unit, start[unit], path)
            w.order(section, path[0][1], lead + " ".join(written_name(n) for n, _ in path))
        return
    groups: list[tuple[list[str], list[tuple[str, int]]]] = []
    for unit, path in paths.items():
        names = [n for n, _ in path]
        for units, other in groups:
            if (
                stacked.get(unit)
                and stacked.get(units[0])
                and [n for n, _ in other] == names
                and start[units[0]] == start[unit]
            ):
                units.append(unit)
                break
        else:
            groups.append(([unit], path))
    for units, path in groups:
        _gaps(w, module, section, units[0], start[units[0]], path)
        places = " ".join(written_name(n) for n, _ in path)
        line = f"move {' '.join(units)} {'-> ' if arrow else ''}{places}"
        w.order(section, path[0][1], line)


def _gaps(
    w: _Writer,
    module: Module,
    section: str,
    unit: str,
    first: str | None,
    path: list[tuple[str, int]],
) -> None:
    prev = first
    for name, step in path:
        if prev is not None and not adjacent(module, prev, name):
            w.comment(
                section,
                path[0][1],
                f"{unit}: {prev} -> {name} (log step {step}) is not one step on the map; "
                "write the places in between",
            )
        prev = name
