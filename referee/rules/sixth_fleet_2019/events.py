"""The Random Events Phase [5.1] and neutrals joining a side [2.3].

The acting player rolls one die on his Random Events Table; an event whose criteria are not met
is rolled again until an event occurs [5.1]. The tables are not in the seed: the module's
``events_soviet`` and ``events_nato`` tables are provisional data (docs/interpretations.md).
"""

from __future__ import annotations

from referee.engine.core import Dice, Event, GameState, UnitState
from referee.numerals import HINT, read_whole, shown, whole, why_not
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import NATO, NEUTRAL, PROVISIONAL, Game
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module

MAX_ROLLS = 60  # every table has an event that is always possible; this only bounds bad data


def random_event_5_1(
    game: Game, state: GameState, side: str, dice: Dice, events: list[Event]
) -> GameState:
    table = game.module.tables["events_nato" if side == NATO else "events_soviet"]
    for _ in range(MAX_ROLLS):
        roll = dice.roll(6, f"{side} Random Events Table", "5.1")
        event, param, text = (
            str(table.lookup(row=roll, col=c).value) for c in ("event", "param", "text")
        )
        if event == "neutral_joins" and param in facts_of(state).joined:
            events.append(
                Event(
                    "event_void",
                    "5.1",
                    f"{side} rolls {roll}: {text} -- already joined, roll again",
                    {"roll": roll},
                )
            )
            continue
        events.append(
            Event(
                "random_event",
                "5.1",
                f"{side} rolls {roll}: {text} ({PROVISIONAL})",
                {"roll": roll, "event": event, "param": param, "provisional": True},
            )
        )
        if event == "extra_action":  # a whole number: check_events_5_1
            extra = facts_of(state).event_actions + whole(param, what="extra actions")
            return SixthFleet2019Facts.put(state, event_actions=extra)
        if event == "neutral_joins":
            return join_2_3(game, state, param, side, events)
        return state
    raise ValueError("the Random Events Table never gives a possible event")


def check_events_nato_5_1(module: Module) -> list[Diagnostic]:
    """``referee check`` of the NATO Random Events Table (:func:`check_events_5_1`)."""
    return check_events_5_1(module, "events_nato")


def check_events_soviet_5_1(module: Module) -> list[Diagnostic]:
    """``referee check`` of the Soviet Random Events Table (:func:`check_events_5_1`)."""
    return check_events_5_1(module, "events_soviet")


def check_events_5_1(module: Module, name: str) -> list[Diagnostic]:
    """An ``extra_action`` row of a Random Events Table gives its number of actions as a
    whole number in ``param`` [5.1]. Named (per table) in the schema's ``table_checks``."""
    t = module.tables.get(name)
    cols = [c.text for c in t.column_keys] if t is not None else []
    if t is None or "event" not in cols or "param" not in cols:
        return []
    out: list[Diagnostic] = []
    for r in range(len(t.row_keys)):
        event, param = (str(t.cells[r][cols.index(c)]).strip() for c in ("event", "param"))
        if event == "extra_action" and read_whole(param, lo=0, hi=9) is None:
            message = "extra_action: expected the number of extra actions (0 to 9) in "
            message += f"'param', got {shown(param)}{why_not(param)} [5.1]"
            line = t.lines[r] if t.lines else None
            col = t.cell_column(r, cols.index("param"))
            out.append(Diagnostic(t.file, line, col, message, HINT))
    return out


def join_2_3(
    game: Game, state: GameState, nation: str, side: str, events: list[Event]
) -> GameState:
    """A neutral joins ``side``: its units become that side's and its country that side's
    [2.3], [2.11]."""
    joined = {**facts_of(state).joined, nation: side}
    state = SixthFleet2019Facts.put(state, joined=joined)
    for uid, u in sorted(state.units.items()):
        if game.unit(uid).nationality == nation and u.side == NEUTRAL:
            state = state.with_unit(UnitState(uid, side, u.location, u.box, u.status))
    events.append(
        Event(
            "neutral_joins",
            "2.3",
            f"{nation} joins the {side} side: its units and country are now {side}'s",
            {"nation": nation, "side": side},
        )
    )
    return state
