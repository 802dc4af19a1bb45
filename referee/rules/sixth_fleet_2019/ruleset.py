"""The Sixth Fleet (2019) ruleset object: the registry's entry point (``docs/rulesets.md``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.orders import OrdersDoc
from referee.engine.ruleset import (
    HiddenInformation,
    OptionsReport,
    PhaseTitles,
    PositionFacts,
    Ruleset,
    ScriptedPlayer,
    UnitOptions,
)
from referee.rules.sixth_fleet_2019 import steps, strike
from referee.rules.sixth_fleet_2019.control import all_control
from referee.rules.sixth_fleet_2019.facts import SixthFleet2019Facts, facts_of
from referee.rules.sixth_fleet_2019.game import NEUTRAL, NEUTRAL_NATIONS, PROVISIONAL, Game
from referee.rules.sixth_fleet_2019.reinforce import WAITING
from referee.rules.sixth_fleet_2019.sequence import BY_ID, OVER
from referee.rules.sixth_fleet_2019.victory import level_4_4, unit_vp, victory_points_4_3
from referee.rules.sixth_fleet_2019.vocabulary import VOCABULARY
from referee.source.model import Module


class SixthFleet2019(
    Ruleset, HiddenInformation, PhaseTitles, ScriptedPlayer, UnitOptions, PositionFacts
):
    """Hidden information: the strike marker cups and the markers a side holds are hidden
    from the other side (provisional 17.0, ``strike.py``), so the referee publishes views and
    commitments only."""

    id = "sixth_fleet_2019"
    name = "Decision Games Sixth Fleet (2019)"
    vocabulary = VOCABULARY
    facts = SixthFleet2019Facts

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """Every unit of the scenario where it sets up (22.0 is not in the seed: the module's
        scenario placements are estimates), its reinforcements waiting off the map until a
        ``reinforce`` action brings them in (provisional 10.0); neutrals neutral [2.3];
        control as the countries start [3.2]; turn 1, the Soviet Random Events Phase [5.0]."""
        from referee.errors import UserError

        game = Game.of(module)
        module.scenario(scenario)  # an unknown one: a UserError naming those there are
        if options:
            raise UserError(
                "Sixth Fleet (2019) has no optional rules here (20.0 is not in the seed)"
            )
        sc = module.scenarios[scenario]
        fixed = {f.unit: f.hex for f in sc.fixed}
        units: dict[str, UnitState] = {}
        stacks: dict[str, list[str]] = {}
        for side, ids in sorted(sc.forces.items()):
            for uid in ids:
                nat = game.unit(uid).nationality
                owner = NEUTRAL if nat in NEUTRAL_NATIONS else side
                loc = fixed.get(uid)
                units[uid] = UnitState(uid, owner, loc, None if loc else "unplaced")
                if loc:
                    stacks.setdefault(loc, []).append(uid)
        for r in sc.reinforcements:  # they wait off the map (provisional 10.0, reinforce.py)
            for uid in r.units:
                units[uid] = UnitState(uid, r.side, None, WAITING)
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=1,
            phase="soviet_events",
            active_side="Soviet",
            units=units,
            stacks={k: tuple(v) for k, v in stacks.items()},
        )
        state = SixthFleet2019Facts.put(
            state,
            joined={},
            destroyed_bases=[],
            patrol=[],
            actions_left=0,
            event_actions=0,
            **{strike.KEY: strike.set_up(game, scenario)},
        )
        return SixthFleet2019Facts.put(state, control=all_control(game, state))

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        if state.phase == OVER:
            return "", "nothing: the game is over [4.0]"
        ph = BY_ID[state.phase]
        if ph.id.endswith("_events"):
            return str(ph.side), f"{ph.title} of turn {state.turn}: `roll` [5.1]"
        return str(
            ph.side
        ), f"{ph.title} of turn {state.turn}: {facts_of(state).actions_left} action(s) [6.1]"

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        return steps.validate(Game.of(module), state, orders)

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """The same walk as ``validate`` (:func:`steps.run`), with the dice."""
        events: list[Event] = []
        _, after = steps.run(Game.of(module), state, orders, dice, events)
        return Outcome(after, tuple(events), tuple(dice.rolls))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """Fog of war (18.0) is not in the seed: both players see every unit. The strike
        marker cups and the markers the other side holds are hidden (provisional 17.0), and so
        are the other side's standing orders (decisions he has not yet had to take)."""
        seen = strike.view_of(Game.of(module), state, side)
        standing = facts_of(seen).standing
        if side is None or not standing:
            return seen
        return SixthFleet2019Facts.put(
            seen, standing={k: v for k, v in standing.items() if k == side}
        )

    def hidden_pools(self, module: Module, state: GameState) -> dict[str, list[str]]:
        """The strike marker cups as committed at set-up [2.0], [2.12] (provisional 17.0), so
        ``verify`` replays every draw after ``reveal``."""
        return strike.hidden_pools(state)

    def deck_contents(self, module: Module, state: GameState) -> dict[str, list[str] | int]:
        """The strike marker cups [2.0] as ``state`` knows them (provisional 17.0): the
        markers of each cup, or on a side's view only how many the other side's cups hold."""
        return strike.deck_contents(state)

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        game = Game.of(module)
        vp = victory_points_4_3(game, state)
        out: dict[str, Any] = {
            "rule": "4.3",
            "vp": {s: v["vp"] for s, v in vp.items()},
            "vp_label": "VP for key zones, enemy units and bases [4.3]",
            # the enemy units each side scores, for the report's loss table [4.3.1]
            "destroyed": {
                s: [{"unit": u, "vp": unit_vp(game, u)} for u in v["units"]] for s, v in vp.items()
            },
            "detail": vp,
            "note": "VP values are estimates (the VP chart is not in the seed)",
            **level_4_4(game, vp),
        }
        if facts_of(state).result is not None:
            out["result"] = facts_of(state).result
        out["provisional"] = (
            PROVISIONAL + ": combat (9.0), events, the VP chart and strike markers (17.0)"
        )
        return out

    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport:
        from referee.rules.sixth_fleet_2019.options import options_report

        return options_report(module, state, subject, limit)

    def side_orders(self, module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
        """The side's orders that no unit gives, for the viewer's orders mode (``roll``
        [5.1], ``pass`` [6.0]; ``options.py``)."""
        from referee.rules.sixth_fleet_2019.options import side_orders

        return side_orders(module, state, side)

    force_verbs = frozenset({"move", "attack", "refit", "reinforce", "land", "embark", "patrol"})
    """Each action is one force [6.6], [8.1]: these verbs' lines name several units."""

    def force_accepts(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """Whether ``validate`` accepts the force's ``line`` as a one-action file of ``side``
        (the check ``options`` judges every line by)."""
        from referee.rules.sixth_fleet_2019.options import accepted

        return accepted(Game.of(module), state, side, line)

    def force_joins(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """The check of the force itself, run before the rest of its line ([8.1], [6.6],
        [2.11]; ``forces.py``)."""
        from referee.rules.sixth_fleet_2019.options import joins

        return joins(Game.of(module), state, side, line)

    def force_room(
        self, module: Module, state: GameState, side: str, verb: str, rest: str, units: list[str]
    ) -> list[tuple[int, list[str]]]:
        """Where the line ends: a base's air units [7.1.3], a small island's ground units
        [7.1.2], a holding box's places [8.3.4] (``forces.py``)."""
        from referee.rules.sixth_fleet_2019.options import force_room

        return force_room(Game.of(module), state, side, verb, rest, units)

    def alike(self, module: Module, state: GameState, side: str) -> list[list[str]]:
        """The enemy units of one kind in one zone, which one attack may name together
        [9.0] (provisional)."""
        from referee.rules.sixth_fleet_2019.options import alike_targets

        return alike_targets(Game.of(module), state, side)

    def force_most(self, module: Module, state: GameState) -> dict[str, int]:
        """The units one Refit or Reinforcement action takes [6.4] (module parameters,
        estimates: 10.0 and 11.0 are missing) and the ground units of one amphibious
        invasion [7.1.2]."""
        game = Game.of(module)
        return {
            "refit": game.param("refit_units_per_action"),
            "reinforce": game.param("reinforce_units_per_action"),
            "land": game.param("small_island_ground"),
        }

    def phase_title(self, module: Module, state: GameState) -> str | None:
        """The phase's name as the sequence of play [5.0] gives it."""
        from referee.rules.sixth_fleet_2019.sequence import BY_ID

        phase = BY_ID.get(state.phase)
        return phase.title if phase is not None else None

    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        from referee.rules.sixth_fleet_2019.scripted import scripted_orders

        return scripted_orders(Game.of(module), state)


RULESET = SixthFleet2019()
