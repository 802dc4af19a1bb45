"""The declared readings of the naval module that a game may switch (docs/interpretations.md).

A game's ``flags`` fact (field name -> value) sets them. ``new_game`` records the
rulings made after the first archives (:data:`NEW_GAME_FLAGS`), so a state without the key
replays as it was played and ``verify`` accepts such an archive's start (``earlier_starts``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from referee.rules.naval_module.facts import facts_of

if TYPE_CHECKING:
    from referee.engine.core import GameState


@dataclass(frozen=True, slots=True)
class Readings:
    # [31.23]/[31.25a] (NM-43): a Shipping Attack's air combat and AA fire come back from the
    # host game, the surviving mission units signed by the mission side and confirmed by the
    # target's side, before any Shipping Attack Table roll (True); False: the older reading,
    # the `shipping` order lists the survivors and the rolls follow at once (NM-18)
    shipping_host_step: bool = False
    # [27.22]/[30.21] (NM-45): a ship that passes from one sea zone into the next passes
    # within range of every CD unit reaching each pair of adjacent hexes it could cross
    # between (True); False: the older reading, only a zone's `strait` hexes count
    cd_forced_crossings: bool = False
    # [30.22]/[30.24] (NM-46): ships carrying ground units that end on an all-sea hex make
    # Amphibious Assault naval movement; the CD units in a Defender hex next to it (a coastal
    # hex of the CD side's ground units) count twice on its loss roll (True); False: the
    # older reading, never doubled in play
    cd_defender_hex_doubles: bool = False
    # [26.12a] (NM-47): the phasing player's Motorized Movement Phase is played before his
    # Movement Phase, and a naval unit may move in either or both, with its NMP allowance in
    # each [26.14] (True); False: a game begun before keeps one naval movement step a turn
    motorized_phase: bool = False


# the rulings ``new_game`` records for a new game, oldest first
NEW_GAME_FLAGS: dict[str, Any] = {
    "shipping_host_step": True,
    "cd_forced_crossings": True,
    "cd_defender_hex_doubles": True,
    "motorized_phase": True,
}


def readings_of(state: GameState) -> Readings:
    """The switches of a game's position (its ``flags`` fact)."""
    given = dict(facts_of(state).flags)
    return Readings(**{f.name: bool(given[f.name]) for f in fields(Readings) if f.name in given})
