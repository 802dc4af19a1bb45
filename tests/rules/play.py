"""A random but legal player, for property tests and benchmarks.

Every order it writes comes from the rules' own answers (``reachable``, the attack analysis,
the retreat options), and every file is checked by ``validate`` before it is sent, so a game
it plays is a stream of legal orders; the tests then check the position after every step.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.engine.core import GameState, SeededDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import airbase_usable_9_16, is_based_9_22
from referee.rules.sixth_fleet_1975.attack_advanced import followup_8_5_4
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.mandatory import (
    best_attacks_from,
    must_retreat_8_24,
    obligated_hexes_8_21,
)
from referee.rules.sixth_fleet_1975.movement import reachable
from referee.rules.sixth_fleet_1975.reinforcement import due_12_2, entry_hexes_12_2
from referee.rules.sixth_fleet_1975.retreat import displacement_hexes_8_71, retreat_hexes_8_71
from referee.rules.sixth_fleet_1975.setup import setup_pools
from referee.rules.sixth_fleet_1975.stacking import counts
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.model import Module


def header(state: GameState, side: str) -> str:
    return f"game: {state.game_id}\nturn: {state.turn}\nside: {side}\n"


def setup_orders(game: Game, state: GameState, side: str) -> list[str]:
    """A legal set-up: choices first hex; pools spread round-robin over their hexes."""
    lines: list[str] = []
    todo = {u.id for u in state.units.values() if u.side == side and u.box == "unplaced"}
    used: Counter[str] = Counter()
    for c in game.scenario.choices:
        if c.unit in todo:
            lines.append(f"place {c.unit} {c.hexes[0]}")
            todo.discard(c.unit)
    for pool in setup_pools(game, state):
        units = [u for u in pool.units if u in todo]
        if not units:
            continue
        if pool.where == "carrier":
            lines += [f"place {u} cap {pool.carrier}" for u in units]
            continue
        hexes = list(pool.hexes)
        cap = pool.per_hex_max or 99
        naval_cap = 3
        for i, u in enumerate(units):
            for k in range(len(hexes)):
                h = hexes[(i + k) % len(hexes)]
                here = used[(h, pool.side, game.is_air(u))]
                limit = 6 if game.is_air(u) else naval_cap
                if (
                    here < min(cap, limit)
                    and game.board.entry_cost(h, game.category(u)) is not None
                ):
                    used[(h, pool.side, game.is_air(u))] += 1
                    lines.append(f"place {u} {h}")
                    break
    return lines


def movement_orders(game: Game, state: GameState, side: str, rng: random.Random) -> list[str]:
    lines: list[str] = []
    naval: Counter[str] = Counter()
    air: Counter[str] = Counter()
    for h in state.stacks:
        n, a = counts(game, state, h, side)
        naval[h], air[h] = n, a
    units = sorted(u.id for u in state.units.values() if u.side == side and u.location is not None)
    rng.shuffle(units)
    for u in units:
        returning = "returning" in state.units[u].status
        if not returning and rng.random() < 0.4:
            continue
        reach = reachable(game, state, u)
        here = state.units[u].location
        cands = [r for h, r in sorted(reach.items()) if r.may_end and h != here]
        if game.is_air(u) and (returning or not is_based_9_22(game, state, u)):
            bases = [r for r in cands if airbase_usable_9_16(game, state, u, r.hex)]
            cands = bases or cands
        box = air if game.is_air(u) else naval
        limit = 6 if game.is_air(u) else 3
        cands = [r for r in cands if box[r.hex] < limit]
        if not cands:
            continue
        r = rng.choice(cands)
        box[here] -= 1
        box[r.hex] += 1
        lines.append(f"move {u} {' '.join(r.path[1:])}")
    return lines


def combat_orders(game: Game, state: GameState, side: str, rng: random.Random) -> list[str]:
    lines: list[str] = []
    used: set[str] = set()
    obligated = obligated_hexes_8_21(game, state, side)
    further = bool(followup_8_5_4(state))  # the 8.24 retreats were made already [8.5.4]
    for h in sorted(state.stacks):
        if not any(state.units[u].side == side for u in state.stacks[h]):
            continue
        best = [b for b in best_attacks_from(game, state, side, h) if not set(b.attackers) & used]
        if best and (h in obligated or rng.random() < 0.5):
            b = best[0]
            lines.append(f"attack {' '.join(b.attackers)} -> {' '.join(b.targets)}")
            used.update(b.attackers)
        elif h in obligated and not best and not further:
            for u in must_retreat_8_24(game, state, side, h):
                opts = retreat_hexes_8_71(game, state, u) or displacement_hexes_8_71(game, state, u)
                if len(opts) > 1:
                    lines.append(f"retreat {u} -> {opts[0]}")
    return lines


def reinforcement_orders(game: Game, state: GameState, side: str) -> list[str]:
    from referee.rules.sixth_fleet_1975.position import move_piece

    lines: list[str] = []
    due = due_12_2(game, state, side)
    due.sort(key=lambda ur: game.unit(ur[0]).type != "CV")  # carriers first
    for u, r in due:
        if game.unit(u).has("carrier") and r.entry == "edge_adjacent":
            cvs = [
                x
                for x, _ in due
                if game.unit(x).type == "CV"
                and game.unit(x).nationality == game.unit(u).nationality
                and state.units[x].location is not None
            ]
            if cvs:
                lines.append(f"place {u} cap {cvs[0]}")
                state = move_piece(game, state, u, str(state.units[cvs[0]].location))
                continue
        hexes = entry_hexes_12_2(game, state, u, r)
        if hexes:
            lines.append(f"place {u} {hexes[0]}")
            state = move_piece(game, state, u, hexes[0])
    return lines


def play(
    module: Module,
    scenario: str,
    seed: int,
    steps: int = 400,
    options: tuple[str, ...] = (),
    check: Any = None,
) -> GameState:
    """Play a whole game with legal random orders; ``check(state)`` after every step."""
    rs = get_ruleset(module.ruleset)
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = rs.new_game(module, scenario, "prop", options)
    for _ in range(steps):
        if state.phase == seq.GAME_OVER:
            break
        side, _what = rs.awaiting(module, state)
        game = Game.of(module, state)
        if state.pending:
            pd = state.pending[0]
            text = header(state, pd.side) + f"[answer]\nanswer {pd.id} {rng.choice(pd.options)}\n"
        else:
            if state.phase == seq.SETUP:
                body = setup_orders(game, state, side)
            elif state.phase == seq.MOVEMENT:
                body = movement_orders(game, state, side, rng)
            elif state.phase == seq.COMBAT:
                body = combat_orders(game, state, side, rng)
            else:
                body = reinforcement_orders(game, state, side)
            section = {"setup": "setup", "movement": "movement", "combat": "combat"}.get(
                state.phase, "reinforcement"
            )
            text = header(state, side) + f"[{section}]\n" + "\n".join(body) + "\n"
        doc = parse_orders(text, "random.txt", VOCABULARY)
        out = rs.resolve(module, state, doc, dice)
        assert not out.violations, (text, [str(v) for v in out.violations])
        state = out.state
        if check is not None:
            check(state)
    return state
