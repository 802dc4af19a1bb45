"""The sequence of play as data: one phase record for every ruleset, and the sequence it sits in.

As boardgame.io declares a game's phases (each with its turn order and the moves it allows)
and Rally the Troops its states (each with whose prompt it is and the actions it takes), a
ruleset declares each phase of its sequence of play as a :class:`Phase`: its id
(``state.phase``), its title and case as the rulebook prints them, **who acts** in it
(:data:`Acts`), the orders sections it reads, and the ruleset's own functions for it (its
check, carry-out, automatic step: ``steps``, typed by the ruleset). A :class:`SequenceOfPlay`
holds the phases in the rulebook's order and finds the current one.

What happens between phases (the Game-Turn Indication, a skipped Night-only phase, sudden
death) stays each ruleset's own code, in its ``sequence.py``: the books differ there, and a
rule's code is found under its case number. The engine knows no rules: nothing here names a
side or a phase of any game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from referee.engine.core import GameState

Acts = Literal["side", "impulses", "both", "sealed", "referee", "nobody"]
"""Who gives orders in a phase:

* ``"side"``: one side writes the phase's orders; :attr:`Phase.side` says which (a side, or
  a role the ruleset resolves: ``"A"``, ``"phasing"``, ``"enemy"``; ``None``: the side
  ``state.active_side`` names). The other side may answer by a pending decision or a
  standing order (a reaction: detection in the enemy's movement);
* ``"impulses"``: both sides, alternately, until both have passed;
* ``"both"``: each side sends its own file for the phase, one after the other;
* ``"sealed"``: each side's orders stay sealed until every side due has sent its own;
* ``"referee"``: a side the referee's own procedure plays (no player);
* ``"nobody"``: the phase is carried out by the referee alone, with the dice.
"""

ACTS: tuple[Acts, ...] = ("side", "impulses", "both", "sealed", "referee", "nobody")

StepsT = TypeVar("StepsT")


@dataclass(frozen=True, slots=True)
class Phase(Generic[StepsT]):
    """One phase of a sequence of play.

    ``id`` is ``state.phase``; ``title`` and ``rule`` name it as the rulebook does ("Soviet
    Action Phase", ``"5.2"``); ``acts`` and ``side`` say who gives orders (:data:`Acts`);
    ``sections`` are the orders sections its file holds (the first is the one it is named
    by); ``number`` its number where the book numbers its phases (0: none); ``night_only``
    a phase played only on Night Game-Turns; ``flag`` a new-game flag a game must have for
    the phase to be played (a phase built after games began: an older game skips it, so its
    archive replays as it was played); ``once`` a phase played once, before Game-Turn 1 (a
    set-up step); ``within`` the phase of the sequence this one is played inside (a second
    signature, a host game's result, the enemy's fire in the phasing player's Combat Phase,
    or a step that takes the orders of several phases at once, inside the first of them):
    it is no step of its own on the VASSAL turn tracker, which stands on that phase while
    the referee waits for this one (``None``: a phase of its own); ``steps`` the ruleset's
    own functions for it (check, carry out, automatic step), of a type the ruleset
    declares."""

    id: str
    title: str
    rule: str
    acts: Acts = "side"
    side: str | None = None
    sections: tuple[str, ...] = ()
    number: int = 0
    night_only: bool = False
    flag: str | None = None
    once: bool = False
    within: str | None = None
    steps: StepsT | None = None

    def __post_init__(self) -> None:
        if self.acts not in ACTS:
            raise ValueError(f"phase {self.id!r}: unknown 'acts' {self.acts!r} (one of {ACTS})")
        if self.within == self.id:
            raise ValueError(f"phase {self.id!r} cannot be played within itself")

    @property
    def section(self) -> str | None:
        """The orders section the phase is named by (its first); ``None`` when it takes no
        orders."""
        return self.sections[0] if self.sections else None

    @property
    def takes_orders(self) -> bool:
        """Whether a player writes orders in this phase."""
        return self.acts not in ("referee", "nobody")


@dataclass(frozen=True)
class SequenceOfPlay(Generic[StepsT]):
    """The phases of a Game-Turn in the rulebook's order, and ``extra`` phases the ruleset
    enters out of that order (a scenario's reinforcement phase, a set-up played before it) or
    passes through on its own (a Game-Turn Indication). Ids are unique; a phase played
    ``within`` another names a phase of its own."""

    phases: tuple[Phase[StepsT], ...]
    extra: tuple[Phase[StepsT], ...] = ()
    by_id: dict[str, Phase[StepsT]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, Phase[StepsT]] = {}
        for p in (*self.phases, *self.extra):
            if p.id in by_id:
                raise ValueError(f"phase {p.id!r} is declared twice in the sequence of play")
            by_id[p.id] = p
        for p in by_id.values():
            host = by_id.get(p.within) if p.within is not None else None
            if p.within is not None and (host is None or host.within is not None):
                raise ValueError(
                    f"phase {p.id!r} is played within {p.within!r}, which is no phase of its "
                    "own in the sequence of play"
                )
        object.__setattr__(self, "by_id", by_id)

    def __iter__(self) -> Iterator[Phase[StepsT]]:
        return iter(self.phases)

    def __getitem__(self, phase_id: str) -> Phase[StepsT]:
        return self.by_id[phase_id]

    def __contains__(self, phase_id: object) -> bool:
        return phase_id in self.by_id

    def get(self, phase_id: str) -> Phase[StepsT] | None:
        return self.by_id.get(phase_id)

    def of(self, state: GameState) -> Phase[StepsT] | None:
        """The phase ``state`` is in (``None``: not one of the sequence, e.g. game over)."""
        return self.by_id.get(state.phase)

    @property
    def first(self) -> Phase[StepsT]:
        """The first phase of a Game-Turn."""
        return self.phases[0]

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the sequence's phases, in order (``extra`` left out)."""
        return tuple(p.id for p in self.phases)

    def parts(self, phase_id: str) -> tuple[str, ...]:
        """The ids of the phases played within ``phase_id`` (:attr:`Phase.within`), in
        declaration order."""
        return tuple(p.id for p in (*self.phases, *self.extra) if p.within == phase_id)

    def after(self, phase_id: str) -> Phase[StepsT] | None:
        """The phase declared after ``phase_id`` in the sequence (``None`` after the last)."""
        ids = self.ids
        i = ids.index(phase_id)
        return self.phases[i + 1] if i + 1 < len(ids) else None
