"""The ruleset plug-in interface and registry.

A ruleset is an object with the methods of :class:`Ruleset`. The engine core and the PBEM
referee call only these methods, so a new rule system (the DTP revision, the 2019 edition,
Carrier Battlegroup, the naval module) is a new package under ``referee/rules/`` plus one line
in :data:`_RULESETS`. ``docs/rulesets.md`` is the author's guide.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from referee.engine.core import Dice, GameState, Outcome, Violation

if TYPE_CHECKING:
    from referee.engine.orders import OrdersDoc
    from referee.source.model import Module


class Ruleset(Protocol):
    id: str
    name: str

    def new_game(
        self, module: Module, scenario: str, game_id: str, options: tuple[str, ...] = ()
    ) -> GameState:
        """The position before set-up: every piece of the scenario, placed where the scenario
        fixes it, the rest unplaced; turn/phase at the start of the sequence of play."""
        ...

    def awaiting(self, module: Module, state: GameState) -> tuple[str, str]:
        """``(side, what)``: whose orders the game waits for now and for which phase(s), or
        the side that owes the answer to ``state.pending``. ``what`` is a sentence for
        reports (e.g. "NATO set-up [11.1]")."""
        ...

    def validate(self, module: Module, state: GameState, orders: OrdersDoc) -> list[Violation]:
        """Every violation in a whole orders file, each citing its rule case. No dice, no
        change to anything."""
        ...

    def resolve(self, module: Module, state: GameState, orders: OrdersDoc, dice: Dice) -> Outcome:
        """Apply valid orders from ``state`` until the phases they cover are done, or until a
        decision belongs to the other player and no standing order covers it (then
        ``outcome.state.pending`` says what is owed)."""
        ...

    def view(self, module: Module, state: GameState, side: str | None) -> GameState:
        """What ``side`` may see (``None``: the referee's full view). Fog of war lives here."""
        ...

    def score(self, module: Module, state: GameState) -> Mapping[str, Any]:
        """Victory points and the level of victory so far, with rule citations."""
        ...


# ruleset id -> "module:attribute" of an object implementing Ruleset; imported lazily
_RULESETS: dict[str, str] = {
    "sixth_fleet_1975": "referee.rules.sixth_fleet_1975.ruleset:RULESET",
}


def register(ruleset_id: str, target: str) -> None:
    """Register a ruleset (tests use this for toy rulesets)."""
    _RULESETS[ruleset_id] = target


def get_ruleset(ruleset_id: str) -> Ruleset:
    from referee.errors import UserError

    target = _RULESETS.get(ruleset_id)
    if target is None:
        raise UserError(
            f"unknown ruleset {ruleset_id!r}", hint="known: " + ", ".join(sorted(_RULESETS))
        )
    mod_name, attr = target.split(":")
    return getattr(importlib.import_module(mod_name), attr)
