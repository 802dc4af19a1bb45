"""Phase 6 and phase 7 on the Med map [DTP 9.22-9.25, 8.51, 6.62, 10.44]: landing within range
on an open base of one's side, the readiness roll, units left in the air recycling, CAP over
its own base staying up, and the Night phase's repairs."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.rebasing import (
    carry_out_rebasing,
    check_rebasing,
    night_phase_4_1,
)
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def start() -> tuple[Game, GameState]:
    """NATO's P3 and an F4 over the sea west of Sicily; a second F4 on CAP over Sigonella."""
    m = module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "short", 3, "rebasing", None, {}, {})
    for pid, hex_id in (("US-P3", "1209"), ("US-F4.1", "1210"), ("US-F4.2", "1311")):
        state = state.with_unit(UnitState(pid, "NATO", hex_id, None))
    return Game.of(m, state), state


def orders(body: str):  # type: ignore[no-untyped-def]
    text = f"game: g\nturn: 3\nside: NATO\nphase: rebasing\n\n[rebasing]\n{body}\n"
    return parse_orders(text, "o.txt", VOCABULARY).orders


def test_landing_checks() -> None:
    game, state = start()
    assert check_rebasing(game, state, "NATO", orders("rebase US-P3 1311")) == []
    closed = state.with_data(base_damage={"1311": 2})
    got = [
        (p.rule, p.code) for p in check_rebasing(game, closed, "NATO", orders("rebase US-P3 1311"))
    ]
    assert got == [("DTP 10.44", "rebase-closed-base")]
    got = [
        (p.rule, p.code) for p in check_rebasing(game, state, "NATO", orders("rebase US-P3 1209"))
    ]
    assert ("DTP 9.22", "not-a-base") in got


def test_readiness_rolls_and_recycling() -> None:
    game, state = start()
    events: list[Event] = []
    # P3 lands at Sigonella and rolls 6 against 5: face down; the F4 in 1210 is not rebased:
    # 2d6 3 + 4 = 7 - readiness 5 = 2 turns; the CAP F4 over Sigonella stays up [DTP 9.24]
    after = carry_out_rebasing(
        game,
        state,
        "NATO",
        orders("rebase US-P3 1311"),
        ScriptedDice([3, 4, 6]),
        events,
        cap_over_own_base=frozenset({"US-F4.2"}),
    )
    assert after.units["US-P3"].location == "1311" and "inactive" in after.units["US-P3"].status
    assert after.units["US-F4.1"].box == "recycle" and after.data["recycle"] == {"US-F4.1": 5}
    assert after.units["US-F4.2"].location == "1311" and not after.units["US-F4.2"].status
    assert [e.rule for e in events] == ["DTP 8.51", "DTP 9.23"]


def test_a_face_down_unit_on_its_base_rolls_again_9_23() -> None:
    """A face-down unit sitting on its own base is not CAP [DTP 9.24]: with no order it is
    placed back where it is and rolls, so it can pass "in a later phase 6" [DTP 9.23]."""
    game, state = start()
    f4 = state.units["US-F4.2"]
    state = state.with_unit(UnitState(f4.id, "NATO", "1311", None, frozenset({"inactive"})))
    events: list[Event] = []
    after = carry_out_rebasing(
        game,
        state,
        "NATO",
        orders("rebase US-P3 1311\nrebase US-F4.1 1311"),
        ScriptedDice([1, 2, 3]),
        events,
        cap_over_own_base=frozenset({"US-F4.2"}),
    )
    assert not after.units["US-F4.2"].status and after.units["US-F4.2"].location == "1311"
    # units land in id order: US-F4.1 rolls 1, US-F4.2 (placed back) 2, US-P3 3
    assert [(e.rule, e.data["unit"], e.data["roll"]) for e in events] == [
        ("DTP 9.23", "US-F4.1", 1),
        ("DTP 9.23", "US-F4.2", 2),
        ("DTP 9.23", "US-P3", 3),
    ]


def test_night_phase_repairs_bases() -> None:
    game, state = start()
    state = state.with_data(base_damage={"1311": 2, "1010": 3})
    events: list[Event] = []
    after = night_phase_4_1(game, state, ScriptedDice([2]), events)
    assert after.data["base_damage"] == {"1311": 1, "1010": 3}  # D3 is permanent
    assert [e.rule for e in events] == ["DTP 10.44"]


def _denmark_strait(units: dict[str, str], moved: list[str]) -> tuple[Game, GameState]:
    m, diags = load_module(SRC.parent / "dtp_denmark_strait")
    assert m is not None, [str(d) for d in diags.items]
    state = GameState(
        "g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "rebasing", "Soviet", {}, {}
    )
    state = state.with_data(moved_air=moved, rebased=[])
    for pid, hex_id in units.items():
        state = state.with_unit(UnitState(pid, "Soviet", hex_id, None))
    return Game.of(m, state), state


def test_the_scripted_player_lands_carrier_air_on_its_carrier_and_keeps_cap_up() -> None:
    """[DTP 9.22] a Forger that flew rebases onto the Kiev (no Soviet airbase is on the map),
    [DTP 9.24] one that never left her hex is not picked up (no line, no roll)."""
    from referee.rules.sixth_fleet_dtp.flow import carry_out
    from referee.rules.sixth_fleet_dtp.scripted import rebasing_lines

    game, state = _denmark_strait(
        {"SO-CH-1": "2703", "SO-F.1": "2704", "SO-F.2": "2703"}, moved=["SO-F.1"]
    )
    assert rebasing_lines(game, state, "Soviet") == ["rebase SO-F.1 2703"]
    events: list[Event] = []
    after = carry_out(
        game, state, "Soviet", orders("rebase SO-F.1 2703"), ScriptedDice([3]), events
    )
    assert after.units["SO-F.1"].box == "holding:SO-CH-1"
    assert after.units["SO-F.2"].location == "2703"
    assert [e.rule for e in events] == ["DTP 9.23"]
