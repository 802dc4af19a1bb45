"""The sequence of play [5.0] (its phases: ``phases.PHASES``) and what happens between phases.

Soviet Random Events, Soviet Action, NATO Random Events, NATO Action and Turn Record Phases
[5.0]; up to 15 turns [6.8]; sudden death ends the game at once [4.0], [5.3].
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_2019.actions import actions_at_start_6_1
from referee.rules.sixth_fleet_2019.control import control_3_2
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import NATO, SOVIET, Game
from referee.rules.sixth_fleet_2019.phases import PHASES
from referee.rules.sixth_fleet_2019.victory import (
    level_4_4,
    sudden_death_4_1_4_2,
    victory_points_4_3,
)

BY_ID = PHASES.by_id
OVER = "over"


def is_events(state: GameState) -> bool:
    return state.phase.endswith("_events")


def is_actions(state: GameState) -> bool:
    return state.phase.endswith("_actions")


def start_action_phase_6_1(game: Game, state: GameState, events: list[Event]) -> GameState:
    """The side's actions are fixed now and do not change during the phase [6.1]."""
    side = BY_ID[state.phase].side
    assert side is not None
    why = actions_at_start_6_1(game, state, side)
    extra = int(facts_of(state).event_actions)
    if extra:
        why = [*why, *[("5.1", "a random event")] * extra]
    n = len(why)
    events.append(
        Event(
            "actions",
            "6.1",
            f"{side} has {n} action(s) this phase: " + "; ".join(f"{r} {t}" for r, t in why),
            {"side": side, "actions": n, "why": [list(w) for w in why]},
        )
    )
    return SixthFleet2019Facts.put(state, actions_left=n, actions_total=n, event_actions=0)


def end_action_phase(game: Game, state: GameState, events: list[Event]) -> GameState:
    """Unused actions are lost [6.0]; the 8.3.2 penalty ends with the phase."""
    left = int(facts_of(state).actions_left)
    if left:
        events.append(
            Event(
                "actions_lost",
                "6.0",
                f"{state.active_side} loses {left} unused action(s)",
                {"lost": left},
            )
        )
    for uid, u in sorted(state.units.items()):
        if "landed_elsewhere" in u.status:
            state = state.with_unit(
                UnitState(uid, u.side, u.location, u.box, u.status - {"landed_elsewhere"})
            )
    state = SixthFleet2019Facts.put(state, actions_left=0)
    if state.phase == "soviet_actions":
        return state.evolve(phase="nato_events", active_side=NATO)
    return turn_record_5_3(game, state, events)


def turn_record_5_3(game: Game, state: GameState, events: list[Event]) -> GameState:
    turns = (
        game.module.scenarios[state.scenario].turns
        if state.scenario in game.module.scenarios
        else game.param("max_turns")
    )
    if state.turn >= min(turns, game.param("max_turns")):
        return game_over(game, state, events)
    events.append(
        Event(
            "turn",
            "5.3",
            f"Turn {state.turn} ends; Turn {state.turn + 1} begins",
            {"turn": state.turn + 1},
        )
    )
    return state.evolve(turn=state.turn + 1, phase="soviet_events", active_side=SOVIET)


def game_over(game: Game, state: GameState, events: list[Event]) -> GameState:
    vp = victory_points_4_3(game, state)
    level = level_4_4(game, vp)
    events.append(
        Event(
            "game_over",
            "4.3",
            f"the last turn is over: Soviet {vp[SOVIET]['vp']} VP, NATO {vp[NATO]['vp']} VP; "
            f"{level['level']}"
            + (f" for {level['leader']}" if level["leader"] else "")
            + " (VP chart: estimate)",
            {"vp": {s: vp[s]["vp"] for s in vp}, **level},
        )
    )
    over = state.evolve(phase=OVER, active_side=None)
    return SixthFleet2019Facts.put(over, result={"by": "points", **level})


def after_step(game: Game, state: GameState, zones: set[str], events: list[Event]) -> GameState:
    """After every action or event: control of the zones it touched, determined instantly
    [3.2.1], and the sudden-death check [4.1], [4.2]."""
    control = dict(facts_of(state).control)
    for z in sorted(zones):
        if z not in control:
            continue
        now = control_3_2(game, state, z)
        if now != control[z]:
            events.append(
                Event(
                    "control",
                    "3.2.1",
                    f"control of {z} changes from {control[z]} to {now}",
                    {"zone": z, "from": control[z], "to": now},
                )
            )
            control[z] = now
    state = SixthFleet2019Facts.put(state, control=control)
    won = sudden_death_4_1_4_2(game, state)
    if won:
        side, rule, why = won
        events.append(
            Event("sudden_death", rule, f"{side} wins by sudden death: {why}", {"winner": side})
        )
        state = SixthFleet2019Facts.put(
            state.evolve(phase=OVER, active_side=None),
            result={"by": "sudden_death", "winner": side, "rule": rule},
        )
    return state


def track_markers_6_0(game: Game, state: GameState) -> GameState:
    """Each side's C2 marker shows its actions left on its Action Track [6.0]; the Game Turn
    markers show the turn [5.3]. Markers only mirror the position (nothing reads them)."""
    for uid, u in sorted(state.units.items()):
        kind = game.unit(uid).type
        if kind == "C2":
            left = int(facts_of(state).actions_left) if state.active_side == u.side else 0
            where = f"{u.side} Actions {max(0, min(7, left))}"
        elif kind == "TURN":
            where = f"Turn {max(1, min(15, state.turn))}"
        else:
            continue
        if u.location != where and game.board.contains(where):
            state = state.with_unit(UnitState(uid, u.side, where, None, u.status))
    return state
