"""The declared readings of Carrier Battlegroup that a game may switch
(docs/interpretations.md, Carrier Battlegroup).

A game's ``state.data["flags"]`` (field name -> value) sets them. ``new_game`` records the
rulings made after the first archives (:data:`NEW_GAME_FLAGS`), so a state without the key
replays as it was played and ``verify`` accepts such an archive's start (``earlier_starts``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Readings:
    # [5.0 step 10] "Repeat sequence of play until you have completed your mission Objective":
    # True: the scenario ends, a victory [24.0], at the end of a turn in which the CVBG is in
    # the Objective space with no Soviet coastal defense unit left there and every unit the
    # Orders name to destroy sunk (the [24.3] check and the [24.2] defeat still apply);
    # False: the older reading, the scenario always runs its full number of turns
    objective_ends_early: bool = False
    # [16.1] "Whenever a task force enters a Soviet Base ... a Chokepoint": True: the extra
    # Incident chits are drawn in the turn the CVBG enters the space; False: the older
    # reading, every turn it is there
    chits_on_entering: bool = False
    # [18.1 step 4] "if no contact has occurred, nothing happens for that game turn, but both
    # sides will co-exist in that space for the rest of that game turn": True: the Soviet
    # units an incident generated that fought no battle go back to their pools, unseen, at
    # the end of the Combat Phase; False: the older reading, they stay in the space
    incident_units_leave: bool = False
    # [9.1]/[3.2] "Aircraft purchased after initial deployment are placed on any NATO base";
    # land-based aircraft "can only be based on land": True: one bought at sea is placed on
    # the nearest NATO base (ties by name); False: the older reading, in the CVBG's space
    land_aircraft_to_base: bool = False


# the rulings ``new_game`` records for a new game
NEW_GAME_FLAGS: dict[str, Any] = {
    "objective_ends_early": True,
    "chits_on_entering": True,
    "incident_units_leave": True,
    "land_aircraft_to_base": True,
}


def readings_of(data: Any) -> Readings:
    """The switches of a game's ``state.data``."""
    given = dict(data.get("flags") or {})
    return Readings(**{f.name: bool(given[f.name]) for f in fields(Readings) if f.name in given})


def without_new_flags(data: dict[str, Any]) -> dict[str, Any] | None:
    """``data`` as an older version's ``new_game`` made it (None: it has none of the new
    flags, so there is no older start)."""
    flags = dict(data.get("flags") or {})
    if not any(k in flags for k in NEW_GAME_FLAGS):
        return None
    for k in NEW_GAME_FLAGS:
        flags.pop(k, None)
    out = dict(data)
    if flags:
        out["flags"] = flags
    else:
        out.pop("flags", None)
    return out
