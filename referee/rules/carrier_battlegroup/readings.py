"""The declared readings of Carrier Battlegroup that a game may switch
(docs/interpretations.md, Carrier Battlegroup).

A game's ``flags`` fact (``CbgFacts.flags``: field name -> value) sets them. ``new_game``
records the rulings made after the first archives (:data:`NEW_GAME_FLAGS`), so a state without
the key replays as it was played and ``verify`` accepts such an archive's start
(``earlier_starts``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from referee.rules.carrier_battlegroup.facts import CbgFacts, facts_of

if TYPE_CHECKING:
    from referee.engine.core import GameState


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
    # [12.4] "SBG: You can enter these, but you must stop there (including Standoff units,
    # unless no contact occurs ...)": True: a strike stops at an SBG on its way and flies on
    # only without contact (launch.stops_12_4); False: the older play, strikes fly over
    strikes_stop_at_sbgs: bool = False
    # [18.2] True: the player's standing ``breakoff`` covers the air strikes too (``strikes``,
    # ``all``) and may name the CVBG's space (``-> SPACE ...``); aircraft that break off land
    # at once and cruise missiles fight on; False: the older play, only the CVBG breaks off,
    # one space toward the nearest NATO base, and every unit in its space leaves the battle
    breakoff_by_the_player: bool = False
    # True: an event a declared reading decided names the switch and its setting (``label``);
    # False: the older reports, without the labels (a game begun before them replays as it
    # was recorded)
    label_readings: bool = False
    # [3.5] True: the EW crew adds its EW to the carrier's (contact, Intelligence) and the
    # Camera crew scores VP for each battle the USN wins (crews.py); False: the older play,
    # neither does anything
    special_crews_3_5: bool = False
    # [22.2] "If a system goes to zero, that system ceases to function for any game purpose":
    # True: the carrier makes no Intelligence attempt at EW 0 (intelligence.py); False: the
    # older play, it rolls d6 x 0
    systems_at_0_22_2: bool = False
    # [23.2] True: landed Marines or SEALs leave the carrier and stand in the space, a Soviet
    # base they occupy is closed to the Soviet side, and ``embark`` takes them back aboard on
    # a later turn (objective.py); False: the older play, a landing is only recorded
    landings_23_2: bool = False
    # [18.0]/[20.1] a Contact incident chit: True: contact is automatic and the USN attacks
    # with the Tactical Edge; False: contact is automatic and the USN attacks [20.1], but the
    # Edge is read on the Contact Chart as in [18.1] (a "no contact" row gives neither side
    # the Edge: the attacker fires first [20.2])
    contact_chit_gives_edge: bool = True
    # [21.3] the Target Priorities name SSGN as the only anti-submarine target: True: a USN
    # SSN escort is never a target of Soviet fire; False: every USN submarine stands on the
    # SSGN line (8, anti-submarine)
    ssn_escort_never_targeted: bool = True
    # [15.1]/[22.3] "one cruise missile is eliminated per each individual hit": True: one per
    # damage point the ship takes [22.3]; False: one per Hit Table outcome the ship takes
    missiles_lost_per_damage_point: bool = True
    # [20.2 step 5] "lost at least half of the units": True: glitches and every missile
    # (fired or not) are left out of both tallies; False: missiles count, and one that fired
    # is lost [21.6]
    battle_result_without_missiles: bool = True


LABELS: dict[str, str] = {
    "contact_chit_gives_edge": "CBG 18.0/20.1",
    "ssn_escort_never_targeted": "CBG 21.3",
    "missiles_lost_per_damage_point": "CBG 15.1/22.3",
    "battle_result_without_missiles": "CBG 20.2 step 5",
}
"""The docs/interpretations.md row of each switch a report labels."""


def label(readings: Readings, name: str) -> str:
    """How a report labels a result a declared reading decided: the switch, its setting
    and where the reading is declared ("" in a game begun before the labels)."""
    if not readings.label_readings:
        return ""
    on = "on" if getattr(readings, name) else "off"
    return f"reading {name}={on}, docs/interpretations.md {LABELS[name]}"


# the rulings ``new_game`` records for a new game, by the version that made them: a game
# begun under an older version holds the flags of the generations before (or none)
FLAG_GENERATIONS: tuple[dict[str, Any], ...] = (
    {
        "objective_ends_early": True,
        "chits_on_entering": True,
        "incident_units_leave": True,
        "land_aircraft_to_base": True,
    },
    {
        "strikes_stop_at_sbgs": True,
        "breakoff_by_the_player": True,
        "label_readings": True,
        "special_crews_3_5": True,
        "systems_at_0_22_2": True,
        "landings_23_2": True,
    },
)
NEW_GAME_FLAGS: dict[str, Any] = {k: v for g in FLAG_GENERATIONS for k, v in g.items()}


def readings_of(state: GameState) -> Readings:
    """The switches of a game's position (its ``flags`` fact)."""
    given = facts_of(state).flags
    return Readings(**{f.name: bool(given[f.name]) for f in fields(Readings) if f.name in given})


def _without(state: GameState, names: set[str]) -> GameState:
    flags = {k: v for k, v in facts_of(state).flags.items() if k not in names}
    return CbgFacts.put(state, flags=flags) if flags else CbgFacts.drop(state, "flags")


def earlier_starts(state: GameState) -> tuple[GameState, ...]:
    """``state`` as each older version's ``new_game`` made it, the latest first: without the
    flags of the last generation, then of the last two, ... (none: it has none of them)."""
    flags = facts_of(state).flags
    out: list[GameState] = []
    dropped: set[str] = set()
    for gen in reversed(FLAG_GENERATIONS):
        dropped |= set(gen)
        if any(k in flags for k in gen):
            out.append(_without(state, dropped))
    return tuple(out)
