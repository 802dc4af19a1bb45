"""The DTP movement options judged from the position's facts counted once (issue 26) list
exactly what the phase's whole check accepts: on positions of scripted games (the Med under
DTP, Denmark Strait with its off-map Murmansk, Westpac with its command ships in port, PRC
units and 60 x 73 map) and on a Westpac position made over the limit [DTP 11.5063], every
unit's moves equal those of the old search, kept here as it was: each path checked whole
(``check_path_5_0``) and each hex it reaches kept only when ``flow.check`` accepts the lone
``move`` line parsed from its text (``scripted.orders_ok``) [5.0][7.21][9.41][DTP 11.5063,
11.5081, 11.5091]."""

from __future__ import annotations

import heapq
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from referee.engine.core import GameState, SeededDice, Violation
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import entry_cost_5_12, start_hex
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_dtp import flow, special_bases
from referee.rules.sixth_fleet_dtp.movement_phase import LoneMove
from referee.rules.sixth_fleet_dtp.options import ATTACK_RADIUS, PASSABLE, attacks_8_2, moves_5_0
from referee.rules.sixth_fleet_dtp.path import check_path_5_0
from referee.rules.sixth_fleet_dtp.scripted import orders_ok
from referee.rules.sixth_fleet_dtp.westpac_overstack import KEY as OVER_LIMIT
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[2] / "module_src"
SHIPS = ("surface", "submarine")


@cache
def module(name: str) -> Module:
    m, diags = load_module(ROOT / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def whole_check_moves(game: Game, state: GameState, side: str, unit: str) -> list[dict[str, Any]]:
    """The options' search as it was before issue 26's speed-up: every path checked whole,
    every reached hex judged by the phase's whole check of the parsed ``move`` line."""
    start, mp0, first = start_hex(game, state, unit), 0, ()
    entry = special_bases.entry_11_3_2(game, state.units[unit].box) if start is None else None
    if entry is not None:
        start, mp0 = entry
        first = (start,)
    if start is None:
        return []
    damage = int((state.data.get("damage") or {}).get(unit, 0))
    best: dict[str, int] = {start: mp0}
    heap: list[tuple[int, str, tuple[str, ...]]] = [(mp0, start, first)]
    found: dict[str, dict[str, Any]] = {}
    while heap:
        mp, here, path = heapq.heappop(heap)
        if mp > best.get(here, mp):
            continue
        if path and here not in found:
            line = f"move {unit} {' '.join(path)}"
            if orders_ok(game, state, side, [line]):
                found[here] = {"hex": here, "mp": mp, "path": list(path), "order": line}
        for to in sorted(game.board.neighbours(here)):
            cost = entry_cost_5_12(game, state, unit, to)
            if cost is None or to in path or to == start:
                continue
            step = (*path, to)
            probs = check_path_5_0(game, state, unit, step, damage)
            if any(p.code not in PASSABLE for p in probs):
                continue
            if mp + cost < best.get(to, 1 << 30):
                best[to] = mp + cost
                heapq.heappush(heap, (mp + cost, to, step))
    return sorted(found.values(), key=lambda m: (m["mp"], m["hex"]))


@cache
def positions(name: str, scenario: str, game_id: str, turn: int) -> dict[str, GameState]:
    """The scripted game's position as each movement phase of Game-Turn ``turn`` begins."""
    m = module(name)
    rs = get_ruleset(m.ruleset)
    state = rs.new_game(m, scenario, game_id)
    found: dict[str, GameState] = {}
    for k in range(1, 400):
        if state.turn == turn and ("movement" in state.phase or state.phase == "combat"):
            found.setdefault(state.phase, state)
        if state.turn > turn:
            break
        text = rs.scripted_orders(m, state)  # type: ignore[attr-defined]
        if text is None:
            break
        out = rs.resolve(m, state, rs.parse_orders(text, f"step-{k}.txt"), SeededDice(k))
        assert out.ok, (k, out.violations)
        state = out.state
    return found


def movers(game: Game, state: GameState) -> tuple[str, list[str]]:
    """The awaited side and its units that move in this phase."""
    side = flow.due_sides(game, state)[0]
    kinds = SHIPS if state.phase.startswith("ship") else ("air",)
    return side, sorted(
        u for u, s in state.units.items() if s.side == side and game.category(u) in kinds
    )


def compare(m: Module, state: GameState, every: int) -> int:
    """Every ``every``-th mover's moves by both searches, equal; the number of moves."""
    game = Game.of(m, state)
    side, units = movers(game, state)
    assert side and units, state.phase
    n = 0
    for u in units[::every]:
        fast = moves_5_0(game, state, side, u)
        assert fast == whole_check_moves(game, state, side, u), (state.phase, u)
        n += len(fast)
    return n


def all_candidate_attacks(
    game: Game, state: GameState, side: str, unit: str
) -> list[dict[str, Any]]:
    """The impulse's attacks as the options listed them before issue 26's speed-up: every
    enemy unit and base within :data:`ATTACK_RADIUS` tried by the impulse's whole check."""
    here = state.units[unit].location
    if here is None or state.data.get("strike"):
        return []
    verb = "strike" if game.category(unit) == "air" else "attack"
    out = []
    for t, ts in sorted(state.units.items()):
        if ts.side == side or ts.location is None:
            continue
        d = game.board.distance(here, ts.location)
        if d > ATTACK_RADIUS:
            continue
        forms = [f"{verb} {unit} -> {t}"]
        if verb == "attack":
            forms.append(f"attack {unit} -> {t} first-strike")
        for line in forms:
            if orders_ok(game, state, side, [line]):
                out.append({"target": t, "hex": ts.location, "distance": d, "order": line})
    for h in game.board.within(here, ATTACK_RADIUS):
        if game.board.airbase(h) is None and game.board.defended(h) is None:
            continue
        line = f"{verb} {unit} -> hex:{h}"
        if orders_ok(game, state, side, [line]):
            d = game.board.distance(here, h)
            out.append({"target": f"hex:{h}", "hex": h, "distance": d, "order": line})
    return out


def compare_attacks(m: Module, state: GameState) -> int:
    """Every unit's attacks of the impulse by both ways, equal; the number of attacks."""
    game = Game.of(m, state)
    side = flow.due_sides(game, state)[0]
    n = 0
    for u in sorted(u for u, s in state.units.items() if s.side == side):
        fast = attacks_8_2(game, state, side, u)
        assert fast == all_candidate_attacks(game, state, side, u), u
        n += len(fast)
    return n


@pytest.mark.parametrize(
    ("name", "scenario", "game_id", "turn"),
    [
        ("sixth_fleet_dtp", "short", "cost-med", 1),
        ("dtp_denmark_strait", "denmark_strait", "cost-ds", 2),
        ("dtp_denmark_strait", "iceland", "cost-ic", 1),
    ],
)
def test_the_moves_are_what_the_whole_check_accepts(
    name: str, scenario: str, game_id: str, turn: int
) -> None:
    kept = positions(name, scenario, game_id, turn)
    assert {"ship_movement_a", "ship_movement_b", "air_movement_a", "air_movement_b"} <= set(kept)
    m = module(name)
    for phase, state in sorted(kept.items()):  # a sample of the air units: the whole check
        if phase != "combat":
            assert compare(m, state, every=1 if phase.startswith("ship") else 4) > 0, phase


@pytest.mark.parametrize(
    ("name", "scenario", "game_id", "turn"),
    [
        ("sixth_fleet_dtp", "short", "cost-med", 1),
        pytest.param("dtp_westpac", "westpac", "cost-wp", 1, marks=pytest.mark.slow),
    ],
)
def test_the_attacks_are_what_the_whole_check_accepts(
    name: str, scenario: str, game_id: str, turn: int
) -> None:
    """Attacks and strikes on units and bases beyond reach [8.1] are not tried; what is
    listed is what the impulse's whole check accepts of every candidate within 12 hexes."""
    state = positions(name, scenario, game_id, turn)["combat"]
    assert compare_attacks(module(name), state) > 0


@pytest.mark.slow
def test_westpac_moves_are_what_the_whole_check_accepts() -> None:
    """Westpac's first Game-Turn: command ships in port [DTP 11.5091], PRC units beside other
    East Block units [DTP 11.5081], airbases full; a sample of the air units (the whole check
    costs about a millisecond a candidate on this map)."""
    m = module("dtp_westpac")
    kept = positions("dtp_westpac", "westpac", "cost-wp", 1)
    assert {"ship_movement_a", "ship_movement_b", "air_movement_a", "air_movement_b"} <= set(kept)
    for phase, state in sorted(kept.items()):
        if phase != "combat":
            assert compare(m, state, every=1 if phase.startswith("ship") else 6) > 0, phase


@pytest.mark.slow
def test_a_hex_over_the_limit_since_reinforcement_refuses_every_move_that_keeps_it() -> None:
    """A recorded hex over the naval limit [DTP 11.5063]: a lone move is accepted only when
    it takes a naval unit out of that hex; both searches agree, and some moves are refused
    and some kept."""
    m = module("dtp_westpac")
    state = positions("dtp_westpac", "westpac", "cost-wp", 1)["ship_movement_a"]
    game = Game.of(m, state)
    side, units = movers(game, state)
    at_sea = [u for u in units if state.units[u].location and game.category(u) == "surface"]
    hub = state.units[at_sea[0]].location or ""
    for u in at_sea[1:4]:
        state = move_piece(game, state, u, hub)
    state = state.with_data(**{OVER_LIMIT: {side: [hub]}})
    here = [u for u in at_sea if state.units[u].location == hub]
    assert len(here) >= 4
    kept_moves = 0
    for u in [*here[:2], *[x for x in units if x not in here][:3]]:
        fast = moves_5_0(game, state, side, u)
        assert fast == whole_check_moves(game, state, side, u), u
        if u not in here:
            assert fast == [], u  # the hex stays over the limit
        kept_moves += len(fast)
    assert kept_moves > 0


def test_a_move_with_only_warnings_is_judged_by_walking_the_file() -> None:
    """A lone move whose own checks give warnings only (none do today) is not carried out by
    the walk, so ``LoneMove`` asks the whole check rather than its facts: the same verdict
    as ``validate``'s for every move the search lists."""
    m = module("dtp_denmark_strait")
    state = positions("dtp_denmark_strait", "denmark_strait", "cost-ds", 2)["ship_movement_a"]
    game = Game.of(m, state)
    side, units = movers(game, state)
    judge = LoneMove.of(game, state, side, "ship")
    note = Violation("5.0", "a note", severity="warning")
    tried = 0
    for u in units[:3]:
        for mv in moves_5_0(game, state, side, u)[:5]:
            assert judge.accepts(u, mv["path"], [note]) is orders_ok(
                game, state, side, [mv["order"]]
            )
            tried += 1
    assert tried > 0
