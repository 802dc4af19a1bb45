"""The scripted player: plain, lawful USN orders for each step (benchmarks, property tests,
the demo). It sails the mission's route to the Objective, in lane [12.5] when it can,
strikes a revealed or face-down SBG within its aircraft's range, and bombards coastal
defense units at the Objective."""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.graphboard import PointBoard
from referee.rules.carrier_battlegroup import cargo, movement, movement_phase, outfit
from referee.rules.carrier_battlegroup.escorts import AEGIS_LIMIT
from referee.rules.carrier_battlegroup.facts import facts_of
from referee.rules.carrier_battlegroup.setup import CARRIER
from referee.source.model import Module

SHOPPING = ("US-F14", "US-A6", "US-FA18", "US-S3", "US-EA6B", "US-KA6D", "US-CREW-DC", "US-TASM")


def _q(space: str) -> str:
    return f'"{space}"' if " " in space else space


def scripted_orders(module: Module, state: GameState) -> str | None:
    if state.active_side is None:
        return None
    head = f"game: {state.game_id}\nturn: {state.turn}\nside: USN\n"
    if state.phase == "setup":
        return head + "\n[setup]\nbegin\n"
    if state.phase == "outfit":
        return head + _outfit(module, state)
    return head + _turn(module, state)


def _outfit(module: Module, state: GameState) -> str:
    want = dict(facts_of(state).escort_classes)
    picks: list[str] = []
    aegis = 0
    for pid in module.pieces():
        k, t = outfit.class_of(module, pid)
        if k is None or want.get(k, 0) <= 0:
            continue
        if t == "CG Aegis":
            if aegis >= AEGIS_LIMIT:
                continue
            aegis += 1
        picks.append(pid)
        want[k] -= 1
    lp = (
        facts_of(state).lp - 2 * cargo.price(module, "fuel") - 2 * cargo.price(module, "ammunition")
    )
    room = sum(cargo.capacity_of(module, s) for s in [CARRIER, *picks])
    buys: list[str] = []
    aircraft = 0
    for pid in module.pieces():
        if not pid.startswith(SHOPPING):
            continue
        item = cargo.item_of(module, pid)
        if item is None:
            continue
        cost = cargo.price(module, item)
        if cost > lp:
            continue
        if item == "carrier_aircraft":
            if aircraft >= facts_of(state).carrier["Hangar"]:
                continue
            aircraft += 1
        if item == "cruise_missile":
            if room <= 0:
                continue
            room -= 1
        lp -= cost
        buys.append(pid)
    text = "\n[outfit]\nescort " + " ".join(picks) + "\nbuy 2 fuel\nbuy 2 ammunition\n"
    if buys:
        text += "buy " + " ".join(buys) + "\n"
    return text


def _turn(module: Module, state: GameState) -> str:
    board = PointBoard(module.map)
    here = facts_of(state).cvbg["space"]
    goal = facts_of(state).mission["objective"]
    lines = ["", "[standing]", "breakoff no"]
    lanes = facts_of(state).mission.get("lanes", [])
    route = (
        movement.lane_path_12_5(board, here, goal, lanes) or board.path(here, goal) or [here]
    )  # in lane when it can be [12.5]
    sbg = {g["space"] for g in facts_of(state).sbgs.values()}
    allow = movement_phase.allowance(module, state, spend_fuel=False)
    path: list[str] = []
    for s in route[1 : 1 + allow]:
        path.append(s)
        if board.terrain(s) in ("chokepoint", "nato_base", "objective", "soviet_base") or s in sbg:
            break
    body: list[str] = []
    if path:
        body += ["[movement]", "move " + " ".join(_q(s) for s in path)]
    strike = _strike(module, state, board)
    if strike:
        body += ["[launch]", strike]
    if here == goal and facts_of(state).coastal["units"]:
        body += ["[objective]", "bombard"]
    return "\n".join(["", *body, *lines]) + "\n"


def _strike(module: Module, state: GameState, board: PointBoard) -> str | None:
    here = facts_of(state).cvbg["space"]
    attackers = sorted(
        p
        for p, w in facts_of(state).air.items()
        if w == "hangar" and module.piece(p).unit.values["AS"] > 0
    )
    deck = facts_of(state).carrier["Flight Deck"]
    attackers = attackers[:deck]
    if not attackers:
        return None
    rng = min(module.piece(p).unit.values["SPD"] for p in attackers)
    for _name, g in sorted(facts_of(state).sbgs.items()):
        if g["space"] != here and board.distance(here, g["space"]) <= rng:
            return "strike " + " ".join(attackers) + " -> " + _q(g["space"])
    return None
