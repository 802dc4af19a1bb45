"""A player's VASSAL log (``.vlog``) turned into an orders file the referee can check.

Most PBEM players move their counters in VASSAL and mail the log. This reads such a log,
made with a module ``referee build`` wrote, and writes the same moves in the orders
language (``docs/orders.md``), for the step the game awaits:

* **Movement Phase** [5.0]: each counter's drags become one ``move UNIT HEX HEX ...`` line,
  hexes in the order they were dragged to; lines are in the order each counter first moved,
  a moved stack moves all its counters. A drag that crosses several hexes at once is
  recorded by VASSAL as its end hex only, so when two hexes of a path are not adjacent a
  comment says so and the player fills in the hexes between. A drag into a carrier's
  holding box becomes ``box UNIT CV`` [9.62B]. An undone drag (VASSAL's Undo) is dropped.
* **Combat Phase** [8.0]: VASSAL has no notion of an attack, so by convention a chat line
  that starts with ``attack`` (``attack US-CV-1 US-DD-1 -> SO-SG-1``) is copied as an order.
* **Set-up** [11.0] and **reinforcements** [12.2]: each counter of the side still to be
  placed becomes ``place UNIT HEX`` (``place UNIT box CV`` / ``cap CV`` for carrier air
  [9.62]) from where it ends the log, and a hex with several naval units gets a
  ``stack`` line in the order VASSAL shows them [7.42].

Counters are recognised by the ``UnitId`` Marker property every counter of our module
carries, never by name or picture. Nothing is guessed: whatever cannot be translated (a
counter dragged off the map, a counter deleted or taken from the palette, a drag in the
wrong phase, a chat line that is not an order) is listed in :attr:`Imported.problems` and as
a comment in the file, at the place the player must look. A log from another module, or one
holding counters our module never had, is refused outright (:class:`UserError`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from referee.engine.core import GameState
from referee.errors import UserError
from referee.vassal.codec.savefile import SaveGame
from referee.vassal.codec.tabletop import Replay, Step, Tabletop, replay
from referee.vassal.position.placement import Location, Table
from referee.vassal.position.survey import CounterAt, check_ours, survey

__all__ = ["ATTACK_CHAT", "Expected", "Imported", "Problem", "import_log"]

ATTACK_CHAT: Final = re.compile(r"^\s*attack\b", re.IGNORECASE)
"""The chat convention for attacks: a chat line whose text starts with ``attack``."""

_CHAT_PREFIX: Final = re.compile(r"^\s*(?:<[^<>]*>|&lt;.*?&gt;|\*+)\s*-?\s*")


@dataclass(frozen=True, slots=True)
class Expected:
    """What the game archive says the log should be: the module it was made with and the
    step it answers (game id, Game-Turn, side and phase awaited)."""

    module_name: str
    module_version: str
    game_id: str
    turn: int
    side: str
    phase: str


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the log that did not become an order. ``step`` is the log step (as in
    VASSAL's Step button), 0 for the log's starting position."""

    step: int
    message: str
    unit: str | None = None

    def __str__(self) -> str:
        where = f"log step {self.step}" if self.step else "start of the log"
        return f"{where}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "message": self.message, "unit": self.unit}


@dataclass(frozen=True)
class Imported:
    """The orders file made from a log: its text, its order lines and what was left out."""

    text: str
    section: str
    orders: tuple[str, ...]
    problems: tuple[Problem, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "orders": list(self.orders),
            "problems": [p.to_json() for p in self.problems],
            "text": self.text,
        }


def record_orders(
    source: str, expected: Expected, section: str, orders: tuple[str, ...], problems: list[Problem]
) -> Imported:
    """The orders file of a game refereed for its record (the declared and imported games):
    the header the step expects, one section of order lines, then what was left out, each
    as a comment (``# not an order: ...``), in the log's order."""
    head = [
        f"# Orders made from the VASSAL log {source} by `referee import-vlog`.",
        "# Check every line against the log; rolls are chat lines starting 'roll'.",
        f"game: {expected.game_id}",
        f"turn: {expected.turn}",
        f"side: {expected.side}",
        f"phase: {expected.phase}",
        "",
        f"[{section}]",
    ]
    left_out = tuple(sorted(problems, key=lambda p: p.step))
    notes = [f"# not an order: {p}" for p in left_out]
    return Imported("\n".join([*head, *orders, *notes]) + "\n", section, orders, left_out)


PHASE_SECTION: Final = {
    "setup": "setup",
    "movement": "movement",
    "combat": "combat",
    "reinforcement": "reinforcement",
}


# ---- checks before reading -------------------------------------------------------------------


def check_module(save: SaveGame, expected: Expected, source: str) -> list[Problem]:
    """Refuse a log whose ``moduledata`` names another module or version; a log without
    ``moduledata`` is read, with a note (VASSAL itself does not check it then, §6.1)."""
    meta = save.module_metadata
    if meta is None:
        return [Problem(0, "the log has no moduledata, so its module could not be checked")]
    if meta.name != expected.module_name or meta.version != expected.module_version:
        raise UserError(
            f"{source}: made with module {meta.name!r} version {meta.version!r}; this game "
            f"uses {expected.module_name!r} version {expected.module_version!r}",
            hint="open the game's position in the module built for it (`referee build`) and "
            "record the log again",
        )
    return []


def _check_snapped(table: Table, start: list[CounterAt], source: str) -> None:
    """Every counter on the Main Map of a log made with our module sits on a hex centre; if
    none does, the module was built at another ``--dpi`` and every hex would be misread."""
    on_map = [c for c in start if c.location.map == table.main_map]
    if on_map and not any(table.is_snapped(c.location.x, c.location.y) for c in on_map):
        raise UserError(
            f"{source}: no counter on the map sits on a hex centre of the module built at "
            f"{table.plan.dpi} dpi",
            hint="give the --dpi the players' module was built with",
        )


# ---- the translation -------------------------------------------------------------------------


@dataclass
class Drag:
    """A counter dragged in one step of a log from one place to another (hex, zone, space,
    box or off the map), alone or with its stack: what a move order is written from, the
    hex map's (here) and the named maps' (``vlog_named``)."""

    unit: str
    step: int
    old: Location
    new: Location
    as_stack: bool

    @classmethod
    def of(cls, table: Table, s: Step, unit: str) -> Drag | None:
        """``unit``'s drag in the log step ``s``, or ``None`` when it ends where it began."""
        old = table.locate(*s.old) if s.old else Location("no-map")
        new = table.locate(*s.new) if s.new else Location("no-map")
        return None if old == new else cls(unit, s.index, old, new, s.moved_as_stack)


def units_by_vassal_id(top: Tabletop) -> dict[str, str]:
    out: dict[str, str] = {}
    for pid in top.pieces:
        unit = top.properties(pid).get("UnitId")
        if unit:
            out[pid] = unit
    return out


def drop_undone(steps: Sequence[Step]) -> list[Step]:
    """Drop each drag an Undo block reverses, with the reversing drag itself (§6.4 UNDO)."""
    kept: list[Step] = []
    undoing = False
    for s in steps:
        if s.kind == "undo-start":
            undoing = True
            continue
        if s.kind == "undo-end":
            undoing = False
            continue
        if undoing and s.kind == "drag":
            for i in range(len(kept) - 1, -1, -1):
                k = kept[i]
                if k.kind == "drag" and k.piece == s.piece:
                    if k.new == s.old and k.old == s.new:
                        del kept[i]
                        break
                    kept.append(s)
                    break
            else:
                kept.append(s)
            continue
        kept.append(s)
    return kept


class _Writer:
    def __init__(self, table: Table, state: GameState, expected: Expected, source: str) -> None:
        self.table = table
        self.state = state
        self.expected = expected
        self.source = source
        self.lines: list[str] = []
        self.orders: list[str] = []
        self.problems: list[Problem] = []
        self._final_hex: dict[str, str] = {}

    def problem(self, step: int, message: str, unit: str | None = None) -> None:
        self.problems.append(Problem(step, message, unit))
        self.lines.append(
            f"# NOT TRANSLATED ({'step ' + str(step) if step else 'start'}): {message}"
        )

    def order(self, line: str) -> None:
        self.orders.append(line)
        self.lines.append(line)

    def comment(self, text: str) -> None:
        self.lines.append(f"# {text}")

    # -- movement [5.0]
    def movement(self, drags: list[Drag], start_hex: dict[str, str | None]) -> None:
        grid = self.table.module.map.grid
        paths: dict[str, list[Drag]] = {}
        at: dict[str, list[int]] = {}
        for i, d in enumerate(drags):
            paths.setdefault(d.unit, []).append(d)
            at.setdefault(d.unit, []).append(i)
        interleaved = {u for u, ix in at.items() if ix[-1] - ix[0] + 1 != len(ix)}
        module = self.table.module
        for unit, moves in paths.items():
            if module.piece(unit).unit.side != self.expected.side:
                self.problem(moves[0].step, f"{unit} is not a {self.expected.side} unit", unit)
                continue
            hexes: list[tuple[str, int]] = []
            box: str | None = None
            ok = True
            for d in moves:
                if d.new.kind == "hex":
                    if box is not None:
                        self.problem(d.step, f"{unit} left the holding box of {box} again", unit)
                        ok = False
                        break
                    hexes.append((d.new.name, d.step))
                elif d.new.kind == "holding":
                    box = d.new.name
                else:
                    self.problem(d.step, f"{unit} was dragged to {d.new}, not to a hex", unit)
                    ok = False
                    break
            if not ok:
                continue
            if unit in interleaved:
                self.comment(
                    f"{unit} was dragged more than once with other moves between; its drags "
                    "are joined into one path in the order they were made [5.1]"
                )
            here = start_hex.get(unit)
            if hexes:
                prev = here
                for h, step in hexes:
                    if prev is not None and prev != h and not grid.adjacent(prev, h):
                        self.comment(
                            f"{unit}: {prev} -> {h} (log step {step}) crosses several hexes in "
                            "one drag; write the hexes in between"
                        )
                    prev = h
                self.order(f"move {unit} " + " ".join(h for h, _ in hexes))
            if box is not None:
                self.order(f"box {unit} {box}")
            elif hexes:
                self._cap_hint(unit, hexes[-1][0])

    def _cap_hint(self, unit: str, hex_id: str) -> None:
        """An air unit ending in the hex of a carrier of its nationality may fly CAP over it
        [9.62A]; VASSAL cannot show that, so say how to write it."""
        module = self.table.module
        ud = module.piece(unit).unit
        if ud.category != "air" or not ud.has("carrier"):
            return
        for other, us in sorted(self.state.units.items()):
            if other == unit or us.location is None:
                continue
            od = module.pieces().get(other)
            if (
                od
                and od.unit.type == "CV"
                and od.unit.nationality == ud.nationality
                and self._final_hex.get(other, us.location) == hex_id
            ):
                self.comment(f"if {unit} flies CAP over {other}, add: cap {unit} {other}")

    # -- set-up [11.0] and reinforcement [12.2]
    def placement(self, end: list[CounterAt], steps: dict[str, int]) -> None:
        state = self.state
        side = self.expected.side
        wanted = {
            u.id
            for u in state.units.values()
            if u.side == side
            and u.location is None
            and u.box == ("unplaced" if self.expected.phase == "setup" else "reinforcements")
        }
        if self.expected.phase != "setup":
            wanted = {u for u in wanted if u in self._due_reinforcements()}
        assigned = dict(state.data.get("assigned") or {})
        where = {c.unit: c for c in end if c.unit in wanted}
        placed_in: dict[str, list[str]] = {}
        for unit in sorted(wanted):
            c = where.get(unit)
            step = steps.get(unit, 0)
            if c is None:
                self.problem(step, f"{unit} is not on the table at the end of the log", unit)
                continue
            loc = c.location
            cv = assigned.get(unit)
            if loc.kind == "hex":
                cv_here = cv is not None and self._final_hex.get(cv) == loc.name
                if cv_here:
                    self.order(f"place {unit} cap {cv}")
                else:
                    self.order(f"place {unit} {loc.name}")
                    placed_in.setdefault(loc.name, []).append(unit)
            elif loc.kind == "holding":
                self.order(f"place {unit} box {loc.name}")
            else:
                self.problem(step, f"{unit} was not placed: it is in the {loc}", unit)
        module = self.table.module
        for hex_id in sorted(placed_in):
            stack = next(
                c.stack for c in end if c.location.kind == "hex" and c.location.name == hex_id
            )
            mine = [
                u
                for u in stack
                if u in module.pieces() and state.units.get(u) and state.units[u].side == side
            ]
            naval = [u for u in mine if module.piece(u).unit.category != "air"]
            if len(naval) >= 2:
                air = [u for u in mine if module.piece(u).unit.category == "air"]
                self.order(f"stack {hex_id} " + " ".join(air + naval))

    def _due_reinforcements(self) -> set[str]:
        scenario = self.table.module.scenarios.get(self.state.scenario)
        if scenario is None:
            return set()
        out: set[str] = set()
        for r in scenario.reinforcements:
            if r.side == self.expected.side and r.after_turn < self.state.turn + 1:
                out.update(r.units)
        return out


def chat_text(message: str) -> str:
    """The typed text of a chat line: without the ``<player> -`` prefix, HTML unescaped."""
    return html.unescape(_CHAT_PREFIX.sub("", message, count=1)).strip()


def read_log(
    table: Table, save: SaveGame, state: GameState, expected: Expected, source: str
) -> tuple[list[Problem], Replay, list[CounterAt], list[CounterAt], dict[str, str]]:
    """What both importers (hex ids here, zone and space names in :mod:`vlog_named`) read
    first: refused when the game awaits an answer (a log cannot give one), from another
    module, or holding counters the module never had; the log replayed, its counters at
    the start and the end, and the units by VASSAL piece id."""
    if state.pending:
        pd = state.pending[0]
        raise UserError(
            f"the game awaits {pd.side}'s answer to {pd.id} ({pd.prompt}); a VASSAL log "
            "cannot give it",
            hint=f"write an [answer] section by hand: answer {pd.id} OPTION",
        )
    problems = check_module(save, expected, source)
    played: Replay = replay(save.commands)
    start = survey(table, played.start)
    end = survey(table, played.end)
    check_ours(table, start + end, source)
    units_of = units_by_vassal_id(played.end) | units_by_vassal_id(played.start)
    return problems, played, start, end, units_of


def import_log(
    table: Table,
    save: SaveGame,
    state: GameState,
    expected: Expected,
    *,
    source: str = "log",
) -> Imported:
    """Translate ``save`` (a ``.vlog``) into an orders file for the step ``expected``.

    Raises :class:`UserError` for a log from another module or holding counters the module
    never had; everything else that cannot be translated is a :class:`Problem`.
    """
    problems, played, start, end, units_of = read_log(table, save, state, expected, source)
    _check_snapped(table, start, source)

    w = _Writer(table, state, expected, source)
    w.problems.extend(problems)
    w._final_hex = {c.unit: c.location.name for c in end if c.unit and c.location.kind == "hex"}
    section = PHASE_SECTION.get(expected.phase)
    if section is None:
        raise UserError(
            f"the game is in the {expected.phase!r} step; a VASSAL log cannot answer it",
            hint="write that orders file by hand (docs/orders.md)",
        )
    on_table = [c.unit for c in end if c.unit]
    doubled = sorted({u for u in on_table if on_table.count(u) > 1})
    for u in doubled:
        w.problem(0, f"{u} is on the table more than once (a copy taken from the palette?)", u)

    drags, last_step = _read_steps(w, table, drop_undone(played.steps), units_of, section)
    header = _header(source, expected, section)
    _write_section(w, section, drags, start, end, last_step, state)
    text = "\n".join(header + w.lines) + "\n"
    problems_in_order = sorted(w.problems, key=lambda p: p.step)
    return Imported(text, section, tuple(w.orders), tuple(problems_in_order))


def _read_steps(
    w: _Writer, table: Table, steps: list[Step], units_of: dict[str, str], section: str
) -> tuple[list[Drag], dict[str, int]]:
    """The log's steps that matter: each counter dragged to another place (in order), the
    last step that touched each unit, and what the log may not do (take a counter from the
    palette outside a set-up, delete one, attack outside the Combat Phase)."""
    drags: list[Drag] = []
    last_step: dict[str, int] = {}
    for s in steps:
        unit = units_of.get(s.piece) if s.piece else None
        if s.kind == "drag" and unit:
            drag = Drag.of(table, s, unit)
            if drag is None:
                continue
            drags.append(drag)
            last_step[unit] = s.index
        elif s.kind == "create" and unit:
            if section not in ("setup", "reinforcement"):
                w.problem(s.index, f"{unit} was taken from the palette onto the table", unit)
            last_step[unit] = s.index
        elif s.kind == "delete" and unit:
            w.problem(s.index, f"{unit} was deleted; eliminations are the referee's", unit)
        elif s.kind == "chat":
            _chat(w, s, section)
    return drags, last_step


def _chat(w: _Writer, s: Step, section: str) -> None:
    """A chat line ``attack ...`` is an attack order, in the Combat Phase only."""
    text = chat_text(s.text)
    if ATTACK_CHAT.match(text):
        if section == "combat":
            w.order(" ".join(text.split()))
        else:
            w.problem(s.index, f"an attack in the {w.expected.phase} step: {text!r}")


def _header(source: str, expected: Expected, section: str) -> list[str]:
    """The orders file's opening comment, header and section line."""
    return [
        f"# Orders made from the VASSAL log {source} by `referee import-vlog`.",
        "# Check every line against the log, add what VASSAL cannot show (attacks are chat",
        "# lines starting 'attack'; CAP and base orders), then sign the file as usual.",
        f"game: {expected.game_id}",
        f"turn: {expected.turn}",
        f"side: {expected.side}",
        f"phase: {expected.phase}",
        "",
        f"[{section}]",
    ]


def _write_section(
    w: _Writer,
    section: str,
    drags: list[Drag],
    start: list[CounterAt],
    end: list[CounterAt],
    last_step: dict[str, int],
    state: GameState,
) -> None:
    """The section's lines: moves from the drags, attacks (a drag in combat is the
    referee's to make), or placements from where the counters ended."""
    if section == "movement":
        start_hex = {c.unit: _start_hex(c, w._final_hex, state) for c in start if c.unit}
        w.movement(drags, start_hex)
        if not w.orders:
            w.comment("no counter of yours was moved in this log")
    elif section == "combat":
        for d in drags:
            w.problem(
                d.step,
                f"{d.unit} was dragged {d.old} -> {d.new} in the Combat Phase; retreats and "
                "advances are the referee's (write 'retreat'/'advance' lines if you choose)",
                d.unit,
            )
        if not w.orders:
            w.comment("no attack found: add 'attack UNIT ... -> TARGET' lines here [8.0]")
    else:
        w.placement(end, last_step)


def _start_hex(c: CounterAt, final: dict[str, str | None], state: GameState) -> str | None:
    """Where a counter's move starts: its hex, or for an air unit in a holding box, its
    carrier's hex [9.62B]."""
    if c.location.kind == "hex":
        return c.location.name
    if c.location.kind == "holding":
        cv = state.units.get(c.location.name)
        return cv.location if cv else None
    return None
