"""Shared pieces of the Carrier Battlegroup conformance cases: the module, a game played to
a given step with fixed seeds, and orders parsing."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from referee.engine.core import GameState, Outcome
from referee.engine.orders import OrdersDoc, parse_orders
from referee.engine.ruleset import get_ruleset
from referee.pbem.dice import CommittedDice
from referee.source.loader import load_module
from referee.source.model import Module

ROOT = Path(__file__).resolve().parents[3]
SRC = ROOT / "module_src" / "carrier_battlegroup"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def ruleset():  # type: ignore[no-untyped-def]
    return get_ruleset("carrier_battlegroup")


def doc(text: str) -> OrdersDoc:
    return parse_orders(text, "orders.txt", ruleset().vocabulary)


def dice_for(text: str, step: int, seed: bytes = b"s") -> CommittedDice:
    return CommittedDice(
        seed * 32, step, hashlib.sha256(text.encode()).hexdigest(), hidden_seed=b"h" * 32
    )


def step(state: GameState, text: str, k: int, seed: bytes = b"s") -> Outcome:
    return ruleset().resolve(module(), state, doc(text), dice_for(text, k, seed))


def played(scenario: str = "mission", steps: int = 2, seed: bytes = b"s") -> GameState:
    """The game after ``steps`` scripted steps (2 = set-up and outfitting done)."""
    rs = ruleset()
    st = rs.new_game(module(), scenario, "cbg")
    for k in range(steps):
        text = rs.scripted_orders(module(), st)
        out = step(st, text, k, seed)
        assert out.ok, [str(v) for v in out.violations]
        st = out.state
    return st
