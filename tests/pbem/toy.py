"""A toy ruleset for the PBEM tests: small, but it exercises everything the referee handles.

Sequence: set-up by each side in ``setup_order``, then each Game-Turn a ``move`` phase for
each side (first player first), then ``over``. Orders, one per line after the headers::

    place UNIT HEX        (setup: an unplaced own unit onto any hex)        [T1]
    move UNIT HEX         (move: an own unit at most 2 hexes)               [T2]
    attack UNIT TARGET    (move: an adjacent enemy; d6: 5-6 eliminated,
                           3-4 retreat, the defender chooses where)          [T3]
    dive UNIT             (move: a submarine goes deep: hidden from the enemy) [T4]
    standing retreat-first   (my retreats: take the first hex offered)       [T5]
    answer DECISION OPTION   (answer a pending decision)                     [T6]

A retreat with no standing order stops resolution: the defender owes the answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.core import (
    Dice,
    Event,
    GameState,
    Outcome,
    PendingDecision,
    SourcePos,
    UnitState,
    Violation,
)
from referee.engine.ruleset import Ruleset
from referee.source.model import Module


@dataclass(frozen=True, slots=True)
class ToyOrder:
    verb: str
    args: tuple[str, ...]
    where: SourcePos


@dataclass(frozen=True, slots=True)
class ToyOrdersDoc:
    game_id: str
    turn: int
    side: str
    phase: str | None
    previous_report: str | None
    orders: tuple[ToyOrder, ...]
    standing: tuple[ToyOrder, ...]
    answers: dict[str, tuple[str, SourcePos]]
    file: str


class ToySyntaxError(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


_ARITY = {"place": 2, "move": 2, "attack": 2, "dive": 1, "standing": 1, "answer": 2}


def parse_orders(text: str, file: str) -> ToyOrdersDoc:
    return parse_with(text, file, _ARITY)


def parse_with(text: str, file: str, arity: Mapping[str, int | tuple[int, ...]]) -> ToyOrdersDoc:
    """The toy orders language with a given vocabulary: verb -> number(s) of words."""
    head: dict[str, str] = {}
    orders: list[ToyOrder] = []
    standing: list[ToyOrder] = []
    answers: dict[str, tuple[str, SourcePos]] = {}
    errors: list[str] = []
    for n, raw in enumerate(text.split("\n"), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if (
            ":" in line
            and not orders
            and line.split(":")[0]
            in (
                "game",
                "turn",
                "side",
                "phase",
                "previous-report",
                "nonce",
                "nonce-commit",
            )
        ):
            k, v = line.split(":", 1)
            head[k] = v.strip()
            continue
        words = line.split()
        verb, args = words[0].lower(), tuple(words[1:])
        pos = SourcePos(file, n, 1)
        want = arity.get(verb)
        counts = (want,) if isinstance(want, int) else want
        if counts is None:
            errors.append(f"{pos}: unknown order {verb!r}")
        elif len(args) not in counts:
            errors.append(f"{pos}: '{verb}' takes {' or '.join(map(str, counts))} word(s)")
        elif verb == "standing":
            standing.append(ToyOrder(verb, args, pos))
        elif verb == "answer":
            answers[args[0]] = (args[1], pos)
        else:
            orders.append(ToyOrder(verb, args, pos))
    for k in ("game", "turn", "side"):
        if k not in head:
            errors.append(f"{file}:1:1: missing header '{k}:'")
    turn = 0
    if "turn" in head:
        try:
            turn = int(head["turn"])
        except ValueError:
            errors.append(f"{file}: turn must be a number")
    if errors:
        raise ToySyntaxError(errors)
    return ToyOrdersDoc(
        game_id=head["game"],
        turn=turn,
        side=head["side"],
        phase=head.get("phase"),
        previous_report=head.get("previous-report"),
        orders=tuple(orders),
        standing=tuple(standing),
        answers=answers,
        file=file,
    )


class ToyRuleset(Ruleset):
    id = "toy"
    name = "Toy rules (tests only)"
    parse_orders = staticmethod(parse_orders)

    # -- sequence of play
    def _sequence(self, module: Module, state: GameState) -> list[tuple[int, str, str]]:
        sc = module.scenarios[state.scenario]
        steps = [(1, "setup", s) for s in sc.setup_order]
        order = [sc.first_player] + [s.id for s in module.sides if s.id != sc.first_player]
        for t in range(1, sc.turns + 1):
            steps += [(t, "move", s) for s in order]
        return steps

    def _advance(self, module: Module, state: GameState) -> GameState:
        steps = self._sequence(module, state)
        i = steps.index((state.turn, state.phase, state.active_side or ""))
        if i + 1 >= len(steps):
            return state.evolve(phase="over", active_side=None)
        t, p, s = steps[i + 1]
        return state.evolve(turn=t, phase=p, active_side=s)

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        sc = module.scenarios[scenario]
        pieces = module.pieces()
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=1,
            phase="setup",
            active_side=sc.setup_order[0],
            units={},
            stacks={},
            data={"standing": {}, "eliminated": []},
            options=tuple(options),
        )
        fixed = {f.unit: f.hex for f in sc.fixed}
        for side in sorted(sc.forces):
            for uid in sc.forces[side]:
                ids = pieces[uid].unit.piece_ids if uid not in pieces else (uid,)
                for pid in ids:
                    hx = fixed.get(pid)
                    state = state.with_unit(
                        UnitState(pid, side, hx, None if hx else "unplaced"), top=False
                    )
        return state

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        if state.pending:
            p = state.pending[0]
            return p.side, f"{p.side} answer to {p.id} [{p.rule}]"
        if state.active_side is None:
            return "", "the game is over"
        return state.active_side, f"{state.active_side} {state.phase} [T1]"

    # -- validation
    def validate(self, module: Module, state: GameState, orders: Any) -> list[Violation]:
        if state.pending:
            return self._check_answer(state, orders)
        out: list[Violation] = []
        for o in orders.orders:
            u = state.units.get(o.args[0])
            if u is None or u.side != orders.side:
                out.append(Violation("T1", f"{o.args[0]} is not one of your units", o.where))
                continue
            bad = self._check_order(module, state, orders.side, o, u)
            if bad is not None:
                out.append(bad)
        return out

    def _check_answer(self, state: GameState, orders: Any) -> list[Violation]:
        """The pending decision's answer [T6]."""
        p = state.pending[0]
        got = orders.answers.get(p.id)
        if got is None:
            return [Violation("T6", f"answer decision {p.id} first", None)]
        if got[0] not in p.options:
            return [Violation("T6", f"{got[0]!r} is not one of {', '.join(p.options)}", got[1])]
        return []

    def _check_order(
        self, module: Module, state: GameState, side: str, o: Any, u: Any
    ) -> Violation | None:
        """One order of one of the writer's units: set-up [T1], move [T2], attack [T3]."""
        grid = module.map.grid
        if o.verb == "place":
            if state.phase != "setup":
                return Violation("T1", "place only in set-up", o.where)
            if u.location is not None:
                return Violation("T1", f"{u.id} is already placed", o.where)
            if not grid.is_valid_id(o.args[1]):
                return Violation("T1", f"no hex {o.args[1]}", o.where)
            return None
        if state.phase != "move":
            return Violation("T2", f"'{o.verb}' only in a move phase", o.where)
        if u.location is None:
            return Violation("T2", f"{u.id} is not on the map", o.where)
        if o.verb == "move":
            if not grid.is_valid_id(o.args[1]):
                return Violation("T2", f"no hex {o.args[1]}", o.where)
            if grid.distance(u.location, o.args[1]) > 2:
                return Violation("T2", f"{u.id} moves at most 2 hexes", o.where)
        elif o.verb == "attack":
            t = state.units.get(o.args[1])
            if t is None or t.side == side:
                return Violation("T3", f"{o.args[1]} is not an enemy unit", o.where)
        return None

    # -- resolution
    def carry_out(self, module: Module, state: GameState, orders: Any, dice: Dice) -> Outcome:
        events: list[Event] = []
        standing = dict(state.data.get("standing", {}))
        for s in orders.standing:
            standing[orders.side] = s.args[0]
        state = state.with_data(standing=standing)
        todo: list[dict[str, Any]]
        if state.pending:
            p = state.pending[0]
            choice = orders.answers[p.id][0]
            state = self._retreat(state, p.context["unit"], choice, events)
            todo = list(p.context["rest"])
            state = state.evolve(pending=())
        else:
            todo = [{"verb": o.verb, "args": list(o.args)} for o in orders.orders]
        while todo:
            o = todo.pop(0)
            state = self._apply(module, state, o, dice, events, todo)
            if state.pending:
                return Outcome(state, tuple(events), tuple(dice.rolls))
        state = self._advance(module, state)
        events.append(Event("phase", "T1", f"next: {state.phase} {state.active_side or ''}"))
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _apply(
        self,
        module: Module,
        state: GameState,
        o: Mapping[str, Any],
        dice: Dice,
        events: list[Event],
        rest: list[dict[str, Any]],
    ) -> GameState:
        verb, args = o["verb"], o["args"]
        u = state.units[args[0]]
        if verb in ("place", "move"):
            events.append(
                Event(
                    verb,
                    "T1" if verb == "place" else "T2",
                    f"{u.id} to {args[1]}",
                    {"unit": u.id, "from": u.location, "to": args[1]},
                )
            )
            return state.with_unit(dataclasses.replace(u, location=args[1], box=None))
        if verb == "dive":
            other = [s.id for s in module.sides if s.id != u.side]
            events.append(
                Event("dive", "T4", f"{u.id} goes deep", {"unit": u.id}, hidden_from=tuple(other))
            )
            return state.with_unit(dataclasses.replace(u, status=u.status | {"submerged"}))
        # attack
        t = state.units[args[1]]
        r = dice.roll(6, f"{u.id} attacks {t.id}", "T3")
        events.append(
            Event("attack", "T3", f"{u.id} attacks {t.id}: {r}", {"unit": u.id, "target": t.id})
        )
        if r >= 5:
            events.append(Event("eliminate", "T3", f"{t.id} eliminated", {"unit": t.id}))
            elim = [*state.data.get("eliminated", []), t.id]
            state = state.with_data(eliminated=elim)
            return state.with_unit(dataclasses.replace(t, location=None, box="eliminated"))
        if r >= 3 and t.location is not None:
            options = tuple(
                h
                for h in module.map.grid.neighbours(t.location)
                if not any(state.units[x].side != t.side for x in state.at(h))
            )
            if not options:
                return state
            if state.data.get("standing", {}).get(t.side) == "retreat-first":
                return self._retreat(state, t.id, options[0], events)
            p = PendingDecision(
                id=f"retreat-{t.id}",
                side=t.side,
                kind="retreat",
                rule="T5",
                prompt=f"Where does {t.id} retreat?",
                options=options,
                context={"unit": t.id, "rest": list(rest)},
            )
            rest.clear()
            return state.evolve(pending=(p,))
        return state

    def _retreat(self, state: GameState, unit: str, to: str, events: list[Event]) -> GameState:
        u = state.units[unit]
        events.append(
            Event(
                "retreat",
                "T5",
                f"{unit} retreats to {to}",
                {"unit": unit, "from": u.location, "to": to},
            )
        )
        return state.with_unit(dataclasses.replace(u, location=to))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        if side is None:
            return state
        hidden = {u.id for u in state.units.values() if u.side != side and "submerged" in u.status}
        units = {k: v for k, v in state.units.items() if k not in hidden}
        stacks = {
            h: tuple(x for x in ids if x not in hidden)
            for h, ids in state.stacks.items()
            if any(x not in hidden for x in ids)
        }
        return state.evolve(units=units, stacks=stacks)

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        lost: dict[str, int] = {s.id: 0 for s in module.sides}
        for uid in state.data.get("eliminated", []):
            lost[state.units[uid].side] += 1
        return {"eliminated": lost, "rule": "T7"}


RULESET = ToyRuleset()
TOY_FIXTURE = __file__.rsplit("/", 1)[0] + "/fixtures/toy"


def install() -> None:
    """Register the toy ruleset by its schema (idempotent)."""
    from referee.source import schema

    schema.register(SCHEMA)


def _schema() -> Any:
    from referee.rules.sixth_fleet_1975.schema import SCHEMA as SF

    return dataclasses.replace(SF, id="toy", name="Toy rules", rules=lambda: RULESET)


SCHEMA = _schema()
