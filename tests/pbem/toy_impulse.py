"""Toy ruleset "toy_impulse": alternating impulses and reactions (issue 10 §4), on the model
of DTP's combat phase (8.2) and detection during the enemy's movement (6.2).

Each Game-Turn has two phases:

* ``move`` [I1]: NATO moves (``move UNIT HEX``, at most 2 hexes). Each move that ends within
  one hex of a Soviet unit gives the Soviet player a **reaction** [I2]: detect the moving unit
  or not. A Soviet standing order answers it (``standing detect-always`` or
  ``standing detect-never``); otherwise resolution stops at a pending decision
  ``detect-UNIT`` (options ``detect``/``ignore``) and the rest of NATO's moves wait for the
  answer. A detection is a public d6: 4-6 marks the unit ``detected``.
* ``combat`` [I3]: **alternating impulses**, the Soviet side first. In an impulse a side sends
  one ``attack UNIT TARGET`` (a d6: 5-6 eliminates a target within 2 hexes), or ``pass``, or
  ``pass final``. A final pass ends that side's impulses for the phase; the other side goes on
  alone [I4]. The phase ends when both sides have passed in a row, or both passed finally.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, PendingDecision, Violation
from referee.engine.ruleset import Due, Ruleset, Submissions
from referee.source.model import Module
from tests.pbem import toy, toys_common

ID = "toy_impulse"
START = {
    "US-CV-1": "0203",
    "US-DD-1": "0202",
    "SO-SG-1": "0405",
    "SO-DD-1": "0506",
}
ARITY = {"move": 2, "attack": 2, "pass": (0, 1), "standing": 1, "answer": 2}
FIRST = "Soviet"  # [I3] B first, as DTP 8.2


def parse_orders(text: str, file: str) -> toy.ToyOrdersDoc:
    return toy.parse_with(text, file, ARITY)


class ImpulseRuleset(Ruleset, Submissions):
    id = ID
    name = "Toy impulses and reactions (tests only)"
    parse_orders = staticmethod(parse_orders)

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        return toys_common.start(
            ID,
            module,
            scenario,
            game_id,
            dict(START),
            phase="move",
            side="NATO",
            data={"standing": {}, "impulse": None, "eliminated": []},
            options=options,
        )

    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        if state.pending:
            p = state.pending[0]
            return (Due(p.side, f"{p.side} answer to {p.id} [{p.rule}]", "answer"),)
        if state.active_side is None:
            return ()
        if state.phase == "combat":
            imp = state.data["impulse"]
            return (Due(imp["next"], f"{imp['next']} combat impulse {imp['n']} [I3]"),)
        return (Due(state.active_side, f"{state.active_side} move, Game-Turn {state.turn} [I1]"),)

    # -- validation
    def validate(self, module: Module, state: GameState, orders: Any) -> list[Violation]:
        if state.pending:
            return self._check_answer(state, orders)
        out: list[Violation] = [
            Violation("I2", f"no standing order {s.args[0]!r}", s.where)
            for s in orders.standing
            if s.args[0] not in ("detect-always", "detect-never")
        ]
        if state.phase == "combat" and len(orders.orders) != 1:
            out.append(Violation("I3", "one attack or one pass per impulse", None))
        for o in orders.orders:
            bad = self._check_order(module, state, orders.side, o)
            if bad is not None:
                out.append(bad)
        return out

    def _check_answer(self, state: GameState, orders: Any) -> list[Violation]:
        """The pending decision's answer [I2]."""
        p = state.pending[0]
        got = orders.answers.get(p.id)
        if got is None:
            return [Violation("I2", f"answer decision {p.id}", None)]
        if got[0] not in p.options:
            return [Violation("I2", f"{got[0]!r} is not one of {p.options}", got[1])]
        return []

    def _check_order(self, module: Module, state: GameState, side: str, o: Any) -> Violation | None:
        """One order: a pass [I3], a move [I1] or an attack [I3]."""
        if o.verb == "pass":
            if state.phase != "combat" or o.args not in ((), ("final",)):
                return Violation("I3", "'pass' or 'pass final' in combat", o.where)
            return None
        u = state.units.get(o.args[0])
        if u is None or u.side != side or u.location is None:
            return Violation("I1", f"{o.args[0]} is not one of your units", o.where)
        grid = module.map.grid
        if o.verb == "move":
            if state.phase != "move":
                return Violation("I1", "moves only in the move phase", o.where)
            if not grid.is_valid_id(o.args[1]):
                return Violation("I1", f"no hex {o.args[1]}", o.where)
            if grid.distance(u.location, o.args[1]) > 2:
                return Violation("I1", f"{u.id} moves at most 2 hexes", o.where)
        elif o.verb == "attack":
            t = state.units.get(o.args[1])
            if state.phase != "combat":
                return Violation("I3", "attacks only in combat", o.where)
            if t is None or t.side == side or t.location is None:
                return Violation("I3", f"{o.args[1]} is no enemy on the map", o.where)
            if grid.distance(u.location, t.location) > 2:
                return Violation("I3", f"{t.id} is out of reach", o.where)
        return None

    # -- resolution
    def carry_out(self, module: Module, state: GameState, orders: Any, dice: Dice) -> Outcome:
        events: list[Event] = []
        standing = dict(state.data["standing"])
        for s in orders.standing:
            standing[orders.side] = s.args[0]
        state = state.with_data(standing=standing)
        if state.pending:
            p = state.pending[0]
            state = state.evolve(pending=())
            if orders.answers[p.id][0] == "detect":
                state = self._detect(state, p.context["unit"], dice, events)
            todo = list(p.context["rest"])
            return self._moves(module, state, todo, dice, events)
        if state.phase == "move":
            todo = [list(o.args) for o in orders.orders]
            return self._moves(module, state, todo, dice, events)
        return self._impulse(module, state, orders, dice, events)

    def _moves(
        self,
        module: Module,
        state: GameState,
        todo: list[list[str]],
        dice: Dice,
        events: list[Event],
    ) -> Outcome:
        grid = module.map.grid
        while todo:
            unit, to = todo.pop(0)
            u = state.units[unit]
            events.append(
                Event("move", "I1", f"{unit} to {to}", {"unit": unit, "from": u.location, "to": to})
            )
            state = toys_common.moved(state, unit, to)
            watchers = [
                e
                for e in state.units.values()
                if e.side == "Soviet" and e.location and grid.distance(e.location, to) <= 1
            ]
            if not watchers:
                continue
            order = state.data["standing"].get("Soviet")
            if order == "detect-always":
                state = self._detect(state, unit, dice, events)
            elif order is None:
                p = PendingDecision(
                    id=f"detect-{unit}",
                    side="Soviet",
                    kind="reaction",
                    rule="I2",
                    prompt=f"Attempt to detect {unit} at {to}?",
                    options=("detect", "ignore"),
                    context={"unit": unit, "rest": todo},
                )
                events.append(Event("reaction", "I2", f"Soviet may react to {unit}", {}))
                return Outcome(state.evolve(pending=(p,)), tuple(events), tuple(dice.rolls))
        state = state.evolve(phase="combat", active_side=FIRST).with_data(
            impulse={"n": 1, "next": FIRST, "final": [], "passes": 0}
        )
        events.append(Event("phase", "I3", f"combat: {FIRST} has the first impulse"))
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _detect(self, state: GameState, unit: str, dice: Dice, events: list[Event]) -> GameState:
        r = dice.roll(6, f"detect {unit}", "I2")
        if r >= 4:
            u = state.units[unit]
            state = state.with_unit(dataclasses.replace(u, status=u.status | {"detected"}))
            events.append(Event("detect", "I2", f"{unit} detected ({r})", {"unit": unit}))
        else:
            events.append(Event("detect", "I2", f"{unit} not detected ({r})", {"unit": unit}))
        return state

    def _impulse(
        self, module: Module, state: GameState, orders: Any, dice: Dice, events: list[Event]
    ) -> Outcome:
        imp = dict(state.data["impulse"])
        side, foe = orders.side, toys_common.other(module, orders.side)
        [o] = orders.orders
        if o.verb == "pass":
            imp["passes"] += 1
            if o.args == ("final",):
                imp["final"] = sorted({*imp["final"], side})
            events.append(Event("pass", "I4", f"{side} passes{' finally' if o.args else ''}"))
        else:
            imp["passes"] = 0
            u, t = state.units[o.args[0]], state.units[o.args[1]]
            r = dice.roll(6, f"{u.id} attacks {t.id}", "I3")
            events.append(
                Event("attack", "I3", f"{u.id} attacks {t.id}: {r}", {"unit": u.id, "target": t.id})
            )
            if r >= 5:
                events.append(Event("eliminate", "I3", f"{t.id} eliminated", {"unit": t.id}))
                state = state.with_unit(dataclasses.replace(t, location=None, box="eliminated"))
                state = state.with_data(eliminated=[*state.data["eliminated"], t.id])
        done = (
            imp["passes"] >= 2
            or len(imp["final"]) == 2
            or (o.verb == "pass" and foe in imp["final"])
        )
        if not done:
            imp["n"] += 1
            imp["next"] = side if foe in imp["final"] else foe
            if imp["next"] in imp["final"]:
                done = True
        if not done:
            return Outcome(
                state.evolve(active_side=imp["next"]).with_data(impulse=imp),
                tuple(events),
                tuple(dice.rolls),
            )
        sc = module.scenarios[state.scenario]
        state = state.with_data(impulse=None)
        if state.turn >= sc.turns:
            state = state.evolve(phase="over", active_side=None)
        else:
            state = state.evolve(turn=state.turn + 1, phase="move", active_side="NATO")
        events.append(Event("phase", "I3", f"next: Game-Turn {state.turn} {state.phase}"))
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        return {"eliminated": list(state.data["eliminated"]), "rule": "I5"}


RULESET = ImpulseRuleset()
SCHEMA = toys_common.install(RULESET)
