"""SPI's optional rules [14.1]-[14.3] in the DTP Med scenarios [DTP 11.0, 101.1], chosen at
``referee new``, each played on and off: the First Strike before the Soviet player's first
ship and sub movement phase, the neutral air space announcement and its VP, the Middle East
air forces' set-up roll; and refused outside the Mediterranean."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import Dice, GameState, NoDice, ScriptedDice
from referee.engine.orders import parse_orders
from referee.errors import UserError
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.source.loader import load_module
from referee.source.model import Module
from tests.rules.play import setup_orders

ROOT = Path(__file__).resolve().parents[2]


@cache
def module(name: str = "sixth_fleet_dtp") -> Module:
    m, diags = load_module(ROOT / "module_src" / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def send(state: GameState, side: str, section: str, lines: list[str], dice: Dice):
    text = (
        f"game: g\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"
        f"[{section}]\n" + "\n".join(lines) + "\n"
    )
    return RULESET.resolve(module(), state, parse_orders(text, "o.txt", VOCABULARY), dice)


def set_up(options: tuple[str, ...], dice: list[int]) -> tuple[GameState, list]:
    """Both set-up files of the short scenario, NATO first [11.1, 11.2]."""
    state = RULESET.new_game(module(), "short", "g", options)
    events: list = []
    script = ScriptedDice(dice)
    for side in ("NATO", "Soviet"):
        lines = setup_orders(Game.of(module(), state), state, side)
        out = send(state, side, "setup", lines, script)
        assert out.ok, [str(v) for v in out.violations]
        state = out.state
        events += out.events
    return state, events


def test_first_strike_before_the_first_soviet_ship_movement_phase() -> None:
    state, events = set_up(("14.1",), [2])
    assert state.phase == "ship_movement_a" and state.turn == 1
    strike = [e for e in events if e.kind == "first-strike"]
    assert strike and strike[0].rule == "14.1" and strike[0].data["roll"] == 2
    lost = {x["unit"] for x in state.data["losses"] if x.get("rule") == "14.1"}
    assert strike[0].data["unit"] in lost
    game = Game.of(module(), state)
    assert any(game.unit(u).type == "SN" for u in lost if u.startswith("SO-"))
    assert state.data["first_strike_done"] is True


def test_without_14_1_no_first_strike() -> None:
    state, events = set_up((), [])
    assert not [e for e in events if e.kind == "first-strike"]
    assert "first_strike_done" not in state.data and not state.data["losses"]


def test_neutral_air_space_announced_once_and_scored() -> None:
    state, _ = set_up(("14.2",), [])
    before = RULESET.score(module(), state)
    assert before["neutral_airspace_penalty"] == 0
    out = send(state, "Soviet", "movement", ["option 14.2"], NoDice())
    assert out.ok, [str(v) for v in out.violations]
    assert out.state.data["neutral_airspace"] is True
    assert [e.rule for e in out.events if e.kind == "option"] == ["14.2"]
    after = RULESET.score(module(), out.state)
    assert after["neutral_airspace_penalty"] == -10
    assert float(after["net"]) == float(before["net"]) - 10


def test_option_14_2_is_refused_when_the_game_does_not_use_it() -> None:
    state, _ = set_up((), [])
    out = send(state, "Soviet", "movement", ["option 14.2"], NoDice())
    assert not out.ok
    assert [v.rule for v in out.violations] == ["14.2"]
    assert "not in use" in out.violations[0].message
    assert "neutral_airspace_penalty" not in RULESET.score(module(), state)


def test_nato_may_not_announce_14_2() -> None:
    state, _ = set_up(("14.2",), [])
    state = state.evolve(phase="ship_movement_b", active_side="NATO")
    out = send(state, "NATO", "movement", ["option 14.2"], NoDice())
    assert [v.rule for v in out.violations] == ["14.2"]


@pytest.mark.parametrize("roll", [1, 6])
def test_middle_east_air_rolled_as_the_soviet_set_up_begins(roll: int) -> None:
    state = RULESET.new_game(module(), "short", "g", ("14.3",))
    israeli = [u for u in state.units if u.startswith("IS-")]
    assert len(israeli) == 12 and all(state.units[u].box == "unplaced" for u in israeli)
    out = send(
        state, "NATO", "setup", setup_orders(Game.of(module(), state), state, "NATO"),
        ScriptedDice([roll]),
    )  # fmt: skip
    assert out.ok, [str(v) for v in out.violations]
    assert next((e.rule, e.data.get("roll")) for e in out.events if e.rule == "14.3") == (
        "14.3",
        roll,
    )
    arab = [u for u in out.state.units if u.endswith(("-SY", "-EG")) or "-SY." in u or "-EG." in u]
    assert arab and all(out.state.units[u].box == "unplaced" for u in arab)
    state, _ = set_up(("14.3",), [roll])
    assert state.phase == "ship_movement_a"
    assert all(state.units[u].location for u in israeli)


def test_without_14_3_no_middle_east_unit() -> None:
    state = RULESET.new_game(module(), "short", "g")
    assert not [u for u in state.units if u.startswith("IS-")]


def test_14_x_apply_to_the_med_scenarios_only() -> None:
    with pytest.raises(UserError, match="Mediterranean scenarios only"):
        RULESET.new_game(module("dtp_denmark_strait"), "denmark_strait", "g", ("14.1",))


def test_a_med_game_refuses_an_option_dtp_does_not_play() -> None:
    with pytest.raises(UserError, match="does not play optional rule"):
        RULESET.new_game(module(), "short", "g", ("14.9",))


def test_soviet_air_set_up_in_syria_or_egypt_is_based_there_9_28b() -> None:
    state, _ = set_up(("14.3",), [4])
    homes = state.data.get("home_9_28b") or {}
    placed = [u for u in state.units if u.endswith(("-SY", "-EG")) or "-SY." in u or "-EG." in u]
    assert placed and {homes[u] for u in placed} == {"Syria", "Egypt"}
    assert all(homes[u] == ("Syria" if "-SY" in u else "Egypt") for u in placed)
