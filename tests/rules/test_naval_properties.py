"""Whole naval campaigns by the scripted player, with the issue's invariants checked after every
step: no ship over its capacity [28.13], port capacity never negative [26.25], a sunk ship never
returns (a transport only from the Cadre Box [27.44]), a transport's passengers lost with it
[27.33], Sailed ships never moving [26.31], an air unit in the Flown Box never flying, a
Reaction Phase attack only on a ship at sea [31.22]."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import GameState, Roll
from referee.engine.ruleset import get_ruleset, parse_orders_for
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.movement import capacity_now
from referee.rules.naval_module.scripted import scripted_orders
from referee.rules.naval_module.transport import points_28_13
from referee.rules.naval_module.work import Work
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"


class SeededDice:
    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str, rule: str = "") -> int:
        v = self._r.randint(1, sides)
        self.rolls.append(Roll(len(self.rolls), sides, v, purpose, rule))
        return v


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, diags
    return m


def invariants(game: Game, before: GameState, after: GameState) -> None:
    ships = after.data.get("ships") or {}
    for sid, facts in ships.items():
        s = game.ship(after, sid)
        cargo = list(facts.get("cargo", []))
        assert sum(points_28_13(game.unit(c)) for c in cargo) <= s.capacity, (sid, cargo)
        u = after.units[sid]
        if u.location is None:
            assert not cargo, f"{sid} is out of play with passengers {cargo}"
        for c in cargo:
            assert after.units[c].box == f"aboard:{sid}", (c, after.units[c])
    for uid, u in after.units.items():
        if (u.box or "").startswith("aboard:"):
            carrier = u.box[7:]  # type: ignore[index]
            assert after.units[carrier].location is not None, f"{uid} aboard sunk {carrier}"
            assert uid in ships.get(carrier, {}).get("cargo", []), uid
    for sid in before.data.get("sunk", []):
        u = after.units[sid]
        if u.box == "eliminated" or not game.ship(after, sid).is_transport:
            assert u.location is None and u.box == "eliminated", f"{sid} came back"
    if before.phase == "movement" and not before.pending:
        for sid, facts in (before.data.get("ships") or {}).items():
            if facts.get("status") == "sailed" and before.units[sid].location is not None:
                assert after.units[sid].location == before.units[sid].location, (
                    f"Sailed {sid} moved"
                )
    w = Work(game, after, "", None)
    for port, used in (after.data.get("port_used") or {}).items():
        assert used >= 0
        side = after.data["phasing"]
        cap = max(
            capacity_now(w, port, side, loading=True).value,
            capacity_now(w, port, side, loading=False).value,
        )
        assert used <= cap, (port, used, cap)


def flown_never_flies(game: Game, before: GameState, events: list) -> None:
    """An air unit in the Flown Box flies no mission until it is Ready again [31.13], [31.22],
    [31.26]; a Reaction Phase attack hits only a ship at sea [31.22]."""
    gone = {p for units in (before.data.get("flown") or {}).values() for p in units}
    for e in events:
        if e.kind == "shipping_attack":
            assert e.data["air"] not in gone, (e.data["air"], "flew from the Flown Box")
            if before.phase == "reaction":
                where = before.units[e.data["ship"]].location
                assert where is not None and where not in game.ports, where
        if e.kind == "interdiction" and before.phase == "interdiction":
            assert not set(e.data["units"]) & gone, (e.data["units"], "from the Flown Box")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scripted_campaigns_keep_the_invariants(seed: int) -> None:
    m = module()
    game = Game.of(m)
    rs = get_ruleset("naval_module")
    state = rs.new_game(m, "kerch_feodosia", f"prop-{seed}")
    seen: set[str] = set()
    for k in range(400):
        text = scripted_orders(m, state)
        if text is None:
            break
        doc = parse_orders_for(rs, text, f"step-{k}.txt")
        assert not rs.validate(m, state, doc), text
        out = rs.resolve(m, state, doc, SeededDice(seed * 1000 + k))
        assert not out.violations
        invariants(game, state, out.state)
        flown_never_flies(game, state, list(out.events))
        seen.update(e.kind for e in out.events)
        seen.update(f"phase:{state.phase}" for _ in out.events[:1])
        state = out.state
    assert state.phase == "game_over"
    # the campaign exercised the rules the issue names
    assert {"readiness", "loss_roll", "load", "move", "interdiction"} <= seen, seen
    # the opposed box and its signed air combat [31.13], the Axis Reaction Phase [31.22]
    assert {"phase:aircombat_confirm", "phase:reaction", "no_opposition"} <= seen, seen
