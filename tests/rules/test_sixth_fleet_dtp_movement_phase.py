"""A DTP movement phase on the Med map: moves without ZOC, the moving player's detection right
after the move that opens it [DTP 6.2a], once per phase [DTP 6.22], strength > 0 [DTP 6.21],
and the other player's answer at the same moment [DTP 6.2b]: by his standing order, or kept
for his decision."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import Event, GameState, ScriptedDice, UnitState
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.movement_phase import carry_out_movement, check_movement
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_dtp"
MOVE = "move US-CV-1 0813 0814 0815 0816"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def start() -> tuple[Game, GameState]:
    m = module()
    state = GameState("g", m.id, "sixth_fleet_dtp", "short", 1, "ship_movement_b", "NATO", {}, {})
    for pid, side, hex_id in (
        ("US-CV-1", "NATO", "0812"),
        ("US-DD-1", "NATO", "0812"),
        ("SO-CG-2", "Soviet", "0817"),
        ("SO-CA-2", "Soviet", "0819"),
        ("SO-SN-1", "Soviet", "0810"),
    ):
        state = state.with_unit(UnitState(pid, side, hex_id, None))
    return Game.of(m, state), state


def orders(side: str, body: str):  # type: ignore[no-untyped-def]
    text = f"game: g\nturn: 1\nside: {side}\nphase: ship_movement_b\n\n[movement]\n{body}\n"
    return parse_orders(text, "o.txt", VOCABULARY).orders


def codes(game: Game, state: GameState, side: str, body: str) -> list[tuple[str, str]]:
    return [(p.rule, p.code) for p in check_movement(game, state, side, orders(side, body), "ship")]


def test_detection_right_after_the_move_that_opens_it() -> None:
    game, state = start()
    assert codes(game, state, "NATO", f"{MOVE}\ndetect US-CV-1 -> SO-CG-2") == []
    assert ("DTP 6.2a", "detect-no-moment") in codes(
        game, state, "NATO", f"detect US-CV-1 -> SO-CG-2\n{MOVE}"
    )
    far = codes(game, state, "NATO", f"{MOVE}\ndetect US-DD-1 -> SO-CG-2")
    assert ("DTP 6.1", "detect-out-of-zone") in far
    twice = codes(
        game, state, "NATO", f"{MOVE}\ndetect US-CV-1 -> SO-CG-2\ndetect US-CV-1 -> SO-CG-2"
    )
    assert twice == [("DTP 6.22", "detect-twice")]
    assert codes(game, state, "NATO", "move US-DD-1 0811 0810") == [
        ("DTP 5.25", "ends-in-enemy-hex")
    ]
    assert codes(game, state, "NATO", "move SO-CG-2 0816") == [("5.1", "not-own")]


def test_strength_zero_cannot_detect() -> None:
    game, state = start()
    body = "move SO-CA-2 0818\ndetect SO-CA-2 -> US-CV-1"  # Kutuzov: AS 12, but too far
    assert codes(game, state, "Soviet", body) == [
        ("DTP 6.1", "detect-out-of-zone"),
        ("DTP 6.2a", "detect-no-moment"),
    ]
    state = state.with_unit(UnitState("US-SN-1", "NATO", "0815", None))
    body = "move SO-CA-2 0818 0817 0816\ndetect SO-CA-2 -> US-SN-1"  # ASW 0 [DTP 6.21]
    assert codes(game, state, "Soviet", body) == [("DTP 6.21", "detect-strength-0")]


def test_carrying_out_detects_and_the_other_player_answers() -> None:
    game, state = start()
    events: list[Event] = []
    body = f"{MOVE}\ndetect US-CV-1 -> SO-CG-2"
    # without a standing order the Soviet chance at the CV is kept for his decision [DTP 6.2b]
    after = carry_out_movement(game, state, "NATO", orders("NATO", body), ScriptedDice([1]), events)
    assert "detected_surface" in after.units["SO-CG-2"].status
    assert after.units["US-CV-1"].location == "0816"
    assert after.data["moments"] == [
        {"mover": "US-CV-1", "at": "0816", "from": "0817", "units": ["SO-CG-2"]}
    ]
    assert {e.rule for e in events} == {"5.0", "DTP 6.3"}
    # with 'detect whenever-allowed' the CG tries at once: ECM 3 vs 6, needs 4; rolls 5
    events = []
    after = carry_out_movement(
        game,
        state,
        "NATO",
        orders("NATO", body),
        ScriptedDice([5, 1]),
        events,
        other_detects_whenever_allowed=True,
    )
    assert "detected_surface" in after.units["US-CV-1"].status
    assert "moments" not in after.data
    assert [e.rule for e in events] == ["5.0", "DTP 6.3", "DTP 6.3"]


def test_the_other_player_answers_a_kept_moment_in_his_next_file() -> None:
    """[DTP 6.2b] by email (interpretations DTP-18): the Soviet CG's chance at the CV, kept
    from NATO's phase, is taken in the Soviet player's next movement file, at the positions
    of the moment; unanswered, it lapses with that file."""
    game, state = start()
    state = carry_out_movement(game, state, "NATO", orders("NATO", MOVE), ScriptedDice([]), [])
    state = state.with_unit(UnitState("US-CV-1", "NATO", "0812", None))  # it has sailed on
    assert codes(game, state, "Soviet", "detect SO-CG-2 -> US-CV-1") == []
    assert ("DTP 6.2a", "detect-no-moment") in codes(
        game, state, "Soviet", "detect SO-CA-2 -> US-CV-1"
    )
    events: list[Event] = []
    after = carry_out_movement(
        game,
        state,
        "Soviet",
        orders("Soviet", "detect SO-CG-2 -> US-CV-1"),
        ScriptedDice([5]),
        events,
    )
    assert "detected_surface" in after.units["US-CV-1"].status  # ECM 3 vs 6: needs 4
    assert after.data["moments"] == []
    lapsed = carry_out_movement(
        game, state, "Soviet", orders("Soviet", "move SO-CA-2 0818"), ScriptedDice([]), []
    )
    assert lapsed.data["moments"] == []


def test_returning_air_units_are_based_by_their_owner() -> None:
    """[DTP 8.51]: an aborted unit whose turn has come is based by its owner at the start of
    his air movement, on an open airbase of its side; not earlier, not in a ship phase."""
    game, state = start()
    state = state.with_unit(UnitState("US-F4.1", "NATO", None, "recycle"))
    state = state.evolve(turn=3).with_data(recycle={"US-F4.1": 3})

    def air(body: str, kind: str = "air") -> list[tuple[str, str]]:
        return [
            (p.rule, p.code)
            for p in check_movement(game, state, "NATO", orders("NATO", body), kind)
        ]

    assert air("base US-F4.1 1311") == []  # Sigonella, a US base
    assert air("base US-F4.1 1311", "ship") == [("DTP 8.51", "not-returning")]
    assert air("base US-F4.1 1209") == [("DTP 8.51", "returning-base")]  # open sea
    closed = state.with_data(base_damage={"1311": 2})  # D2: closed [DTP 10.44]
    got = check_movement(game, closed, "NATO", orders("NATO", "base US-F4.1 1311"), "air")
    assert [p.code for p in got] == ["returning-base"]
    early = state.with_data(recycle={"US-F4.1": 4})
    assert [
        p.code
        for p in check_movement(game, early, "NATO", orders("NATO", "base US-F4.1 1311"), "air")
    ] == ["not-returning"]
    events: list[Event] = []
    after = carry_out_movement(
        game, state, "NATO", orders("NATO", "base US-F4.1 1311"), ScriptedDice([]), events
    )
    assert after.units["US-F4.1"].location == "1311" and after.data["recycle"] == {}
    assert [e.rule for e in events] == ["DTP 8.51"]


def test_stacking_holds_at_the_end_of_the_movement_phase_7_21() -> None:
    """SPI's limit, kept by DTP: a fourth naval unit may pass through a full hex but not end
    there [7.21][7.11]; a hex already over the limit before the file is not its fault."""
    game, state = start()
    for pid in ("US-CG-1", "US-CG-2"):
        state = state.with_unit(UnitState(pid, "NATO", "0813", None))
    assert codes(game, state, "NATO", "move US-DD-1 0813") == []
    assert codes(game, state, "NATO", "move US-DD-1 0813\nmove US-CV-1 0813") == [
        ("7.21", "naval-stacking")
    ]
    assert codes(game, state, "NATO", "move US-CV-1 0813 0814") == []


def test_face_down_air_neither_flies_nor_detects_9_23() -> None:
    """A face-down (inactive) air unit stays where it is and makes no detection attempt until
    it passes a later phase 6 readiness roll [DTP 9.23]; the same unit face up may do both."""
    game, state = start()
    body = "move US-P3 1312 1313\ndetect US-P3 -> SO-CG-2"
    up = state.with_unit(UnitState("US-P3", "NATO", "1311", None))
    down = state.with_unit(UnitState("US-P3", "NATO", "1311", None, frozenset({"inactive"})))

    def air(s: GameState, text: str) -> list[tuple[str, str]]:
        return [
            (p.rule, p.code) for p in check_movement(game, s, "NATO", orders("NATO", text), "air")
        ]

    assert ("DTP 9.23", "inactive") not in air(up, body)
    assert air(down, "move US-P3 1312") == [("DTP 9.23", "inactive")]
    near = down.with_unit(UnitState("US-P3", "NATO", "0816", None, frozenset({"inactive"})))
    assert ("DTP 9.23", "inactive") in air(near, "detect US-P3 -> SO-CG-2")
