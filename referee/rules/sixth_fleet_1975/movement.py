"""Movement [5.0], terrain [10.1x] and the movement side of zones of control [6.1x]-[6.44].

One step function, :func:`step_5_0`, says whether a unit that has come so far may enter the
next hex, and what it costs: terrain and hexsides [10.1x], enemy Defended hexes [10.15],
closed areas [12.3][14.4], enemy units [5.21][6.42a], the MA or Range [5.23], stopping in an
enemy zone of control [6.11] and leaving one [6.43][6.44]. :func:`reachable` (the legal
options: ``referee options``, the scripted players, the property tests) and
:func:`check_path_5_0` (the validator's and the resolver's check of a written ``move``) are
two walks over that one function, so a path is accepted exactly when it is among the legal
options shown.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import facts_of
from referee.rules.sixth_fleet_1975.strengths import can_attack_6_41
from referee.rules.sixth_fleet_1975.zoc import in_enemy_zoc, may_leave_6_43
from referee.source.boxes import carrier_of


@dataclass(frozen=True, slots=True)
class Reach:
    """A hex a unit can reach this Movement Phase: the cheapest legal path, its cost, whether
    the unit must stop there (the case forcing it, e.g. ``6.11``) and whether it may end its
    move there (not in an enemy-occupied hex it passes under [6.42a][5.21])."""

    hex: str
    cost: int
    path: tuple[str, ...]
    stop: str | None
    may_end: bool

    def to_json(self) -> dict[str, object]:
        return {
            "hex": self.hex,
            "cost": self.cost,
            "path": list(self.path),
            "stop": self.stop,
            "may_end": self.may_end,
        }


def start_hex(game: Game, state: GameState, unit: str) -> str | None:
    """Where a unit starts moving: its hex, or its carrier's hex when it is in the carrier's
    holding box [9.62B]."""
    u = state.units[unit]
    if u.location is not None:
        return u.location
    carrier = carrier_of(u.box)
    if carrier is not None:
        cv = state.units.get(carrier)
        return cv.location if cv is not None else None
    return None


def path_after_start(start: str | None, path: Sequence[str]) -> tuple[str, ...]:
    """The hexes a move enters, for its report line: a path written from the unit's own hex
    ("move X 1602 1603 1604" from 1602) does not list that hex twice ("1602 -> 1603 1604")."""
    hexes = tuple(path)
    if len(hexes) > 1 and start is not None and hexes[0] == start:
        return hexes[1:]
    return hexes


def entry_cost_5_12(game: Game, state: GameState, unit: str, hex_id: str) -> int | None:
    """MP to enter: terrain data by category [5.12][10.14]; air units may enter Prohibited
    neutral hexes once the Soviet player has violated neutral air space [14.2]."""
    return _entry_cost(game, state, game.category(unit), hex_id)


def _entry_cost(game: Game, state: GameState, cat: str, hex_id: str) -> int | None:
    """:func:`entry_cost_5_12` for a unit of category ``cat`` (the search knows it)."""
    cost = game.board.entry_cost(hex_id, cat)
    if (
        cost is None
        and cat == "air"
        and facts_of(state).neutral_airspace
        and game.board.terrain(hex_id) in game.flags.neutral_airspace_terrain
    ):
        return 1
    return cost


def terrain_case_10_1(game: Game, hex_id: str) -> str:
    """The case that keeps a unit out of the terrain of ``hex_id`` (asked only when
    :func:`entry_cost_5_12` says it may not enter): Prohibited hexes, which no unit may enter
    or retreat into [10.11] (air units cannot enter them either), else the all-land hexes
    closed to naval units [10.12]."""
    t = game.board.terrain_type(hex_id)
    return "10.11" if not t.costs.get("air") else "10.12"


def entry_problem_10_1(
    game: Game, state: GameState, unit: str, frm: str, to: str, cost: int | None
) -> Violation | None:
    """Why ``unit`` may not enter ``to`` from adjacent ``frm`` in movement, else ``None``:
    terrain [10.11][10.12][10.13] (``cost`` is :func:`entry_cost_5_12`, ``None`` when the
    terrain forbids it), all-land hexsides [10.12], an undestroyed enemy Defended hex [10.15],
    a closed area [12.3][14.4], an enemy-occupied hex whose units could attack it
    [5.21][6.42a]."""
    return _entry_problem(
        game, state, unit, game.category(unit), state.units[unit].side, frm, to, cost
    )


def _entry_problem(
    game: Game,
    state: GameState,
    unit: str,
    cat: str,
    side: str,
    frm: str,
    to: str,
    cost: int | None,
) -> Violation | None:
    """:func:`entry_problem_10_1` with the unit's category and side already looked up (the
    search asks it once per hex tried, so these are taken from its :class:`Mover`)."""
    if cost is None:
        t = game.board.terrain_type(to)
        return Violation(
            terrain_case_10_1(game, to),
            f"{game.unit(unit).category} units may not enter {t.name} ({to})",
            code="terrain",
        )
    if cat != "air" and game.board.hexside_blocked(frm, to, cat):
        return Violation(
            "10.12", f"naval units may not cross the all-land hexside {frm}/{to}", code="hexside"
        )
    if game.enemy_defended(state, to, side):
        return Violation(
            "10.15",
            f"{to} is an enemy Defended hex that has not been destroyed",
            code="enemy-defended-hex",
        )
    closed = closed_area_12_3(game, state, unit, to)
    if closed is not None:
        return Violation(
            closed, f"{to} is closed to {cat} units until a later Game-Turn", code="closed"
        )
    stack = state.stacks.get(to)
    if stack and any(state.units[e].side != side and can_attack_6_41(game, e, cat) for e in stack):
        return Violation(
            "5.21", f"{to} holds enemy units that can attack {unit}", code="enemy-units"
        )
    return None


# ---- one step: the rule every movement question asks ----------------------------------------


class Mover(NamedTuple):
    """The facts about one unit's move that do not change along its path [5.0]."""

    unit: str
    side: str
    category: str
    allowance: int  # MA, or Range Allowance for air units [3.3][5.23]
    start: str


class Step(NamedTuple):
    """A unit standing in ``hex`` after entering ``moved`` hexes for ``cost`` MP; ``ezoc``:
    the hex is enemy-controlled for it (it must stop there [6.11]); ``occupied``: enemy units
    are there (it may pass under them, never end there [5.21][6.42a]). (A named tuple: the
    search makes one per step tried.)"""

    hex: str
    cost: int
    moved: int
    ezoc: bool
    occupied: bool


def mover_5_0(game: Game, state: GameState, unit: str) -> Mover | None:
    """``unit`` about to move, or ``None`` when it is not on the map (nor in a holding box
    whose carrier is) [5.1][9.62B]."""
    start = start_hex(game, state, unit)
    if start is None:
        return None
    side = state.units[unit].side
    return Mover(unit, side, game.category(unit), game.movement_allowance(unit), start)


def first_step(game: Game, state: GameState, m: Mover) -> Step:
    """The unit in its starting hex, nothing spent yet."""
    return Step(m.start, 0, 0, in_enemy_zoc(game, state, m.start, m.side, m.category), False)


def leave_problem_6_43(game: Game, state: GameState, m: Mover, at: Step) -> Violation | None:
    """A unit that starts in an enemy-controlled hex leaves it only as [6.43] allows: the
    case that governs leaving leads (none of its cases A-D applies); the zone-of-control case
    [6.11] and the Movement chapter's statement of it [5.26] are the second citations."""
    if at.ezoc and not may_leave_6_43(game, state, m.unit, m.start)[0]:
        return Violation(
            "6.43",
            f"{m.unit} starts in the enemy-controlled hex {m.start} and may not leave it: "
            "no case of 6.43 (A-D) applies [6.11, 5.26]",
            code="may-not-leave",
        )
    return None


def step_5_0(game: Game, state: GameState, m: Mover, here: Step, to: str) -> Step | Violation:
    """Enter ``to`` from ``here``: the new :class:`Step`, or the first rule that forbids it.

    In order: the hex is on the map [5.24] and adjacent [5.1]; the unit did not have to stop
    in ``here`` [6.11]; it may enter ``to`` at all (:func:`entry_problem_10_1`); it has the MP
    [5.23]; it does not go straight from one enemy-controlled hex into another, unless it is a
    submarine [6.44]. :func:`reachable` (``referee options``, the scripted players) and
    :func:`check_path_5_0` (the validator and resolution of ``move``) both take steps only
    through here, so what a player is shown as legal is exactly what is accepted."""
    if not game.board.contains(to):
        return Violation("5.24", f"hex {to} is not on the map", code="off-map")
    if not game.board.adjacent(here.hex, to):
        return Violation("5.1", f"{to} is not adjacent to {here.hex}", code="not-adjacent")
    if here.moved > 0 and here.ezoc:
        return Violation(
            "6.11",
            f"{m.unit} entered the enemy-controlled hex {here.hex} and must stop there",
            code="must-stop",
        )
    return enter_5_0(game, state, m, here, to, _entry_cost(game, state, m.category, to))


def enter_5_0(
    game: Game, state: GameState, m: Mover, here: Step, to: str, cost: int | None
) -> Step | Violation:
    """The second half of :func:`step_5_0`, for a hex ``to`` next to ``here`` that the unit
    did not have to stop in; ``cost`` is :func:`entry_cost_5_12` of ``to``. (The search in
    :func:`reachable` only ever asks about such hexes, so it starts here.)"""
    bad = _entry_problem(game, state, m.unit, m.category, m.side, here.hex, to, cost)
    if bad is not None:
        return bad
    assert cost is not None
    if here.cost + cost > m.allowance:
        what = "Range Allowance" if m.category == "air" else "Movement Allowance"
        return Violation(
            "5.23",
            f"{m.unit} needs {here.cost + cost} MP to enter {to}; its {what} is {m.allowance}",
            code="allowance",
        )
    ezoc = in_enemy_zoc(game, state, to, m.side, m.category)
    if ezoc and here.ezoc and here.moved == 0 and m.category != "submarine":
        # an air unit's own case first [9.31], the general one [6.44] second
        air = m.category == "air"
        return Violation(
            "9.31" if air else "6.44",
            f"{m.unit} may not move directly from the enemy-controlled hex {here.hex} into "
            f"the enemy-controlled hex {to}" + (" [6.44]" if air else ""),
            code="zoc-to-zoc",
        )
    stack = state.stacks.get(to)
    occupied = stack is not None and any(state.units[e].side != m.side for e in stack)
    return Step(to, here.cost + cost, here.moved + 1, ezoc, occupied)


def end_problem_5_21(m: Mover, at: Step) -> Violation | None:
    """A move may not end in an enemy-occupied hex [5.21]."""
    if at.occupied:
        return Violation(
            "5.21",
            f"{m.unit} may not end its move in enemy-occupied {at.hex}",
            code="ends-occupied",
        )
    return None


def reachable(game: Game, state: GameState, unit: str) -> dict[str, Reach]:
    """Every hex ``unit`` may move to (or through) now, with the cheapest legal path: the
    legal options :func:`step_5_0` generates, searched cheapest first (Dijkstra). A hex where
    the unit would have to stop [6.11] but may not end [5.21] leads nowhere and is left out."""
    m = mover_5_0(game, state, unit)
    if m is None:
        return {}
    first = first_step(game, state, m)
    out: dict[str, Reach] = {m.start: Reach(m.start, 0, (m.start,), None, True)}
    if leave_problem_6_43(game, state, m, first) is not None:
        return out
    steps: dict[str, Step] = {m.start: first}
    heap: list[tuple[int, tuple[str, ...]]] = [(0, (m.start,))]
    done: set[str] = set()
    while heap:
        _cost, path = heapq.heappop(heap)
        here = path[-1]
        if here in done:
            continue
        done.add(here)
        at = steps[here]
        if at.moved > 0 and at.ezoc:
            continue  # must stop here [6.11]: step_5_0 would refuse every next step
        for n in game.board.adjacent_hexes(here):  # on the map [5.24] and adjacent [5.1]
            if n == m.start or n in done:
                continue
            # a shortcut, not a rule: enter_5_0 refuses a hex the unit cannot pay for [5.23]
            cost = _entry_cost(game, state, m.category, n)
            if cost is None or at.cost + cost > m.allowance:
                continue
            s = enter_5_0(game, state, m, at, n, cost)
            if isinstance(s, Violation) or (s.ezoc and s.occupied):
                continue
            old = out.get(n)
            cand = (*path, n)
            if old is None or (s.cost, cand) < (old.cost, old.path):
                out[n] = Reach(n, s.cost, cand, "6.11" if s.ezoc else None, not s.occupied)
                steps[n] = s
                heapq.heappush(heap, (s.cost, cand))
    return out


def check_path_5_0(
    game: Game, state: GameState, unit: str, written: tuple[str, ...]
) -> list[Violation]:
    """Problems with one explicit path (the starting hex may be written first or left out):
    each step through :func:`step_5_0`, the end by :func:`end_problem_5_21`. Each problem
    points at the written hex it is about (``word``); the unit is not set."""
    m = mover_5_0(game, state, unit)
    if m is None:
        return [
            Violation(
                "5.1",
                f"{unit} is not on the map and cannot move",
                code="not-on-map",
                word=written[0] if written else None,
            )
        ]
    offset = 0
    path = list(written)
    if path and path[0] == m.start:
        path = path[1:]
        offset = 1

    def word(idx: int) -> str | None:
        return written[idx] if idx < len(written) else None

    if not path:
        return [
            Violation(
                "5.1",
                f"{unit} is already in {m.start}; name the hexes it enters",
                code="no-path",
                word=word(0),
            )
        ]
    at = first_step(game, state, m)
    left = leave_problem_6_43(game, state, m, at)
    if left is not None:
        return [left._replace(word=word(offset))]
    for i, h in enumerate(path):
        idx = i + offset
        s = step_5_0(game, state, m, at, h)
        if isinstance(s, Violation):
            return [s._replace(word=word(idx - 1 if s.code == "must-stop" else idx))]
        at = s
    end = end_problem_5_21(m, at)
    return [end._replace(word=word(len(written) - 1))] if end is not None else []
