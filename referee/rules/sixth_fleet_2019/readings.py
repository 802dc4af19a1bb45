"""The declared readings of Sixth Fleet (2019) as switches (docs/interpretations.md).

A game may set a switch in its ``flags`` fact (``facts.py``) (field name -> value); a value the
switch does not allow, or no value, gives the default, so a state without the key replays as
it was played.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from referee.rules.sixth_fleet_2019.facts import facts_of

if TYPE_CHECKING:
    from referee.engine.core import GameState

# the values each switch allows, the default first
CHOICES: dict[str, tuple[str, ...]] = {"lost_base_air": ("refit", "land_elsewhere")}


@dataclass(frozen=True, slots=True)
class Readings:
    # [7.2]/[8.3.2] air units on a base destroyed or lost: over-stacked on a base of
    # capacity 0 and to the Refit Box (``refit``), or flying off to another base or carrier
    # as 8.3.2's "for any reason" allows (``land_elsewhere``)
    lost_base_air: str = "refit"


def readings_of(state: GameState) -> Readings:
    """The switches of a game's position (its ``flags`` fact)."""
    given = dict(facts_of(state).flags or {})
    values = {
        f.name: given[f.name]
        for f in fields(Readings)
        if given.get(f.name) in CHOICES.get(f.name, ())
    }
    return Readings(**values)
