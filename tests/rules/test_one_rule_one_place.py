"""The shape of the Sixth Fleet ruleset, pinned: what validate accepts is what the referee
carries out, legality is membership in the generated options, phases are data, and no code
branches on a message's wording or parses a box name by hand.

The property tests play random games with the random legal player of :mod:`tests.rules.play`
and, at every step, also try orders files it did not write (extra advances, paths of random
walks), so the checks see legal and illegal orders alike.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.core import Event, GameState, SeededDice
from referee.engine.orders import parse_orders
from referee.engine.ruleset import get_ruleset
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.movement import check_path_5_0, reachable, start_hex
from referee.rules.sixth_fleet_1975.phases import FLOW, PHASES, TASKS
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.model import Module
from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module
from tests.rules import play as P

RULESET_DIR = Path(__file__).resolve().parents[2] / "referee" / "rules" / "sixth_fleet_1975"
REFEREE_DIR = RULESET_DIR.parents[1]

# events that change the position after the dice: an attack declared legal may then be
# cancelled (its target retreated or was eliminated), never otherwise
RESULTS = {"retreat", "eliminate", "displace", "destroy-defended", "advance", "ground"}


def _validate(module: Module, state: GameState, text: str) -> list[str]:
    doc = parse_orders(text, "o.txt", VOCABULARY)
    return [str(v) for v in get_ruleset(module.ruleset).validate(module, state, doc)]


# ---- validate and resolution agree --------------------------------------------------------


def test_an_advance_resolution_would_refuse_is_refused_by_validate_10_15() -> None:
    """Units in an enemy Defended hex are attacked; an advance into it can never happen (an
    undestroyed enemy Defended hex may not be entered [10.15]), so validate says so rather
    than the referee after the die [8.5]."""
    module = fixture_module("sf75ex")
    case = {
        "turn": 2,
        "phase": "combat",
        "side": "NATO",
        "units": [["SO-DD-1", "1324"], ["US-SN-1", "1423"]],
    }
    state = build_state(module, case)
    head = "game: t\nturn: 2\nside: NATO\n[combat]\nattack US-SN-1 -> SO-DD-1\n"
    assert _validate(module, state, head) == []
    assert _validate(module, state, head + "advance US-SN-1 -> 1324\n") == [
        "o.txt:6:9: [10.15] US-SN-1 may not enter 1324"
    ]


def test_an_advance_after_destroying_the_defended_hex_validates_10_45() -> None:
    """The same advance after an attack on the vacant Defended hex itself is legal: it
    follows only the result that destroys the hex [10.44][10.45]."""
    module = fixture_module("sf75ex")
    case = {"turn": 2, "phase": "combat", "side": "NATO", "units": [["US-SN-1", "1423"]]}
    state = build_state(module, case)
    text = (
        "game: t\nturn: 2\nside: NATO\n[combat]\n"
        "attack US-SN-1 -> hex:1324\nadvance US-SN-1 -> 1324\n"
    )
    assert _validate(module, state, text) == []


def _with_advances(state: GameState, body: list[str], rng: random.Random) -> list[str]:
    """The random player's combat orders plus advances by the attackers into the attacked
    hexes (sometimes too many, sometimes by a unit that did not attack)."""
    out = list(body)
    for line in body:
        if not line.startswith("attack "):
            continue
        attackers, targets = line[len("attack ") :].split(" -> ")
        first = targets.split()[0]
        hex_id = first[4:] if first.startswith("hex:") else state.units[first].location
        units = attackers.split()
        if rng.random() < 0.2:
            units = [*units, rng.choice(sorted(state.units))]
        out.append(f"advance {' '.join(units)} -> {hex_id}")
    return out


def _check_resolution(events: tuple[Event, ...]) -> None:
    seen_result = False
    for e in events:
        assert e.kind != "advance-refused", f"validated advance refused: {e.text}"
        if e.kind == "attack-cancelled":
            assert seen_result, f"validated attack cancelled before any result: {e.text}"
        if e.kind in RESULTS:
            seen_result = True


def _play_checking(module: Module, scenario: str, seed: int, steps: int) -> int:
    """Play; in every Combat Phase also offer advances; every file that validates clean is
    resolved and must not be refused after the dice. Returns the advances tried."""
    rs = get_ruleset(module.ruleset)
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = rs.new_game(module, scenario, "prop")
    tried = 0
    for _ in range(steps):
        if state.phase == seq.GAME_OVER:
            break
        side, _what = rs.awaiting(module, state)
        game = Game.of(module, state)
        if state.pending:
            pd = state.pending[0]
            text = P.header(state, pd.side) + f"[answer]\nanswer {pd.id} {rng.choice(pd.options)}\n"
        else:
            section = state.phase
            if state.phase == seq.SETUP:
                body = P.setup_orders(game, state, side)
            elif state.phase == seq.MOVEMENT:
                body = P.movement_orders(game, state, side, rng)
            elif state.phase == seq.COMBAT:
                body = P.combat_orders(game, state, side, rng)
                more = _with_advances(state, body, rng)
                text = P.header(state, side) + "[combat]\n" + "\n".join(more) + "\n"
                doc = parse_orders(text, "more.txt", VOCABULARY)
                if more != body and not rs.validate(module, state, doc):
                    tried += 1
                    body = more
            else:
                body = P.reinforcement_orders(game, state, side)
            text = P.header(state, side) + f"[{section}]\n" + "\n".join(body) + "\n"
        doc = parse_orders(text, "random.txt", VOCABULARY)
        assert not rs.validate(module, state, doc), text
        out = rs.resolve(module, state, doc, dice)
        assert not out.violations
        _check_resolution(out.events)
        state = out.state
    return tried


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_a_file_that_validates_is_never_refused_after_the_dice(seed: int) -> None:
    module = fixture_module("mini")
    _play_checking(module, "long", seed, 160)


def test_validated_advances_are_carried_out_in_whole_games() -> None:
    """Fixed seeds on the conformance position (two Defended hexes), so the advances are
    really tried."""
    module = fixture_module("sf75ex")
    tried = sum(_play_checking(module, "test", seed, 80) for seed in range(4))
    assert tried > 0


# ---- legal = among the generated options ----------------------------------------------------


def _positions(module: Module, scenario: str, seed: int, steps: int) -> list[GameState]:
    out: list[GameState] = []
    P.play(module, scenario, seed, steps=steps, check=out.append)
    return out


def _walk_cost(game: Game, state: GameState, unit: str, path: list[str]) -> int:
    return sum(game.board.entry_cost(h, game.category(unit)) or 0 for h in path)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6))
def test_a_path_is_accepted_exactly_when_reachable_offers_it(seed: int) -> None:
    """Every path ``reachable`` offers to end in passes ``check_path_5_0``; one it offers
    only to pass through fails at its end [5.21]; a random walk that passes ends where
    ``reachable`` says the unit may end, at no lower cost [5.0]."""
    module = fixture_module("mini")
    rng = random.Random(seed)
    for state in _positions(module, "long", seed, 40)[::3]:
        game = Game.of(module, state)
        units = sorted(u for u in state.units if start_hex(game, state, u) is not None)
        for unit in rng.sample(units, min(6, len(units))):
            reach = reachable(game, state, unit)
            start = start_hex(game, state, unit)
            for h, r in reach.items():
                if h == start:
                    continue
                probs = check_path_5_0(game, state, unit, r.path[1:])
                if r.may_end:
                    assert probs == [], (unit, r.path, probs)
                else:
                    assert [p.code for p in probs] == ["ends-occupied"], (unit, r.path, probs)
            for _ in range(8):
                here, walk = start, []
                for _ in range(rng.randint(1, 4)):
                    assert here is not None
                    here = rng.choice(game.board.neighbours(here))
                    walk.append(here)
                if check_path_5_0(game, state, unit, tuple(walk)):
                    continue
                end = reach.get(walk[-1])
                assert end is not None and end.may_end, (unit, walk)
                assert end.cost <= _walk_cost(game, state, unit, walk), (unit, walk, end)


# ---- the structure itself -------------------------------------------------------------------


def _a_state() -> GameState:
    module = fixture_module("mini")
    return get_ruleset(module.ruleset).new_game(module, "long", "t")


def test_every_phase_and_task_is_declared() -> None:
    """The phases are data: each phase of the sequence of play has its entry, and each task
    kind the ruleset queues has its handler."""
    assert set(PHASES.ids) == {
        seq.SETUP,
        seq.COMBAT,
        seq.MOVEMENT,
        seq.REINFORCEMENT,
        seq.GAME_OVER,
    }
    for p in PHASES:
        assert p.steps is not None, p.id
        assert (p.section is None) == (p.acts == "nobody") == (p.steps.check is None), p.id
    queued: set[str] = set()
    for path in RULESET_DIR.glob("*.py"):
        queued |= set(re.findall(r'"t": "(\w+)"', path.read_text(encoding="utf-8")))
    assert queued, "no task kinds found"
    declared = set(FLOW.handlers(Game.of(fixture_module("mini"), _a_state())))
    assert declared == {*TASKS, "enter"}
    assert queued <= declared, queued - declared


def _attributes(node: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def test_no_rule_branches_on_a_message() -> None:
    """Control flow reads a problem's fields (rule, code), never its wording."""
    offenders: list[str] = []
    for path in sorted(RULESET_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            tests: list[ast.AST] = []
            if isinstance(node, (ast.If, ast.IfExp, ast.While)):
                tests.append(node.test)
            elif isinstance(node, ast.comprehension):
                tests.extend(node.ifs)
            for t in tests:
                if {"message", "text", "prompt"} & _attributes(t):
                    offenders.append(f"{path.name}:{t.lineno}")
    assert offenders == []


def _code_strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are code, not docstrings."""
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_holding_boxes_are_spelt_in_one_place() -> None:
    """Only ``referee/source/boxes.py`` builds or reads ``holding:<CV>``: no other code
    holds the string ``holding:`` (docstrings may show it)."""
    offenders = [
        f"{p.relative_to(REFEREE_DIR)}:{c.lineno}"
        for p in sorted(REFEREE_DIR.rglob("*.py"))
        if p.name != "boxes.py"
        for c in _code_strings(ast.parse(p.read_text(encoding="utf-8")))
        if c.value.startswith("holding:") or c.value.endswith("holding:")
    ]
    assert offenders == []


def test_ruleset_modules_stay_small() -> None:
    sizes: dict[str, Any] = {
        p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in RULESET_DIR.glob("*.py")
    }
    assert max(sizes.values()) < 600, sizes
