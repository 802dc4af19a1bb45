"""One orders file being checked or carried out: the position as it changes, the events, the
violations. While validating ``dice`` are withheld (:class:`referee.engine.steps.WithheldDice`):
nothing is rolled and the checks run on the position the orders would make without any loss."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import Dice, Event, GameState, SourcePos, Violation
from referee.engine.steps import checking
from referee.rules.naval_module.context import Game
from referee.rules.naval_module.facts import NavalFacts


@dataclass
class Work:
    game: Game
    state: GameState
    side: str
    dice: Dice
    events: list[Event] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    # the facts of ``known_state`` (a step reads them hundreds of times between changes)
    known: NavalFacts | None = field(default=None, repr=False, compare=False)
    known_state: GameState | None = field(default=None, repr=False, compare=False)

    def refuse(self, violation: Violation) -> None:
        """Record ``violation`` (placed: the naval checks know the order's words)."""
        self.violations.append(violation)

    def not_own_ship(self, rule: str, sid: str, where: SourcePos | None, extra: str = "") -> None:
        """``sid`` is not one of the side's naval units: say what it is instead (no such
        unit, with the nearest of the side's ships; an enemy unit; not a naval unit) [25.1]."""
        from referee.engine.vocabulary import nearest_names_hint

        u = self.state.units.get(sid)
        mine = sorted(
            p for p, x in self.state.units.items() if x.side == self.side and self.game.is_ship(p)
        )
        if u is None:
            message, hint = f"no unit {sid!r}", nearest_names_hint(sid, mine)
        elif u.side != self.side:
            message, hint = f"{sid} is a {u.side} unit, not one of yours", None
        else:
            message, hint = f"{sid} is not a naval unit", "order your ships here"
        self.refuse(Violation(rule, message + extra, where, sid, hint))

    def note(self, event_kind: str, rule: str, text: str, /, **data: Any) -> None:
        self.events.append(Event(event_kind, rule, text, data))

    @property
    def live(self) -> bool:
        """Carrying out (dice given), not only checking."""
        return not checking(self.dice)

    def roll2d6(self, purpose: str, rule: str) -> tuple[int, int]:
        assert self.live
        a = self.dice.roll(6, purpose + " (first die)", rule)
        b = self.dice.roll(6, purpose + " (second die)", rule)
        return a, b

    @property
    def facts(self) -> NavalFacts:
        """The position facts as the orders have left them so far (``facts.py``)."""
        if self.known is None or self.known_state is not self.state:
            self.known, self.known_state = NavalFacts.of(self.state), self.state
        return self.known

    def put(self, **changes: Any) -> None:
        """Write the facts named (only those keys)."""
        self.state = NavalFacts.put(self.state, **changes)
