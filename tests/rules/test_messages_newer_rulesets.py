"""Messages of the newer rulesets against the Sixth Fleet (1975) standard (issue 31, "Weak
messages"): each violation says what was expected, what was found, and gives a hint. One
test per message the review of mutated orders files changed (2019, DTP, naval; Carrier
Battlegroup has its own review)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets.sixth_fleet_2019 import build_state, module_2019

ROOT = Path(__file__).resolve().parents[2]


@cache
def _module(name: str) -> Module:
    module, diags = load_module(ROOT / "module_src" / name)
    assert module is not None, [str(d) for d in diags.items]
    return module


@cache
def _first(name: str) -> tuple[Module, GameState]:
    module = _module(name)
    state = get_ruleset(module.ruleset).new_game(module, next(iter(module.scenarios)), "g")
    return module, state


def _violations(module: Module, state: GameState, text: str) -> list:
    rs = get_ruleset(module.ruleset)
    return list(rs.validate(module, state, rs.parse_orders(text, "o.txt")))


def _one(vs: list, rule: str):
    got = [v for v in vs if v.rule == rule]
    assert got, [str(v) for v in vs]
    return got[0]


# ---- Sixth Fleet (2019) ----------------------------------------------------------------------


def _2019(orders: str, header: str = "game: t\nturn: 2\nside: Soviet\n[actions]\n") -> list:
    module = module_2019()
    case = {
        "turn": 2,
        "phase": "soviet_actions",
        "units": [["SO-SU24.1", "Bulgaria"], ["TK-MECH-1", "Istanbul"]],
        "data": {"strike": {"held": {"Soviet": ["SO-CM.1"], "NATO": []}}},
    }
    return _violations(module, build_state(module, case), header + orders + "\n")


def test_2019_unknown_strike_marker_names_the_markers():
    v = _one(_2019("play SO-CN.1"), "2.9")
    assert v.message == "expected a strike marker, got 'SO-CN.1'"
    assert "SO-CM.1" in (v.hint or "")  # did you mean


def test_2019_unknown_target_gets_the_nearest_ids():
    v = _one(_2019("attack SO-SU24.1 -> Istanbul hitting TK-MECH-2x"), "9.0")
    assert "no unit 'TK-MECH-2x'" in v.message
    assert "TK-MECH-1" in (v.hint or "")
    v = _one(_2019("attack SO-SU24.1 -> Istanbul hitting bas{e"), "9.0")
    assert "`base`" in (v.hint or "")


def test_2019_header_side_and_turn_say_what_to_write():
    vs = _2019("move SO-SU24.1 -> Romania", "game: t\nturn: 3\nside: NATO\n[actions]\n")
    side, turn = sorted((v for v in vs if v.rule == "5.0"), key=lambda v: v.message)
    assert "Soviet's orders are due, not NATO's" in side.message and side.hint == "side: Soviet"
    assert "the orders are for turn 3" in turn.message and turn.hint == "turn: 2"


# ---- Sixth Fleet (DTP) -----------------------------------------------------------------------


def test_dtp_header_mismatches_say_what_to_write():
    module, state = _first("sixth_fleet_dtp")
    due = get_ruleset(module.ruleset).due(module, state)[0].side
    other = next(s.id for s in module.sides if s.id != due)
    text = f"game: nosuch\nturn: 9\nside: {other}\nphase: combat\n\n[setup]\n"
    vs = _violations(module, state, text)
    game = next(v for v in vs if "for game 'nosuch'" in v.message)
    assert game.hint == f"game: {state.game_id}"
    turn = next(v for v in vs if "Game-Turn 9" in v.message)
    assert turn.hint == f"turn: {state.turn}"
    side = next(v for v in vs if f"not {other}" in v.message)
    assert side.hint == f"side: {due}"
    phase = next(v for v in vs if "phase 'combat'" in v.message)
    assert phase.hint and phase.hint.startswith(f"phase: {state.phase}")


# ---- Naval module ----------------------------------------------------------------------------


def test_naval_wrong_side_is_shown_once_quoted():
    module, state = _first("naval_module")
    rs = get_ruleset(module.ruleset)
    awaited = rs.due(module, state)[0].side
    text = rs.scripted_orders(module, state).replace(f"side: {awaited}", "side: Axi{s")
    v = next(v for v in _violations(module, state, text) if "awaits" in v.message)
    assert v.message == f"the game awaits {awaited}'s orders, not those of side 'Axi{{s'"
    assert v.hint == f"side: {awaited}"
    text = rs.scripted_orders(module, state).replace(f"side: {awaited}\n", "")
    v = next(v for v in _violations(module, state, text) if "awaits" in v.message)
    assert v.message == f"the game awaits {awaited}'s orders; these orders name no side"


def test_naval_unknown_location_without_a_near_name_still_hints():
    from tests.conformance.rulesets.naval_module import build_state as naval_state
    from tests.conformance.rulesets.naval_module import naval_module

    module = naval_module()
    case = {"phase": "movement", "units": [["SU-DD-BO", "Temryuk"]]}
    state = naval_state(module, case)
    text = (
        f"game: case\nturn: {state.turn}\nside: Soviet\n[movement]\nmove SU-DD-BO -> Qqqqqqqqqqqq\n"
    )
    v = _one(_violations(module, state, text), "26.11")
    assert v.message == "unknown sea zone, port or hex 'Qqqqqqqqqqqq'"
    assert v.hint == "name a sea zone or a port as the map spells it, or a hex id"


def test_naval_survivor_not_in_the_box_names_the_box():
    import json

    from tests.conformance.rulesets.naval_module import build_state as naval_state
    from tests.conformance.rulesets.naval_module import naval_module

    module = naval_module()
    case = json.loads(
        (ROOT / "tests/conformance/naval_module/110-31.13-survivor-not-in-box.json").read_text()
    )
    state = naval_state(module, case.get("position", case))
    head = f"game: case\nturn: {state.turn}\nside: Axis\n[aircombat]\n"
    v = _one(_violations(module, state, head + "survivors H1 -> DE-Ju87\n"), "31.13")
    assert v.message == "DE-Ju87 is not in the box of H1" and v.hint == "the box holds DE-He111.1"
    twice = head + "survivors H1 -> DE-He111.1\nsurvivors H1 none\n"
    v = next(v for v in _violations(module, state, twice) if "given twice" in v.message)
    assert v.hint == "keep one survivors line"


# ---- DTP impulses ----------------------------------------------------------------------------


def _dtp_combat(tmp_path: Path, orders: str, side_line: str = "side: NATO\n"):
    from tests.pbem.cliflow import cli
    from tests.rules.test_sixth_fleet_dtp_bad_input import DS, _position

    state = _position(tmp_path, "combat", "NATO", {"US-CV-1": "1321"})
    o = tmp_path / "orders.txt"
    o.write_text(f"game: g\nturn: 1\n{side_line}phase: combat\n\n[combat]\n{orders}\n")
    return cli("validate", o, "--state", state, "--module", DS)


def test_dtp_two_actions_in_one_impulse_says_how_many(tmp_path):
    code, out = _dtp_combat(tmp_path, "pass\npass")
    assert code == 1
    assert "an impulse is one attack, one strike or a pass; this file has 2" in out
    assert "send one of them now and the next in a later impulse" in out


def test_dtp_orders_without_a_side_say_so(tmp_path):
    code, out = _dtp_combat(tmp_path, "pass", side_line="")
    assert code == 1
    assert "None" not in out, out
    assert "it is NATO's impulse (hint: add the line: side: NATO)" in out, out


# ---- every ruleset: an order that fits no form says what it got --------------------------------


def test_an_order_that_fits_no_form_says_what_was_written():
    from referee.engine.orders import OrdersSyntaxError

    rs = get_ruleset("sixth_fleet_2019")
    text = "game: t\nturn: 1\nside: Soviet\n[actions]\nreinforce SO-TU16.1\nplay\n"
    try:
        rs.parse_orders(text, "o.txt")
    except OrdersSyntaxError as exc:
        shown = str(exc)
    else:
        raise AssertionError("accepted")
    assert "expected UNIT [UNIT ...] -> ZONE, got 'SO-TU16.1'" in shown
    assert "expected MARKER, got nothing after it" in shown


def test_dtp_rebase_to_no_base_and_a_broken_path_hint_the_fix(tmp_path):
    from tests.rules.test_sixth_fleet_dtp_bad_input import _position, _validate

    state = _position(tmp_path, "rebasing", "NATO", {"US-F4.1": "0918"})
    code, out = _validate(tmp_path, state, "NATO", "rebasing", "rebasing", "rebase US-F4.1 1010")
    assert code == 1 and "[DTP 9.22] 1010 is neither an airbase nor a carrier of US-F4.1" in out
    assert "an air unit rebases to a friendly airbase's hex or onto a carrier of its side" in out
    state = _position(tmp_path, "air_movement_a", "Soviet", {"SO-T22": "1311"})
    code, out = _validate(
        tmp_path, state, "Soviet", "air_movement_a", "movement", "move SO-T22 1311 1313"
    )
    assert code == 1 and "1313 is not adjacent to 1311" in out, out
    assert "name every hex of the path, each next to the one before" in out


def test_dtp_orders_while_a_strike_waits_for_bounces_name_the_side(tmp_path):
    from tests.rules.test_sixth_fleet_dtp_bad_input import _position, _validate

    strike = {  # the record a strike that made contact leaves [DTP 8.232] (facts.Strike)
        "side": "NATO",
        "defender": "Soviet",
        "units": ["US-A6.1"],
        "targets": ["SO-CG-1"],
        "hex": "1311",
    }
    state = _position(
        tmp_path, "combat", "NATO", {"US-A6.1": "1313", "SO-CG-1": "1311"}, {"strike": strike}
    )
    code, out = _validate(tmp_path, state, "NATO", "combat", "combat", "pass")
    assert code == 1, out
    assert "[DTP 8.232] waiting for Soviet's bounces" in out, out
    assert "the strike on 1311 is answered first (side: Soviet); NATO's orders come after" in out


def test_dtp_and_naval_missing_game_and_turn_lines_say_so():
    for name in ("sixth_fleet_dtp", "naval_module"):
        module, state = _first(name)
        rs = get_ruleset(module.ruleset)
        side = rs.due(module, state)[0].side
        vs = _violations(module, state, f"side: {side}\n")
        shown = [v.message for v in vs]
        assert f"these orders name no game; this is game {state.game_id!r}" in shown, shown
        assert f"these orders name no Game-Turn; the game is at Game-Turn {state.turn}" in shown, (
            shown
        )
        assert not any("None" in m for m in shown), shown


def test_2019_unknown_zone_empty_path_and_no_enemy_base_hint_the_fix():
    v = _one(_2019("move SO-SU24.1 -> F"), "8.0")
    assert v.message == "unknown zone 'F'" and "quote a name with spaces" in (v.hint or "")
    v = _one(_2019("move SO-SU24.1 -> Bulgaria"), "8.0")
    assert v.message == "the path enters no zone"
    assert v.hint == "after `->` name the zones the force enters, each adjacent to the last"
    v = _one(_2019("attack SO-SU24.1 -> Romania hitting base"), "9.0")
    assert v.message == "Romania has no functional enemy base to attack"
    assert v.hint == "name enemy units in the zone as targets instead"


def test_unknown_units_without_a_near_id_still_hint():
    module, state = _first("sixth_fleet_dtp")
    side = get_ruleset(module.ruleset).due(module, state)[0].side
    text = f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n[setup]\nplace Q 0101\n"
    v = next(v for v in _violations(module, state, text) if "unknown unit 'Q'" in v.message)
    assert v.hint == "name a unit by its counter id (`referee state show` lists them)"


def test_naval_air_units_not_yours_get_the_nearest_ids():
    from tests.conformance.rulesets.naval_module import build_state as naval_state
    from tests.conformance.rulesets.naval_module import naval_module

    module = naval_module()
    case = {"phase": "interdiction", "units": [["DE-He111.1", "2012"], ["DE-Ju87", "2012"]]}
    state = naval_state(module, case)
    text = f"game: case\nturn: {state.turn}\nside: Axis\n[interdiction]\ninterdict DE-He\n"
    v = _one(_violations(module, state, text), "31.11")
    assert v.message == "DE-He is not an air unit of yours"
    assert v.hint == "did you mean 'DE-He111.1'?", v


def test_naval_cd_unit_not_yours_gets_the_nearest_ids():
    from referee.engine.core import ScriptedDice
    from tests.conformance.rulesets.naval_module import build_state as naval_state
    from tests.conformance.rulesets.naval_module import naval_module

    module = naval_module()
    rs = get_ruleset(module.ruleset)
    case = {
        "phase": "combat",
        "phasing": "Soviet",
        "units": [["SU-CL-KK", "2925"], ["DE-CD-1.2", "2824"], ["DE-INF-46", "2824"]],
        "ships": {"SU-CL-KK": {}},
    }
    state = naval_state(module, case)
    head = f"game: case\nturn: {state.turn}\nside: "
    support = rs.parse_orders(head + "Soviet\n[combat]\nsupport SU-CL-KK -> 2824\n", "o")
    state = rs.resolve(module, state, support, ScriptedDice([])).state
    v = _one(
        _violations(module, state, head + "Axis\n[coast]\ncoastfire DE-CD-1.3 -> SU-CL-KK\n"),
        "27.12",
    )
    assert v.message == "DE-CD-1.3 is not a unit of yours on the map"
    assert "DE-CD-1.2" in (v.hint or ""), v
