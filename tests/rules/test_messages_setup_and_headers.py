"""The messages a previous review of issue 31 ("Weak messages") left without a hint: the
orders-file parser's empty header value and unclosed quote, and the Sixth Fleet set-up's
"placed twice", "may not be in" [10.11][10.12] and "must get at least" [11.1], in 1975 and
in DTP (which checks its set-up with the same code). Each says what was expected, what was
found and gives a hint."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.engine.orders import OrdersSyntaxError
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2]
HEADER = "game: g\nturn: 0\nside: NATO\n[setup]\n"


@cache
def _module(name: str) -> Module:
    module, diags = load_module(ROOT / "module_src" / name)
    assert module is not None, [str(d) for d in diags.items]
    return module


@cache
def _game(name: str) -> tuple[Module, GameState]:
    module = _module(name)
    return module, get_ruleset(module.ruleset).new_game(module, "short", "g")


def _validate(name: str, orders: str) -> list:
    module, state = _game(name)
    rs = get_ruleset(module.ruleset)
    return list(rs.validate(module, state, rs.parse_orders(HEADER + orders, "o.txt")))


def _syntax_errors(name: str, text: str) -> list:
    module = _module(name)
    with pytest.raises(OrdersSyntaxError) as exc:
        get_ruleset(module.ruleset).parse_orders(text, "o.txt")
    return exc.value.errors


def test_an_empty_header_value_says_what_to_write() -> None:
    (e,) = _syntax_errors("sixth_fleet", "game:\nturn: 0\nside: NATO\n[setup]\n")
    assert (e.line, e.col) == (1, 6)  # just after the colon
    assert e.message == "expected a value after 'game:', found nothing"
    assert e.hint is not None and "game: <the game id in state.json>" in e.hint
    (e,) = _syntax_errors("sixth_fleet", "game: g\nturn:   \nside: NATO\n[setup]\n")
    assert e.message == "expected a value after 'turn:', found nothing"
    assert e.hint is not None and "'turn: 3'" in e.hint


def test_an_unclosed_quote_shows_the_name_and_how_to_close_it() -> None:
    text = 'game: g\nturn: 2\nside: Soviet\n[actions]\nmove SO-1 -> "Eastern Med\n'
    errs = _syntax_errors("sixth_fleet_2019", text)
    e = next(x for x in errs if "closing" in x.message)
    assert (e.line, e.col) == (5, 14)
    assert e.message == (
        "expected a closing '\"' after a quoted name, found the end of the line "
        "after '\"Eastern Med'"
    )
    assert e.hint is not None and '"Norwegian Sea 3"' in e.hint


@pytest.mark.parametrize("name", ["sixth_fleet", "sixth_fleet_dtp"])
def test_a_unit_placed_twice_names_the_first_line(name: str) -> None:
    vs = _validate(name, "place US-CG-1 0813\nplace US-CG-1 1121\n")
    (v,) = [v for v in vs if "placed twice" in v.message]
    assert v.rule == "11.0" and v.where is not None and v.where.line == 6
    assert v.message == (
        "US-CG-1 is placed twice: expected one place order a unit, found a second "
        "(the first is on line 5)"
    )
    assert v.hint == "keep one of the two 'place US-CG-1' lines"


@pytest.mark.parametrize("name", ["sixth_fleet", "sixth_fleet_dtp"])
def test_a_unit_on_land_names_the_terrain_and_its_set_up_hexes(name: str) -> None:
    (v,) = [v for v in _validate(name, "place US-DD-1 0302\n") if "may not be in" in v.message]
    assert v.rule == "10.12"
    assert v.message.startswith(
        "US-DD-1 (surface) may not be in 0302: expected a hex surface units may enter, found "
    )
    assert v.message.rsplit("found ", 1)[1] not in ("", "None")
    assert v.hint is not None and v.hint.startswith("US-DD-1 may be set up in hexes coded US:")


def test_an_unfilled_set_up_hex_gets_a_place_line_to_paste() -> None:
    vs = _validate("sixth_fleet", "place US-CG-1 0813\n")
    few = [v for v in vs if "must get at least" in v.message]
    assert few, [str(v) for v in vs]
    v = next(v for v in few if "set-up hex 1121 " in v.message)
    assert v.message.startswith("set-up hex 1121 must get at least 1 unit(s) of this pool")
    assert v.message.endswith("; it has 0")
    assert v.hint is not None and v.hint.startswith("add 'place ") and v.hint.endswith(" 1121'")
    unit = v.hint.split()[2]
    assert unit != "US-CG-1"  # a unit still to place, not the one already placed


def test_each_unfilled_hex_suggests_a_different_unit() -> None:
    hints = [v.hint for v in _validate("sixth_fleet", "") if "must get at least" in v.message]
    us = [h for h in hints if h and h.startswith("add 'place US-")]
    assert len(us) == 5 and len({h.split()[2] for h in us}) == 5, us


def test_carrier_air_still_to_place_is_told_to_go_on_its_carrier() -> None:
    vs = [v for v in _validate("sixth_fleet", "") if "US-A5" in v.message]
    assert len(vs) == 1 and vs[0].rule == "11.0", [str(v) for v in vs]
    assert "(on US-CV-1: CAP or its holding box)" in vs[0].message
    assert vs[0].hint is not None and vs[0].hint.endswith("e.g. place US-A5 cap US-CV-1")


def test_carrier_air_on_prohibited_terrain_is_told_its_carrier() -> None:
    """1616 is Prohibited (the Yugoslav/Albanian coast): no unit, air included [10.11]."""
    vs = [v for v in _validate("sixth_fleet", "place US-A5 1616\n") if "may not be in" in v.message]
    assert len(vs) == 1 and vs[0].rule == "10.11", [str(v) for v in vs]
    assert vs[0].hint == "place US-A5 cap US-CV-1"


def test_a_westpac_reinforcement_placed_twice_says_which_line_to_keep() -> None:
    """[DTP 11.506]: the second 'place' of one reinforcement is refused with the line to keep
    (issue 31's standard: expected, found, hint)."""
    from referee.engine.core import ScriptedDice
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp import flow, westpac_reinforcement
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from tests.conformance.rulesets.dtp_westpac import module, set_up

    state = set_up().evolve(turn=4)
    game = Game.of(module(), state)
    owed = westpac_reinforcement.detour_11_506(game, state, "ship_movement_a")
    assert owed is not None
    state = flow.reinforce_11_506(game, state.with_data(reinforce=owed), ScriptedDice([]), [])
    text = (
        f"game: {state.game_id}\nturn: {state.turn}\nside: {state.active_side}\n"
        f"phase: {state.phase}\n\n[reinforcement]\nplace SO-AK-81 3033\nplace SO-AK-81 3033\n"
    )
    v = RULESET.validate(module(), state, RULESET.parse_orders(text, "orders.txt"))
    twice = [x for x in v if "placed twice" in x.message]
    assert len(twice) == 1, v
    assert twice[0].rule == "DTP 11.506"
    assert "expected one place order a reinforcement, found a second" in twice[0].message
    assert twice[0].hint == "keep one of the two 'place SO-AK-81' lines"
