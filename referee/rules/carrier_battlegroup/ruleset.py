"""The Carrier Battlegroup ruleset: the player's USN against the Soviet side the referee runs.

``validate`` checks the step's orders with the phase's check; ``carry_out`` carries the
orders ``validate`` accepted out with the injected dice [5.0]. Hidden: the pools, the SBGs'
and coastal units' contents (committed at set-up by ``hidden_pools``), every roll that draws
from them (``hidden_from=("USN",)``) until ``referee reveal`` at the end of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from referee.engine.core import Dice, Event, GameState, Outcome, Violation
from referee.engine.orders import OrdersDoc
from referee.engine.ruleset import (
    Due,
    HiddenInformation,
    PositionFacts,
    Ruleset,
    ScriptedPlayer,
    Submissions,
    UnitOptions,
)
from referee.rules.carrier_battlegroup import launch, scripted, setup, view
from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of
from referee.rules.carrier_battlegroup.phases import PHASES
from referee.rules.carrier_battlegroup.vocabulary import VOCABULARY
from referee.source.model import Module

if TYPE_CHECKING:  # the return type of options only
    from referee.engine.ruleset import OptionsReport


class CarrierBattlegroup(
    Ruleset, Submissions, HiddenInformation, ScriptedPlayer, UnitOptions, PositionFacts
):
    id = "carrier_battlegroup"
    name = "Carrier Battlegroup"
    vocabulary = VOCABULARY
    referee_sides = ("Soviet",)
    facts = CbgFacts

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        return setup.new_game(module, scenario, game_id, options)

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts older versions of this ruleset made for the same game: without the
        flags of later rulings (readings.FLAG_GENERATIONS, [5.0 step 10], [12.4]).
        ``verify`` accepts each as the start of an archive begun before the ruling."""
        from referee.rules.carrier_battlegroup.readings import earlier_starts

        return earlier_starts(state)

    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        if state.active_side is None or state.phase not in PHASES:
            return ()
        p = PHASES[state.phase]
        when = "set-up" if state.turn == 0 else f"turn {state.turn}"
        return (Due(str(p.side), f"{p.side} {p.title}, {when} [{p.rule}]"),)

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        d = self.due(module, state)
        return (d[0].side, d[0].what) if d else ("", "the game is over")

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        if state.phase not in PHASES or state.active_side is None:
            return [Violation("24.0", "the game is over")]
        p = PHASES[state.phase]
        out: list[Violation] = []
        for o in orders.orders:
            if o.section not in p.sections:
                out.append(
                    Violation(
                        p.rule,
                        f"[{o.section}] orders are not for the {p.title}",
                        o.pos,
                        hint="sections now: " + ", ".join(f"[{s}]" for s in p.sections),
                    )
                )
        assert p.steps is not None
        return out + p.steps.check(module, state, orders)

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        steps = PHASES[state.phase].steps
        assert steps is not None
        state, events = steps.carry_out(module, state, orders, dice)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        return state if side in (None, "Soviet") else view.player_view(state)

    def view_notes(
        self, module: Module, seen: GameState, side: str, orders: OrdersDoc
    ) -> list[Violation]:
        """Orders whose verdict the units hidden from the player could decide [19.1]."""
        return launch.view_notes_19_1(module, seen, orders) if seen.phase == "turn" else []

    def public_view(self, module: Module, state: GameState) -> GameState:
        return view.player_view(state)

    def face_down(self, module: Module, state: GameState) -> dict[str, list[str]]:
        """The SBGs' ships and the coastal defense units the player's view counts but does
        not name [2.2], [17.0]: shown masked in his VASSAL saves."""
        return view.face_down(state)

    def hidden_pools(self, module: Module, state: GameState) -> dict[str, list[str]]:
        """[4.0], [16.2]: each pool as committed at set-up (and SBG/coastal contents once
        drawn), so ``verify`` can replay every draw after ``reveal``."""
        out = {f"pool:{k}": list(v) for k, v in sorted(facts_of(state).pools.items())}
        for n, g in sorted(facts_of(state).sbgs.items()):
            if not g["revealed"]:
                out[n] = list(g["units"])
        c = facts_of(state).coastal
        if c["units"] and not c["revealed"]:
            out["coastal"] = list(c["units"])
        return out

    def may_reveal(self, module: Module, state: GameState) -> bool:
        return state.active_side is None

    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        return scripted.scripted_orders(module, state)

    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport:
        """What the USN may do now, from the validator's own checks; nothing hidden."""
        from referee.rules.carrier_battlegroup.options import options_report

        return options_report(module, state, subject, limit)

    def side_orders(self, module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
        """The USN's orders that no one unit gives, for the viewer's orders mode (``escort``
        [4.0 step 7], standing ``breakoff`` [18.2] and ``lose`` [14.1]; ``options.py``)."""
        from referee.rules.carrier_battlegroup.options import side_orders

        return side_orders(module, state, side)

    def allowances(self, module: Module, state: GameState, side: str) -> dict[str, int]:
        """The USN's LP, Hangar room and cruise missile room [9.1], [9.2] and a turn's one
        Intelligence attempt [11.0], which the ``buy`` and ``intel`` choices spend (options
        format 8; ``options.py``)."""
        from referee.rules.carrier_battlegroup.options import allowances

        return allowances(module, state) if side == "USN" else {}

    force_verbs = frozenset({"trade"})
    """Several cruise missiles go under one ship in one line, ``trade MISSILE ... -> SHIP``
    [5.0 step 2c] (options format 6: ``force_since``)."""
    force_since: ClassVar[Mapping[str, int]] = {"trade": 6}

    def force_accepts(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """Whether ``validate`` accepts the one-line file of the Logistics Phase (the check
        ``options`` judges every ``trade`` by)."""
        from referee.rules.carrier_battlegroup.options import accepted

        return accepted(module, state, "logistics", line)

    def force_room(
        self, module: Module, state: GameState, side: str, verb: str, rest: str, units: list[str]
    ) -> list[tuple[int, list[str]]]:
        """The ship's room for cruise missiles once they are under it [15.1], [9.2]: its
        capacity less those it carries now."""
        from referee.rules.carrier_battlegroup.cargo import capacity_of

        ship = rest.removeprefix("-> ").strip()
        if verb != "trade" or ship not in module.pieces():
            return []
        under = sum(1 for s in facts_of(state).missiles.values() if s == ship)
        return [(capacity_of(module, ship) - under, list(units))]

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        from referee.rules.carrier_battlegroup.end_of_turn import losses_24_1

        d = facts_of(state)
        return {
            "vp": d.vp,  # one VP track, the US player's [24.1]
            "losses": losses_24_1(module, state),
            "alert": d.alert,
            "lp": d.lp,
            "result": d.result,
            "turns": (d.mission or {}).get("turns"),
            "rule": "24.1",
        }


RULESET = CarrierBattlegroup()

__all__ = ["RULESET", "CarrierBattlegroup", "Event"]
