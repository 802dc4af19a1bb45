"""Victory [13.0]-[13.2]: victory points for destroyed units, bonuses, level of victory.

Each side scores the ECM of every enemy unit destroyed, at least the scenario's minimum (1)
[13.0]; units grounded under [9.15] give nothing [13.0]. The Soviet player adds his bonuses
(the scenario's ``[[victory.bonus]]`` data [13.11]-[13.13]) and loses 10 if he violated
neutral air space [14.2]. The net total is read on the Level of Victory table [13.2].
"""

from __future__ import annotations

from collections import deque
from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import facts_of
from referee.rules.sixth_fleet_1975.zoc import exerts_zoc_into_6_21
from referee.source.model import Module, UnitDef, VictoryBonus
from referee.source.schema import LossScore


def unit_vp_13_0(game: Game, unit: str) -> int:
    key = game.scenario.unit_vp or "ECM"
    return max(game.value(unit, key), game.scenario.unit_vp_minimum)


def loss_score_13_0(module: Module, unit: UnitDef) -> LossScore | None:
    """What destroying ``unit`` scores its enemy at once [13.0]: its ECM (the scenarios'
    ``unit_vp`` value), at least their minimum, on the enemy's ``VP_<side>``. None where the
    module's scenarios score units differently (the module has one counter for all of them)
    or the unit has no enemy side. A unit grounded under [9.15] scores nothing: it is removed
    by Delete, not eliminated [13.0]."""
    rules = {(s.unit_vp or "ECM", s.unit_vp_minimum) for s in module.scenarios.values()}
    enemies = [s.id for s in module.sides if s.id != unit.side]
    if len(rules) != 1 or len(enemies) != 1 or unit.side not in {s.id for s in module.sides}:
        return None
    ((key, minimum),) = rules
    value = unit.values.get(key, 0)
    if not isinstance(value, int):
        return None
    return LossScore(f"VP_{enemies[0]}", max(value, minimum), "13.0")


def _enemy_units_in_area(game: Game, state: GameState, area: str, side: str, naval: bool) -> bool:
    for h in game.board.locations_in_area(area):
        for u in state.stacks.get(h, ()):
            if state.units[u].side != side and (not naval or game.is_naval(u)):
                return True
    return False


def coast_13_12(game: Game, bonus: VictoryBonus) -> list[str]:
    """The coastal hexes of the country a [13.12] bonus names: where the line of
    communications starts (each must itself pass the control test)."""
    country = str(bonus.params.get("country", game.flags.israel_country))
    return [
        h
        for h in game.board.locations()
        if game.board.terrain(h) == "coastal"
        and (game.board.country(h) == country or country in (game.country_name(h) or ""))
    ]


def cut_off_13_12(game: Game, state: GameState, bonus: VictoryBonus) -> bool:
    """[13.12]: the other side cannot trace a path of sea and coastal hexes from any coastal
    hex of the named country to the named map edge, avoiding hexes occupied by ``bonus.side``,
    hexes it controls unless a naval unit of the tracing side is there, its undestroyed
    Defended hexes and Prohibited hexes (digest §16.7: a separate LOC from [12.21])."""
    p = bonus.params
    tracer = game.enemy_of(bonus.side)
    edge = str(p.get("edge", "west"))
    sea = {"high_seas", "restricted", "coastal"} | set(p.get("terrain", ()))

    def ok(h: str) -> bool:
        if game.board.terrain(h) not in sea:
            return False
        here = state.stacks.get(h, ())
        if any(state.units[u].side == bonus.side for u in here):
            return False
        if game.enemy_defended(state, h, tracer):
            return False
        controlled = any(
            state.units[e].side == bonus.side and exerts_zoc_into_6_21(game, state, e, h)
            for n in game.board.neighbours(h)
            for e in state.stacks.get(n, ())
        )
        return not controlled or any(
            state.units[u].side == tracer and game.is_naval(u) for u in here
        )

    starts = coast_13_12(game, bonus)
    if not starts:
        return False  # no such coast on this map: the condition cannot be met
    goal = set(game.board.edge_hexes(edge))
    todo = deque(h for h in starts if ok(h))
    seen = set(todo)
    while todo:
        h = todo.popleft()
        if h in goal:
            return False
        for n in game.board.neighbours(h):
            if n not in seen and ok(n):
                seen.add(n)
                todo.append(n)
    return True


def bonus_holds_13_1(game: Game, state: GameState, bonus: VictoryBonus, earned: set[str]) -> bool:
    p = bonus.params
    if p.get("requires") and str(p["requires"]) not in earned:
        return False
    if bonus.condition == "no_enemy_in_area":
        return not _enemy_units_in_area(game, state, str(p.get("area")), bonus.side, False)
    if bonus.condition == "no_enemy_naval_in_area":
        return not _enemy_units_in_area(game, state, str(p.get("area")), bonus.side, True)
    if bonus.condition == "israel_cut_off":
        return cut_off_13_12(game, state, bonus)
    return False


def score_13_0(game: Game, state: GameState) -> dict[str, Any]:
    vp = {s: 0 for s in game.sides}
    destroyed: dict[str, list[dict[str, Any]]] = {s: [] for s in game.sides}
    for loss in facts_of(state).losses or ():
        unit, side = loss["unit"], loss["side"]
        worth = unit_vp_13_0(game, unit) if loss.get("scores", True) else 0
        winner = game.enemy_of(side)
        vp[winner] += worth
        destroyed[winner].append({"unit": unit, "vp": worth, "rule": loss.get("rule", "")})
    earned: set[str] = set()
    bonuses: list[dict[str, Any]] = []
    for b in game.scenario.victory_bonuses:
        holds = bonus_holds_13_1(game, state, b, earned)
        if holds:
            earned.add(b.id)
        bonuses.append(
            {
                "id": b.id,
                "side": b.side,
                "vp": b.vp if holds else 0,
                "holds": holds,
                "rule": b.rule or "13.1",
            }
        )
    soviet, nato = game.flags.soviet_side, game.flags.nato_side
    bonus_total = {s: sum(b["vp"] for b in bonuses if b["side"] == s) for s in game.sides}
    penalty = game.flags.neutral_airspace_vp if facts_of(state).neutral_airspace else 0
    net = (
        vp.get(soviet, 0)
        - vp.get(nato, 0)
        + bonus_total.get(soviet, 0)
        - bonus_total.get(nato, 0)
        + penalty
    )
    return {
        "rule": "13.0",
        "vp": vp,
        "destroyed": destroyed,
        "bonuses": bonuses,
        "neutral_airspace_penalty": penalty,
        "net": net,
        "level": game.module.tables.level_of_victory(net),
        "final": state.phase == "game-over",
    }
