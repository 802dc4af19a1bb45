"""How to win [4.0]: the sudden-death conditions, checked the instant they hold [4.1], [4.2],
and victory points at the end of the game [4.3], [4.3.1], [4.4].

The VP chart is not in the seed: the module's ``vp`` table holds estimates; what scores is the
rule's.
"""

from __future__ import annotations

from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_2019.control import base_owner, controller
from referee.rules.sixth_fleet_2019.facts import facts_of
from referee.rules.sixth_fleet_2019.game import (
    ELIMINATED,
    KEY_ZONES,
    NATO,
    REFIT,
    SIDES,
    SOVIET,
    Game,
    on_map,
    other,
)
from referee.source.model import Module, UnitDef
from referee.source.schema import LossScore

NATO_CAPITAL = ("CV", "CVN", "CVH", "BBG")  # carriers [2.12] and BBG [4.1], [4.2]
# [4.2] "carrier/RKR/SSGN/SSN": the TARKR is read as a (heavy) RKR and the SSN-A (Alfa) as an
# SSN (docs/interpretations.md, 4.2)
SOVIET_CAPITAL = ("CV", "CVN", "CVH", "RKR", "TARKR", "SSGN", "SSN", "SSN-A")


def _count(game: Game, state: GameState, side: str, types: tuple[str, ...]) -> int:
    return sum(
        1
        for uid, u in state.units.items()
        if u.side == side and game.unit(uid).type in types and on_map(game, state, uid)
    )


def sudden_death_4_1_4_2(game: Game, state: GameState) -> tuple[str, str, str] | None:
    """(winner, rule, why) when a sudden-death victory holds now."""
    keys = {z: controller(state, z) for z in KEY_ZONES}
    if all(c == SOVIET for c in keys.values()) and _count(game, state, NATO, NATO_CAPITAL) == 0:
        return (
            SOVIET,
            "4.1",
            "no NATO carrier or BBG is on the map and the Soviets control Istanbul, Cyprus, "
            "Crete and Malta",
        )
    if (
        all(c == NATO for c in keys.values())
        and _count(game, state, SOVIET, SOVIET_CAPITAL) == 0
        and _count(game, state, NATO, NATO_CAPITAL) >= 2
    ):
        return (
            NATO,
            "4.2",
            "no Soviet carrier, RKR, SSGN or SSN is on the map, NATO has two or more "
            "carriers and/or BBGs, and NATO controls Istanbul, Cyprus, Crete and Malta",
        )
    return None


def _vp(game: Game, item: str) -> int:
    return int(game.module.tables["vp"].lookup(row=item, col="vp").value)


def unit_item(game: Game, uid: str) -> str:
    return item_of(game.unit(uid))


def item_of(u: UnitDef) -> str:
    """The VP chart's row of an eliminated unit [4.3] ("" for a unit that scores nothing)."""
    if u.type in ("CV", "CVN", "CVH", "BBG", "TARKR"):
        return "capital_ship"
    return {"surface": "surface", "submarine": "submarine", "air": "air", "ground": "ground"}.get(
        u.category, ""
    )


def unit_vp(game: Game, uid: str) -> int:
    """What an enemy unit in the Refit or Permanently Eliminated Box scores [4.3]."""
    return _vp(game, unit_item(game, uid))


def loss_score_4_3(module: Module, unit: UnitDef) -> LossScore | None:
    """What an enemy unit put in the Refit or Permanently Eliminated Box scores [4.3], on the
    other side's ``VP_<side>``; None for a neutral or a marker. (A unit that refits stops
    scoring [4.3]: the player takes it off with the track's -1, the referee's save sets it.)"""
    item = item_of(unit)
    if unit.side not in SIDES or not item:
        return None
    vp = int(module.tables["vp"].lookup(row=item, col="vp").value)
    return LossScore(f"VP_{other(unit.side)}", vp, "4.3")


def victory_points_4_3(game: Game, state: GameState) -> dict[str, Any]:
    """Each side's VP: key zones controlled, eliminated enemy units in the Refit and
    Permanently Eliminated Boxes, destroyed enemy bases -- a base both destroyed and controlled
    by the scorer scores for control only [4.3.1]."""
    out: dict[str, Any] = {}
    for side in SIDES:
        zones = [z for z in KEY_ZONES if controller(state, z) == side]
        units = sorted(
            uid
            for uid, u in state.units.items()
            if u.side == other(side) and u.location in (REFIT, ELIMINATED) and unit_item(game, uid)
        )
        bases = [
            z
            for z in facts_of(state).destroyed_bases
            if base_owner(game, state, z) == other(side) and controller(state, z) != side
        ]
        vp = (
            len(zones) * _vp(game, "key_zone")
            + sum(unit_vp(game, u) for u in units)
            + len(bases) * _vp(game, "base")
        )
        out[side] = {"vp": vp, "key_zones": zones, "units": units, "bases": bases}
    return out


def level_4_4(game: Game, vp: dict[str, Any]) -> dict[str, Any]:
    a, b = vp[SOVIET]["vp"], vp[NATO]["vp"]
    margin = abs(a - b)
    level = "Draw"
    for lv in game.module.tables.victory:
        if lv.matches(margin):
            level = lv.result
    leader = None if a == b else (SOVIET if a > b else NATO)
    if level == "Draw":
        leader = None
    return {"margin": margin, "level": level, "leader": leader, "rule": "4.4"}
