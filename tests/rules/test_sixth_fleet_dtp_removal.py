"""Detected markers at their removal times on the Med map [DTP 6.62-6.65]: tracked units and
surface units next to an enemy base keep them; the rest lose them; subs only at their owner's
ship and sub phase [DTP 6.63] (digest 9.1)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import Event, GameState, UnitState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.removal import night_removal_6_62, sub_removal_6_63
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def position() -> tuple[Game, GameState]:
    m = module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "short", 3, "night", None, {}, {})
    placed = {
        "SO-CG-2": ("Soviet", "0815", {"detected_surface"}),  # next to a NATO DD: tracked
        "US-DD-1": ("NATO", "0816", set()),
        "SO-CG-1": ("Soviet", "1011", {"detected_surface"}),  # next to Malta (British base)
        "SO-CA-1": ("Soviet", "0730", {"detected_surface"}),  # only a P3 near: air cannot track
        "US-P3": ("NATO", "0630", set()),
        "SO-SN-1": ("Soviet", "0916", {"detected_sub"}),
        "SO-SS-1": ("Soviet", "0631", {"detected_sub"}),  # a P3 near: air cannot track
        "US-SN-1": ("NATO", "0520", {"detected_sub"}),
    }
    for pid, (side, hex_id, status) in placed.items():
        state = state.with_unit(UnitState(pid, side, hex_id, None, frozenset(status)))
    return Game.of(m, state), state


def test_the_position_is_what_the_test_says() -> None:
    game, _state = position()
    b = game.board
    assert b.adjacent("0815", "0816") and b.adjacent("0916", "0816")
    assert b.airbase("1010") is not None and b.adjacent("1011", "1010")
    assert (
        b.adjacent("0730", "0630")
        and b.distance("0520", "0631") > 1
        and b.distance("0520", "0730") > 1
    )


def test_night_removal_keeps_tracked_and_base_adjacent_surface_units() -> None:
    game, state = position()
    events: list[Event] = []
    after = night_removal_6_62(game, state, events)
    assert "detected_surface" in after.units["SO-CG-2"].status  # [DTP 6.64]
    assert "detected_surface" in after.units["SO-CG-1"].status  # [DTP 6.65]
    assert "detected_surface" not in after.units["SO-CA-1"].status  # [DTP 6.62]
    assert "detected_sub" in after.units["SO-SS-1"].status  # subs are not touched at night
    rules = {e.data["unit"]: e.rule for e in events}
    assert rules == {"SO-CG-2": "DTP 6.64", "SO-CG-1": "DTP 6.65", "SO-CA-1": "DTP 6.62"}


def test_sub_removal_is_the_owners_and_keeps_tracked_subs() -> None:
    game, state = position()
    events: list[Event] = []
    after = sub_removal_6_63(game, state, "Soviet", events)
    assert "detected_sub" in after.units["SO-SN-1"].status  # tracked by the DD [DTP 6.64]
    assert "detected_sub" not in after.units["SO-SS-1"].status  # [DTP 6.63]
    assert "detected_sub" in after.units["US-SN-1"].status  # NATO's sub: at NATO's phase
    assert {e.rule for e in events} == {"DTP 6.64", "DTP 6.63"}
