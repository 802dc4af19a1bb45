"""The DTP ruleset object plays a whole Game-Turn of the Med under DTP [DTP 4.1, 11.0]: SPI's
set-up, the four movement phases (a detection included), the combat phase's impulses (B
first), rebasing, and the next turn; each refusal cites its case."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState, ScriptedDice
from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "module_src" / "sixth_fleet_dtp"
SPI_EXAMPLES = ROOT / "module_src" / "sixth_fleet" / "examples"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def text(state: GameState, side: str, section: str, body: str) -> str:
    return (
        f"game: dtp-1\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"
        f"[{section}]\n{body}\n"
    )


def play(state: GameState, side: str, section: str, body: str, dice: list[int]) -> GameState:
    doc = parse_orders(text(state, side, section, body), "o.txt", VOCABULARY)
    out = RULESET.resolve(module(), state, doc, ScriptedDice(dice))
    assert out.ok, [str(v) for v in out.violations]
    return out.state


def setup() -> GameState:
    """SPI's example set-up files [11.1, 11.2], played under DTP."""
    state = RULESET.new_game(module(), "short", "dtp-1")
    for name in ("01-nato-setup.txt", "02-soviet-setup.txt"):
        raw = (
            (SPI_EXAMPLES / name)
            .read_text(encoding="utf-8")
            .replace("game: sf-demo", "game: dtp-1")
        )
        side = RULESET.awaiting(module(), state)[0]
        out = RULESET.resolve(
            module(), state, parse_orders(raw, name, VOCABULARY), ScriptedDice([])
        )
        assert out.ok, (name, side, [str(v) for v in out.violations])
        state = out.state
    return state


def test_set_up_then_player_a_moves_first() -> None:
    state = setup()
    assert state.ruleset == "sixth_fleet_dtp" and state.turn == 1
    assert state.phase == "ship_movement_a"
    assert RULESET.awaiting(module(), state)[0] == "Soviet"  # Soviet = Player A [DTP 11.0]


def test_out_of_turn_and_wrong_section_are_refused() -> None:
    state = setup()
    doc = parse_orders(text(state, "NATO", "movement", ""), "o.txt", VOCABULARY)
    rules = [v.rule for v in RULESET.validate(module(), state, doc)]
    assert rules == ["DTP 4.1"]
    doc = parse_orders(text(state, "Soviet", "combat", "pass"), "o.txt", VOCABULARY)
    assert [v.rule for v in RULESET.validate(module(), state, doc)] == ["DTP 4.1"]


def test_a_whole_game_turn() -> None:
    state = setup()
    sg = state.units["SO-SG-1"].location
    state = play(state, "Soviet", "movement", "", [])
    assert state.phase == "ship_movement_b"
    state = play(state, "NATO", "movement", "", [])
    assert state.phase == "air_movement_b"
    state = play(state, "NATO", "movement", "", [])
    state = play(state, "Soviet", "movement", "", [])
    assert state.phase == "combat" and RULESET.awaiting(module(), state)[0] == "NATO"  # B first
    state = play(state, "NATO", "combat", "pass", [])
    assert RULESET.awaiting(module(), state)[0] == "Soviet"
    state = play(state, "Soviet", "combat", "pass", [])
    assert state.phase == "rebasing"
    assert {d.side for d in RULESET.due(module(), state)} == {"NATO", "Soviet"}
    state = play(state, "NATO", "rebasing", "", [])
    state = play(state, "Soviet", "rebasing", "", [])
    assert (state.turn, state.phase) == (2, "ship_movement_a")
    assert state.units["SO-SG-1"].location == sg
    assert RULESET.score(module(), state)["level"] == "Draw"


def test_detection_both_ways_then_an_attack() -> None:
    """The Soviet CG moves next to a NATO DE and SSN south of Greece and detects the DE
    [DTP 6.2a]; NATO answers the kept moment in its own file and detects the CG [DTP 6.2b];
    in the combat phase NATO (B, first) attacks with the SSN: 24 vs 4, CRT 1, Hit Table 24 vs
    DEF 4 is an automatic D-1; the Soviet CG may not attack the DE under the SSN [7.44]."""
    state = setup()
    state = play(state, "Soviet", "movement", "move SO-CG-2 1120\ndetect SO-CG-2 -> US-DE-1", [4])
    assert "detected_surface" in state.units["US-DE-1"].status
    assert state.data["moments"][0]["mover"] == "SO-CG-2"
    state = play(state, "NATO", "movement", "detect US-DE-1 -> SO-CG-2", [6])
    assert "detected_surface" in state.units["SO-CG-2"].status
    state = play(state, "NATO", "movement", "", [])
    state = play(state, "Soviet", "movement", "", [])
    state = play(state, "NATO", "combat", "attack US-SN-2 -> SO-CG-2", [1])
    assert state.data["damage"] == {"SO-CG-2": 1}
    assert "detected_sub" in state.units["US-SN-2"].status  # [DTP 8.234]
    doc = parse_orders(
        text(state, "Soviet", "combat", "attack SO-CG-2 -> US-DE-1"), "o.txt", VOCABULARY
    )
    assert [v.rule for v in RULESET.validate(module(), state, doc)] == ["7.44"]
    state = play(state, "Soviet", "combat", "pass", [])
    state = play(state, "NATO", "combat", "pass", [])
    assert state.phase == "rebasing"
    score = RULESET.score(module(), state)
    assert score["vp"]["NATO"] == str(quarter_of_the_cg(state))


def quarter_of_the_cg(state: GameState) -> object:
    from fractions import Fraction

    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.victory import unit_vp_13_0

    return Fraction(unit_vp_13_0(Game.of(module(), state), "SO-CG-2"), 4)  # D1 = 1/4 [8.57]


def test_standing_pass_below_passes_without_a_file() -> None:
    """NATO's standing 'pass below 99' [DTP 8.2]: with no attack that can reach 99 the
    referee passes NATO's first impulse itself, and the Soviet player is awaited."""
    state = setup()
    state = play(state, "Soviet", "movement", "", [])
    doc = parse_orders(
        text(state, "NATO", "movement", "") + "\n[standing]\npass below 99\n", "o.txt", VOCABULARY
    )
    out = RULESET.resolve(module(), state, doc, ScriptedDice([]))
    assert out.ok, [str(v) for v in out.violations]
    state = play(out.state, "NATO", "movement", "", [])
    state = play(state, "Soviet", "movement", "", [])
    assert state.phase == "combat"
    assert state.data["impulses"]["passed"] == ["NATO"]
    assert RULESET.awaiting(module(), state)[0] == "Soviet"
    state = play(state, "Soviet", "combat", "pass", [])
    assert state.phase == "rebasing"


def test_the_pass_bound_is_an_upper_bound() -> None:
    from referee.rules.sixth_fleet_dtp.detection import Unit
    from referee.rules.sixth_fleet_dtp.standing import best_differential_bound_8_2

    a = Unit("a", "surface", {"AS": 20})
    t1, t2 = Unit("t1", "surface", {"DEF": 4}), Unit("t2", "surface", {"DEF": 9})
    got = best_differential_bound_8_2(
        {"h|surface": [(a, 20), (a, 12)]}, {"h|surface": [(t1, 4), (t2, 9)]}
    )
    assert got == 28  # everything on the weakest target
    assert best_differential_bound_8_2({"h|surface": [(a, 0)]}, {"h|surface": [(t1, 4)]}) is None
