"""DTP's verbs made pointable in options format 5 (issue 28), on small prepared positions of
the rules' own conformance set-ups: each line ``referee options`` offers (of a unit, or of the
side) is a file ``validate`` accepts, the rule's refusals are not offered, and a format-4 file
leaves them out.

* ``exit UNIT``: a damaged East Block ship leaves by its removal port [DTP 11.5031]; an
  undamaged one is not offered [DTP 5.24];
* ``capture HEX`` (optional rule 11.5134): on turn 4 the hex next to two North Korean hexes,
  not Suwon (one) [DTP 11.5134]; none without the option, none on an odd turn;
* ``option 14.2``: the Soviet player's, with the rule in use [14.2]; not NATO's;
* ``remove UNIT``: each naval unit of a hex the East Block's reinforcements left over the
  limit [DTP 11.5063], none once the hex is within it.

The carrier verbs and ``base`` are pointed at in Chromium on the Denmark Strait demo
(``tests/viewer/test_orders_verbs5_browser.py``).
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.source.model import Module
from tests.conformance.rulesets import dtp_westpac, sixth_fleet_dtp


def _accepted(m: Module, state: GameState, side: str, line: str) -> bool:
    section = "movement"
    text = (
        f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\nphase: {state.phase}\n\n"
        f"[{section}]\n{line}\n"
    )
    return not RULESET.validate(m, state, RULESET.parse_orders(text, "o.txt"))


def _unit_lines(m: Module, state: GameState, unit: str) -> list[dict[str, Any]]:
    view = RULESET.view(m, state, state.units[unit].side)
    return [
        c for c in RULESET.options(m, view, unit, limit=0).data["orders"] if c.get("since") == 5
    ]


def _westpac(turn: int, phase: str, side: str, options: tuple[str, ...] = ()) -> GameState:
    return (
        dtp_westpac.set_up()
        .evolve(turn=turn, phase=phase, active_side=side, options=options)
        .with_data(
            hostilities={"war": 1, "prc": 1, "asked": turn},
            variable_air={"rolls": {str(turn): 1}, "arrived": {}},
        )
    )


def test_a_damaged_ship_in_its_removal_port_may_exit_an_undamaged_one_not() -> None:
    m = dtp_westpac.module()
    state = _westpac(2, "ship_movement_a", "EastBlock")
    assert [c["order"] for c in _unit_lines(m, state, "SO-DD-5")] == []
    damaged = state.with_data(damage={"SO-DD-5": 1})
    got = _unit_lines(m, damaged, "SO-DD-5")
    assert [(c["order"], c["kind"], c["since"]) for c in got] == [("exit SO-DD-5", "exit", 5)]
    assert got[0]["at"] == damaged.units["SO-DD-5"].location
    assert _accepted(m, damaged, "EastBlock", "exit SO-DD-5")


def test_the_korean_hex_next_to_two_north_korean_hexes_may_be_captured() -> None:
    m = dtp_westpac.module()
    state = _westpac(4, "ship_movement_a", "EastBlock", ("11.5134",))
    view = RULESET.view(m, state, "EastBlock")
    got = [c for c in RULESET.side_orders(m, view, "EastBlock") if c["kind"] == "capture"]
    lines = [c["order"] for c in got]
    assert "capture 2541" in lines and "capture 2442" not in lines, lines  # Suwon: one [11.5134]
    assert all(c["since"] == 5 and c["at"] == c["order"].split()[1] for c in got)
    for line in lines:
        assert _accepted(m, state, "EastBlock", line), line
    for other in (
        _westpac(4, "ship_movement_a", "EastBlock"),  # the option not chosen
        _westpac(7, "ship_movement_a", "EastBlock", ("11.5134",)),  # not an even AM turn
    ):
        view = RULESET.view(m, other, "EastBlock")
        assert not [c for c in RULESET.side_orders(m, view, "EastBlock") if c["kind"] == "capture"]


def test_the_soviet_player_may_violate_neutral_air_space_with_the_rule_in_use() -> None:
    m = sixth_fleet_dtp.module()
    for side, rules, want in (
        ("Soviet", ("14.2",), ["option 14.2"]),
        ("Soviet", (), []),
        ("NATO", ("14.2",), []),
    ):
        state = RULESET.new_game(m, "short", "g", rules).evolve(
            phase="ship_movement_a" if side == "Soviet" else "ship_movement_b",
            active_side=side,
        )
        view = RULESET.view(m, state, side)
        got = [c["order"] for c in RULESET.side_orders(m, view, side) if c["kind"] == "option"]
        assert got == want, (side, rules)
        for line in got:
            assert _accepted(m, state, side, line)


def test_each_naval_unit_of_a_hex_over_the_limit_may_be_removed() -> None:
    """A fourth East Block naval unit in Vladivostok, the hex recorded over the limit as a
    reinforcement's placing records it [DTP 11.5063]: each of the four may be named; the
    file that names none is refused, one that names one is not."""
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.position import move_piece
    from referee.rules.sixth_fleet_dtp import westpac_overstack

    m = dtp_westpac.module()
    state = _westpac(4, "ship_movement_a", "EastBlock")
    game = Game.of(m, state)
    state = move_piece(game, state, "SO-AK-78", "3033")
    state = westpac_overstack.record_11_5063(game, state, "EastBlock", "3033")
    naval = [u for u in state.stacks["3033"] if not game.is_air(u)]
    assert len(naval) == 4
    for unit in naval:
        got = [(c["order"], c["at"]) for c in _unit_lines(m, state, unit)]
        assert got == [(f"remove {unit}", "3033")], unit
    assert not _accepted(m, state, "EastBlock", "")  # the excess unnamed [DTP 11.5063]
    assert _accepted(m, state, "EastBlock", f"remove {naval[-1]}")
    within = move_piece(game, state, "SO-AK-78", "3034")
    assert not _unit_lines(m, within, "SO-DD-9")


def test_the_med_campaigns_reinforcements_are_offered_their_entry_places() -> None:
    """The DTP Med Campaign's Reinforcement Interphase after Game-Turn 10 (SPI's [12.2],
    [DTP 11.0]): the US F4 its two entry airbases, the French carrier air its carrier
    [12.22]; each line refused for nothing but the other reinforcements it leaves unplaced
    (the file's other lines place them [12.2])."""
    m = sixth_fleet_dtp.module()
    state = RULESET.new_game(m, "campaign", "g").evolve(
        turn=10, phase="reinforcement_12_2", active_side="NATO"
    )
    view = RULESET.view(m, state, "NATO")
    offered = {
        u: [c["order"] for c in RULESET.options(m, view, u, limit=0).data["orders"]]
        for u in ("US-F4.3", "FR-F8")
    }
    assert offered == {
        "US-F4.3": ["place US-F4.3 1022", "place US-F4.3 1311", "stack"],
        "FR-F8": ["place FR-F8 cap FR-CV-1", "place FR-F8 box FR-CV-1", "stack"],
    }
    text = (
        "game: g\nturn: 10\nside: NATO\nphase: reinforcement_12_2\n\n[reinforcement]\n"
        "place US-F4.3 1311\nplace FR-CV-1 1401\nplace FR-F8 cap FR-CV-1\n"
    )
    bad = RULESET.validate(m, state, RULESET.parse_orders(text, "o.txt"))
    assert [v for v in bad if v.code != "delayed"] == []


def test_westpac_reinforcements_are_offered_their_entry_hexes() -> None:
    """Westpac's reinforcement phase before Game-Turn 4's first ship movement [DTP 11.5041,
    11.506]: the East Block's AK due now is offered its port, and that file is accepted."""
    from referee.engine.core import ScriptedDice
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp import flow, westpac_reinforcement

    m = dtp_westpac.module()
    state = _westpac(4, "ship_movement_a", "EastBlock")
    game = Game.of(m, state)
    owed = westpac_reinforcement.detour_11_506(game, state, "ship_movement_a")
    state = flow.reinforce_11_506(game, state.with_data(reinforce=owed), ScriptedDice([]), [])
    assert (state.phase, state.active_side) == ("reinforcement_a", "EastBlock")
    got = [(c["order"], c["at"]) for c in _unit_lines(m, state, "SO-AK-81")]
    assert got == [("place SO-AK-81 3033", "3033")]
    text = (
        f"game: {state.game_id}\nturn: 4\nside: EastBlock\nphase: reinforcement_a\n\n"
        "[reinforcement]\nplace SO-AK-81 3033\n"
    )
    assert not RULESET.validate(m, state, RULESET.parse_orders(text, "o.txt"))
