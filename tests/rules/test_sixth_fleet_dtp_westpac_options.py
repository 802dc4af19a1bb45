"""Westpac's optional rules through the game's own flow, on and off [DTP 11.5131-11.5134], and
its special units (the Long Bin, the command ships) in play [DTP 11.5093, 11.5091]: the
armistice roll ending the game as an AM turn begins and the game running past turn 48 with
11.5132 (and ending there without it); the Long Bin leaving once it has fired; the scripted
player taking the CCL to sea. The rules themselves are pinned by the conformance cases
dtp_westpac/020-028 (the cruiser swap of 11.5131 in 024, the capture of 11.5134 in 027)."""

from __future__ import annotations

from referee.engine.core import GameState, ScriptedDice
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from tests.conformance.rulesets.dtp_westpac import module, set_up


def _last_rebasing(turn: int, options: tuple[str, ...]) -> GameState:
    """The set-up position at the rebasing phase of Game-Turn ``turn`` (a Night turn), the East
    Block's file in, SEATO's awaited; the next AM turn's variable air roll [DTP 11.507] already
    made (a 6, which brings nothing that matters here), so the dice these tests script are the
    armistice roll's alone."""
    return (
        set_up()
        .evolve(turn=turn, phase="rebasing", active_side="SEATO", options=options)
        .with_data(rebased=["EastBlock"], variable_air={"rolls": {str(turn + 1): 6}, "arrived": {}})
    )


def _seato_rebases(state: GameState, dice: list[int]) -> GameState:
    m = module()
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: SEATO\n\n[rebasing]\n"
    out = RULESET.resolve(m, state, RULESET.parse_orders(text, "r.txt"), ScriptedDice(dice))
    assert out.ok, out.violations
    return out.state


def test_the_armistice_roll_ends_the_game_as_turn_22_begins() -> None:
    state = _seato_rebases(_last_rebasing(21, ("11.5132",)), [1])
    assert state.phase == "game-over" and state.turn == 22
    assert state.data["armistice"] == {"22": 1}
    assert RULESET.score(module(), state)["final"] is True


def test_a_roll_that_does_not_end_it_lets_turn_22_begin() -> None:
    state = _seato_rebases(_last_rebasing(21, ("11.5132",)), [2])
    assert state.phase != "game-over" and state.turn == 22
    assert state.data["armistice"] == {"22": 2}


def test_without_the_option_no_roll_is_made() -> None:
    state = _seato_rebases(_last_rebasing(21, ()), [])
    assert state.turn == 22 and "armistice" not in state.data


def test_the_game_ends_after_turn_48_without_the_option_and_runs_on_with_it() -> None:
    assert _seato_rebases(_last_rebasing(48, ()), []).phase == "game-over"
    state = _seato_rebases(_last_rebasing(48, ("11.5132",)), [4])
    assert state.phase != "game-over" and state.turn == 49  # an AM turn: rolled, war goes on
    assert state.data["armistice"] == {"49": 4}


def test_the_long_bin_leaves_once_it_has_fired_and_its_marker_is_gone() -> None:
    """[DTP 11.5093] "Once it has expended its missiles in this attack, it is removed from the
    map as soon as its detected marker is removed": at the start of the East Block's ship and
    sub movement (turn 46, after the Night of turn 45), not while it is still Detected."""
    fired = _last_rebasing(45, ()).with_data(sg_base_attacks=["SO-SG-51"])
    state = _seato_rebases(fired, [])
    assert state.turn == 46 and state.phase == "ship_movement_a"
    assert state.units["SO-SG-51"].location is None
    assert state.units["SO-SG-51"].box == "expended"
    # not fired: it stays
    state = _seato_rebases(_last_rebasing(45, ()), [])
    assert state.units["SO-SG-51"].location is not None


def test_the_scripted_east_block_takes_the_admiral_senyavin_to_sea_on_entry() -> None:
    """[DTP 11.5091] the CCL placed at Vladivostok on turn 31 must be at sea when the East
    Block's ship and sub movement file ends: the scripted player's file moves it out first and
    passes ``validate``."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece

    m = module()
    state = set_up().evolve(turn=31, phase="ship_movement_a", active_side="EastBlock")
    state = move_piece(Game.of(m, state), state, "SO-CCL-13", "3033")
    text = RULESET.scripted_orders(m, state)
    assert text is not None and "\nmove SO-CCL-13 " in text
    assert not RULESET.validate(m, state, RULESET.parse_orders(text, "s.txt"))
