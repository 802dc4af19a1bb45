"""The naval module ruleset object: the methods the engine and the PBEM referee call.

``validate`` and ``resolve`` run the same step code (``steps.run``); ``validate`` rolls
nothing. The phases are data (``sequence.PHASES``); a pending decision (an Abort's choice
[27.32b], the naval fighters opposing the interdiction box [31.13]) stops resolution until its
owner answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Dice, Event, GameState, Outcome, UnitState, Violation
from referee.engine.orders import OrdersDoc
from referee.engine.ruleset import (
    Due,
    HostGame,
    PositionFacts,
    Ruleset,
    ScriptedPlayer,
    Submissions,
    UnitOptions,
    starts_without_later_flags,
)
from referee.engine.steps import WithheldDice
from referee.rules.naval_module import sequence as seq
from referee.rules.naval_module import steps
from referee.rules.naval_module.context import Game, place
from referee.rules.naval_module.facts import NavalFacts, facts_of
from referee.rules.naval_module.readings import NEW_GAME_FLAGS
from referee.rules.naval_module.vocabulary import VOCABULARY
from referee.source.model import Module

RULESET_ID = "naval_module"


class NavalModule(Ruleset, Submissions, ScriptedPlayer, UnitOptions, PositionFacts, HostGame):
    id = RULESET_ID
    name = "Naval units module (rules 25.0-32.0)"
    vocabulary = VOCABULARY
    facts = NavalFacts

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """The scenario's forces, placed where it fixes them (ports, zones, hexes); every ship
        undamaged and Ready unless its placement says ``status = "sailed"``, ground units
        embarked where it says ``status = "aboard:SHIP"``; the first player's Naval Readiness
        Phase of Game-Turn 1. A Naval Base set up off a port its side controls, or a second one
        on a port, is refused [32.21]."""
        from referee.errors import UserError

        module.scenario(scenario)  # an unknown one: a UserError naming those there are
        if options:
            raise UserError("the naval module has no optional rules", hint="drop the options")
        sc = module.scenarios[scenario]
        game = Game.of(module)
        units = {
            pid: UnitState(pid, side, None, "unplaced")
            for side, ids in sorted(sc.forces.items())
            for pid in ids
        }
        control = {
            name: str(sp.properties.get("control", "")) for name, sp in sorted(game.ports.items())
        }
        state = GameState(
            game_id=game_id,
            module_id=module.id,
            ruleset=self.id,
            scenario=scenario,
            turn=1,
            phase=seq.PHASES.first.id,
            active_side=sc.first_player,
            units=units,
            stacks={},
        )
        state = NavalFacts.put(
            state,
            phasing=sc.first_player,
            first=sc.first_player,
            control=control,
            flags=dict(NEW_GAME_FLAGS),
        )
        for f in sorted(sc.fixed, key=lambda f: f.unit):
            state = place(state, f.unit, f.hex)
        from referee.rules.naval_module.bases import setup_32_21

        problems = setup_32_21(game, state)
        if problems:
            raise UserError(
                f"scenario {scenario!r}: {problems[0]}",
                hint="move the Naval Base to a port its side controls in the scenario's [[fixed]]",
                exit_code=1,
            )
        return setup_status(game, state, sc.fixed)

    def due(self, module: Module, state: GameState) -> tuple[Due, ...]:
        """The one submission the game waits for (docs/rulesets.md, ``Due``): the answer to the
        first pending decision (an Abort's choice [27.32b], the naval fighters opposing the box
        [31.13]), else the orders of the side whose step it is -- the phasing player's readiness,
        Motorized Movement and Movement [26.12a] and combat, the other player's Naval Movement
        Interdiction [31.1] and Axis Reaction Phase [31.22], each host-result signature in turn
        [30.16], [31.13] -- or nothing once the game is over. Every naval fact is open, so ``what``
        is the same for both sides."""
        if state.pending:
            pd = state.pending[0]
            return (
                Due(pd.side, f"{pd.side} answer to {pd.id}: {pd.prompt} [{pd.rule}]", "answer"),
            )
        if state.phase == seq.GAME_OVER or state.active_side is None:
            return ()
        game = Game.of(module)
        return (Due(seq.actor(state, game.sides), seq.describe(state, game.sides)),)

    def earlier_starts(self, state: GameState) -> tuple[GameState, ...]:
        """The starts older versions of this ruleset made for the same game: without the
        flags of the later rulings (readings.NEW_GAME_FLAGS, oldest first: NM-43, NM-45, NM-46,
        NM-47), the newest dropped first. ``verify`` accepts each as the start of an archive
        begun before the ruling."""
        return starts_without_later_flags(state, NEW_GAME_FLAGS, NavalFacts)

    def phasing_side(self, module: Module, state: GameState) -> str | None:
        """The phasing player [25.32]: the other side's orders inside his phase (the
        interdiction box's opposition, a second signature of the host game's result) are
        still his phase's."""
        return facts_of(state).phasing

    def handoffs(self, module: Module, state: GameState) -> tuple[str, ...]:
        """The host game hand-offs the position names, by number: the interdiction box's air
        combat [31.13], a Shipping Attack's air combat and AA fire [31.23], the open ones
        [30.15a] (``host.py``)."""
        known = facts_of(state)
        named = [c.get("handoff") for c in (known.box_combat, known.shipping_combat)]
        named += [h["id"] for h in known.handoffs]
        return tuple(sorted({str(h) for h in named if h}, key=lambda h: int(h[1:])))

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        """The first :meth:`due`, for older callers."""
        d = self.due(module, state)
        return (d[0].side, d[0].what) if d else ("", "nothing: the game is over")

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        game = Game.of(module)
        out = steps.check_header(game, state, orders, self.awaiting(module, state)[0])
        if out:
            return out
        return steps.run(game, state, orders, WithheldDice()).violations

    def carry_out(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        w = steps.run(Game.of(module), state, orders, dice)
        return Outcome(w.state, tuple(w.events), tuple(dice.rolls))

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """Everything on the naval side of the game is open information."""
        return state

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """The naval rules give no victory conditions (the host series does): the ledger of
        ships sunk and passengers lost, with their cases."""
        sunk = list(facts_of(state).sunk)
        by_side: dict[str, list[str]] = {}
        for sid in sunk:
            by_side.setdefault(state.units[sid].side, []).append(sid)
        lost = sorted(
            u.id
            for u in state.units.values()
            if u.box == "eliminated" and Game.of(module).unit(u.id).category == "ground"
        )
        return {
            "rule": "27.31",
            # the report's loss table: each ship sunk [27.31], each passenger lost [27.33]
            "losses": [
                *({"unit": u, "what": "sunk", "rule": "27.31"} for u in sunk),
                *({"unit": u, "what": "passenger lost", "rule": "27.33"} for u in lost),
            ],
            "ships_sunk": {k: sorted(v) for k, v in sorted(by_side.items())},
            "passengers_lost": lost,
            "note": "victory is the host series' [25.0]",
        }

    def options(self, module: Module, state: GameState, subject: str, *, limit: int = 20) -> Any:
        """``referee options``: a naval unit's status and its legal moves now, each checked
        by the validator itself [25.31], [26.14b] (``options.py``)."""
        from referee.rules.naval_module.options import options_report

        return options_report(module, state, subject, limit)

    def side_orders(self, module: Module, state: GameState, side: str) -> list[dict[str, Any]]:
        """The side's orders no one naval unit gives: the interdiction box, the host game's
        results [31.11], [31.13], [31.23], [30.16] (``options.py``)."""
        from referee.rules.naval_module.options import side_orders

        return side_orders(module, state, side)

    force_verbs = frozenset({"shipping", "coastfire", "coastsupport", "defend", "assault"})
    """The combat lines several units give together: a Shipping Attack [31.21], coast
    artillery fire and support [27.12], [30.25], defensive naval support [29.25], an
    amphibious assault [30.11]."""

    def force_accepts(self, module: Module, state: GameState, side: str, line: str) -> bool:
        """Whether ``validate`` accepts the one-line file of ``side`` in this step's section
        (the check ``options`` judges every line by)."""
        from referee.rules.naval_module.options import accepted

        return accepted(module, state, side, line)

    def force_partners(self, module: Module, state: GameState, side: str, verb: str) -> list[str]:
        """A single ship in port combines with a single ground artillery unit [29.22]: for a
        ``defend`` line (defensive support from port [29.25]), the side's ground artillery
        units in play (``combat.artillery_partners``); the ground unit gives no ``defend``
        line of its own. Each is offered where the validator accepts the ship's line with it."""
        from referee.rules.naval_module.combat import artillery_partners

        return artillery_partners(module, state, side) if verb == "defend" else []

    def force_most(self, module: Module, state: GameState) -> dict[str, int]:
        """At most three air units fly Shipping Attacks [31.23]; at most two naval units
        combine for one Declared Attack [29.23]."""
        from referee.rules.naval_module.combat import MAX_SHIPPING

        return {"shipping": MAX_SHIPPING, "defend": 2}

    def scripted_orders(self, module: Module, state: GameState) -> str | None:
        from referee.rules.naval_module.scripted import scripted_orders

        return scripted_orders(self, module, state)


def setup_status(game: Game, state: GameState, fixed: Any) -> GameState:
    """A ``[[fixed]]`` placement's ``status``: ``"sailed"`` sets a naval unit up Sailed
    [25.31]; ``"aboard:SHIP"`` sets a ground unit up embarked on a naval unit of its side
    (its ``at`` names the ship's port, sea zone or hex), within the ship's capacity [28.13].
    Anything else is refused (exit 2) before the game is made."""
    from referee.errors import UserError
    from referee.rules.naval_module.context import aboard, set_ship
    from referee.rules.naval_module.ships import SAILED
    from referee.rules.naval_module.transport import load_problems

    for f in sorted(fixed, key=lambda f: f.unit):
        status = str(f.status or "")
        where = f"{f.origin.file}:{f.origin.line}: [[fixed]] {f.unit}"
        if not status:
            continue
        if status == SAILED and game.is_ship(f.unit):
            state = set_ship(state, f.unit, status=SAILED)
            continue
        if not status.startswith("aboard:"):
            raise UserError(
                f"{where}: unknown status {status!r}",
                hint='status = "sailed" (a naval unit) or "aboard:SHIP" (a ground unit)',
            )
        sid = status[len("aboard:") :]
        ship_at = state.units[sid].location if sid in state.units else None
        if (
            not game.is_ship(sid)
            or ship_at is None
            or state.units[sid].side != (state.units[f.unit].side)
        ):
            raise UserError(f"{where}: {sid!r} is not a naval unit of its side set up on the map")
        if f.hex not in (ship_at, game.zone_of(ship_at)):
            raise UserError(
                f"{where}: at {f.hex!r}, but {sid} is at {ship_at}",
                hint=f'at = "{game.zone_of(ship_at) or ship_at}"',
            )
        s = game.ship(state, sid)
        onboard = [game.unit(c) for c in game.cargo(state, sid)]
        for p in load_problems(s.unit.name, s.capacity, onboard, [(f.unit, game.unit(f.unit))]):
            raise UserError(f"{where}: {p.message} [{p.rule}]", hint=p.hint)
        state = place(state, f.unit, None, aboard(sid))
        state = set_ship(state, sid, cargo=[*game.cargo(state, sid), f.unit])
    return state


def events_text(events: list[Event]) -> list[str]:
    return [f"[{e.rule}] {e.text}" for e in events]


RULESET = NavalModule()
