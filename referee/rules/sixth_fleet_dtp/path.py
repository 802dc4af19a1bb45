"""A ship's, sub's or aircraft's move along a written path under DTP, and the moments it opens
for detection [DTP 5.0, 5.25, 6.2].

SPI's movement pieces DTP keeps are reused, not copied: where a unit starts [5.1, 9.62B]
(``start_hex``), what a hex costs [5.12, 10.14] (``entry_cost_5_12``), terrain, all-land
hexsides, Defended hexes and closed areas [10.11-10.15, 12.3] (``entry_problem_10_1``, whose
last test, SPI's enemy-occupied hex [5.21, 6.42a], DTP replaces by [DTP 5.25]: its code
``enemy-units`` is read as "the kept tests passed"). Zones of control are deleted [DTP 6.0],
so nothing here stops a unit next to the enemy. A D2 ship or sub moves half its MA, rounded
down [DTP 8.55, 4.01a].

:func:`detection_moments_6_2` lists each step at which the mover brings enemy units into its
detection zone, which is also the moment it enters theirs: the moving player may then try
to detect them [DTP 6.2a], and the other player may try to detect the mover [DTP 6.2b],
"even though it is the other player's phase".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import (
    entry_cost_5_12,
    entry_problem_10_1,
    start_hex,
)
from referee.rules.sixth_fleet_dtp import denmark_strait, north_atlantic, special_bases
from referee.rules.sixth_fleet_dtp.bases import DESTROYED
from referee.rules.sixth_fleet_dtp.denmark_strait import pack_ice_problem_11_3_6
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.rules.sixth_fleet_dtp.movement import through_problem_5_25
from referee.rules.sixth_fleet_dtp.rounding import halve_down_4_01a


def allowance_8_55(game: Game, unit: str, damage: int) -> int:
    """MA (Range Allowance for air [5.23]); halved, rounded down, for a D2 ship or sub
    [DTP 8.55, 4.01a]; the convoy moves 2 MP from D2 instead [DTP 11.3 rule 7]."""
    ma = game.movement_allowance(unit)
    convoy = denmark_strait.allowance_11_3_7(game.unit(unit).flags, ma, damage)
    if convoy is not None:
        return convoy
    return halve_down_4_01a(ma) if damage >= 2 and game.is_naval(unit) else ma


def check_path_5_0(
    game: Game, state: GameState, unit: str, written: Sequence[str], damage: int = 0
) -> list[Violation]:
    """Problems with one explicit path (the start may be written first): each hex adjacent
    [5.1], enterable (SPI's kept tests), within the allowance [5.23], through enemy hexes
    only as [DTP 5.25] allows, and not ending in one [DTP 5.25]."""
    start, spent = start_hex(game, state, unit), 0
    entry = special_bases.entry_11_3_2(game, state.units[unit].box) if start is None else None
    if entry is not None:  # from an off-map base: its anchor hex costs its distance
        start, spent = entry
    if start is None:
        return [Violation("5.1", f"{unit} is not on the map and cannot move", code="not-on-map")]
    path = list(written[1:] if written and written[0] == start else written)
    if not path and entry is None:
        return [
            Violation(
                "5.1", f"{unit} is already in {start}; name the hexes it enters", code="no-path"
            )
        ]
    side = state.units[unit].side
    allowance = allowance_8_55(game, unit, damage)
    here = start
    if spent > allowance:
        return [
            Violation(
                "DTP 11.3 rule 2",
                f"{unit} needs {spent} MP to reach {start} from its off-map base; "
                f"its allowance is {allowance}",
                code="allowance",
                word=start,
            )
        ]
    for i, to in enumerate(path):
        step = step_5_0(game, state, unit, side, allowance, here, to, spent)
        bad = step.ending if i == len(path) - 1 else step.through
        if bad is not None:
            return [bad]
        spent, here = step.spent, to
    return []


class Step(NamedTuple):
    """One hex entered along a path [DTP 5.0]: the problem if the path ends there, the problem
    if it goes on through it (the two differ only where [DTP 5.25] does), and the MP spent
    once it is entered."""

    ending: Violation | None
    through: Violation | None
    spent: int


def step_5_0(
    game: Game,
    state: GameState,
    unit: str,
    side: str,
    allowance: int,
    here: str,
    to: str,
    spent: int,
) -> Step:
    """The check of one hex ``to`` entered from ``here`` with ``spent`` MP spent before it
    (the body of :func:`check_path_5_0`'s walk, which a legal-move search takes one hex at a
    time): on the map [DTP 5.24] and next to ``here`` [5.1], enterable (SPI's kept tests
    [10.11-10.15, 12.3]), the pack ice [DTP 11.3 rule 6], within the allowance [5.23],
    through or into enemy units as [DTP 5.25] allows."""
    if not game.board.contains(to):
        bad = Violation("DTP 5.24", f"hex {to} is not on the map", code="off-map", word=to)
        return Step(bad, bad, spent)
    if not game.board.adjacent(here, to):
        bad = Violation(
            "5.1",
            f"{to} is not adjacent to {here}",
            code="not-adjacent",
            word=to,
            hint="name every hex of the path, each next to the one before",
        )
        return Step(bad, bad, spent)
    cost = entry_cost_5_12(game, state, unit, to)
    kept = entry_problem_10_1(game, state, unit, here, to, cost)
    if kept is not None and kept.code == "enemy-defended-hex" and _destroyed_10_44(state, to):
        kept = None  # its defences are at D3 on the Hit Table [DTP 10.44]
    if kept is not None and kept.code != "enemy-units":
        bad = kept._replace(word=to)
        return Step(bad, bad, spent)
    assert cost is not None
    ice = pack_ice_problem_11_3_6(game.board.terrain(to), game.unit(unit).type, unit, to)
    if ice is not None:
        return Step(ice, ice, spent)
    spent += cost
    if spent > allowance:
        bad = Violation(
            "5.23",
            f"{unit} needs {spent} MP to enter {to}; its allowance is {allowance}"
            + (" (halved at D2 [DTP 8.55])" if allowance < game.movement_allowance(unit) else ""),
            code="allowance",
            word=to,
        )
        return Step(bad, bad, spent)
    enemies = {game.category(e) for e in state.stacks.get(to, ()) if state.units[e].side != side}
    category = game.category(unit)
    out = []
    for last in (True, False):
        bad = through_problem_5_25(unit, category, enemies, last, to)
        if bad is not None and north_atlantic.landing_11_3_5(game, state, unit, to, enemies):
            bad = None  # ships landing naval infantry at a base with only air on it
        out.append(bad)
    return Step(out[0], out[1], spent)


def _destroyed_10_44(state: GameState, hex_id: str) -> bool:
    """A Defended hex whose Hit Table damage reached D3 is destroyed [DTP 10.44]."""
    return int(facts_of(state).base_damage.get(hex_id, 0)) >= DESTROYED


def move_start(game: Game, state: GameState, unit: str) -> str | None:
    """Where a move's hexes start: the unit's hex or carrier [5.1, 9.62B], or the anchor hex
    of its off-map base (Murmansk: 3003) [DTP 11.3 rule 2]."""
    start = start_hex(game, state, unit)
    if start is not None:
        return start
    entry = special_bases.entry_11_3_2(game, state.units[unit].box)
    return entry[0] if entry is not None else None


def origin_8_15(game: Game, state: GameState, unit: str) -> str | None:
    """Where an air unit begins this turn's air movement, for Strike Contact [DTP 8.15 step 1]:
    its hex, its carrier's hex [9.62B], or the off-map base it stands in (Murmansk, counted
    ``distance`` hexes beyond its anchor by ``special_bases.distance_11_3_2``)."""
    start = start_hex(game, state, unit)
    if start is not None:
        return start
    box = state.units[unit].box
    return box if special_bases.off_map_base(game.module, box) is not None else None


@dataclass(frozen=True, slots=True)
class Moment:
    """A detection moment [DTP 6.2]: after ``step`` hexes the mover stands in ``at`` and the
    enemy units ``enemies`` in ``their_hex`` have just come within one hex of it."""

    step: int
    at: str
    their_hex: str
    enemies: tuple[str, ...]


def detection_moments_6_2(
    game: Game, state: GameState, unit: str, hexes: Sequence[str]
) -> tuple[Moment, ...]:
    """Every moment the move ``hexes`` (start first) brings enemy units into the mover's
    detection zone [DTP 6.1, 6.2a], which is also when it enters theirs [DTP 6.2b]. Enemies
    already within one hex at the start give no moment until they have been left behind."""
    side = state.units[unit].side

    def near(h: str) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for z in game.board.within(h, 1):
            es = tuple(
                e for e in state.stacks.get(z, ()) if state.units[e].side != side and e != unit
            )
            if es:
                out[z] = es
        return out

    before = near(hexes[0]) if hexes else {}
    moments: list[Moment] = []
    for i, h in enumerate(hexes[1:], start=1):
        now = near(h)
        for z, es in sorted(now.items()):
            if z not in before:
                moments.append(Moment(i, h, z, es))
        before = now
    return tuple(moments)
