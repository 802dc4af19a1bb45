"""Toy ruleset "toy_sealed": simultaneous sealed plots and hidden units (issue 10 §4, §5).

Each Game-Turn both sides plot in secret, then the plots are carried out together [S1]:

    move UNIT HEX     an own unit at most 2 hexes                                [S1]
    hold UNIT         the unit stays                                             [S1]

Then the weather is rolled in public (d6, [S2]), and every hidden unit within 2 hexes of an
enemy unit is searched for: a d6 that the hiding side sees and the searcher does not (its
value, even the fact it was rolled, would tell where the unit is); on 5-6 the unit is
detected and visible to both from then on [S3]. The Soviet submarine SO-SG-1 and the US
destroyer US-DD-1 start hidden from the enemy [S4]. The game ends after the scenario's turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, Violation
from referee.engine.ruleset import Due, HiddenInformation, Ruleset, SealedResolution, Submissions
from referee.source.model import Module
from tests.pbem import toy, toys_common

ID = "toy_sealed"
HIDDEN = ("SO-SG-1", "US-DD-1")
START = {
    "US-CV-1": "0203",
    "US-DD-1": "0202",
    "US-F4.1": "0101",
    "SO-SG-1": "0506",
    "SO-DD-1": "0405",
    "SO-T16.1": "0608",
}
ARITY = {"move": 2, "hold": 1}


def parse_orders(text: str, file: str) -> toy.ToyOrdersDoc:
    return toy.parse_with(text, file, ARITY)


class SealedPlots(Ruleset, Submissions, SealedResolution):
    """The sealed plots, with nothing hidden but the plots themselves until both are in."""

    id = ID
    name = "Toy sealed plots (tests only)"
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
            phase="plot",
            side="NATO",
            data={"detected": [], "weather": []},
            options=options,
        )

    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        if state.active_side is None:
            return ()
        return tuple(
            Due(s.id, f"{s.id} sealed plot, Game-Turn {state.turn} [S1]", "sealed")
            for s in module.sides
        )

    def validate(self, module: Module, state: GameState, orders: Any) -> list[Violation]:
        out: list[Violation] = []
        grid = module.map.grid
        seen: set[str] = set()
        for o in orders.orders:
            u = state.units.get(o.args[0])
            if u is None or u.side != orders.side or u.location is None:
                out.append(Violation("S1", f"{o.args[0]} is not one of your units", o.where))
                continue
            if u.id in seen:
                out.append(Violation("S1", f"{u.id} has two plots", o.where))
            seen.add(u.id)
            if o.verb == "move":
                if not grid.is_valid_id(o.args[1]):
                    out.append(Violation("S1", f"no hex {o.args[1]}", o.where))
                elif grid.distance(u.location, o.args[1]) > 2:
                    out.append(Violation("S1", f"{u.id} moves at most 2 hexes", o.where))
        return out

    def carry_out(self, module: Module, state: GameState, orders: Any, dice: Dice) -> Outcome:
        raise AssertionError("plots are sealed: the referee calls resolve_sealed")

    def resolve_sealed(
        self, module: Module, state: GameState, orders: Mapping[str, Any], dice: Dice
    ) -> Outcome:
        events: list[Event] = []
        hidden = self._hidden(state)
        for side in sorted(orders):
            enemy = (toys_common.other(module, side),)
            for o in orders[side].orders:
                if o.verb != "move":
                    continue
                u = state.units[o.args[0]]
                secret = enemy if u.id in hidden else ()
                events.append(
                    Event(
                        "move",
                        "S1",
                        f"{u.id} to {o.args[1]}",
                        {"unit": u.id, "from": u.location, "to": o.args[1]},
                        hidden_from=secret,
                    )
                )
                state = toys_common.moved(state, u.id, o.args[1])
        w = dice.roll(6, "weather", "S2")
        events.append(Event("weather", "S2", f"weather {w}", {"roll": w}))
        state = state.with_data(weather=[*state.data.get("weather", []), w])
        grid = module.map.grid
        for uid in sorted(self._hidden(state)):
            u = state.units[uid]
            near = [
                e
                for e in state.units.values()
                if e.side != u.side
                and e.location is not None
                and u.location is not None
                and grid.distance(e.location, u.location) <= 2
            ]
            if not near:
                continue
            searcher = near[0].side
            r = dice.roll(6, f"search for {uid}", "S3", hidden_from=(searcher,))
            if r >= 5:
                events.append(
                    Event("detect", "S3", f"{uid} detected at {u.location}", {"unit": uid})
                )
                state = state.with_data(detected=[*state.data.get("detected", []), uid])
            else:
                events.append(
                    Event(
                        "search",
                        "S3",
                        f"{uid} not found (roll {r})",
                        {"unit": uid},
                        hidden_from=(searcher,),
                    )
                )
        sc = module.scenarios[state.scenario]
        if state.turn >= sc.turns:
            state = state.evolve(phase="over", active_side=None)
        else:
            state = state.evolve(turn=state.turn + 1)
        events.append(Event("phase", "S1", f"next: Game-Turn {state.turn} {state.phase}"))
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _hidden(self, state: GameState) -> set[str]:
        return {u for u in HIDDEN if u not in state.data.get("detected", [])}

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        if side is None:
            return state
        hidden = {u for u in self._hidden(state) if state.units[u].side != side}
        units = {k: v for k, v in state.units.items() if k not in hidden}
        stacks = {
            h: tuple(x for x in ids if x not in hidden)
            for h, ids in state.stacks.items()
            if any(x not in hidden for x in ids)
        }
        return state.evolve(units=units, stacks=stacks)

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        return {"detected": len(state.data.get("detected", [])), "rule": "S5"}


class SealedRuleset(SealedPlots, HiddenInformation):
    """The sealed plots with hidden submarines (``HIDDEN``) until detected [S4]."""


RULESET = SealedRuleset()
SCHEMA = toys_common.install(RULESET)
