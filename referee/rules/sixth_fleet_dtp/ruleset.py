"""The DTP revised rules as a ruleset (``sixth_fleet_dtp``): the methods the engine and the
play-by-email referee call, over the kit's parts (``flow.py`` strings the phases together).

The game is open (every ship is visible; Detected is a status, not a secret [DTP 6.0]), so a
side's view is the position without the other side's standing orders. Set-up is SPI's [11.0,
DTP 11.0]; the scenario's players and retreat edges are the module's players table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, Violation
from referee.engine.optional_rules import chosen_options
from referee.engine.orders import Order, OrdersDoc
from referee.engine.ruleset import (
    Due,
    PositionFacts,
    Ruleset,
    ScriptedPlayer,
    Submissions,
    UnitOptions,
    starts_without_later_flags,
)
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.orders_file import apply_standing, check_words
from referee.rules.sixth_fleet_1975.ruleset import RULESET as SPI
from referee.rules.sixth_fleet_dtp import (
    flow,
    north_atlantic,
    optional,
    special_bases,
    westpac_options,
    westpac_reinforcement,
)
from referee.rules.sixth_fleet_dtp.facts import DtpFacts, facts_of
from referee.rules.sixth_fleet_dtp.flags import (
    LATER_FLAGS,
    NEW_GAME_FLAGS,
    WESTPAC_NEW_GAME_FLAGS,
)
from referee.rules.sixth_fleet_dtp.sequence import BY_ID
from referee.rules.sixth_fleet_dtp.victory import score_8_57
from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY
from referee.rules.sixth_fleet_dtp.westpac_national import side_flags_11_502
from referee.rules.sixth_fleet_dtp.westpac_score import score_11_5124
from referee.source.model import Module

RULESET_ID = "sixth_fleet_dtp"


class SixthFleetDTP(Ruleset, Submissions, ScriptedPlayer, UnitOptions, PositionFacts):
    id = RULESET_ID
    name = "Sixth Fleet, DTP revised rules"
    vocabulary = VOCABULARY
    facts = DtpFacts

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """SPI's start [11.0] (fixed placements, the rest to set up), under this ruleset, with
        the optional rules chosen that apply to the scenario (``optional.PLAYED``)."""
        module.scenario(scenario)  # an unknown one: a UserError naming those there are
        chosen = chosen_options(self.name, optional.PLAYED, module, scenario, options)
        # SPI's start takes SPI's options; the kit's own (Westpac's [DTP 11.513]) are kept here
        own = {r.id for r in westpac_options.OPTIONS}
        st = SPI.new_game(module, scenario, game_id, tuple(o for o in chosen if o not in own))
        st = st.evolve(options=chosen)
        spi_game = Game.of(module, st)  # SPI's start, as the kit's rulings below read it
        st = DtpFacts.put(st, damage={}, recycle={}, base_damage={}, combat={})
        # SPI's 8.5.4 ruling is SPI's combat phase, which the kit replaces [DTP 8.0]: its flag
        # stays out, so a DTP game starts as DTP games always have (and old archives verify)
        spi_only = {"attack_advanced_8_5_4"}
        flags = {k: v for k, v in (facts_of(st).flags or {}).items() if k not in spi_only}
        sides = side_flags_11_502(module)  # East Block and SEATO [DTP 11.502]
        st = DtpFacts.put(st, flags={**flags, **sides} if sides else flags)
        dtp_flags: dict[str, bool] | None = None
        if optional.med_11_0(module) and spi_game.scenario.reinforcements:
            # SPI's Reinforcement Interphase [12.2]: a ruling new games record
            dtp_flags = {**(dtp_flags or {}), **NEW_GAME_FLAGS}
        if westpac_reinforcement.has_track_11_506(spi_game):
            # the excess of ship reinforcements eliminated [DTP 11.5063]: a ruling new games record
            dtp_flags = {**(dtp_flags or {}), **WESTPAC_NEW_GAME_FLAGS}
        if dtp_flags is not None:
            st = DtpFacts.put(st, dtp_flags=dtp_flags)
        st = st.evolve(ruleset=self.id)
        # off-map bases and places held from the start [DTP 11.3 rule 2, 11.31 rule 1]
        return north_atlantic.start_11_3(Game.of(module, st), st)

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts older versions made for the same game: without the DTP flags of later
        rulings (:data:`flags.LATER_FLAGS`: the Med Campaign's Interphase [12.2], Westpac's
        elimination of over-limit ship reinforcements [DTP 11.5063]), so that ``verify``
        replays an archive begun before them."""
        return starts_without_later_flags(state, LATER_FLAGS, DtpFacts, key="dtp_flags")

    # ---- whose turn ---------------------------------------------------------------------------
    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        game = Game.of(module, state)
        return tuple(Due(s, self._what(state, s)) for s in flow.due_sides(game, state))

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        d = self.due(module, state)
        if not d:
            return "", "nothing: the game is over [DTP 4.1]"
        return d[0].side, d[0].what

    @staticmethod
    def _what(state: GameState, side: str) -> str:
        if state.phase == flow.SETUP:
            return f"{side} set-up [11.0]"
        p = BY_ID[state.phase]
        return f"{side}: Game-Turn {state.turn}, {p.title} [{p.rule}]"

    # ---- validation ---------------------------------------------------------------------------
    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """The header (game, Game-Turn, side awaited, phase, section [DTP 4.1]), the words
        (unknown units and hexes), and the phase's own check."""
        from referee.rules.sixth_fleet_1975.setup import SUMMARY_CODES

        game = Game.of(module, state)
        out = self._header(game, state, orders)
        side = orders.side if orders.side in game.sides else None
        words = check_words(game, state, orders, side, special_bases.off_map_names(module))
        if out or side is None:
            return _sorted(out + words)
        step = [s for s in orders.sections if s != "standing"]
        if not step:
            return _sorted(words)
        # one pass: the rule check runs on every order whose words are known (issue 31)
        bad_lines = {v.where.line for v in words if v.where is not None}
        known = [o for o in orders.orders if o.pos.line not in bad_lines]
        probs = [p for p in flow.check(game, state, side, known) if p.severity == "error"]
        first = _first_order_naming(orders)
        # what a partial set-up still lacks comes after the real mistakes
        return _sorted(
            words + [_placed(p, orders, first) for p in probs if p.code not in SUMMARY_CODES]
        ) + [
            _placed(p, orders, first)._replace(summary=True)
            for p in probs
            if p.code in SUMMARY_CODES and not words  # the units of a wrong line are not missing
        ]

    def _header(self, game: Game, state: GameState, doc: OrdersDoc) -> list[Violation]:
        top = (
            min(doc.header_pos.values(), key=lambda p: (p.line, p.col)) if doc.header_pos else None
        )
        out: list[Violation] = []
        if doc.game_id != state.game_id:
            out.append(
                Violation(
                    "orders",
                    f"these orders are for game {doc.game_id!r}, not {state.game_id!r}"
                    if doc.game_id is not None
                    else f"these orders name no game; this is game {state.game_id!r}",
                    top,
                    hint=f"game: {state.game_id}",
                )
            )
        if doc.turn != state.turn:
            out.append(
                Violation(
                    "DTP 4.1",
                    f"these orders are for Game-Turn {doc.turn}; the "
                    f"game is at Game-Turn {state.turn}"
                    if doc.turn is not None
                    else f"these orders name no Game-Turn; the game is at Game-Turn {state.turn}",
                    top,
                    hint=f"turn: {state.turn}",
                )
            )
        due = flow.due_sides(game, state)
        step = [s for s in doc.sections if s != "standing"]
        if step and doc.side not in due:
            # the case that governs first: an impulse out of turn or after a pass [DTP 8.2]
            # is refused by the impulse rule, not by the sequence of play [DTP 4.1]
            governing = flow.out_of_turn(game, state, doc.side)
            who = " or ".join(due) or "nobody"
            out += [Violation(p.rule, p.message, top, None, p.hint) for p in governing] or [
                Violation(
                    "DTP 4.1",
                    f"the game waits for {who}, not {doc.side}"
                    if doc.side
                    else f"the game waits for {who}; these orders name no side",
                    top,
                    hint=f"side: {due[0]}" if due else "the game is over",
                )
            ]
        expected = flow.section_of(state)
        if step and (len(step) > 1 or step[0] != expected):
            out.append(
                Violation(
                    "DTP 4.1",
                    f"expected one [{expected}] section",
                    doc.header_pos.get(f"[{step[0]}]", top),
                )
            )
        if step and doc.phase is not None and doc.phase.lower() != state.phase:
            out.append(
                Violation(
                    "DTP 4.1",
                    f"phase {doc.phase!r}: the game is in {state.phase!r}",
                    doc.header_pos.get("phase", top),
                    hint=f"phase: {state.phase} (or leave the phase line out)",
                )
            )
        return out

    # ---- resolution ---------------------------------------------------------------------------
    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        game = Game.of(module, state)
        side = str(orders.side)
        events: list[Event] = []
        state = apply_standing(state, side, orders)
        if [s for s in orders.sections if s != "standing"]:
            state = flow.carry_out(game, state, side, orders.orders, dice, events)
        return Outcome(state, tuple(events), tuple(dice.rolls))

    def options(self, module: Module, state: GameState, subject: str, *, limit: int = 20) -> Any:
        """``referee options``: a unit's moves with MP, detection attempts and attacks now
        (``options.py``) [5.0][DTP 6.2][DTP 8.2]."""
        from referee.rules.sixth_fleet_dtp.options import options_report

        return options_report(module, state, subject, limit)

    def side_orders(self, module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
        """The side's orders that no unit gives, for the viewer's orders mode (``pass``
        [DTP 8.2], ``commence`` [DTP 11.5101]; ``options.py``)."""
        from referee.rules.sixth_fleet_dtp.options import side_orders

        return side_orders(module, state, side)

    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        """The seeded random scripted player's orders for the awaited step (``scripted.py``)."""
        from referee.rules.sixth_fleet_dtp.scripted import scripted_orders

        return scripted_orders(module, state)

    # ---- views and score ----------------------------------------------------------------------
    def marked_locations(self, module: Module, state: GameState) -> Mapping[str, Sequence[str]]:
        """The Destroyed marker on each Defended hex whose intrinsic DEF is gone [10.44]."""
        return {"Destroyed": tuple(facts_of(state).destroyed_defended or ())}

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """An open game: a side sees the board, not the other side's standing orders."""
        if side is None:
            return state
        standing = {k: v for k, v in (facts_of(state).standing or {}).items() if k == side}
        return DtpFacts.put(state, standing=standing)

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """[DTP 8.57]: sunk and eliminated units their full value [13.0], damaged ships and
        subs 1/4 (D1) or 1/2 (D2), air units not back on the map as eliminated, the convoy
        by its damage [DTP 11.3 rule 7]; fractions kept; the scenario's bonuses; the level
        from the module's bands (``victory.score_8_57``). A module with an awards table
        (Westpac) scores it instead (``westpac_score.score_11_5124``) [DTP 11.5124]."""
        game, final = Game.of(module, state), state.phase == flow.GAME_OVER
        if "victory_awards" in module.tables:  # Westpac's awards table [DTP 11.5124]
            return {**score_11_5124(game, state, final), "final": final}
        return {**score_8_57(game, state), "final": final}


def _first_order_naming(doc: OrdersDoc) -> dict[str, Order]:
    """Each word (unit, target, hex) to the first order that names it: one pass, so that
    placing every problem costs the problems plus the orders, not their product (a 1 MB
    file of moves took 30 s; issue 31)."""
    first: dict[str, Order] = {}
    for o in doc.orders:
        for w in (*o.units, *o.targets, *o.hexes):
            first.setdefault(w, o)
    return first


def _placed(p: Violation, doc: OrdersDoc, first: Mapping[str, Order]) -> Violation:
    """A problem at the order whose words name its word, else at its section's header."""
    if p.where is not None:
        return p
    o = first.get(p.word) if p.word else None
    if o is not None:
        return p.at(o)
    # at the header of the section it concerns, never at line 1 (which may be a comment)
    sections = [pos for key, pos in doc.header_pos.items() if key.startswith("[")]
    pos = sections[0] if sections else next(iter(doc.header_pos.values()), None)
    return p._replace(where=pos)


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


RULESET = SixthFleetDTP()
