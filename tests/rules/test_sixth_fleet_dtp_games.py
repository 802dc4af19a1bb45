"""Whole DTP games by the seeded random scripted player (``RULESET.scripted_orders``): the Med
under DTP [DTP 11.0], Denmark Strait [DTP 11.3] and Iceland [DTP 11.31], with invariants
checked after every step -- no unit in two places (a hex or a box, never both; each unit in its
own hex's stack only), a ship's or sub's damage never decreasing and a sunk one never back
[DTP 8.54, 8.56], the stacking limits [7.0][9.41], and the score equal to a recount from the
position [DTP 8.57][13.2] -- every file the player writes validates, and the same game id gives
the same game byte for byte."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.stacking import AIR_LIMIT, NAVAL_LIMIT, counts
from referee.rules.sixth_fleet_1975.victory import bonus_holds_13_1, unit_vp_13_0
from referee.rules.sixth_fleet_dtp.victory import level_11_3, level_13_2
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2] / "module_src"


@cache
def module(name: str) -> Module:
    m, diags = load_module(ROOT / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def places(state: GameState) -> list[str]:
    """No unit in two places: a hex or a box, and each unit in its own hex's stack only."""
    bad = []
    seen: dict[str, str] = {}
    for hex_id, stack in state.stacks.items():
        for u in stack:
            if u in seen:
                bad.append(f"{u} is in the stacks of {seen[u]} and {hex_id}")
            seen[u] = hex_id
            if state.units[u].location != hex_id:
                bad.append(f"{u} is stacked in {hex_id} but located at {state.units[u].location}")
    for u, s in state.units.items():
        if s.location is not None and s.box is not None:
            bad.append(f"{u} is both in {s.location} and in the box {s.box}")
        if s.location is not None and seen.get(u) != s.location:
            bad.append(f"{u} is at {s.location} but not in its stack")
    return bad


def stacking(game: Game, state: GameState) -> list[str]:
    """[7.0] three naval units, [9.41] six air units per side per hex."""
    bad = []
    for hex_id in state.stacks:
        for side in game.sides:
            naval, air = counts(game, state, hex_id, side)
            if naval > NAVAL_LIMIT or air > AIR_LIMIT:
                bad.append(f"{side} has {naval} naval and {air} air units in {hex_id}")
    return bad


def recount(game: Game, state: GameState) -> dict[str, Fraction]:
    """[DTP 8.57] counted again from the position: full value for a lost unit or an air unit
    in the recycle box, 1/4 at D1, 1/2 at D2, full at D3 or worse; the convoy one value per
    3 levels [DTP 11.3 rule 7]; only the categories the scenario lets each side score
    [DTP 11.3 victory]; plus each bonus whose recorded fact holds [13.1, DTP 11.3 victory]."""
    share = {0: Fraction(0), 1: Fraction(1, 4), 2: Fraction(1, 2)}
    lost = {x["unit"] for x in state.data.get("losses", ())}
    t = game.module.tables.get("victory_units")
    scores = (
        {k.text: str(t.cells[r][t.column("scores")]).split() for r, k in enumerate(t.row_keys)}
        if t is not None
        else None
    )
    vp = {s: Fraction(0) for s in game.sides}
    for pid, u in state.units.items():
        enemy = next(s for s in game.sides if s != u.side)
        if u.box == "exited":  # left the map for victory: its own side scores it
            vp[u.side] += unit_vp_13_0(game, pid)
            continue
        if scores is not None and game.category(pid) not in scores[enemy]:
            continue
        d = int((state.data.get("damage") or {}).get(pid, 0))
        full = unit_vp_13_0(game, pid)
        if "convoy" in game.unit(pid).flags:
            d = 12 if pid in lost else d
            vp[enemy] += full * (d // 3) + full * share[d % 3]
        elif pid in lost or u.box == "recycle":
            vp[enemy] += full
        else:
            vp[enemy] += full * share.get(d, Fraction(1))
    earned: set[str] = set()
    for b in game.scenario.victory_bonuses:
        w = (state.data.get("watched") or {}).get(b.id) or {}
        holds = {
            "no_unit_entered": "entered" not in w,
            "unit_held": "held" in w,
            "occupied": b.params.get("place") in (state.data.get("ever_occupied") or ()),
            "occupied_at_end": b.params.get("place") in (state.data.get("occupied") or {}),
            "convoy_docked": (state.data.get("docked") or {}).get("port") == b.params.get("port"),
        }.get(b.condition)
        if holds is None:
            holds = bonus_holds_13_1(game, state, b, earned)
        if holds:
            earned.add(b.id)
            vp[b.side] += b.vp
    return vp


def check(game: Game, before: GameState, after: GameState) -> list[str]:
    bad = places(after) + stacking(game, after)
    dmg0 = before.data.get("damage") or {}
    dmg1 = after.data.get("damage") or {}
    for u, d in dmg0.items():
        if game.category(u) in ("surface", "submarine") and int(dmg1.get(u, 0)) < int(d):
            bad.append(f"{u}'s damage went down from D{d} to D{dmg1.get(u, 0)} [DTP 8.56]")
    lost0 = {x["unit"] for x in before.data.get("losses", ())}
    lost1 = {x["unit"] for x in after.data.get("losses", ())}
    if not lost0 <= lost1:
        bad.append(f"lost units came back: {sorted(lost0 - lost1)}")
    used0, used1 = (set(x.data.get("sg_base_attacks") or ()) for x in (before, after))
    if not used0 <= used1:  # one coastal-base attack per SG per game [DTP 11.3 rule 4]
        bad.append(f"SG base attacks given back: {sorted(used0 - used1)}")
    return bad


def play(name: str, scenario: str, game_id: str) -> tuple[GameState, list[str], list[str]]:
    m = module(name)
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, scenario, game_id)
    game = Game.of(m, state)
    kinds: list[str] = []
    texts: list[str] = []
    for k in range(1, 1000):
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        if text is None:
            return state, kinds, texts
        texts.append(text)
        doc = rs.parse_orders(text, f"step-{k}.txt")
        assert not rs.validate(m, state, doc), (k, text, rs.validate(m, state, doc))
        out = rs.resolve(m, state, doc, SeededDice(k))
        assert out.ok, (k, out.violations)
        kinds += [e.kind for e in out.events]
        assert not check(game, state, out.state), (k, text, check(game, state, out.state))
        state = out.state
        score = rs.score(m, state)
        vp = recount(game, state)
        assert score["vp"] == {s: str(v) for s, v in vp.items()}, (k, score, vp)
        net = vp[game.flags.soviet_side] - vp[game.flags.nato_side]
        level = level_11_3 if "victory_levels" in m.tables else level_13_2
        assert Fraction(score["net"]) == net and score["level"] == level(m, net)
    raise AssertionError("the game did not end within 1000 steps")


@cache
def played(name: str, scenario: str, game_id: str) -> tuple[GameState, list[str], list[str]]:
    """:func:`play`'s game, played once for this file (its invariants checked at every step
    as it is played) for the tests that read it; the determinism test plays a second game of
    the same id with :func:`play`, afresh, and compares the two."""
    return play(name, scenario, game_id)


GAMES = [
    ("sixth_fleet_dtp", "short", "med-1"),
    ("dtp_denmark_strait", "denmark_strait", "ds-1"),
    ("dtp_denmark_strait", "denmark_strait", "ds-2"),
    ("dtp_denmark_strait", "iceland", "ic-1"),
]


@pytest.mark.parametrize(("name", "scenario", "game_id"), GAMES)
def test_a_whole_game_keeps_the_invariants(name: str, scenario: str, game_id: str) -> None:
    state, kinds, _ = played(name, scenario, game_id)
    m = module(name)
    assert state.phase == "game-over" and state.turn == m.scenarios[scenario].turns
    assert get_ruleset(m.ruleset).score(m, state)["final"] is True
    # the player did play: it moved, attempted detection and fought [DTP 5.0, 6.2, 8.2]
    for kind in ("move", "detect", "attack", "pass", "readiness"):
        assert kind in kinds, (kind, sorted(set(kinds)))
    if name == "dtp_denmark_strait":  # its Soviet SGs fire on coastal bases [DTP 11.3 rule 4]
        assert "sg-base-attack" in kinds, sorted(set(kinds))


def test_the_same_game_id_gives_the_same_game() -> None:
    a = played("dtp_denmark_strait", "denmark_strait", "ds-1")  # the whole-game test's
    b = play("dtp_denmark_strait", "denmark_strait", "ds-1")  # played again, afresh
    c = played("dtp_denmark_strait", "denmark_strait", "ds-2")
    assert a[2] == b[2] and a[0] == b[0]
    assert a[2] != c[2]


def test_the_scripted_player_is_reached_through_the_registry() -> None:
    from referee.engine.scripted import orders_for

    m = module("sixth_fleet_dtp")
    state = get_ruleset(m.ruleset).new_game(m, "short", "reg")
    text = orders_for(m, state)
    assert text is not None and "[setup]" in text and "side: NATO" in text


def test_the_rebasing_phase_names_a_side_so_a_pbem_game_goes_on() -> None:
    """Both players file in phase 6 [DTP 9.22]; the position names the first still owed as
    its active side after each file -- a position with no active side is a finished game to
    the play-by-email layer, which refused the next file as 'game over'."""
    from referee.pbem.record import game_over

    m = module("dtp_denmark_strait")
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, "denmark_strait", "rb-1")
    seen = 0
    for k in range(1, 60):
        if state.phase == "rebasing":
            assert not game_over(state) and state.active_side == rs.due(m, state)[0].side  # type: ignore[attr-defined]
            seen += 1
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        assert text is not None
        state = rs.resolve(m, state, rs.parse_orders(text, "s"), SeededDice(k)).state
    assert seen >= 2  # both players' files of at least one phase 6
