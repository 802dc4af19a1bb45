"""Optional rule [14.3], Middle East air forces: the Israeli, Syrian and Egyptian air units.

With 14.3 NATO sets up 6 Israeli F4 and 6 Israeli A4 on the Israeli airbases, 1 to 6 per base;
the Soviet player rolls a die at the start of his set-up and the 14.3 table gives the units he
sets up on the Soviet airbases in Syria and in Egypt, 1 to 6 per base, in addition to the
Bulgaria/Romania units [14.3][11.2]. The rule also opens the bases of those three countries
(:func:`air.in_middle_east_14_3`); after the set-up the normal rules apply.

The table is module data (``tables/middle_east_air.csv``, the rules folder's tables.md §A4): the
named table ``middle_east_air`` that the ruleset's schema declares (``schema.MIDDLE_EAST_AIR``),
loaded and checked by the module loader like every table. :func:`read_table_14_3` adds the
checks that need the roster and the map; ``new_game`` calls it once and keeps what the game
needs in its ``middle_east_14_3`` fact, so validation and resolution read only the state:

``{"roller": side, "roll": null | 1-6, "forces": [FORCE...], "table": {"1": [FORCE...], ...}}``
with ``FORCE = {"country": code, "name": name, "side": side, "units": [piece ids]}``:
``forces`` are the 14.3 units in play, ``table`` what each roll adds. Pieces are the
lowest-numbered copies of each roster row that the scenario does not already use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of

# reading and checking the table lives in middle_east_table (which `referee check` imports
# without the rules engine); TABLE_FILE and parse_table_14_3 stay importable from here
from referee.rules.sixth_fleet_1975.middle_east_table import (
    TABLE_FILE,  # noqa: F401
    Allotment,
    MiddleEastTable,
    parse_table_14_3,  # noqa: F401
    read_table_14_3,
)
from referee.source.model import SetupPool

DATA_KEY = "middle_east_14_3"
RULE = "14.3"
# [14.3] "a minimum of one and a maximum of six air units may be deployed at each airbase"
PER_AIRBASE_MIN = 1
PER_AIRBASE_MAX = 6


# ---- preparing a game (new_game) --------------------------------------------------------------


def prepare_14_3(game: Game, state: GameState, table: MiddleEastTable) -> GameState:
    """Put the 14.3 units a game needs into the position before set-up: the rows without a
    roll (the Israeli units) as unplaced units of their side, and every roll's units in
    ``state.data`` for the roll [14.3]. Refuses (UserError) a table the scenario cannot use:
    too few unused copies, a country with no usable base or too few or too many units for
    1 to 6 per base, or a rolling side that sets up first (no dice before set-up)."""
    from referee.errors import UserError

    in_use = set(state.units)

    def force(rows: tuple[Allotment, ...]) -> list[dict[str, Any]]:
        taken: set[str] = set()
        out: list[dict[str, Any]] = []
        for r in rows:
            pieces: list[str] = []
            for uid, n in r.units:
                ud = game.module.unit(uid)
                free = [p for p in ud.piece_ids if p not in in_use and p not in taken]
                if len(free) < n:
                    raise UserError(
                        f"{table.file}:{r.line}: optional rule 14.3 needs {n} {uid}, but only "
                        f"{len(free)} copies are not already in scenario {game.scenario.id!r}",
                        hint="add copies to the roster (count) or change the table",
                    )
                pieces += free[:n]
                taken.update(free[:n])
            out.append(
                {
                    "country": r.country,
                    "name": r.name,
                    "side": game.unit(pieces[0]).side,
                    "units": pieces,
                }
            )
        return out

    always = force(table.always())
    in_use.update(p for f in always for p in f["units"])
    rolls = {str(d): force(table.for_roll(d)) for d in range(1, 7) if table.for_roll(d)}
    roller = rolls["1"][0]["side"] if rolls else None
    if roller is not None and game.scenario.setup_order and game.scenario.setup_order[0] == roller:
        raise UserError(
            f"optional rule 14.3: {roller} rolls at the start of his set-up, but sets up first "
            f"in scenario {game.scenario.id!r}",
            hint="the Soviet player deploys second [11.2]",
        )
    for f in [*always, *(f for fs in rolls.values() for f in fs)]:
        check_room_14_3(game, state, f)
    units = dict(state.units)
    for f in always:
        for p in f["units"]:
            units[p] = UnitState(p, f["side"], None, "unplaced")
    data = {"roller": roller, "roll": None, "forces": always, "table": rolls}
    return SixthFleetFacts.put(state.evolve(units=units), middle_east_14_3=data)


def check_room_14_3(game: Game, state: GameState, force: Mapping[str, Any]) -> None:
    """A force must fit its country's usable airbases at 1 to 6 per base [14.3]."""
    from referee.errors import UserError

    probe = state.evolve(options=tuple(sorted({*state.options, RULE})))
    hexes = airbases_14_3(game, probe, force)
    n = len(force["units"])
    if not hexes:
        raise UserError(f"optional rule 14.3: no airbase in {force['name']} for {force['side']}")
    if not len(hexes) * PER_AIRBASE_MIN <= n <= len(hexes) * PER_AIRBASE_MAX:
        raise UserError(
            f"optional rule 14.3: {n} units cannot go {PER_AIRBASE_MIN} to {PER_AIRBASE_MAX} "
            f"per airbase on the {len(hexes)} airbases in {force['name']}"
        )


def airbases_14_3(game: Game, state: GameState, force: Mapping[str, Any]) -> tuple[str, ...]:
    """The airbases of the force's country that every one of its units may use [9.12][9.13]."""
    units = list(force["units"])
    return tuple(
        sorted(
            a.hex
            for a in game.module.map.airbases()
            if game.board.country(a.hex) == force["country"]
            and all(airbase_usable_9_16(game, state, u, a.hex) for u in units)
        )
    )


# ---- during the game ------------------------------------------------------------------------


def facts_14_3(state: GameState) -> Mapping[str, Any] | None:
    if RULE not in state.options:
        return None
    return facts_of(state).middle_east_14_3 or None


def pools_14_3(game: Game, state: GameState) -> tuple[SetupPool, ...]:
    """The 14.3 forces in play as set-up pools: their country's usable airbases, 1 to 6 units
    on each, every base used [14.3]; violations cite 14.3."""
    facts = facts_14_3(state)
    if facts is None:
        return ()
    out: list[SetupPool] = []
    for f in facts.get("forces", ()):
        nat = game.unit(f["units"][0]).nationality
        out.append(
            SetupPool(
                side=f["side"],
                units=tuple(f["units"]),
                where="airbase",
                rule=RULE,
                nationality=nat,
                countries=(f["country"],),
                hexes=airbases_14_3(game, state, f),
                per_hex_min=PER_AIRBASE_MIN,
                per_hex_max=PER_AIRBASE_MAX,
                fill_all=True,
                text=f"{f['name']} air units of optional rule 14.3: "
                f"{PER_AIRBASE_MIN} to {PER_AIRBASE_MAX} per airbase, every base used",
            )
        )
    return tuple(out)


def roll_due_14_3(game: Game, state: GameState) -> bool:
    """The 14.3 roll is made once, as the rolling side's set-up begins [14.3]."""
    facts = facts_14_3(state)
    return (
        facts is not None
        and facts.get("roll") is None
        and bool(facts.get("table"))
        and state.active_side == facts.get("roller")
    )


def middle_east_roll_14_3(
    game: Game, state: GameState, dice: Dice, events: list[Event]
) -> GameState:
    """Roll for the 14.3 table and put the units it gives into the roller's set-up [14.3]."""
    facts = dict(facts_14_3(state) or {})
    rows = facts["table"]
    names = " and ".join(f["name"] for f in rows["1"])
    roll = dice.roll(6, f"Middle East air forces: the 14.3 table for {names}", RULE)
    got = list(rows[str(roll)])
    units = dict(state.units)
    for f in got:
        for p in f["units"]:
            units[p] = UnitState(p, f["side"], None, "unplaced")
    facts["roll"] = roll
    facts["forces"] = [*facts.get("forces", ()), *got]
    text = "; ".join(f"{f['name']} {_counted(game, f['units'])}" for f in got)
    events.append(
        Event(
            "middle-east-air",
            RULE,
            f"Middle East air forces roll {roll}: {text}",
            {"roll": roll, "units": {f["name"]: list(f["units"]) for f in got}},
        )
    )
    return SixthFleetFacts.put(state.evolve(units=units), middle_east_14_3=facts)


def _counted(game: Game, pieces: list[str]) -> str:
    """``4 M21, 2 Y28``: a force the way the table prints it."""
    counts: dict[str, int] = {}
    for p in pieces:
        t = game.unit(p).type
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(f"{n} {t}" for t, n in counts.items())


def only_with_14_3(game: Game, state: GameState, piece: str) -> bool:
    """A roster piece that is not in this game but that the 14.3 table could bring in: the
    game does not use 14.3, or the roll did not give it [14.3]. Reads the module's table
    (cached); a missing or broken table answers no."""
    from referee.errors import UserError

    if piece in state.units or piece not in game.pieces:
        return False
    try:
        table = read_table_14_3(game.module)
    except UserError:
        return False
    if table is None:
        return False
    uid = game.unit(piece).id
    return any(u == uid for r in table.rows for u, _ in r.units)
