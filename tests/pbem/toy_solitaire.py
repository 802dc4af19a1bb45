"""Toy ruleset "toy_solitaire": one human side against a referee-run side (issue 10 §6).

NATO is played by a person; the Soviet side by this procedure, as Carrier Battlegroup's
Soviet system runs itself [C1]. The Soviet units start face down in group SBG-1 (its hex is
public, its contents are not) [C2]; a cup of incident chits is committed at set-up [C3].

NATO's orders each Game-Turn (``move`` phase):

    move UNIT HEX      an own unit at most 2 hexes                                 [C4]
    search HEX         a public d6: on 5-6 a face-down group in HEX is revealed     [C5]

Then the Soviet procedure [C6]: a chit is drawn from the cup with a roll NATO never sees;
``raid`` moves SBG-1 one hex toward the nearest NATO unit (ties broken by a hidden roll),
``calm`` and ``glitch`` do nothing. A group that ends next to a NATO unit is revealed
(contact, [C7]): its units are visible from then on. Drawn chits stay hidden until the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, Violation
from referee.engine.ruleset import Due, HiddenInformation, Ruleset, Submissions
from referee.source.model import Module
from tests.pbem import toy, toys_common

ID = "toy_solitaire"
GROUP = "SBG-1"
GROUP_UNITS = ("SO-DD-1", "SO-SG-1")
# The cup: ids that appear nowhere else, so a test can search published files for them.
CHITS = ("CHIT-RAID-A", "CHIT-RAID-B", "CHIT-CALM-Q", "CHIT-GLITCH-Z", "CHIT-RAID-C")
START = {"US-CV-1": "0203", "US-DD-1": "0202", "SO-DD-1": "0506", "SO-SG-1": "0506"}
ARITY = {"move": 2, "search": 1}


def parse_orders(text: str, file: str) -> toy.ToyOrdersDoc:
    return toy.parse_with(text, file, ARITY)


class SolitaireRuleset(Ruleset, Submissions, HiddenInformation):
    id = ID
    name = "Toy solitaire (tests only)"
    referee_sides = ("Soviet",)
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
            data={
                "groups": {GROUP: {"hex": "0506", "revealed": False}},
                "cup": list(CHITS),
                "drawn": [],
            },
            options=options,
        )

    def hidden_pools(self, module: Module, state: GameState) -> dict[str, list[str]]:
        """The cup and the contents of every face-down group [C2] [C3]."""
        out = {"cup": list(state.data.get("cup", []))}
        for g, d in sorted(state.data.get("groups", {}).items()):
            if not d["revealed"]:
                out[g] = sorted(u.id for u in state.units.values() if u.location == d["hex"])
        return out

    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        if state.active_side is None:
            return ()
        return (Due("NATO", f"NATO move, Game-Turn {state.turn} [C4]"),)

    def validate(self, module: Module, state: GameState, orders: Any) -> list[Violation]:
        out: list[Violation] = []
        grid = module.map.grid
        for o in orders.orders:
            if o.verb == "search":
                if not grid.is_valid_id(o.args[0]):
                    out.append(Violation("C5", f"no hex {o.args[0]}", o.where))
                continue
            u = state.units.get(o.args[0])
            if u is None or u.side != "NATO" or u.location is None:
                out.append(
                    Violation("C1", f"{o.args[0]} is not one of your units", o.where, o.args[0])
                )
            elif not grid.is_valid_id(o.args[1]):
                out.append(Violation("C4", f"no hex {o.args[1]}", o.where))
            elif grid.distance(u.location, o.args[1]) > 2:
                out.append(Violation("C4", f"{u.id} moves at most 2 hexes", o.where))
        return out

    def carry_out(self, module: Module, state: GameState, orders: Any, dice: Dice) -> Outcome:
        events: list[Event] = []
        for o in orders.orders:
            if o.verb == "move":
                u = state.units[o.args[0]]
                events.append(
                    Event(
                        "move",
                        "C4",
                        f"{u.id} to {o.args[1]}",
                        {"unit": u.id, "from": u.location, "to": o.args[1]},
                    )
                )
                state = toys_common.moved(state, u.id, o.args[1])
            else:
                r = dice.roll(6, f"search {o.args[0]}", "C5")
                found = [
                    g
                    for g, d in state.data["groups"].items()
                    if d["hex"] == o.args[0] and not d["revealed"]
                ]
                events.append(Event("search", "C5", f"search of {o.args[0]}: {r}", {}))
                if r >= 5 and found:
                    state = self._reveal(state, found[0], "C5", events)
        state = self._soviet_procedure(module, state, dice, events)
        sc = module.scenarios[state.scenario]
        if state.turn >= sc.turns:
            state = state.evolve(phase="over", active_side=None)
        else:
            state = state.evolve(turn=state.turn + 1)
        events.append(Event("phase", "C6", f"next: Game-Turn {state.turn} {state.phase}"))
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def _soviet_procedure(
        self, module: Module, state: GameState, dice: Dice, events: list[Event]
    ) -> GameState:
        """[C6]: every Soviet choice by the verifiable dice, hidden from NATO."""
        cup = list(state.data["cup"])
        if not cup:
            return state
        i = dice.roll(len(cup), "Soviet incident chit", "C6", hidden_from=("NATO",)) - 1
        chit = cup.pop(i)
        state = state.with_data(cup=cup, drawn=[*state.data["drawn"], chit])
        events.append(
            Event("draw", "C6", f"Soviet draws {chit}", {"chit": chit}, hidden_from=("NATO",))
        )
        events.append(Event("incident", "C6", "the Soviet side drew an incident chit", {}))
        if "RAID" not in chit:
            return state
        grid = module.map.grid
        g = state.data["groups"][GROUP]
        nato = [u.location for u in state.units.values() if u.side == "NATO" and u.location]
        steps = sorted(
            grid.neighbours(g["hex"]), key=lambda h: min(grid.distance(h, n) for n in nato)
        )
        best = [
            h
            for h in steps
            if min(grid.distance(h, n) for n in nato)
            == min(grid.distance(steps[0], n) for n in nato)
        ]
        to = best[0]
        if len(best) > 1:
            to = best[dice.roll(len(best), "SBG-1 tie", "C6", hidden_from=("NATO",)) - 1]
        groups = dict(state.data["groups"])
        groups[GROUP] = {**g, "hex": to}
        events.append(Event("move", "C6", f"{GROUP} to {to}", {"from": g["hex"], "to": to}))
        state = state.with_data(groups=groups)
        for uid in GROUP_UNITS:
            state = toys_common.moved(state, uid, to)
        if any(grid.distance(to, n) <= 1 for n in nato):
            state = self._reveal(state, GROUP, "C7", events)
        return state

    def _reveal(self, state: GameState, group: str, rule: str, events: list[Event]) -> GameState:
        groups = dict(state.data["groups"])
        groups[group] = {**groups[group], "revealed": True}
        at = groups[group]["hex"]
        units = sorted(
            u.id for u in state.units.values() if u.location == at and u.side == "Soviet"
        )
        events.append(
            Event("reveal", rule, f"{group} revealed: {', '.join(units)}", {"units": units})
        )
        return state.with_data(groups=groups)

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        if side is None or side == "Soviet":
            return state
        shown = {d["hex"] for d in state.data["groups"].values() if d["revealed"]}
        hidden = {
            u.id for u in state.units.values() if u.side == "Soviet" and u.location not in shown
        }
        units = {k: v for k, v in state.units.items() if k not in hidden}
        stacks = {
            h: tuple(x for x in ids if x not in hidden)
            for h, ids in state.stacks.items()
            if any(x not in hidden for x in ids)
        }
        data = {
            "groups": state.data["groups"],
            "cup_count": len(state.data["cup"]),
            "drawn_count": len(state.data["drawn"]),
        }
        return state.evolve(units=units, stacks=stacks, data=data)

    def public_view(self, module: Module, state: GameState) -> GameState:
        return self.view(module, state, "NATO")

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        revealed = sum(1 for d in state.data["groups"].values() if d["revealed"])
        return {"groups_revealed": revealed, "rule": "C8"}


RULESET = SolitaireRuleset()
SCHEMA = toys_common.install(RULESET)
