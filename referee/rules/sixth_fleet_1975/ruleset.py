"""The Sixth Fleet (1975) ruleset object: the methods the engine and the PBEM referee call.

``RULESET.new_game`` sets up the position before set-up [11.0]; ``awaiting`` says whose orders
the game waits for; ``validate`` lists every violation of an orders file, each with its case;
``resolve`` carries the orders out with injected dice until the next player's step or a
pending decision; ``view`` is a side's view; ``score`` the victory points [13.0].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.driver import drive
from referee.engine.optional_rules import chosen_options
from referee.engine.orders import OrdersDoc
from referee.engine.ruleset import (
    OptionsReport,
    PositionFacts,
    Ruleset,
    ScriptedPlayer,
    UnitOptions,
    starts_without_later_flags,
)
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.air import holding_box
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.flags import NEW_GAME_FLAGS
from referee.rules.sixth_fleet_1975.middle_east import TABLE_FILE, prepare_14_3, read_table_14_3
from referee.rules.sixth_fleet_1975.optional import OPTIONAL_RULES
from referee.rules.sixth_fleet_1975.orders_file import (
    apply_standing,
    carry_out_answer,
    check_answers,
    check_header,
    check_standing,
    check_words,
)
from referee.rules.sixth_fleet_1975.phases import FLOW, Flow, auto
from referee.rules.sixth_fleet_1975.position import move_piece
from referee.rules.sixth_fleet_1975.victory import score_13_0
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY
from referee.source.boxes import carrier_of
from referee.source.model import Module

RULESET_ID = "sixth_fleet_1975"


class SixthFleet1975(Ruleset, ScriptedPlayer, UnitOptions, PositionFacts):
    id = RULESET_ID
    name = "SPI Sixth Fleet (1975)"
    facts = SixthFleetFacts
    flow: Flow = FLOW
    """The phases and tasks (:mod:`phases`); a derived ruleset gives its own."""

    # ---- a new game ---------------------------------------------------------------------------
    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """Every piece of the scenario: fixed placements made [11.1], the rest unplaced,
        reinforcements waiting [12.2]; the first side's set-up is awaited. With optional rule
        14.3 the Israeli air units are added, unplaced, and the 14.3 table is kept for the
        Soviet roll [14.3]."""
        from referee.errors import UserError

        module.scenario(scenario)  # an unknown one: a UserError naming those there are
        options = chosen_options(self.name, OPTIONAL_RULES, module, scenario, options)
        game = Game.for_scenario(module, scenario)
        sc = game.scenario
        units: dict[str, UnitState] = {}
        for side, ids in sorted(sc.forces.items()):
            for pid in ids:
                units[pid] = UnitState(pid, side, None, "unplaced")
        for r in sc.reinforcements:
            for pid in r.units:
                units[pid] = UnitState(pid, r.side, None, "reinforcements")
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=0,
            phase=seq.SETUP,
            active_side=sc.setup_order[0],
            units=units,
            stacks={},
            options=options,
        )
        state = SixthFleetFacts.put(
            state,
            losses=[],
            destroyed_defended=[],
            entered=True,
            # rulings made after games began to be played: recorded so that an older
            # archive (no key) keeps replaying with the reading it was played under
            flags=dict(NEW_GAME_FLAGS),
        )
        assigned: dict[str, str] = {}
        for f in sorted(sc.fixed, key=lambda f: (f.status is not None, f.unit)):
            cv = carrier_of(f.status)
            if cv is not None:
                u = state.units[f.unit]
                state = state.with_unit(UnitState(u.id, u.side, None, holding_box(cv)))
                assigned[f.unit] = cv
            else:
                state = move_piece(game, state, f.unit, f.hex)
        for pool in sc.pools:
            if pool.where == "carrier" and pool.carrier:
                for u in pool.units:
                    assigned[u] = pool.carrier
        state = SixthFleetFacts.put(state, assigned=assigned)
        if "14.3" in state.options:
            table = read_table_14_3(module)
            if table is None:
                raise UserError(
                    f"optional rule 14.3 needs the Middle East air table {TABLE_FILE} in the "
                    f"module source ({module.root})",
                    hint="columns d6,country,units; see docs/interpretations.md [14.3]",
                )
            state = prepare_14_3(game, state, table)
        return state

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts older versions of this ruleset made for the same game: without the
        flags of the later rulings (:data:`NEW_GAME_FLAGS`, oldest first), the newest ruling
        dropped first, i.e. under the older readings [8.5][8.5.4]. ``verify`` accepts each as
        the start of an archive begun before the ruling."""
        return starts_without_later_flags(state, NEW_GAME_FLAGS, SixthFleetFacts)

    # ---- whose turn -------------------------------------------------------------------------
    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        if state.pending:
            pd = state.pending[0]
            return pd.side, f"{pd.side} answer to {pd.id}: {pd.prompt} [{pd.rule}]"
        if state.phase == seq.GAME_OVER:
            return "", "nothing: the game is over [13.0]"
        side = state.active_side or ""
        return side, f"{seq.describe(state)}"

    # ---- validation ---------------------------------------------------------------------------
    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """The file as a whole (:mod:`orders_file`), then the orders of the current phase by
        that phase's own check (:attr:`flow`) -- in one pass: the rule check runs on every
        order whose words are known even when other lines are at fault (issue 12 §2). A
        problem that concerns no one order is placed at the header of its section."""
        from referee.rules.sixth_fleet_1975.setup import SUMMARY_CODES

        errors = [p for p in self._problems(module, state, orders) if p.severity == "error"]
        # what a partial set-up still lacks comes after the real mistakes (issue 31)
        return _sorted([p for p in errors if p.code not in SUMMARY_CODES]) + [
            p._replace(summary=True) for p in errors if p.code in SUMMARY_CODES
        ]

    def warnings(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """What legal orders make certain before any die: units eliminated, grounded or
        retreated, decisions left to a player, victory points at stake (:mod:`forecast`).
        Only for orders with no violation: a refused file changes nothing."""
        from referee.rules.sixth_fleet_1975.forecast import forecast

        probs = self._problems(module, state, orders)
        if any(p.severity == "error" for p in probs):
            return []
        out = [p for p in probs if p.severity == "warning"]
        steps = self.flow.steps(state)
        if not orders.answers and [s for s in orders.sections if s != "standing"] and steps:
            game = Game.of(module, state)
            out += forecast(
                game,
                state,
                orders,
                steps.carry_out,
                self.flow.handlers(game),
                lambda s: auto(game, s),
            )
        seen: set[tuple[str, str]] = set()
        uniq = []
        for p in out:
            key = (p.rule, p.unit or p.message)  # one warning per unit and rule
            if key not in seen:
                seen.add(key)
                uniq.append(_at_section(p, orders, self.flow.section_of(state)))
        return _sorted(uniq)

    def _problems(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        game = Game.of(module, state)
        section = self.flow.section_of(state)
        head = check_header(game, state, orders, section)
        side = orders.side if orders.side in game.sides else None
        words = check_words(game, state, orders, side)
        out = head + words
        if side is None:
            return out
        out += check_standing(game, state, side, orders)
        if state.pending or orders.answers:
            out += check_answers(state, orders)
            return out
        step = [s for s in orders.sections if s != "standing"]
        if not step or (section is not None and step[0] != section) or side != state.active_side:
            return out  # standing orders only, or orders for another step
        bad_lines = {v.where.line for v in words if v.where is not None}
        known = tuple(o for o in orders.orders if o.pos.line not in bad_lines)
        steps = self.flow.steps(state)
        if steps is not None and steps.check is not None:
            out += [_at_section(p, orders, section) for p in steps.check(game, state, side, known)]
        return out

    # ---- resolution ---------------------------------------------------------------------------
    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """Orders ``validate`` accepted, carried out by the current phase (or the answer given
        to the pending decision), then the queued tasks run until a player must act."""
        game = Game.of(module, state)
        side = str(orders.side)
        events: list[Event] = []
        state = apply_standing(state, side, orders)
        if orders.answers:
            state = carry_out_answer(state, side, orders, events)
        elif [s for s in orders.sections if s != "standing"]:
            steps = self.flow.steps(state)
            if steps is not None and steps.carry_out is not None:
                state = steps.carry_out(game, state, side, orders.orders, events)
        else:
            return Outcome(state, (), ())
        state = drive(state, self.flow.handlers(game), lambda s: auto(game, s), dice, events)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def start(self, module: Module, state: GameState, dice: Dice) -> Outcome:
        """Run whatever is automatic from ``state`` (entering phases, skipping empty ones)."""
        game = Game.of(module, state)
        events: list[Event] = []
        state = drive(state, self.flow.handlers(game), lambda s: auto(game, s), dice, events)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    # ---- views and score -------------------------------------------------------------------
    def marked_locations(self, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
        """The Destroyed marker on each Defended hex whose intrinsic DEF is gone [10.44]."""
        return {"Destroyed": tuple(facts_of(state).destroyed_defended or ())}

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """Sixth Fleet is an open game: a side sees the whole board. It does not see the
        other side's standing orders (they are decisions not yet taken)."""
        if side is None:
            return state
        standing = {k: v for k, v in (facts_of(state).standing or {}).items() if k == side}
        return SixthFleetFacts.put(state, standing=standing)

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        return score_13_0(Game.of(module, state), state)

    # ---- the orders vocabulary and the optional services ------------------------------------
    vocabulary = VOCABULARY
    standing_choices = True
    """Its options offer standing orders in every step, answers included (``draft.py``)."""

    def options(
        self, module: Module, state: GameState, subject: str, *, limit: int = 20
    ) -> OptionsReport:
        """``referee options``: a unit's moves and attacks, or a hex's attacks [5.0][8.3]."""
        from referee.rules.sixth_fleet_1975.options_report import options_report

        return options_report(module, state, subject, limit)

    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        """The scripted player's orders for the awaited step (``scripted.py``)."""
        from referee.rules.sixth_fleet_1975.scripted import orders_for

        return orders_for(module, state, self)


def _at_section(p: Violation, doc: OrdersDoc, section: str | None) -> Violation:
    """An unplaced problem at the header of the section it concerns (never at 1:1, which
    may be a comment)."""
    if p.where is not None or section is None:
        return p
    pos = doc.header_pos.get(f"[{section}]")
    return p._replace(where=pos) if pos is not None else p


def _sorted(vs: list[Violation]) -> list[Violation]:
    return sorted(
        vs,
        key=lambda v: (
            v.where.line if v.where else 0,
            v.where.col if v.where else 0,
            v.rule,
            v.message,
        ),
    )


RULESET = SixthFleet1975()
