"""Positions of real games for the marker tests: the seeded scripted player plays Denmark
Strait [DTP 11.3] and the Kerch-Feodosia naval scenario until the position holds what the
VASSAL markers show (damage, Detected, inactive air, the recycle track; damage, Sailed ships,
the Naval Movement Interdiction Box, ports used). Engine states, not hand-made ones."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module

SOURCES = Path(__file__).resolve().parents[2] / "module_src"


@cache
def module(name: str) -> Module:
    m, diags = load_module(SOURCES / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def play_until(
    name: str, scenario: str, game_id: str, done: Callable[[GameState], bool]
) -> GameState:
    """The first position of a scripted game for which ``done`` holds."""
    m = module(name)
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, scenario, game_id)
    for k in range(1, 400):
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        assert text is not None, "the game ended before the position was reached"
        out = rs.resolve(m, state, rs.parse_orders(text, f"step-{k}.txt"), SeededDice(k))
        assert out.ok, out.violations
        state = out.state
        if done(state):
            return state
    raise AssertionError("no such position within 400 steps")


def _dtp_done(state: GameState) -> bool:
    flags = {f for u in state.units.values() for f in u.status}
    damaged = any(v for v in (state.data.get("damage") or {}).values())
    return (
        damaged
        and bool(state.data.get("recycle"))
        and {"inactive", "detected_surface", "detected_sub"} <= flags
    )


@cache
def dtp_position() -> tuple[Module, GameState]:
    """Denmark Strait, Game-Turn 11: a damaged ship, aborted air units on the recycle track
    [DTP 8.51], inactive air [DTP 9.23], Detected surface units and subs. (Game ds-3: since
    the scripted SGs sail for the coastal bases [DTP 11.3 rule 4], game ds-2 no longer has all
    of these at once.)"""
    return module("dtp_denmark_strait"), play_until(
        "dtp_denmark_strait", "denmark_strait", "ds-3", _dtp_done
    )


def _naval_done(state: GameState) -> bool:
    ships = state.data.get("ships") or {}
    damaged = sum(1 for f in ships.values() if f.get("damage"))
    sailed = any(f.get("status") == "sailed" for f in ships.values())
    boxed = any((state.data.get("interdiction_box") or {}).values())
    return damaged >= 2 and sailed and boxed and bool(state.data.get("port_used"))


@cache
def naval_position() -> tuple[Module, GameState]:
    """Kerch-Feodosia: damaged ships in ports and at sea, Sailed ships [25.31], Axis air in
    the Naval Movement Interdiction Box [31.11], transport points used in ports [26.25]."""
    return module("naval_module"), play_until("naval_module", "kerch_feodosia", "nv-1", _naval_done)
