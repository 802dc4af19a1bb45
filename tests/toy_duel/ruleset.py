"""The toy_duel ruleset object (rules in ``__init__.py``): the required part of the
contract only, with the core orders language (its ``vocabulary``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.board import HexBoard
from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.orders import Order, OrdersDoc
from referee.engine.ruleset import Ruleset
from referee.engine.vocabulary import Verb, Vocabulary, form, location, targets, unit
from referee.source.model import Module

ACTION = "action"

VOCABULARY = Vocabulary(
    ruleset="toy_duel",
    sections=(ACTION,),
    verbs=(
        Verb("move", (ACTION,), (form(unit(), location()),), meaning="to an adjacent hex [D3]"),
        Verb("fire", (ACTION,), (form(unit(), targets()),), meaning="at an enemy ship [D4]"),
    ),
)


class DuelRules(Ruleset):
    id = "toy_duel"
    name = "Toy Duel (tests only)"
    vocabulary = VOCABULARY

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
            phase=ACTION,
            active_side=sc.first_player,
            units={},
            stacks={},
            data={"sunk": []},
            options=tuple(options),
        )
        pieces = module.pieces()
        for f in sc.fixed:
            state = state.with_unit(UnitState(f.unit, pieces[f.unit].unit.side, f.hex, None))
        return state

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        if state.active_side is None:
            return "", "the game is over"
        return state.active_side, f"{state.active_side} Action Phase, turn {state.turn} [D2]"

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        if state.active_side is None:
            return [Violation("D2", "the game is over")]
        out: list[Violation] = []
        if orders.side != state.active_side or orders.turn != state.turn:
            out.append(
                Violation(
                    "D2",
                    f"orders of {orders.side} for turn {orders.turn}; the game awaits "
                    f"{state.active_side}, turn {state.turn}",
                )
            )
        board = HexBoard(module.map)
        moved: set[str] = set()
        for o in orders.orders:
            out += self._check(module, board, state, o, moved)
        return out

    def _check(
        self, module: Module, board: HexBoard, state: GameState, o: Order, moved: set[str]
    ) -> list[Violation]:
        rule = "D3" if o.verb == "move" else "D4"
        ship = state.units.get(o.units[0])
        if ship is None or ship.side != state.active_side:
            return [Violation(rule, f"{o.units[0]} is not one of your ships", o.pos)]
        if ship.id in moved:
            return [Violation(rule, f"{ship.id} has acted this phase", o.pos)]
        moved.add(ship.id)
        assert ship.location is not None
        if o.verb == "move":
            to = o.hexes[0]
            if not board.contains(to) or not board.adjacent(ship.location, to):
                return [Violation("D3", f"{to} is not a hex next to {ship.location}", o.pos)]
            if state.stacks.get(to):
                return [Violation("D3", f"{to} is occupied", o.pos)]
            return []
        target = state.units.get(o.targets[0])
        if target is None or target.side == ship.side or target.location is None:
            return [Violation("D4", f"{o.targets[0]} is not an enemy ship", o.pos)]
        reach = module.pieces()[ship.id].unit.values["GUN"]
        if board.distance(ship.location, target.location) > reach:
            return [Violation("D4", f"{target.id} is beyond {ship.id}'s range {reach}", o.pos)]
        return []

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        events: list[Event] = []
        for o in orders.orders:
            state = self._carry_out(state, o, dice, events)
        state = self._next(module, state, events)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _carry_out(self, state: GameState, o: Order, dice: Dice, events: list[Event]) -> GameState:
        ship = state.units[o.units[0]]
        if o.verb == "move":
            events.append(Event("move", "D3", f"{ship.id} to {o.hexes[0]}", {"unit": ship.id}))
            return state.with_unit(UnitState(ship.id, ship.side, o.hexes[0], None))
        target = state.units[o.targets[0]]
        if target.location is None:  # sunk earlier in this phase
            return state
        roll = dice.roll(6, f"{ship.id} fires at {target.id}", "D4")
        if roll < 5:
            events.append(Event("fire", "D4", f"{ship.id} misses {target.id} ({roll})"))
            return state
        events.append(Event("sink", "D4", f"{ship.id} sinks {target.id} ({roll})"))
        state = state.with_unit(UnitState(target.id, target.side, None, "eliminated"))
        return state.with_data(sunk=[*state.data["sunk"], target.id])

    def _next(self, module: Module, state: GameState, events: list[Event]) -> GameState:
        """[D2] Red after Blue; the next turn after Red; over after the last or a sinking."""
        sc = module.scenario(state.scenario)
        second = next(s.id for s in module.sides if s.id != sc.first_player)
        turn = state.turn + (state.active_side == second)
        if state.data["sunk"] or turn > sc.turns:
            events.append(Event("phase", "D2", "the game is over"))
            return state.evolve(active_side=None)
        side = second if state.active_side == sc.first_player else sc.first_player
        events.append(Event("phase", "D2", f"next: {side}, turn {turn}"))
        return state.evolve(turn=turn, active_side=side)

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state  # nothing is hidden

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """[D5] the side whose ship is afloat when the other's is sunk wins."""
        sunk = list(state.data.get("sunk", []))
        losers = {state.units[u].side for u in sunk}
        winners = [s.id for s in module.sides if s.id not in losers]
        result = f"{winners[0]} wins" if len(winners) == 1 else "draw"
        return {"rule": "D5", "sunk": sunk, "result": result}


RULESET = DuelRules()
