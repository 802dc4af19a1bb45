"""Carrier Battlegroup positions for the conformance harness, and its probe ``call``.

Carrier Battlegroup is solitaire: the game runs the Soviet side and draws its hidden
contents at set-up [2.2], [4.0]. So a position is a game *played*: ``new_game`` of
``scenario``, then ``played`` steps of the game's own scripted orders, each resolved with the
committed dice of a PBEM game seeded by ``seed`` (the same bytes every run); then ``data``
replaces whole records of the game and ``merge`` is laid over them (dicts key by key)::

    {"scenario": "mission", "played": 2, "seed": "s",
     "data": {"escort_classes": {"cruiser": 2, "destroyer": 0, "frigate": 0, "submarine": 0}},
     "merge": {"carrier": {"Flight Deck": 1}}}

``played: 1`` stops after the set-up (the Outfitting Phase is next), ``played: 2`` after
outfitting (turn 1's Logistics Phase is next).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from referee.engine.core import GameState, Outcome
from referee.engine.orders import OrdersDoc, parse_orders
from referee.engine.ruleset import get_ruleset
from referee.pbem.dice import CommittedDice
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets import Adapter, call_probe

SRC = Path(__file__).resolve().parents[3] / "module_src" / "carrier_battlegroup"


@cache
def module() -> Module:
    """The Carrier Battlegroup module of ``module_src``."""
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def ruleset() -> Any:
    """The Carrier Battlegroup ruleset."""
    return get_ruleset("carrier_battlegroup")


def doc(text: str) -> OrdersDoc:
    """An orders file (no header) parsed with the ruleset's vocabulary."""
    return parse_orders(text, "orders.txt", ruleset().vocabulary)


def dice_for(text: str, step: int, seed: bytes = b"s") -> CommittedDice:
    """The committed dice of step ``step`` of a game seeded by ``seed``."""
    return CommittedDice(
        seed * 32, step, hashlib.sha256(text.encode()).hexdigest(), hidden_seed=b"h" * 32
    )


def step(state: GameState, text: str, k: int, seed: bytes = b"s") -> Outcome:
    """``text`` resolved as step ``k`` of the game."""
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


def merged(old: Any, new: Any) -> Any:
    """``new`` laid over ``old``: dicts key by key (recursively), anything else replaced."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        return {**old, **{k: merged(old.get(k), v) for k, v in new.items()}}
    return new


def build_state(module: Module, position: Mapping[str, Any]) -> GameState:
    """The position ``position`` describes (see the module docstring)."""
    st = played(
        position.get("scenario", "mission"),
        int(position.get("played", 2)),
        str(position.get("seed", "s")).encode(),
    )
    st = st.with_data(**position.get("data", {}))
    over = position.get("merge", {})
    return st.with_data(**{k: merged(st.data.get(k), v) for k, v in over.items()})


ADAPTER = Adapter(
    module=lambda position: module(),
    build=build_state,
    probes={"call": call_probe("referee.rules.carrier_battlegroup", module)},
)
