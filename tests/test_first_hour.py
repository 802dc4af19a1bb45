"""A player's first hour with each bundled game (issue 31): the reproducers of the issue, each
a regression test. Fast: fresh positions and a few scripted steps, no demo game."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.cli import app
from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.resources import example_path
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner

# bundled module -> a scenario of it
FRESH = {
    "sixth_fleet": "short",
    "sixth_fleet_dtp": "short",
    "sixth_fleet_2019": "s1970",
    "naval_module": "kerch_feodosia",
    "carrier_battlegroup": "mission",
}


@cache
def module(name: str) -> Module:
    path = example_path(name)
    assert path is not None
    m, diags = load_module(path)
    assert m is not None, [str(d) for d in diags.items]
    return m


def scripted_until(name: str, done: object, seed: int = 1) -> GameState:
    """A fresh game of ``name`` played by the scripted player until ``done(state)``."""
    m = module(name)
    rs = get_ruleset(m.ruleset)
    st = rs.new_game(m, FRESH[name], "g")
    for k in range(20):
        if done(st):  # type: ignore[operator]
            return st
        text = rs.scripted_orders(m, st)
        assert text is not None
        out = rs.resolve(m, st, rs.parse_orders(text, "x.txt"), SeededDice(seed + k))
        assert not out.violations, out.violations
        st = out.state
    raise AssertionError("the scripted game did not get there")


def messages(name: str, state: GameState, text: str) -> list[str]:
    m = module(name)
    rs = get_ruleset(m.ruleset)
    return [
        f"[{v.rule}] {v.message}" + (f" ({v.hint})" if v.hint else "")
        for v in rs.validate(m, state, rs.parse_orders(text, "o.txt"))
    ]


def cli(*args: str) -> tuple[int, str]:
    try:
        r = Runner().invoke(app, list(args), catch_exceptions=False)
    except UserError as exc:  # what cli.main prints, exit 2
        return exc.exit_code, str(exc)
    return r.exit_code, r.output


# ---- broken or contradictory output -------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FRESH))
def test_state_show_prints_every_rulesets_score(name: str, tmp_path: Path) -> None:
    """`state show` exited 70 on Carrier Battlegroup and naval positions ('int' object is
    not iterable) and printed `score: net None` on 2019 and naval ones."""
    state = tmp_path / "state.json"
    code, out = cli("state", "new", "--example", name, "--scenario", FRESH[name], "-o", str(state))
    assert code == 0, out
    code, out = cli("state", "show", str(state))
    assert code == 0, out
    score = out.strip().splitlines()[-1]
    assert score.startswith("score [") and "None" not in score, score


def test_state_new_names_the_scenarios_of_carrier_battlegroup() -> None:
    """`state new --example carrier_battlegroup --scenario nosuch` was exit 70 (KeyError)."""
    code, out = cli(
        "state", "new", "--example", "carrier_battlegroup", "--scenario", "nosuch", "-o", "-"
    )
    assert code == 2 and "has no scenario 'nosuch'" in out
    assert "scenarios: mission, red_oktober" in out
    code, out = cli(
        "state", "new", "--example", "carrier_battlegroup", "--scenario", "misson", "-o", "-"
    )
    assert code == 2 and "did you mean 'mission'?" in out


def test_a_one_track_score_is_shown_as_such() -> None:
    """The CBG final report said "No unit has been destroyed" and 0 VP beside events losing
    seven units and "VP 0 -> -8": its score is one VP track and a list of losses [24.1]."""
    from referee.pbem.scoreboard import score_line, scoreboard

    m = module("carrier_battlegroup")
    score = {
        "rule": "24.1",
        "vp": -8,
        "losses": [
            {"unit": "US-FFG.1", "what": "sunk", "rule": "22.8", "vp": -4},
            {"unit": "US-DDG-K.1", "what": "sunk", "rule": "22.8", "vp": -4},
        ],
        "result": "defeat: VP too low [24.3]",
    }
    board = scoreboard(m, score, "mission")
    assert board["track"] == -8 and board["sides"] == []
    assert [r["unit"] for r in board["losses"]] == ["US-FFG.1", "US-DDG-K.1"]
    assert board["losses"][0]["name"].endswith("(sunk)")
    line = score_line(m, score, "mission")
    assert line == "score [24.1]: VP -8; defeat: VP too low [24.3]; 2 units lost"


# ---- errors in one pass and messages that help --------------------------------------------


def test_2019_counts_the_actions_ordered_in_the_same_run_as_other_mistakes() -> None:
    """ "5 actions ordered, 3 available" [6.1] showed only once every other error was fixed."""
    st = scripted_until("sixth_fleet_2019", lambda s: s.phase.endswith("_actions"))
    left = int(st.data["actions_left"])
    side = st.active_side
    lines = ["move SO-NOSUCH -> Istanbul", "move SO-GSFB.1 -> Nowhere"]
    lines += ["move SO-GSFB.1 -> Istanbul"] * (left + 1)
    text = f"game: g\nturn: {st.turn}\nside: {side}\n[actions]\n" + "\n".join(lines) + "\n"
    got = messages("sixth_fleet_2019", st, text)
    assert any("no unit 'SO-NOSUCH'" in g for g in got), got
    assert any("unknown zone 'Nowhere'" in g for g in got), got
    assert any(f"{left + 3} actions ordered, {left} available" in g for g in got), got


def test_2019_roll_with_a_number_says_what_it_found(tmp_path: Path) -> None:
    """`roll 6` gave "[syntax] expected  (hint: usage: roll)", nothing after "expected"."""
    state = tmp_path / "state.json"
    cli(
        "state",
        "new",
        "--example",
        "sixth_fleet_2019",
        "--scenario",
        "s1970",
        "-o",
        str(state),
        "--game-id",
        "g",
    )
    orders = tmp_path / "o.txt"
    orders.write_text("game: g\nturn: 1\nside: Soviet\n[events]\nroll 6\n")
    code, out = cli("validate", str(orders), "--state", str(state))
    assert code == 1
    assert "o.txt:5:6: [syntax] expected nothing after 'roll', got '6'" in out


def _cbg_outfit() -> GameState:
    return scripted_until("carrier_battlegroup", lambda s: s.phase == "outfit")


def test_carrier_battlegroup_outfit_problems_come_in_one_run() -> None:
    """The LP overspend [9.1] and the escort check [4.0 step 7] came only after every unknown
    piece was fixed; unknown pieces got no "did you mean" although the docs promise one."""
    st = _cbg_outfit()
    want = st.data["escort_classes"]
    text = (
        "game: g\nturn: 0\nside: USN\n[outfit]\n"
        "escort US-CGN\n"  # far fewer escorts than rolled
        "buy 20 fuel\nbuy 20 ammunition\n"  # far more than the LP
        "buy US-F14.1 US-F14.9\n"  # an unknown piece
    )
    got = messages("carrier_battlegroup", st, text)
    assert any(g.startswith("[4.0] the escorts do not match the roll: expected") for g in got)
    assert any("got 1 x cruiser" in g for g in got), got
    assert any(g.startswith("[9.1] the purchases cost") for g in got), got
    assert any("no unit 'US-F14.9'" in g and "did you mean 'US-F14." in g for g in got), got
    assert sum(want.values()) > 1


def test_carrier_battlegroup_buy_of_no_cargo_word_names_the_cargo_words() -> None:
    """`buy 3 torpedoes` gave "no piece 3" and "no piece torpedoes"."""
    st = _cbg_outfit()
    text = "game: g\nturn: 0\nside: USN\n[outfit]\nescort US-CGN\nbuy 3 torpedoes\n"
    got = [g for g in messages("carrier_battlegroup", st, text) if "[9.2]" in g]
    assert len(got) == 1, got
    assert "expected `buy 3 ITEM` with ITEM one of fuel, ammunition, ew_enhancement" in got[0]
    assert "got 'torpedoes'" in got[0] and "no piece" not in got[0]


# ---- consistency ------------------------------------------------------------------------


def test_vocabulary_takes_the_module_name_as_every_other_command() -> None:
    code, by_module = cli("vocabulary", "sixth_fleet", "-q")
    assert code == 0
    assert by_module == cli("vocabulary", "sixth_fleet_1975", "-q")[1]
    code, out = cli("vocabulary", "carrier_battlegroup", "-q")
    assert code == 0 and "[outfit]" in out


@pytest.mark.parametrize("name", ["sixth_fleet", "sixth_fleet_dtp"])
def test_a_partial_set_up_lists_the_real_mistakes_first(name: str, tmp_path: Path) -> None:
    """A hand-written NATO set-up gave 82 lines, the first 75 "X has not been placed" or "hex
    must get at least 1", all at the [setup] header: now the real mistakes come first, then
    one line a group for what is still missing; DTP checks the known orders too."""
    state = tmp_path / "state.json"
    cli(
        "state", "new", "--example", name, "--scenario", "short", "-o", str(state), "--game-id", "g"
    )
    orders = tmp_path / "nato.txt"
    orders.write_text(
        "game: g\nturn: 0\nside: NATO\n\n[setup]\nplace US-CV-1 9999\nplace US-DD-1 0302\n"
    )
    code, out = cli("validate", str(orders), "--state", str(state))
    lines = [x for x in out.splitlines() if x.startswith(str(orders))]
    assert code == 1 and len(lines) < 45, out  # was 86
    assert "nato.txt:6:15: [orders] hex 9999 is not on the map" in lines[0]
    assert "nato.txt:7:15: [10.12] US-DD-1 (surface) may not be in 0302" in lines[1]
    rest = lines[2:-1]
    assert all(":5:1: [11." in x for x in rest), rest  # at the [setup] header
    if name == "sixth_fleet":
        assert any("unit(s) not placed yet (hexes coded US:" in x for x in rest), rest
    else:  # DTP: with a line in error, its units are not reported missing
        assert not rest, rest
    assert not any("has not been placed" in x for x in out.splitlines())


@pytest.mark.parametrize("name", ["sixth_fleet", "sixth_fleet_dtp"])
def test_options_at_set_up_lists_only_placements(name: str, tmp_path: Path) -> None:
    """`options` at set-up listed 42 `move` paths for US-CV-1, whose place is fixed and when
    `move` is not a set-up order; now the `place` lines the unit's pool allows, ready to paste,
    and `--png` is cropped to them."""
    state = tmp_path / "state.json"
    cli("state", "new", "--example", name, "--scenario", "short", "-o", str(state))
    code, out = cli("options", "US-CV-1", "--state", str(state))
    assert code == 0 and "move" not in out and "placed by the scenario at 1602" in out
    code, out = cli("options", "US-CG-1", "--state", str(state))
    places = [x.strip() for x in out.splitlines() if x.strip().startswith("place ")]
    assert places == [f"place US-CG-1 {h}" for h in ("0813", "1121", "1316", "1603", "1710")]
    png = tmp_path / "o.png"
    code, _ = cli("options", "US-CG-1", "--state", str(state), "--png", str(png), "-q")
    from PIL import Image

    with Image.open(png) as img:
        assert code == 0 and img.width < 3000 and img.height < 2000  # not the whole map


def test_naval_unknown_ship_says_so_with_the_nearest_ids(tmp_path: Path) -> None:
    """ "DE-XX-1 is not a naval unit of yours" said neither that no such unit exists nor which
    was meant: the message names what the word is, the hint the nearest of the side's ships."""
    state = tmp_path / "state.json"
    cli(
        "state",
        "new",
        "--example",
        "naval_module",
        "--scenario",
        "kerch_feodosia",
        "-o",
        str(state),
        "--game-id",
        "g",
    )
    orders = tmp_path / "o.txt"
    orders.write_text("game: g\nturn: 1\nside: Axis\n[readiness]\nready RO-DD-RG\n")
    code, out = cli("validate", str(orders), "--state", str(state))
    assert code == 1
    assert "o.txt:5:7: [25.1] no unit 'RO-DD-RG' (hint: did you mean 'RO-DD-RF'?)" in out
