"""The hex board's questions and the phase driver's stop-and-resume."""

from __future__ import annotations

from typing import Any

import pytest

from referee.engine.board import HexBoard
from referee.engine.core import Board, GameState, NoDice, PendingDecision
from referee.engine.driver import DriverError, drive, push_front
from tests.conformance.rulesets.sixth_fleet_1975 import fixture_module


def test_hex_board_answers_from_the_map_data() -> None:
    m = fixture_module("sf75ex")
    b = HexBoard(m.map)
    assert isinstance(b, Board)
    assert b.contains("1423") and not b.contains("1120")
    assert b.adjacent("1422", "1423") and not b.adjacent("1422", "1424")
    assert b.entry_cost("1423", "surface") == 2  # Restricted Water [10.14], from terrain.csv
    assert b.entry_cost("1523", "surface") is None and b.entry_cost("1523", "air") == 1
    assert b.blocks_zoc("1325")  # Prohibited [10.21]
    assert b.hexside_blocked("1520", "1521", "naval") and not b.hexside_blocked(
        "1520", "1521", "air"
    )
    assert b.edge_of("1620") == ("north", "west")
    assert b.locations_in_area("black_sea") == ("1624", "1625")
    assert b.defense_multiplier("1423", "surface") == 2 and b.defense_multiplier("1423", "air") == 1
    assert b.is_edge("1620") and not b.is_edge("1423")


def _state() -> GameState:
    return GameState("g", "m", "r", "s", 1, "p", "A", {}, {})


def test_driver_runs_tasks_in_order_and_stops_at_a_pending_decision() -> None:
    seen: list[str] = []

    def step(state: GameState, task: Any, dice: Any, events: list[Any]) -> GameState:
        seen.append(task["n"])
        if task["n"] == "b" and "choice" not in task:
            t = dict(task)
            pd = PendingDecision("D1", "B", "x", "1.0", "choose", ("1", "2"))
            return push_front(state, [t]).evolve(pending=(pd,))
        return state

    s = push_front(_state(), [{"t": "s", "n": "a"}, {"t": "s", "n": "b"}, {"t": "s", "n": "c"}])
    s = drive(s, {"s": step}, lambda st: None, NoDice(), [])
    assert seen == ["a", "b"] and s.pending and s.data["queue"][0]["n"] == "b"
    q = [dict(t) for t in s.data["queue"]]
    q[0]["choice"] = "1"
    s = drive(s.evolve(pending=()).with_data(queue=q), {"s": step}, lambda st: None, NoDice(), [])
    assert seen == ["a", "b", "b", "c"] and not s.data["queue"]


def test_driver_refuses_unknown_tasks_and_endless_loops() -> None:
    with pytest.raises(DriverError):
        drive(push_front(_state(), [{"t": "nope"}]), {}, lambda s: None, NoDice(), [])
    with pytest.raises(DriverError):
        drive(_state(), {"s": lambda s, t, d, e: s}, lambda s: [{"t": "s"}], NoDice(), [])
