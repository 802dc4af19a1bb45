"""[DTP 8.51, 9.15, 9.22-9.29] air aborts, recycling on the turn track, and readiness.

* [DTP 8.51] an air unit hit on the CRT aborts: 2d6 minus its Readiness rating is the number
  of turns, the current one not counted, before it returns as a reinforcement; at least 2;
* [DTP 9.15] a NATO unit landing at another NATO nation's base recycles with an extra -3 on
  the 2d6 (the literal text; the flag ``other_nato_base_literal`` = False takes the evident
  intent, +3: digest 9.13, ``flags.other_nato_base_extra_9_15``);
* [DTP 9.29] face-down units on a base that reaches D3 recycle with +6;
* [DTP 9.23] in phase 6 a landing unit stays active on a d6 at or below its rating, else it
  is turned face down until it passes in a later phase 6; CAP over its own base does not
  land and does not roll [DTP 9.24];
* Soviet air at Keflavik subtracts 1 from its rating [DTP 11.3 rule 5, 11.31 rule 2];
* [DTP 9.23] a face-down (inactive) unit does nothing -- no flight, detection attempt,
  attack, strike or bounce -- until it passes a later phase 6 roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.engine.core import GameState, Violation
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp import bases
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.tables import unit_row
from referee.source.boxes import carrier_of
from referee.source.model import Module

INACTIVE_9_23 = "inactive"
"""The unit status of a face-down air unit [DTP 9.23] (``rebasing.carry_out_rebasing``)."""
MIN_DELAY_8_51 = 2
BASE_DESTROYED_9_29 = 6


def rating_9_23(module: Module, nationality: str, type_code: str, modifier: int = 0) -> int:
    """A unit's Readiness rating from the module's table [DTP 9.23], plus scenario
    modifiers (Keflavik -1 [DTP 11.3])."""
    row = unit_row(nationality, type_code)
    return int(module.tables["readiness"].lookup(row=row, col="rating").value) + modifier


@dataclass(frozen=True, slots=True)
class Recycle:
    """An aborted air unit's time off the map [DTP 8.51]."""

    roll_2d6: int
    rating: int
    extra: int
    delay: int
    return_turn: int


def recycle_8_51(turn: int, roll_2d6: int, rating: int, extra: int = 0) -> Recycle:
    """2d6 - rating (+ the [DTP 9.15]/[DTP 9.29] extra) turns, at least 2, the current turn
    not counted: on turn 3 a result of 7 returns on turn 10 [DTP 8.51]."""
    delay = max(MIN_DELAY_8_51, roll_2d6 - rating + extra)
    return Recycle(roll_2d6, rating, extra, delay, turn + delay)


def readiness_9_23(roll: int, rating: int) -> bool:
    """Active next turn on a d6 at or below the rating [DTP 9.23]."""
    return roll <= rating


def lands_9_24(on_cap_over_own_base: bool, left_base_hex: bool) -> bool:
    """CAP over its own base (land or CV) that never left the hex neither lands nor rolls
    [DTP 9.24]; every other air unit lands in phase 6 [DTP 9.22]."""
    return not (on_cap_over_own_base and not left_base_hex)


def rebase_problems_9_22(
    unit: str, distance: int, range_allowance: int, base_open: bool, room: bool
) -> list[Violation]:
    """Phase 6 landing [DTP 9.22, 9.25]: a base within the unit's range, open (an airbase at
    D2 or worse is closed [DTP 10.44]), with room under the stacking limits [9.4]."""
    out: list[Violation] = []
    if distance > range_allowance:
        out.append(
            Violation(
                "DTP 9.22",
                f"{unit} cannot reach that base: {distance} hexes, range {range_allowance}",
                code="rebase-out-of-range",
                word=unit,
                hint="pick a base within range, or the unit is eliminated and recycles [DTP 8.51]",
            )
        )
    if not base_open:
        out.append(
            Violation(
                "DTP 10.44",
                f"{unit} cannot land: the airbase is closed (D2 or worse)",
                code="rebase-closed-base",
                word=unit,
            )
        )
    if not room:
        out.append(
            Violation(
                "DTP 9.25",
                f"{unit} cannot land: the base is full (6 air units [9.4])",
                code="rebase-full",
                word=unit,
            )
        )
    return out


def carrier_air_9_27(cv_damage: int) -> str:
    """What happens to the air units aboard a CV [DTP 9.27]: ``"aboard"`` below D2,
    ``"stuck"`` at D2 (no air operations [DTP 8.55]), ``"sunk"`` with the CV at D3."""
    if cv_damage >= 3:
        return "sunk"
    return "stuck" if cv_damage >= 2 else "aboard"


def grounded_problem(game: Game, state: GameState, unit: str) -> Violation | None:
    """Why an air unit cannot operate (move, attack, bounce) now, or ``None``: it is aboard a
    carrier at D2, stuck there [DTP 9.27, 8.55]; or it is on an airbase of its side at D2,
    closed to air operations [DTP 10.44]."""
    st = state.units.get(unit)
    if st is None or game.category(unit) != "air":
        return None
    cv = carrier_of(st.box)
    if cv is not None:
        level = int(facts_of(state).damage.get(cv, 0))
        if carrier_air_9_27(level) != "aboard":
            return Violation(
                "DTP 9.27",
                f"{unit} is aboard {cv}, which is at D{level}: its air units are stuck aboard "
                "(a D2 carrier conducts no air operations [DTP 8.55])",
                code="carrier-air-stuck",
                word=unit,
            )
        return None
    if st.location is None or game.board.airbase(st.location) is None:
        return None
    base = game.board.airbase(st.location)
    nat = game.module.nationalities.get(base.nationality) if base is not None else None
    level = int(facts_of(state).base_damage.get(st.location, 0))
    if nat is not None and nat.side == st.side and bases.airbase_closed_10_44(level):
        return Violation(
            "DTP 10.44",
            f"{unit} is on the airbase in {st.location}, which is at D{min(level, 3)}: a closed "
            "airbase's air units cannot operate",
            code="base-closed",
            word=unit,
        )
    return None


def inactive_problems_9_23(
    units: Iterable[tuple[str, Iterable[str]]], doing: str
) -> list[Violation]:
    """Face-down air units are inactive until they pass a later phase 6 readiness roll
    [DTP 9.23]: they may not ``doing`` (fly, detect, attack, strike, bounce). ``units`` are
    ``(unit, statuses)``."""
    return [
        Violation(
            "DTP 9.23",
            f"{u} is face down (inactive) and may not {doing}",
            code="inactive",
            word=u,
            hint="it becomes active when it passes its readiness roll in a later phase 6",
        )
        for u, status in units
        if INACTIVE_9_23 in status
    ]


# ---- [DTP 9.28(b)] Soviet air based in Egypt or Syria returns there -----------------------


def home_country_9_28b(game: Game, hex_id: str) -> str | None:
    """The country of ``hex_id`` when a Soviet air unit based there returns to it after 8.51:
    one of the Middle East countries (``flags.middle_east_countries``) but Israel, matched by
    code or name as [14.3] matches them (Egypt, Syria) [DTP 9.28(b)]; else ``None``."""
    code = game.board.country(hex_id) if game.board.contains(hex_id) else None
    name = (game.country_name(hex_id) or "") if game.board.contains(hex_id) else ""
    for c in game.flags.middle_east_countries:
        if c != game.flags.israel_country and (c == code or (name and c in name)):
            return c
    return None


def based_at_9_28b(game: Game, state: GameState, unit: str, hex_id: str) -> GameState:
    """Where a Soviet air unit is based, as far as [DTP 9.28(b)] cares: the record
    ``home_9_28b`` holds the country (Egypt, Syria) of the base it landed on last."""
    homes = dict(facts_of(state).home_9_28b)
    home = home_country_9_28b(game, hex_id)
    if state.units[unit].side != game.flags.soviet_side or home is None:
        if unit not in homes:
            return state
        homes.pop(unit)
    else:
        homes[unit] = home
    return DtpFacts.put(state, home_9_28b=homes)


def return_home_problem_9_28b(
    game: Game, state: GameState, unit: str, hex_id: str, air_here: int
) -> Violation | bool | None:
    """A returning Soviet air unit last based in Egypt or Syria returns in that country,
    possibly on a D2 base, never on a destroyed one [DTP 9.28(b)]: a problem if ``hex_id`` is
    not such a base with room; ``True`` when it is (the ordinary open-base test is then not
    asked: a D2 base will do); ``None`` when the rule does not apply."""
    home = facts_of(state).home_9_28b.get(unit)
    if home is None:
        return None
    level = int(facts_of(state).base_damage.get(hex_id, 0))
    ok = (
        game.board.contains(hex_id)
        and game.board.airbase(hex_id) is not None
        and home_country_9_28b(game, hex_id) == home
        and level < bases.DESTROYED
        and air_here < 6
    )
    if ok:
        return True
    return Violation(
        "DTP 9.28b",
        f"{unit} was based in {home} and returns in {home}, on an airbase there (D2 will "
        f"do, not a destroyed one), not at {hex_id}",
        code="home-country",
        word=hex_id,
        hint=f"if every {home} airbase is destroyed, {unit} does not return",
    )
