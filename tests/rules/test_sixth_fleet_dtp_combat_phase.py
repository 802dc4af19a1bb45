"""The DTP combat phase on a game position (the combat example's situation on the Med map):
Player B first, a first strike with no answer back, a D2 escort unable to attack, a strike
whose contact opens the bounce window, and the defender letting it through [DTP 8.2-8.234]."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.combat_phase import (
    carry_out_impulse_8_2,
    check_impulse_8_2,
    due_8_2,
)
from referee.rules.sixth_fleet_dtp.impulses import start_8_2
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
    """NATO's Detected carrier group in 0816 (CAP on top, then the D1 escorts, then the CV);
    the undetected Charlie SG in 0817; a Soviet air stack in 0815 (MiG-23 over Tu16 and
    Tu22)."""
    m = module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "short", 4, "combat", None, {}, {})
    seen = frozenset({"detected_surface"})
    for pid, side, hex_id, status in (
        ("US-CV-1", "NATO", "0816", seen),
        ("US-CG-2", "NATO", "0816", seen),
        ("US-DD-1", "NATO", "0816", seen),
        ("US-S3.1", "NATO", "0816", frozenset()),
        ("US-F4C.1", "NATO", "0816", frozenset()),
        ("SO-SG-1", "Soviet", "0817", frozenset()),
        ("SO-T22", "Soviet", "0815", frozenset()),
        ("SO-T16.1", "Soviet", "0815", frozenset()),
        ("SO-M23.1", "Soviet", "0815", frozenset()),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None, status))
    state = state.with_data(
        impulses=start_8_2("NATO"), damage={"US-DD-1": 1, "US-CG-2": 1}, combat={}
    )
    return Game.of(m, state), state


def impulse(game: Game, state: GameState, side: str, body: str, dice: list[int]) -> GameState:
    doc = parse_orders(
        f"game: g\nturn: 4\nside: {side}\nphase: combat\n\n[combat]\n{body}\n", "o", VOCABULARY
    )
    probs = check_impulse_8_2(game, state, side, doc.orders)
    assert probs == [], [p.message for p in probs]
    events: list[Event] = []
    d = ScriptedDice(dice)
    after = carry_out_impulse_8_2(game, state, side, doc.orders, d, events)
    assert len(d.rolls) == len(dice), "every scripted die is used"
    return after


def problems(game: Game, state: GameState, side: str, body: str) -> list[tuple[str, str]]:
    doc = parse_orders(
        f"game: g\nturn: 4\nside: {side}\nphase: combat\n\n[combat]\n{body}\n", "o", VOCABULARY
    )
    return [(p.rule, p.code) for p in check_impulse_8_2(game, state, side, doc.orders)]


def test_the_combat_phase_in_impulses() -> None:
    game, state = start()
    assert due_8_2(state) == "NATO"  # Player B first [DTP 8.2]
    assert problems(game, state, "Soviet", "pass") == [("DTP 8.2", "impulse-out-of-turn")]

    # 1. NATO: an F4 aborts the MiG-23 (CRT 2; 2d6 4 + 4 = 8 - readiness 4: back on turn 8)
    #    the aborted MiG stays where it is until the Soviet impulse that could be its answer
    #    is over [DTP 8.21, 8.22]
    state = impulse(game, state, "NATO", "attack US-F4C.1 -> SO-M23.1", [2, 4, 4])
    assert state.units["SO-M23.1"].location == "0815" and not state.data.get("recycle")
    assert state.data["answer_8_22"]["aborted"] == {"SO-M23.1": 8}
    assert due_8_2(state) == "Soviet"

    # 2. Soviet: the undetected SG first-strikes both D1 escorts, skipping the air above them
    #    [7.45]: 30 vs 7, CRT 2; 15 each on the Hit Table: DEF 3 automatic, DEF 4 on a 3
    state = impulse(game, state, "Soviet", "attack SO-SG-1 -> US-DD-1 US-CG-2 first-strike", [2, 3])
    assert state.data["damage"] == {"US-DD-1": 2, "US-CG-2": 2}
    # the MiG did not answer: it goes to the turn track now
    assert state.units["SO-M23.1"].box == "recycle" and state.data["recycle"] == {"SO-M23.1": 8}
    assert "detected_sub" in state.units["SO-SG-1"].status  # [DTP 8.234]
    assert state.data["impulses"]["answer_back"] is None  # no answer to a first strike

    # 3. NATO: the D2 escort has no strength left [DTP 8.55] and, damaged by a first strike,
    #    no answer back [DTP 8.231] (the case that governs, not SPI's 8.41); nor may a ship
    #    attack twice
    bad = problems(game, state, "NATO", "attack US-DD-1 -> SO-SG-1")
    assert ("DTP 8.231", "no-answer-to-first-strike") in bad
    assert ("8.13", "attacked-twice") in problems(game, state, "NATO", "attack US-F4C.1 -> SO-T22")

    # 4. NATO: the S3 strikes the now Detected SG: contact certain (1 - 1 + 2); the Tu22 next
    #    to the strike may bounce, so the strike waits for Soviet's answer [DTP 8.232]
    state = impulse(game, state, "NATO", "strike US-S3.1 -> SO-SG-1", [3])
    assert state.data["strike"]["defender"] == "Soviet" and due_8_2(state) == "Soviet"
    assert problems(game, state, "NATO", "pass") == [("DTP 8.232", "waiting-bounce")]

    # 5. Soviet lets it through (no bounce): 20 vs 8, CRT 1; Hit Table 20 vs DEF 8 (1-5): a 2
    state = impulse(game, state, "Soviet", "", [1, 2])
    assert state.data["damage"]["SO-SG-1"] == 1 and not state.data.get("strike")
    assert due_8_2(state) == "Soviet"

    # 6. Soviet passes; NATO finishes and passes: the phase is over
    state = impulse(game, state, "Soviet", "pass", [])
    assert due_8_2(state) == "NATO"
    state = impulse(game, state, "NATO", "pass", [])
    assert due_8_2(state) is None


def _to_strike_window(game: Game, state: GameState) -> GameState:
    """Steps 1, 2 and 4 of the phase above: the S3's strike on the SG waits for bounces."""
    state = impulse(game, state, "NATO", "attack US-F4C.1 -> SO-M23.1", [2, 4, 4])
    state = impulse(game, state, "Soviet", "attack SO-SG-1 -> US-DD-1 US-CG-2 first-strike", [2, 3])
    return impulse(game, state, "NATO", "strike US-S3.1 -> SO-SG-1", [3])


def test_a_bounce_is_reported_under_its_own_case() -> None:
    """The bounce is an event citing [DTP 8.232] before its CRT reading [8.8] (the demo and
    a reader find it by it), then the strike resolves."""
    game, state = start()
    state = _to_strike_window(game, state)
    doc = parse_orders(
        "game: g\nturn: 4\nside: Soviet\nphase: combat\n\n[combat]\nbounce SO-T22 -> US-S3.1\n",
        "o",
        VOCABULARY,
    )
    # stack order still applies [DTP 8.232]: the F4 above the S3 has not been attacked this
    # phase, so it must be bounced first
    assert [(p.rule, p.code) for p in check_impulse_8_2(game, state, "Soviet", doc.orders)] == [
        ("DTP 8.232", "escort-first")
    ]
    f4 = state.units["US-F4C.1"]
    state = state.with_unit(UnitState("US-F4C.1", "NATO", "0820", None, f4.status))
    assert check_impulse_8_2(game, state, "Soviet", doc.orders) == []
    events: list[Event] = []
    # the Tu22's AA 1 against the S3's DEF 2 is below the lowest column: no roll; then the
    # strike: CRT 1, Hit Table 2 (as in step 5 above)
    after = carry_out_impulse_8_2(game, state, "Soviet", doc.orders, ScriptedDice([1, 2]), events)
    kinds = [(e.kind, e.rule) for e in events]
    assert kinds[0] == ("bounce", "DTP 8.232")
    assert "SO-T22 bounce US-S3.1" in events[0].text
    assert ("attack", "8.8") in kinds[1:] and ("hit", "DTP 8.52") in kinds
    assert after.data["damage"]["SO-SG-1"] == 1


def test_face_down_air_neither_attacks_nor_bounces_9_23() -> None:
    """An air unit that failed its readiness roll is face down (inactive) until it passes a
    later phase 6 [DTP 9.23]: it may not attack, and it does not hold a strike up for a bounce
    (the strike resolves at once)."""
    game, state = start()
    f4 = state.units["US-F4C.1"]
    down = state.with_unit(UnitState(f4.id, f4.side, f4.location, f4.box, frozenset({"inactive"})))
    assert ("DTP 9.23", "inactive") in problems(game, down, "NATO", "attack US-F4C.1 -> SO-M23.1")
    state = impulse(game, state, "NATO", "attack US-F4C.1 -> SO-M23.1", [2, 4, 4])
    state = impulse(game, state, "Soviet", "attack SO-SG-1 -> US-DD-1 US-CG-2 first-strike", [2, 3])
    t22 = state.units["SO-T22"]
    state = state.with_unit(
        UnitState(t22.id, t22.side, t22.location, t22.box, frozenset({"inactive"}))
    )
    # contact 3, CRT 1, Hit Table 2: no bounce window (the Tu22 is the only fighter near)
    state = impulse(game, state, "NATO", "strike US-S3.1 -> SO-SG-1", [3, 1, 2])
    assert not state.data.get("strike") and state.data["damage"]["SO-SG-1"] == 1
