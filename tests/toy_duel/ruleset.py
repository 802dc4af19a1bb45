"""The toy_duel ruleset object (rules in ``__init__.py``): the required part of the contract
with the core orders language (its ``vocabulary``), its sequence of play as data
(``sequence.py``) and its position facts (``facts.py``). ``validate`` is the carry-out with
the dice withheld: one walk over the orders (:func:`act`), so the two cannot disagree."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.board import HexBoard
from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.engine.ruleset import PositionFacts, Ruleset
from referee.engine.steps import Carry, WithheldDice
from referee.engine.vocabulary import Verb, Vocabulary, form, location, targets, unit
from referee.source.model import Module
from tests.toy_duel.facts import DuelFacts
from tests.toy_duel.sequence import ACTION, PHASES, next_player_turn_d2

VOCABULARY = Vocabulary(
    ruleset="toy_duel",
    sections=(ACTION,),
    verbs=(
        Verb("move", (ACTION,), (form(unit(), location()),), meaning="to an adjacent hex [D3]"),
        Verb("fire", (ACTION,), (form(unit(), targets()),), meaning="at an enemy ship [D4]"),
    ),
)


def move_d3(c: Carry, board: HexBoard, ship: UnitState, o: Order) -> None:
    """[D3] An own ship moves to an adjacent hex not occupied."""
    to = o.hexes[0]
    assert ship.location is not None
    if not board.contains(to) or not board.adjacent(ship.location, to):
        return c.refuse(Violation("D3", f"{to} is not a hex next to {ship.location}"), o)
    if c.state.stacks.get(to):
        return c.refuse(Violation("D3", f"{to} is occupied"), o)
    c.events.append(Event("move", "D3", f"{ship.id} to {to}", {"unit": ship.id}))
    c.state = c.state.with_unit(UnitState(ship.id, ship.side, to, None))


def fire_d4(c: Carry, module: Module, board: HexBoard, ship: UnitState, o: Order) -> None:
    """[D4] An own ship fires at an enemy ship within its GUN range; 5 or 6 sinks it. A
    target sunk earlier in the phase is no longer there to fire at."""
    target = c.state.units.get(o.targets[0])
    if target is None or target.side == ship.side:
        return c.refuse(Violation("D4", f"{o.targets[0]} is not an enemy ship"), o)
    if target.location is None:
        return  # sunk by an earlier order of this file
    assert ship.location is not None
    reach = module.pieces()[ship.id].unit.values["GUN"]
    if board.distance(ship.location, target.location) > reach:
        return c.refuse(Violation("D4", f"{target.id} is beyond {ship.id}'s range {reach}"), o)
    if c.checking:
        return
    roll = c.dice.roll(6, f"{ship.id} fires at {target.id}", "D4")
    if roll < 5:
        c.events.append(Event("fire", "D4", f"{ship.id} misses {target.id} ({roll})"))
        return
    c.events.append(Event("sink", "D4", f"{ship.id} sinks {target.id} ({roll})"))
    c.state = c.state.with_unit(UnitState(target.id, target.side, None, "eliminated"))
    c.state = DuelFacts.put(c.state, sunk=[*DuelFacts.of(c.state).sunk, target.id])


def act(c: Carry, module: Module, orders: OrdersDoc) -> None:
    """[D2]-[D4] One Action Phase's file, order by order on the position the earlier ones
    leave: each own ship acts once."""
    board = HexBoard(module.map)
    acted: set[str] = set()
    for o in orders.orders:
        rule = "D3" if o.verb == "move" else "D4"
        ship = c.state.units.get(o.units[0])
        if ship is None or ship.side != c.state.active_side or ship.location is None:
            c.refuse(Violation(rule, f"{o.units[0]} is not one of your ships"), o)
        elif ship.id in acted:
            c.refuse(Violation(rule, f"{ship.id} has acted this phase"), o)
        elif o.verb == "move":
            acted.add(ship.id)
            move_d3(c, board, ship, o)
        else:
            acted.add(ship.id)
            fire_d4(c, module, board, ship, o)


class DuelRules(Ruleset, PositionFacts):
    id = "toy_duel"
    name = "Toy Duel (tests only)"
    vocabulary = VOCABULARY
    facts = DuelFacts

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """[D1] every ship where the scenario fixes it; Blue acts first [D2]."""
        sc = module.scenario(scenario)
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=1,
            phase=PHASES.first.id,
            active_side=sc.first_player,
            units={},
            stacks={},
            data={},
            options=tuple(options),
        )
        state = DuelFacts.put(state, sunk=[])
        pieces = module.pieces()
        for f in sc.fixed:
            state = state.with_unit(UnitState(f.unit, pieces[f.unit].unit.side, f.hex, None))
        return state

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        phase = PHASES.of(state)
        if state.active_side is None or phase is None:
            return "", "the game is over"
        return state.active_side, f"{state.active_side} {phase.title}, turn {state.turn} [D2]"

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        if state.active_side is None:
            return [Violation("D2", "the game is over")]
        c = Carry(state, dice=WithheldDice())
        if orders.side != state.active_side or orders.turn != state.turn:
            c.refuse(
                Violation(
                    "D2",
                    f"orders of {orders.side} for turn {orders.turn}; the game awaits "
                    f"{state.active_side}, turn {state.turn}",
                )
            )
        act(c, module, orders)
        return c.problems

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        c = Carry(state, dice=dice)
        act(c, module, orders)
        state = next_player_turn_d2(module, c.state, c.events)
        return Outcome(state, tuple(c.events), tuple(dice.rolls))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state  # nothing is hidden

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """[D5] the side whose ship is afloat when the other's is sunk wins."""
        sunk = list(DuelFacts.of(state).sunk)
        losers = {state.units[u].side for u in sunk}
        winners = [s.id for s in module.sides if s.id not in losers]
        result = f"{winners[0]} wins" if len(winners) == 1 else "draw"
        return {"rule": "D5", "sunk": sunk, "result": result}


RULESET = DuelRules()
