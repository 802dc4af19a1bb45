"""What the Carrier Battlegroup ruleset needs from a module source.

Units print Anti-Air, Anti-Surface, Anti-Submarine, Defense, Speed (Range for standoff units)
and Electronic Warfare [3.2]. Categories follow [2.2]/[3.2]-[3.4]: warships (surface,
submarine), standoff weapons (air, missile), coastal defense units, and the markers and chits
[3.5]-[3.7] that are not combat units. The map is point-to-point [3.1], [12.4].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.rules.carrier_battlegroup.sequence import SEQUENCE as PLAYED
from referee.source.schema import (
    DiceDecl,
    DisplayDecl,
    DisplayRow,
    LossScore,
    MarkerDecl,
    RulesetSchema,
    TableRollDecl,
    TrackDecl,
    TrackMarker,
    tracker_steps,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from referee.engine.ruleset import Ruleset
    from referee.source.diagnostics import Diagnostic
    from referee.source.model import Module, UnitDef

# The Ship Display's tracks [4.0 step 6], [10.0]: each system from 0 (out of action [22.2])
# to the top printed on its track. The start values are the text's; the room above them
# for EW and Air Defense purchases [9.2], CIC/CAG [20.3] and the Fuel and Ammunition tracks
# [9.2] are estimates (module_src/carrier_battlegroup/README.md).
TRACKS = (
    ("CIC", 7),
    ("CAG", 7),
    ("Hangar", 8),
    ("Flight Deck", 6),
    ("Air Defense", 6),
    ("Propulsion", 6),
    ("EW", 8),
    ("Hull", 12),
    ("Crew", 8),
    ("Fuel", 9),
    ("Ammunition", 9),
)
# The marker of each track (units.csv) and where the state keeps its value: the systems in
# ``carrier`` [4.0 step 6], Fuel and Ammunition in ``fuel`` and ``ammo`` [9.2], [12.2], [20.5].
TRACK_IDS = {"CIC": "CIC", "CAG": "CAG", "Hangar": "HANGAR", "Flight Deck": "DECK",
             "Air Defense": "AD", "Propulsion": "PROP", "EW": "EW", "Hull": "HULL",
             "Crew": "CREW", "Fuel": "FUEL", "Ammunition": "AMMO"}  # fmt: skip
TRACK_DATA = {"Fuel": "fuel", "Ammunition": "ammo"}
TRACK_MARKERS = tuple(
    TrackMarker(f"US-TRK-{TRACK_IDS[name]}", name, TRACK_DATA.get(name, f"carrier.{name}"))
    for name, _top in TRACKS
)
SHIP_DISPLAY = DisplayDecl(
    "Ship Display",
    "Nimitz CVN-68 Ship Display: system tracks [4.0 step 6], [22.2]",
    (
        *(DisplayRow(tuple(f"{name} {n}" for n in range(top + 1))) for name, top in TRACKS),
        DisplayRow(("Crew box", "USN Crippled Ship box"), across=4, down=1),
    ),
    "4.0",
    TRACK_MARKERS,
)
TACTICAL_DISPLAY = DisplayDecl(
    "Tactical Display",
    "Tactical Display: Outer Zone combat first, then Inner [20.2]",
    (
        DisplayRow(
            ("USN Outer Zone", "USN Inner Zone", "Soviet Inner Zone", "Soviet Outer Zone"),
            across=3,
            down=4,
        ),
    ),
    "20.2",
)
SOVIET_DISPLAY = DisplayDecl(
    "Soviet Display",
    "Soviet boxes: SBGs face down [4.0 4d], pools [4.0 4b], [16.2], losses [22.8]",
    (
        DisplayRow(tuple(f"SBG-{n}" for n in range(1, 7)), across=3, down=2),
        DisplayRow(
            (
                "Warship pool",
                "Standoff pool",
                "Incident chit pool",
                "Soviet Sunk box",
                "Damaged/Crippled box",
            ),
            across=3,
            down=2,
        ),
    ),
    "4.0",
)

# ---- what the schema names lazily: ``referee check`` reads the schema without the rules ----


def _loss_score(module: Module, unit: UnitDef) -> LossScore | None:
    from referee.rules.carrier_battlegroup.end_of_turn import loss_score_24_1

    return loss_score_24_1(module, unit)


DAMAGED = ("surface", "submarine", "coastal")  # [22.3]: damage points on these counters


def _reduced(module: Module, unit: UnitDef, step: int) -> tuple[tuple[int, Mapping[str, int]], ...]:
    from referee.rules.carrier_battlegroup.damage import reduced_steps_22_3
    from referee.rules.carrier_battlegroup.setup import CARRIER

    if unit.category not in DAMAGED or unit.id == CARRIER:  # the carrier: systems [22.2]
        return ()
    return ((1, reduced_steps_22_3(unit.values)[step]),)


def _reduced_22_3(module: Module, unit: UnitDef) -> tuple[tuple[int, Mapping[str, int]], ...]:
    """A damaged unit's factors, EW and speed, halved rounding up [22.3]."""
    return _reduced(module, unit, 0)


def _reduced_22_5(module: Module, unit: UnitDef) -> tuple[tuple[int, Mapping[str, int]], ...]:
    """A crippled unit's factors, EW and speed, 0 [22.5]."""
    return _reduced(module, unit, 1)


def _crippled(module: Module, state: Any) -> Mapping[str, int]:
    """1 for each crippled unit (``conditions.<piece>.crippled`` [22.5])."""
    from referee.rules.carrier_battlegroup.facts import facts_of

    conds = facts_of(state).conditions or {}
    return {pid: 1 for pid, c in conds.items() if isinstance(c, dict) and c.get("crippled")}


# what the counters show of a unit's condition: crippling first, so its badge and zeroed face lie
# over the damage's (a crippled unit keeps its damage [22.5]), then its damage points [22.3]
MARKERS = (
    MarkerDecl(
        "crippled",
        "Crippled",
        "22.5",
        "crippled: factors, EW and speed 0; any further damage sinks it",
        categories=DAMAGED,
        levels=1,
        label="Crippled",
        compute=_crippled,
        reduces=_reduced_22_5,
        since=6,
    ),
    MarkerDecl(
        "damage",
        "Damage",
        "22.3",
        "damage points: factors, EW and speed halved (rounded up); sunk at its Defense",
        "conditions.*.damage",
        DAMAGED,
        levels=12,  # the highest Defense of a ship the rules damage by points (the roster's)
        label="D{}",
        reduces=_reduced_22_3,
        since=6,  # games begun before piece version 6 keep their counters
    ),
)


def _rules() -> Ruleset:
    from referee.rules.carrier_battlegroup.ruleset import RULESET

    return RULESET


def _check_carrier_4_0(module: Module) -> list[Diagnostic]:
    from referee.rules.carrier_battlegroup.setup import check_carrier_4_0

    return check_carrier_4_0(module)


def _check_hit_22_0(module: Module) -> list[Diagnostic]:
    from referee.rules.carrier_battlegroup.damage import check_hit_22_0

    return check_hit_22_0(module)


def _check_terrain_16_1(module: Module) -> list[Diagnostic]:
    from referee.rules.carrier_battlegroup.incidents import check_terrain_16_1

    return check_terrain_16_1(module)


# [4.0] set-up, played once, then [5.0] each turn's ten phases in order, read from the
# referee's own sequence (sequence.SEQUENCE, declared once); the engine's "turn" step, which
# takes one turn's orders at once, is played within the Intelligence Phase, where a turn's
# orders begin.
SEQUENCE = tracker_steps(PLAYED)

SCHEMA = RulesetSchema(
    id="carrier_battlegroup",
    name="Carrier Battlegroup",
    values=("AA", "AS", "ASW", "DEF", "SPD", "EW"),
    categories=("surface", "submarine", "air", "missile", "coastal", "marker"),
    unit_types={
        "surface": ("CVN", "CV", "CVL", "BBG", "BC", "CGN", "CG", "DDG", "DD", "FFG", "FF", "AO"),
        "submarine": ("SSBN", "SSGN", "SSN", "SS"),
        "air": (),  # any aircraft designation (F-14, Tu-22M, ...)
        "missile": (),
        "coastal": ("CDM", "MINE", "PTG"),
        "marker": (),
    },
    # nuclear [12.2]; carrier: carrier-based air (USN) or the CVL-1 group [15.0];
    # refueler [19.2]; aegis [4.0 step 7]; land: land-based air [9.2]; glitch [11.4];
    # chit: an incident chit [3.7]; cod [9.3]; standoff: a Soviet standoff pool unit [4.0 4b]
    flags=("nuclear", "carrier", "refueler", "aegis", "land", "glitch", "chit", "cod", "optional"),
    tables=("terrain",),
    terrain=("high_seas", "chokepoint", "transit", "nato_base", "objective", "soviet_base"),
    victory_conditions=("occupy_objective", "sink_ssbn"),
    setup_kinds=("hexes",),
    map_kinds=("point",),
    # face-down chits, Orders markers, warships, standoff and coastal units [2.2], [3.7], [4.0]
    masked_backs=("chit_back", "warship_back", "standoff_back", "coastal_back"),
    solitaire_side="USN",  # [1.0] "puts you in command"; the game runs the Soviet side
    displays=(SHIP_DISPLAY, TACTICAL_DISPLAY, SOVIET_DISPLAY),
    markers=MARKERS,
    table_checks={
        "carrier": _check_carrier_4_0,
        "hit": _check_hit_22_0,
        "terrain": _check_terrain_16_1,
    },
    dice=(
        DiceDecl("2d6", 2, "24.3"),  # the VP defeat check
        DiceDecl("Higher of 2d6", 2, "25.1", keep_higher=True),  # SBG movement
        DiceDecl("3d6", 3, "4.0 step 4e"),  # the SBG lines' placement
    ),
    sequence=SEQUENCE,
    # the rolls read on a chart: one d6 per hit or firing die, the contact and alert rolls
    table_rolls=(
        TableRollDecl("Firing table", "firing", 1, "21.5"),
        TableRollDecl("Hit table", "hit", 1, "22.0"),
        TableRollDecl("Contact chart", "contact", 1, "18.1", modified=True),
        TableRollDecl("Initial Alert", "initial_alert", 1, "4.0 step 3", modified=True),
        TableRollDecl("Intelligence table", "intelligence", 1, "11.1", times="EW"),
        TableRollDecl("Escort selection", "escorts", 1, "4.0 step 7"),
        TableRollDecl("Tactical deployment", "deployment", 1, "20.2"),
    ),
    # the US player's one VP track [24.1] and the Soviet Alert level, 1 to 6 [6.1]
    loss_score=_loss_score,  # a loss's row of the Victory Point table [24.1]
    tracks=(
        TrackDecl("VP", "US Navy VP", "24.1", minimum=-99, source="score:vp"),
        TrackDecl(
            "Alert",
            "Soviet Alert level",
            "6.1",
            minimum=1,
            maximum=6,
            initial=1,
            source="score:alert",
        ),
    ),
    rules=_rules,
)
