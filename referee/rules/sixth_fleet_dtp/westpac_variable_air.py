"""[DTP 11.507] The East Block's variable air reinforcements: a die roll each AM turn from 4.

"In addition to the units received on the reinforcement track, on each AM turn starting with
turn 4, the East Block player also consults the variable air unit reinforcement table to see if
any additional air units are received. This involves a die roll" [DTP 11.507]; the units wait
in the variable air box from the set-up [DTP 11.5052] and are placed with the track's, before
any movement, East Block first [DTP 11.506, 11.5061].

The table is the module's ``variable_air`` (module_src/dtp_westpac: every row an estimate, the
kit's box is missing): for the roll, the first unit listed that is still in the box enters. A
unit is in the box while it is not yet in the game (it has no place in the position); the
arrival is recorded in ``state.data["variable_air"]`` (``rolls``: Game-Turn -> the roll;
``arrived``: unit -> its Game-Turn) and the unit waits in the reinforcements box for its
placement: any functioning base its nationality may take reinforcements at, within stacking
limits, the owner's choice; with none it is delayed [DTP 11.5064, 11.5082]
(``westpac_reinforcement``).

The roll is the referee's, like every other: made with the game's committed dice when the
Game-Turn's first ship and sub movement phase is entered, once per turn. The roll is made on
every AM turn from 4, the last reinforcement phase (43) included; 11.507 gives no last turn, so
an arrival after turn 43 is placed before that turn's first ship movement as on the others
(docs/interpretations.md DTP-WP-8). A module without the table never rolls.
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.sequence import day_part_4_0

RULE = "DTP 11.507"
FIRST_TURN = 4  # [DTP 11.507]
BOX = "reinforcements"
BEFORE = "ship_movement_a"


def table_11_507(game: Game) -> dict[int, tuple[str, ...]]:
    """Roll -> the units listed for it, in order; empty without the table."""
    t = game.module.tables.get("variable_air")
    if t is None:
        return {}
    uc = t.column("units")
    return {int(k.text): tuple(str(t.cells[r][uc]).split()) for r, k in enumerate(t.row_keys)}


def roll_turn_11_507(turn: int) -> bool:
    """An AM turn from turn 4 on [DTP 11.507]."""
    return turn >= FIRST_TURN and day_part_4_0(turn) == "AM"


def _record(state: GameState) -> dict[str, dict[str, int]]:
    rec = facts_of(state).variable_air or {}
    return {
        "rolls": {str(k): int(v) for k, v in (rec.get("rolls") or {}).items()},
        "arrived": {str(k): int(v) for k, v in (rec.get("arrived") or {}).items()},
    }


def arrivals_11_507(state: GameState) -> dict[str, int]:
    """The variable air units that have come out of the box: unit -> the Game-Turn."""
    return _record(state)["arrived"]


def in_box_11_5052(game: Game, state: GameState) -> list[str]:
    """The units still in the variable air box: listed in the table, not yet in the game."""
    listed = {u for units in table_11_507(game).values() for u in units}
    return sorted(u for u in listed if u not in state.units)


def arrival_11_507(game: Game, state: GameState, roll: int) -> str | None:
    """The unit a roll brings: the first listed for it still in the box, if any."""
    box = set(in_box_11_5052(game, state))
    return next((u for u in table_11_507(game).get(roll, ()) if u in box), None)


def roll_11_507(
    game: Game, state: GameState, phase: str, dice: Dice, events: list[Event]
) -> GameState:
    """Before the first ship and sub movement phase of an AM turn from 4: the East Block's
    roll, once a turn; the unit it brings goes to the reinforcements box for placement."""
    if phase != BEFORE or not roll_turn_11_507(state.turn) or not table_11_507(game):
        return state
    rec = _record(state)
    if str(state.turn) in rec["rolls"]:
        return state
    roll = dice.roll(6, "variable air", RULE)
    unit = arrival_11_507(game, state, roll)
    rec["rolls"][str(state.turn)] = roll
    if unit is None:
        events.append(
            Event(
                "variable_air",
                RULE,
                f"East Block variable air roll {roll}: no unit arrives",
                {"roll": roll},
            )
        )
        return DtpFacts.put(state, variable_air=rec)
    rec["arrived"][unit] = state.turn
    side = game.unit(unit).side
    events.append(
        Event(
            "variable_air",
            RULE,
            f"East Block variable air roll {roll}: {unit} leaves the variable air box",
            {"roll": roll, "unit": unit},
        )
    )
    state = state.with_unit(UnitState(unit, side, None, BOX))
    return DtpFacts.put(state, variable_air=rec)
