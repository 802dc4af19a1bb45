"""The ``declared`` ruleset object: the generic referee of a game without a ruleset.

It keeps the game's record and rolls its dice [G1]-[G4]; it checks what the source declares
(pieces, sides, locations, tables, the sequence of play), never the game's rules, and every
report says so (:data:`NOT_RULES`, the first event of every step).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.engine.ruleset import (
    OptionsReport,
    PositionFacts,
    Ruleset,
    UnitOptions,
    starts_without_later_flags,
)
from referee.rules.declared.checks import check_due, check_order, checks_closed
from referee.rules.declared.dice_expr import parse_dice
from referee.rules.declared.facts import DeclaredFacts
from referee.rules.declared.sequence import OVER, first_step, next_step, step_of
from referee.rules.declared.vocabulary import VOCABULARY
from referee.source.gamedecl import not_rules
from referee.source.model import Module

FLIPPED = "flipped"
NEW_GAME_FLAGS: dict[str, Any] = {"options": True, "closed": True}
"""Rulings made after the first declared games, oldest first, recorded by ``new_game`` in
the fact ``flags`` (:class:`~referee.rules.declared.facts.DeclaredFacts`), so an archive
begun before one replays as it was played (``earlier_starts``):

* ``options``: each step publishes the awaited side's options (``options-SIDE.json``, the
  viewer's orders mode) from :mod:`referee.rules.declared.options`; a game begun before lists
  none;
* ``closed``: no piece moves into or is placed on a location the source closes to it [G6]
  (:func:`referee.rules.declared.checks.closed_to`), in ``validate`` and in the options; a
  game begun before checks only [G1]-[G5]."""


class DeclaredRules(Ruleset, UnitOptions, PositionFacts):
    id = "declared"
    name = "Declared game (record and dice, not rules)"
    vocabulary = VOCABULARY
    facts = DeclaredFacts
    orders_unclaimed_pieces = True  # an imported module's pieces of no side [G1]

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """Every piece of the scenario's forces, where the scenario fixes it or off the map;
        the first step of the declared sequence due [G2]."""
        sc = module.scenario(scenario)
        turn, step = first_step(module, scenario)
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=turn,
            phase=step.phase,
            active_side=step.side,
            units={},
            stacks={},
            options=tuple(options),
        )
        if NEW_GAME_FLAGS:
            state = DeclaredFacts.put(state, flags=dict(NEW_GAME_FLAGS))
        pieces = module.pieces()
        for pid in sorted(sc.all_pieces()):
            state = state.with_unit(UnitState(pid, pieces[pid].unit.side))
        for f in sc.fixed:
            state = state.with_unit(UnitState(f.unit, pieces[f.unit].unit.side, f.hex, None))
        return state

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        if state.active_side is None:
            return "", "the game is over"
        step = step_of(module, state.scenario, state.phase)
        name = step.name if step else state.phase
        return state.active_side, (
            f"{state.active_side}: {name}, Game-Turn {state.turn} [G2] (a declared game, "
            "refereed for its record and dice, not its rules)"
        )

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """[G2] the side is due; [G1], [G3], [G4] each order's pieces, locations and rolls."""
        out = check_due(module, state, orders)
        if state.active_side is None:
            return out
        for o in orders.orders:
            out += check_order(module, state, orders.side or "", o)
        return out

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        events = [Event("note", "G1", f"A declared game, {not_rules(checks_closed(state))}.")]
        for o in orders.orders:
            state = self._carry_out(module, state, o, dice, events)
        state = self._next(module, state, events)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _carry_out(
        self, module: Module, state: GameState, o: Order, dice: Dice, events: list[Event]
    ) -> GameState:
        if o.verb == "roll":
            events.append(roll_event(module, o, dice))
            return state
        unit = state.units[o.units[0]]
        status = set(unit.status)
        if o.verb in ("place", "move"):
            to = o.hexes[-1]
            how = "placed on" if o.verb == "place" else "moves to"
            via = f" by {' '.join(o.hexes[:-1])}" if len(o.hexes) > 1 else ""
            events.append(Event(o.verb, "G1", f"{unit.id} {how} {to}{via}", _data(unit, to)))
            return state.with_unit(UnitState(unit.id, unit.side, to, None, unit.status))
        if o.verb == "eliminate":
            events.append(Event("eliminate", "G1", f"{unit.id} eliminated", {"unit": unit.id}))
            return state.with_unit(UnitState(unit.id, unit.side, None, "eliminated", unit.status))
        if o.verb == "flip":
            status ^= {FLIPPED}
            face = "its back" if FLIPPED in status else "its front"
            events.append(Event("flip", "G1", f"{unit.id} flipped to {face}", {"unit": unit.id}))
        else:
            (mark,) = o.arg("mark")
            (status.add if o.verb == "mark" else status.discard)(mark)
            what = "marked" if o.verb == "mark" else "unmarked"
            events.append(Event(o.verb, "G1", f"{unit.id} {what} {mark}", {"unit": unit.id}))
        return state.with_unit(
            UnitState(unit.id, unit.side, unit.location, unit.box, frozenset(status))
        )

    def _next(self, module: Module, state: GameState, events: list[Event]) -> GameState:
        """[G2] the next step of the declared sequence, or the end after the last turn."""
        got = next_step(module, state.scenario, state.turn, state.phase)
        if got is None:
            events.append(Event("phase", "G2", "the game is over (the scenario's last turn)"))
            return state.evolve(active_side=None, phase=OVER)
        turn, step = got
        events.append(
            Event("phase", step.rule, f"next: {step.side}, {step.name}, Game-Turn {turn}")
        )
        return state.evolve(turn=turn, phase=step.phase, active_side=step.side)

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts of games begun before the rulings of :data:`NEW_GAME_FLAGS`."""
        return starts_without_later_flags(state, NEW_GAME_FLAGS, DeclaredFacts)

    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport:
        """What an own piece may be ordered now [G1], [G2], [G5], [G6] (``options.py``); in a
        game begun before options were published, the piece's lines without order choices."""
        from referee.rules.declared.options import options_report

        flags = DeclaredFacts.of(state).flags
        return options_report(
            module,
            state,
            subject,
            limit,
            choices=bool(flags.get("options")),
            closed=bool(flags.get("closed")),
        )

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state  # nothing is hidden

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """Not scored: a declared game has no victory rules the referee applies."""
        return {
            "rule": "G1",
            "result": f"not scored (a declared game, {not_rules(checks_closed(state))})",
        }


def _data(unit: UnitState, to: str) -> dict[str, Any]:
    return {"unit": unit.id, "from": unit.location, "to": to}


def roll_event(module: Module, o: Order, dice: Dice) -> Event:
    """[G3] a free roll's total; [G4] a roll on a table and the table's result."""
    (text,) = o.arg("dice")
    expr = parse_dice(text)
    purpose = o.arg("purpose")[0] if o.mode == "for" else f"on table {o.arg('table')[0]}"
    rule = "G3" if o.mode == "for" else "G4"
    faces = [
        dice.roll(expr.sides, f"{purpose} ({expr}, die {i + 1} of {expr.count})", rule)
        for i in range(expr.count)
    ]
    total = sum(faces) + expr.modifier
    shown = (
        f"{'+'.join(map(str, faces))}{expr.modifier:+d}"
        if expr.modifier
        else "+".join(map(str, faces))
    )
    data: dict[str, Any] = {"dice": str(expr), "faces": faces, "total": total}
    if o.mode == "for":
        return Event("roll", rule, f"roll {expr} for {purpose!r}: {shown} = {total}", data)
    table = module.tables.named[o.arg("table")[0]]
    column = (o.arg("column") or (None,))[0]
    found = table.lookup(total, column or table.column_keys[0].text)
    if column is None and len(table.column_keys) > 1:
        row = table.lookup(total, table.column_keys[0].text).row
        r = table.row_keys.index(row)
        result = ", ".join(
            f"{k.text} {t}" for k, t in zip(table.column_keys, table.texts[r], strict=True)
        )
    else:
        result = found.text
    data.update(table=table.name, column=column, result=result)
    where = f"{table.title}" + (f", column {column}" if column else "")
    return Event(
        "roll",
        rule,
        f"roll {expr} on {where}: {shown} = {total}: {result} ({found.how})",
        data,
    )


RULESET = DeclaredRules()
