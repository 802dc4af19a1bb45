"""What the naval module ruleset needs from a module source.

Naval units carry the values of [25.12]: Artillery Support (ART), Protection Rating (PROT),
Transport Capacity (TC), Naval Movement Point allowance (NMP), Range (RNG) and, on the Sailed
side, the Recovery value (REC) [25.12f]. Ground units give their stacking points (STK) [28.13b],
air units their Interdiction rating (INT) [31.11]; a unit prints 0 for values it has not.
The types are those of [25.11] (BB CL DL DD T), the flotilla [32.1], the ground units the
transport and amphibious rules name [28.13, 30.13a, 30.3, 32.2], and any aircraft.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.rules.naval_module.sequence import PHASES
from referee.source.schema import (
    BoxUnits,
    DiceDecl,
    DisplayDecl,
    DisplayRow,
    MarkerDecl,
    RulesetSchema,
    TableRollDecl,
    TrackDecl,
    tracker_steps,
)

if TYPE_CHECKING:
    from referee.engine.ruleset import Ruleset
    from referee.source.model import Module, UnitDef

NAVAL_TYPES = ("BB", "CL", "DL", "DD", "T")
GROUND_TYPES = (
    "INF",  # infantry [30.13a]
    "MTN",  # mountain infantry [30.13a]
    "ABN",  # airborne / parachute [30.13a]
    "ENG",  # engineer, non-motorized [30.13a]
    "ENGM",  # motorized engineer (may not assault) [30.13a]
    "MOT",  # motorized infantry [28.13c]
    "ARM",  # armour [28.13c]
    "ART",  # artillery (orange MA artillery is flagged motorized) [28.13c]
    "HQ",  # headquarters [28.13b, 28.25, 30.3]
    "MSU",  # mobile supply unit [30.3]
    "ASP",  # attack supply point [28.13b]
    "CD",  # coast artillery [27.12, 28.13d, 30.2]
    "RRA",  # railroad artillery [28.13d]
    "SHA",  # super-heavy artillery [28.13d]
    "AT",  # armoured train [28.13d]
    "NB",  # naval base [32.2]
)


# named lazily, as the rules are: the VASSAL writer computes it without importing them
def _port_capacity_left(module: Module, state: Any) -> Mapping[str, int]:
    from referee.rules.naval_module.markers import port_capacity_left

    return port_capacity_left(module, state)


# What the VASSAL module shows of a naval position. Ready/Sailed is the counter's printed back
# [25.31] (the status ``back``), not a marker.
def _sunk_at_27_31(module: Module, unit: UnitDef) -> int | None:
    """The damage that sinks ``unit``: one more than its Protection Rating [27.31], 3 for a
    flotilla [32.12]; None for a transport, which goes to the Cadre Box, not the dead pile
    [27.33]."""
    if unit.category == "flotilla":
        return 3
    if unit.category != "naval" or unit.type == "T":
        return None
    return int(unit.values.get("PROT", 0)) + 1


def _reduced_27_36(module: Module, unit: UnitDef) -> tuple[tuple[int, Mapping[str, int]], ...]:
    """A naval unit's values past half its Protection Rating: artillery halved rounding up,
    one NMP less, transport capacity unchanged [27.36]; a flotilla keeps its printed NMP
    (NM-41)."""
    if unit.category != "naval":
        return ()
    from referee.rules.naval_module.ships import Ship

    first = int(unit.values.get("PROT", 0)) // 2 + 1  # the first damage over half of it
    hit = Ship(unit.id, unit, first, "ready")
    values = dict(unit.values)
    for key, now in (("ART", hit.artillery), ("NMP", hit.nmp)):
        if key in values:
            values[key] = now
    return ((first, values),)


MARKERS = (
    # one layer with levels: a ship's damage points; sunk when they exceed its Protection
    # Rating [27.31] (5 at most in the roster), a flotilla at 3 [32.12]
    MarkerDecl(
        "damage",
        "Damage",
        "27.31",
        "damage points: sunk when they exceed the Protection Rating, past half of it "
        "artillery halved and -1 NMP [27.36]",
        "ships.*.damage",
        ("naval", "flotilla"),
        levels=9,
        label="D{}",
        lost_at=_sunk_at_27_31,
        reduces=_reduced_27_36,  # past half the Protection Rating [27.36]
    ),
    # on each port: the transport points it has left this player turn for the side that
    # controls it [26.25], after artillery, interdiction and a Naval Base [26.27]
    MarkerDecl(
        "port_capacity",
        "Port capacity",
        "26.25",
        "transport points left this player turn (loading and unloading share it)",
        compute=_port_capacity_left,
        levels=60,
        on="location",
    ),
)

# [31.11]-[31.13] the Naval Movement Interdiction Box: up to three air units (mission and
# escort) of the side that is not moving; its level applies to every sea zone [31.13]
DISPLAYS = (
    DisplayDecl(
        "Naval Movement Interdiction Box",
        "Naval Movement Interdiction Box: up to 3 air units; the Level (at most 2) "
        "applies to every sea zone [31.11]-[31.13]",
        (DisplayRow(("Axis air units", "Soviet air units"), across=3),),
        rule="31.11",
        holds=(
            BoxUnits("Axis air units", "interdiction_box.Axis"),
            BoxUnits("Soviet air units", "interdiction_box.Soviet"),
        ),
    ),
    # [27.33] a transport sunk with 3 damage waits as a cadre until repaired [27.44]
    DisplayDecl(
        "Cadre Box",
        "Cadre Box: sunk transports until a repair brings them back Sailed [27.33], [27.44]",
        (DisplayRow(("Transport cadres",), across=4),),
        rule="27.33",
        holds=(BoxUnits("Transport cadres", "box:cadre"),),
    ),
)

# The phases of each player turn the naval rules act in, read from the phases the referee
# walks (sequence.PHASES, declared once): the host series' sequence is not in the text, so
# these are the phases the naval rules name [25.32], [31.1], [26.12a], [31.22], [29.0]. The
# referee's other steps are played within one of them (``Phase.within``): the host game's air
# combat signed by both sides [31.13], [31.23], the enemy's coast artillery and defensive
# naval support [27.12], an assault's host game result [30.16], and the Motorized Movement
# Phase [26.12a], which shares the Movement Phase's entry: a position save records the
# tracker's entries, so an entry of its own would change the save of every step of a game
# begun before it was built (which skips it, ``sequence.Phase.flag``) and ``verify`` would
# refuse its archive. The first player's turn, then the second's; the tracker names each
# step by its player turn ("Soviet Player Turn: Reaction Phase"): the other side acts in
# some of them, and [31.22] calls the Reaction Phase of the Soviet player turn the Axis
# Reaction Phase.
SEQUENCE = tracker_steps(PHASES, player_turns=True)

# ---- what the schema names lazily: ``referee check`` reads the schema without the rules ----


def _rules() -> Ruleset:
    from referee.rules.naval_module.ruleset import RULESET

    return RULESET


SCHEMA = RulesetSchema(
    id="naval_module",
    name="Naval units module (rules 25.0-32.0)",
    values=("ART", "PROT", "TC", "NMP", "RNG", "REC", "STK", "INT"),
    categories=("naval", "flotilla", "ground", "air"),
    unit_types={
        "naval": NAVAL_TYPES,
        "flotilla": ("FL",),
        "ground": GROUND_TYPES,
        "air": (),  # any aircraft designation
    },
    flags=("motorized", "naval_fighter"),
    tables=("terrain",),
    terrain=("sea", "coastal", "shallow", "land"),
    victory_conditions=(),
    setup_kinds=("hexes",),
    optional_rules=(),
    map_kinds=("hex+area+point",),
    sequence=SEQUENCE,
    markers=MARKERS,
    displays=DISPLAYS,
    dice=(DiceDecl("2d6", 2, "27.2, 27.31b, 31.26"),),  # the loss and shipping attack tables
    # the Naval Movement Loss Table [27.2] and the shipping attack table [31.26], 2d6 modified
    table_rolls=(
        TableRollDecl("Loss table", "nmlt", 2, "27.2", modified=True),
        TableRollDecl("Shipping attack", "shipping_attack", 2, "31.26", modified=True),
    ),
    # the air interdiction level on each side's naval movement this Game-Turn, 0 to 2 [31.13]
    tracks=(
        TrackDecl(
            "Interdiction_{side}",
            "Interdiction of {side} naval movement",
            "31.13",
            maximum=2,
            per_side=True,
            source="data:interdiction.{side}",
        ),
    ),
    rules=_rules,
)
