"""Movement [5.0], terrain [10.1x] and the movement side of zones of control [6.1x]-[6.44].

One step function, :func:`entry_problem_10_1`, says whether a unit may enter a hex from an
adjacent one. :func:`reachable` (used by ``referee options`` and by the property tests) and
:func:`check_path_5_0` (used by the validator for an explicit ``move`` path) both build on
it, so what a player is shown as legal is exactly what the validator accepts.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.blacksea import closed_area_12_3
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.strengths import can_attack_unit
from referee.rules.sixth_fleet_1975.zoc import in_enemy_zoc, may_leave_6_43


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


@dataclass(frozen=True, slots=True)
class PathProblem:
    rule: str
    message: str
    index: int  # which hex of the written path (0 = the first written hex)
    hint: str | None = None


def start_hex(game: Game, state: GameState, unit: str) -> str | None:
    """Where a unit starts moving: its hex, or its carrier's hex when it is in the carrier's
    holding box [9.62B]."""
    u = state.units[unit]
    if u.location is not None:
        return u.location
    if u.box and u.box.startswith("holding:"):
        cv = state.units.get(u.box.split(":", 1)[1])
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
    cat = game.category(unit)
    cost = game.board.entry_cost(hex_id, cat)
    if (
        cost is None
        and cat == "air"
        and state.data.get("neutral_airspace")
        and game.board.terrain(hex_id) in game.flags.neutral_airspace_terrain
    ):
        return 1
    return cost


def entry_problem_10_1(
    game: Game, state: GameState, unit: str, frm: str, to: str
) -> tuple[str, str] | None:
    """``(case, reason)`` when ``unit`` may not enter ``to`` from adjacent ``frm`` in
    movement, else ``None``: terrain [10.11][10.12][10.13], all-land hexsides [10.12], an
    undestroyed enemy Defended hex [10.15], a closed area [12.3][14.4], an enemy-occupied hex
    whose units could attack it [5.21][6.42a]."""
    cat = game.category(unit)
    side = state.units[unit].side
    if entry_cost_5_12(game, state, unit, to) is None:
        t = game.board.terrain_type(to)
        case = "10.11" if not t.costs.get("air") else "10.12"
        return case, f"{game.unit(unit).category} units may not enter {t.name} ({to})"
    if cat != "air" and game.board.hexside_blocked(frm, to, cat):
        return "10.12", f"naval units may not cross the all-land hexside {frm}/{to}"
    if game.enemy_defended(state, to, side):
        return "10.15", f"{to} is an enemy Defended hex that has not been destroyed"
    closed = closed_area_12_3(game, state, unit, to)
    if closed is not None:
        return closed, f"{to} is closed to {cat} units until a later Game-Turn"
    enemies = [e for e in state.stacks.get(to, ()) if state.units[e].side != side]
    if any(can_attack_unit(game, e, unit) for e in enemies):
        return "5.21", f"{to} holds enemy units that can attack {unit}"
    return None


def _enemy_occupied(state: GameState, hex_id: str, side: str) -> bool:
    return any(state.units[e].side != side for e in state.stacks.get(hex_id, ()))


def reachable(game: Game, state: GameState, unit: str) -> dict[str, Reach]:
    """Every hex ``unit`` may move to (or through) now, with the cheapest legal path.

    Dijkstra over hexes; entering an enemy-controlled hex ends the move [5.25][6.11]; a unit
    in an enemy-controlled hex leaves only as [6.43] allows and never directly into another
    one, except a submarine's one-hex move [6.44]; no hex beyond the MA or Range [5.23]."""
    start = start_hex(game, state, unit)
    if start is None:
        return {}
    side = state.units[unit].side
    cat = game.category(unit)
    ma = game.movement_allowance(unit)
    out: dict[str, Reach] = {start: Reach(start, 0, (start,), None, True)}
    start_ezoc = in_enemy_zoc(game, state, start, side, cat)
    if start_ezoc and not may_leave_6_43(game, state, unit, start)[0]:
        return out
    heap: list[tuple[int, tuple[str, ...]]] = [(0, (start,))]
    done: set[str] = set()
    while heap:
        cost, path = heapq.heappop(heap)
        here = path[-1]
        if here in done:
            continue
        done.add(here)
        if here != start and out[here].stop is not None:
            continue  # must stop here
        for n in game.board.neighbours(here):
            if n == start or n in done:
                continue
            step = entry_cost_5_12(game, state, unit, n)
            if step is None or cost + step > ma:
                continue
            if entry_problem_10_1(game, state, unit, here, n) is not None:
                continue
            n_ezoc = in_enemy_zoc(game, state, n, side, cat)
            if n_ezoc and here == start and start_ezoc and cat != "submarine":
                continue  # [6.44]
            occupied = _enemy_occupied(state, n, side)
            if occupied and n_ezoc:
                continue  # would have to stop where it may not end [5.21]
            total = cost + step
            old = out.get(n)
            cand = (*path, n)
            if old is None or (total, cand) < (old.cost, old.path):
                out[n] = Reach(n, total, cand, "6.11" if n_ezoc else None, not occupied)
                heapq.heappush(heap, (total, cand))
    return out


def check_path_5_0(
    game: Game, state: GameState, unit: str, written: tuple[str, ...]
) -> list[PathProblem]:
    """Problems with one explicit path (the starting hex may be written first or left out).
    Checks each step with the same rules as :func:`reachable`."""
    start = start_hex(game, state, unit)
    if start is None:
        return [PathProblem("5.1", f"{unit} is not on the map and cannot move", 0)]
    offset = 0
    path = list(written)
    if path and path[0] == start:
        path = path[1:]
        offset = 1
    if not path:
        return [PathProblem("5.1", f"{unit} is already in {start}; name the hexes it enters", 0)]
    side = state.units[unit].side
    cat = game.category(unit)
    ma = game.movement_allowance(unit)
    probs: list[PathProblem] = []
    here = start
    spent = 0
    ezoc_here = in_enemy_zoc(game, state, start, side, cat)
    if ezoc_here:
        ok, _case = may_leave_6_43(game, state, unit, start)
        if not ok:
            return [
                PathProblem(
                    "6.11",
                    f"{unit} starts in the enemy-controlled hex {start} and may not leave it "
                    "(no case of 6.43 applies)",
                    offset,
                )
            ]
    for i, h in enumerate(path):
        idx = i + offset
        if not game.board.contains(h):
            return [*probs, PathProblem("5.24", f"hex {h} is not on the map", idx)]
        if not game.board.adjacent(here, h):
            return [*probs, PathProblem("5.1", f"{h} is not adjacent to {here}", idx)]
        if i > 0 and ezoc_here:
            return [
                *probs,
                PathProblem(
                    "6.11",
                    f"{unit} entered the enemy-controlled hex {here} and must stop there",
                    idx - 1,
                ),
            ]
        bad = entry_problem_10_1(game, state, unit, here, h)
        if bad is not None:
            return [*probs, PathProblem(bad[0], bad[1], idx)]
        step = entry_cost_5_12(game, state, unit, h)
        assert step is not None
        if spent + step > ma:
            what = "Range Allowance" if cat == "air" else "Movement Allowance"
            return [
                *probs,
                PathProblem(
                    "5.23",
                    f"{unit} needs {spent + step} MP to enter {h}; its {what} is {ma}",
                    idx,
                ),
            ]
        spent += step
        n_ezoc = in_enemy_zoc(game, state, h, side, cat)
        if n_ezoc and ezoc_here and i == 0 and cat != "submarine":
            return [
                *probs,
                PathProblem(
                    "6.44",
                    f"{unit} may not move directly from the enemy-controlled hex {here} into "
                    f"the enemy-controlled hex {h}",
                    idx,
                ),
            ]
        here = h
        ezoc_here = n_ezoc
    if _enemy_occupied(state, here, side):
        probs.append(
            PathProblem(
                "5.21", f"{unit} may not end its move in enemy-occupied {here}", len(written) - 1
            )
        )
    return probs
