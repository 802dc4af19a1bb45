"""The Westpac score [DTP 11.5121-11.5126] recounted from the position by hand, and the score
table a report prints (``referee.pbem.scoreboard``) agreeing with the events: the awards are
the unloads and awards the events announced, the losses the units they removed or damaged,
the totals add up. ``westpac_recount`` is the independent count the scripted-game test of
``test_sixth_fleet_dtp_westpac.py`` also checks after every step.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.engine.core import Event, GameState
from referee.pbem.scoreboard import scoreboard, shown_value
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_dtp.ruleset import RULESET
from referee.rules.sixth_fleet_dtp.westpac_unloading import unload_11_50922
from tests.conformance.rulesets.dtp_westpac import module, set_up

QUARTERS = {0: Fraction(0), 1: Fraction(1, 4), 2: Fraction(1, 2)}


def _ecm(game: Game, unit: str) -> int:
    return max(int(game.unit(unit).values.get("ECM", 0)), 1)  # 0 ECM = 1 VP [DTP 11.5126]


def _unit_vp(game: Game, unit: str, damage: int, lost: bool) -> Fraction:
    kind = game.unit(unit).type
    if game.category(unit) == "air":
        return Fraction(_ecm(game, unit)) if lost else Fraction(0)
    if kind in ("AK", "TK"):  # ECM '*' = 1 for each three levels, up to D12 [DTP 11.50921]
        d = 12 if lost else min(damage, 12)
        return d // 3 + QUARTERS[d % 3]
    full = (
        Fraction(_ecm(game, unit)) if lost or damage >= 3 else _ecm(game, unit) * QUARTERS[damage]
    )
    return 2 * full if kind in ("LCC", "CCL") else full  # double [DTP 11.5091]


AREAS = ("sea_of_japan", "formosa_strait", "sea_of_okhotsk")  # [DTP 11.5123]


def sea_control(game: Game, state: GameState) -> dict[str, Fraction]:
    """[DTP 11.5123] counted again: 50 to the side with ships or subs in an area (D2 and
    worse left out) where the enemy has none."""
    vp = {s: Fraction(0) for s in game.sides}
    damage = state.data.get("damage") or {}
    for area in AREAS:
        there = {
            u.side
            for pid, u in state.units.items()
            if u.location is not None
            and game.category(pid) in ("surface", "submarine")
            and int(damage.get(pid, 0)) < 2
            and game.module.map.in_area(u.location, area)
        }
        if len(there) == 1:
            vp[there.pop()] += 50
    return vp


def westpac_recount(game: Game, state: GameState) -> dict[str, Fraction]:
    """[DTP 11.5124] counted again: losses, damage, bases, unloads and turn awards; sea
    control only once the game is over [DTP 11.5123]."""
    vp = {s: Fraction(0) for s in game.sides}
    lost = {x["unit"] for x in state.data.get("losses", ()) if x.get("scores", True)}
    damage = state.data.get("damage") or {}
    for pid, u in state.units.items():
        enemy = next(s for s in game.sides if s != u.side)
        gone = pid in lost or u.box == "recycle"
        vp[enemy] += _unit_vp(game, pid, int(damage.get(pid, 0)), gone)
    for hex_id, level in (state.data.get("base_damage") or {}).items():
        base = game.board.airbase(hex_id)
        if base is None or not level:
            continue
        owner = game.module.nationalities[base.nationality].side
        enemy = next(s for s in game.sides if s != owner)
        vp[enemy] += 1 if level >= 3 else QUARTERS[int(level)]  # bare bases: ECM 0 = 1
    awards = {a.id: a.side for a in _awards(game)}
    for x in state.data.get("unloaded") or ():
        vp[awards[x["award"]]] += int(x["vp"])
    for award, turns in (state.data.get("award_turns") or {}).items():
        vp[awards[award]] += int(turns)
    if state.phase == "game-over":
        for side, points in sea_control(game, state).items():
            vp[side] += points
    return vp


def _awards(game: Game) -> list[Any]:
    from referee.rules.sixth_fleet_dtp.westpac_victory import awards_11_5124

    return awards_11_5124(game.module)


def agrees(
    game: Game, state: GameState, events: list[Event], given: frozenset[str] = frozenset()
) -> list[str]:
    """What the report's score table says that the events and the position do not (``given``:
    units and bases a test damaged by hand, with no event)."""
    score = RULESET.score(game.module, state)
    board = scoreboard(game.module, score, "westpac")
    bad: list[str] = []
    for s in board["sides"]:
        if shown_value(s["units"]) + s["bonus"] != shown_value(s["total"]):
            bad.append(f"{s['name']}: units + awards != total")
    recount = westpac_recount(game, state)
    if score["vp"] != {s: str(v) for s, v in recount.items()}:
        bad.append(f"score {score['vp']} != recount {recount}")
    told = {str(e.data.get("unit")) for e in events} | {
        f"base {e.data.get('hex')}" for e in events if e.data.get("hex")
    }
    for row in board["losses"]:
        if row["unit"] not in told | given:
            bad.append(f"{row['unit']} in the table without an event")
    by_award: dict[str, int] = {}
    for e in events:
        if e.kind in ("unload", "award"):
            by_award[e.data["award"]] = by_award.get(e.data["award"], 0) + int(e.data["vp"])
    for b in board["bonuses"]:
        if b["vp"] != by_award.get(b["id"], 0):
            bad.append(f"award {b['id']}: table {b['vp']}, events {by_award.get(b['id'], 0)}")
    return bad


def test_the_table_of_a_few_docked_convoys_and_landings_agrees_with_the_events() -> None:
    m = module()
    state = set_up().evolve(turn=4)
    game = Game.of(m, state)
    for u, h in {"US-AK-50": "2646", "US-AK-51": "2646", "JA-TK-129": "3346"}.items():
        state = move_piece(game, state, u, h)
    state = state.with_data(damage={"JA-TK-129": 7, "US-LCC-26": 1}, base_damage={"2444": 2})
    events: list[Event] = []
    state = unload_11_50922(game, state, "SEATO", events)
    assert [e.data["vp"] for e in events if e.kind == "unload"] == [
        5,
        20,
        0,
    ]  # in unit order: TK, AK, AK
    assert not agrees(game, state, events, frozenset({"US-LCC-26", "JA-TK-129", "base 2444"}))
    # the table: SEATO 25 in awards; East Block 2 + 1/4 (TK at D7), 5/2 (LCC D1 doubled), 1/2
    vp = RULESET.score(m, state)["vp"]
    assert vp == {"EastBlock": "21/4", "SEATO": "25"}


def test_every_westpac_convoy_loses_one_mp_from_d2() -> None:
    """[DTP 11.50921] "From D2 onwards, speed is reduced by 1 mp": the 'convoy' flag's D2 speed
    (the Denmark Strait convoy's 2 MP) is MA - 1 for each AK and TK of the manifest, and no
    damage level below D12 sinks them."""
    from referee.rules.sixth_fleet_dtp.denmark_strait import allowance_11_3_7, sunk_at_11_3_7

    convoys = [u for u in module().units if u.type in ("AK", "TK")]
    assert len(convoys) == 12  # SEATO AK #50-#53, TK #129-#131; East Block AK #78-#82
    for u in convoys:
        ma = int(u.values["MA"])
        assert allowance_11_3_7(u.flags, ma, 1) == ma, u.id
        assert allowance_11_3_7(u.flags, ma, 2) == ma - 1, u.id
        assert allowance_11_3_7(u.flags, ma, 11) == ma - 1, u.id
        assert sunk_at_11_3_7(u.flags) == 12, u.id
