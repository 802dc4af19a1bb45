"""What the DTP revised rules need from a module source.

DTP keeps SPI's counters, values and map [DTP 100.3, 3.0], so the SPI declaration is reused
as it stands (``dataclasses.replace`` of the SPI schema, not a copy) and DTP adds the four
tables the kit uses but does not print (Detection [DTP 6.3], Strike Contact [DTP 8.15], Hit
Table [DTP 8.52], Readiness [DTP 8.51, 9.23]) and the players' table of the scenario
[DTP 11.0]. Every table is read under [DTP 4.01]: columns at or below, the top column above
it, an action below the lowest column fails.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from referee.rules.sixth_fleet_1975.schema import SCHEMA as SPI_SCHEMA
from referee.rules.sixth_fleet_1975.sequence import SEQUENCE as SPI_PLAYED
from referee.rules.sixth_fleet_dtp.air import MIN_DELAY_8_51
from referee.rules.sixth_fleet_dtp.sequence import PHASES
from referee.rules.sixth_fleet_dtp.westpac_tables import (
    RETREAT_RULES,
    VARIABLE_AIR,
    VICTORY_AWARDS,
)
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
from referee.source.tablemodel import Axis, TableDecl

if TYPE_CHECKING:
    from collections.abc import Mapping

    from referee.engine.ruleset import Ruleset
    from referee.source.diagnostics import Diagnostic
    from referee.source.model import Module, UnitDef


DETECTION = TableDecl(
    name="detection",
    file="tables/detection.csv",
    rows=Axis(kind="name", columns=("target",), label="Target", word="target"),
    columns=Axis(
        kind="int",
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Detector ECM - target ECM",
        word="ECM differential",
        contiguous=True,
    ),
    title="Detection Table",
    short="Detection table",
    source="estimates (DTP kit, tables.md B1); see README.md",
    rule="DTP 6.3",
    cells=(("*", "text"),),
    notes=("source",),
)
STRIKE_CONTACT = TableDecl(
    name="strike_contact",
    file="tables/strike_contact.csv",
    rows=Axis(
        kind="int",
        columns=("distance",),
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Hexes to target",
        word="distance",
    ),
    columns=Axis(
        kind="int",
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Attacking units",
        word="attacking units",
        contiguous=True,
    ),
    title="Strike Contact Table",
    short="Strike Contact table",
    source="2 cells attested, the rest estimates (DTP kit, tables.md B2); see README.md",
    rule="DTP 8.15",
    cells=(("*", "int"),),
    notes=("source",),
)
HIT = TableDecl(
    name="hit",
    file="tables/hit.csv",
    rows=Axis(
        kind="int",
        columns=("DEF",),
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Defense (undoubled)",
        word="DEF",
        contiguous=True,
    ),
    columns=Axis(
        kind="int",
        lookup="at_or_below",
        below="fail",
        above="clamp",
        label="Attack strength",
        word="attack strength",
    ),
    title="Hit Table",
    short="Hit Table",
    source="5 cells attested or inferred, the rest estimates (tables.md B3); see README.md",
    rule="DTP 8.52",
    cells=(("*", "text"),),
    notes=("source",),
)
READINESS = TableDecl(
    name="readiness",
    file="tables/readiness.csv",
    rows=Axis(kind="name", columns=("unit",), label="Air unit", word="air unit"),
    columns=Axis(kind="name"),
    title="Readiness Ratings",
    short="readiness table",
    source="MiG-23 attested, the rest estimates (tables.md B4); see README.md",
    rule="DTP 9.23",
    cells=(("rating", "int"),),
    notes=("source",),
    require=("rating",),
)
PLAYERS = TableDecl(
    name="players",
    file="tables/players.csv",
    rows=Axis(kind="name", columns=("side",), label="Side", word="side"),
    columns=Axis(kind="name"),
    title="Players and Retreat Edges",
    short="players table",
    source="DTP 11.0",
    rule="DTP 11.0",
    cells=(("*", "text"),),
    notes=("source",),
    require=("player", "retreat_edge"),
)

# The North Atlantic scenarios' data [DTP 11.3, 11.31]: optional (the Med has none of them).
BASE_RULES = TableDecl(
    name="base_rules",
    file="tables/base_rules.csv",
    rows=Axis(kind="name", columns=("base",), label="Base", word="base"),
    columns=Axis(kind="name"),
    title="Special Bases",
    short="base rules table",
    source="DTP 11.3 rules 2, 3, 5",
    rule="DTP 11.3",
    cells=(("*", "text"),),
    notes=("source",),
    require=("hex", "anchor", "distance", "nationalities", "capacity", "occupied_users"),
    required=False,
)
VICTORY_UNITS = TableDecl(
    name="victory_units",
    file="tables/victory_units.csv",
    rows=Axis(kind="name", columns=("side",), label="Side", word="side"),
    columns=Axis(kind="name"),
    title="Units That Score",
    short="victory units table",
    source="DTP 11.3 victory",
    rule="DTP 11.3",
    cells=(("*", "text"),),
    notes=("source",),
    require=("scores",),
    required=False,
)
VICTORY_LEVELS = TableDecl(
    name="victory_levels",
    file="tables/victory_levels.csv",
    rows=Axis(kind="name", columns=("result",), label="Result", word="result"),
    columns=Axis(kind="name"),
    title="Victory (most points wins)",
    short="victory levels table",
    source="DTP 11.3 victory 3",
    rule="DTP 11.3",
    cells=(("*", "text"),),
    notes=("source",),
    require=("above", "up_to"),
    required=False,
)
VICTORY_EXITS = TableDecl(
    name="victory_exits",
    file="tables/victory_exits.csv",
    rows=Axis(kind="name", columns=("id",), label="Exit", word="exit"),
    columns=Axis(kind="name"),
    title="Exits for Victory",
    short="victory exits table",
    source="DTP 11.3 victory",
    rule="DTP 5.24",
    cells=(("*", "text"),),
    notes=("source",),
    require=("side", "units", "edge"),
    required=False,
)

# [DTP 4.1] one Game-Turn for the VASSAL tracker, read from the referee's own sequence
# (sequence.PHASES, declared once): "first" is Player A, "second" Player B. The combat phase
# belongs to both (alternating impulses, B first [DTP 8.2]); phases 6 and 7 to neither.
# Detection attempts happen inside the movement phases [DTP 4.0]. Set-up is SPI's [11.0],
# which DTP keeps: its step is read from SPI's sequence.
SEQUENCE = (
    *tracker_steps(SPI_PLAYED, turn=(("setup", ""),)),
    *tracker_steps(
        PHASES,
        players={"A": "first", "B": "second"},
        ends={"combat": ("attacked",), "night": ("detected_surface",)},
    ),
)


def _sunk_at_8_55(module: Module, unit: UnitDef) -> int | None:
    """The damage that sinks ``unit``: D3 [DTP 8.55], the Denmark Strait convoy D12 [DTP 11.3
    rule 7]; a base is never sunk (it has no such counter)."""
    if unit.category not in ("surface", "submarine"):
        return None
    return 12 if "convoy" in unit.flags else 3


def _reduced_8_55(module: Module, unit: UnitDef) -> tuple[tuple[int, Mapping[str, int]], ...]:
    """A ship's or sub's values from D2 on [DTP 8.55] (the convoy's 2 MP [DTP 11.3 rule 7]),
    named lazily, as the rules are."""
    if unit.category not in ("surface", "submarine"):
        return ()
    from referee.rules.sixth_fleet_dtp.hits import REDUCED_FROM_8_55, reduced_values_8_55

    return ((REDUCED_FROM_8_55, reduced_values_8_55(unit.values, unit.flags)),)


MARKERS = (
    MarkerDecl(
        "detected_surface",
        "Detected (surface)",
        "DTP 6.2a",
        "detected surface unit; removed in phase 7 of Night turns [DTP 6.62]",
        categories=("surface",),
    ),
    MarkerDecl(
        "detected_sub",
        "Detected (sub)",
        "DTP 6.2a",
        "detected submarine; removed at its owner's ship and sub phase [DTP 6.63]",
        categories=("submarine",),
    ),
    # one layer with levels D1-D12, not a layer per level: the convoy takes damage to D12
    # [DTP 11.3 rule 7]; D1 [DTP 8.54], D2 halves movement and zeroes attack strengths
    # [DTP 8.55], D3 sinks any other ship
    MarkerDecl(
        "damage",
        "Damage",
        "DTP 8.54",
        "cumulative damage: D2 movement halved, attack strengths 0 [DTP 8.55]",
        "damage",
        ("surface", "submarine"),
        levels=12,
        label="D{}",
        lost_at=_sunk_at_8_55,  # D3 sinks a ship, D12 the convoy [DTP 8.55, 11.3 rule 7]
        reduces=_reduced_8_55,  # D2: movement halved, attack strengths 0 [DTP 8.55]
    ),
    MarkerDecl(
        "inactive",
        "Inactive",
        "DTP 9.23",
        "face down: failed its readiness roll",
        categories=("air",),
        face_down=True,
    ),
    MarkerDecl("attacked", "Attacked", "7.44", "attacked this combat phase", "combat.engaged"),
)

# [DTP 8.51] an aborted air unit waits on the turn track for the Game-Turn it returns: one box
# per Game-Turn of the longest scenario (the Med campaign's 21); a later turn waits in the last
RECYCLE_TURNS = 21
DISPLAYS = (
    DisplayDecl(
        "Recycle track",
        "Aborted air units: each returns at the start of the Game-Turn of its box [DTP 8.51]",
        tuple(
            DisplayRow(tuple(f"Returns Game-Turn {t}" for t in range(r, r + 7)), 3, 2)
            for r in range(1, RECYCLE_TURNS + 1, 7)
        ),
        rule="DTP 8.51",
        holds=(BoxUnits("Returns Game-Turn {}", "recycle"),),
    ),
)

# ---- what the schema names lazily: ``referee check`` reads the schema without the rules ----


def _rules() -> Ruleset:
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET

    return RULESET


def _check_detection_6_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.tables import check_detection_6_3

    return check_detection_6_3(module)


def _check_hit_8_52(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.tables import check_hit_8_52

    return check_hit_8_52(module)


def _check_readiness_9_23(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.tables import check_readiness_9_23

    return check_readiness_9_23(module)


def _check_players_11_0(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.tables import check_players_11_0

    return check_players_11_0(module)


def _check_base_rules_11_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.special_bases import check_base_rules_11_3

    return check_base_rules_11_3(module)


def _check_victory_units_11_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.victory import check_victory_units_11_3

    return check_victory_units_11_3(module)


def _check_victory_levels_11_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.victory import check_victory_levels_11_3

    return check_victory_levels_11_3(module)


def _check_victory_exits_11_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.exits import check_victory_exits_11_3

    return check_victory_exits_11_3(module)


def _check_victory_awards_11_5124(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.westpac_tables import check_victory_awards_11_5124

    return check_victory_awards_11_5124(module)


def _check_variable_air_11_507(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.westpac_tables import check_variable_air_11_507

    return check_variable_air_11_507(module)


def _check_retreat_rules_11_503(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_dtp.westpac_tables import check_retreat_rules_11_503

    return check_retreat_rules_11_503(module)


def _module_displays(module: Module) -> tuple[DisplayDecl, ...]:
    from referee.rules.sixth_fleet_dtp.track_displays import displays_11_506

    return displays_11_506(module)


def _off_map_boxes(module: Module) -> tuple[tuple[str, str], ...]:
    from referee.rules.sixth_fleet_dtp.special_bases import off_map_boxes

    return off_map_boxes(module)


SCHEMA: RulesetSchema = replace(
    SPI_SCHEMA,
    id="sixth_fleet_dtp",
    name="Sixth Fleet, DTP revised rules",
    # 'convoy': the Denmark Strait convoy, sunk at D12 not D3, 2 MP from D2 [DTP 11.3 rule 7]
    # 'flight_deck': a ship other than a CV whose carrier air uses it (the Kiev, DTP-40)
    flags=(*SPI_SCHEMA.flags, "convoy", "flight_deck"),
    # SPI's Level of Victory table [13.2] is the Med's; a North Atlantic module gives its own
    # bands (``victory_levels``) instead [DTP 11.3 victory 3]
    tables=tuple(t for t in SPI_SCHEMA.tables if t != "victory"),
    # Westpac's special ships [DTP 11.509]: command ships (LCC, CCL), convoys (AK, TK), the
    # amphibious groups (LHA, LPH, LPD, LST, LSD, LSM) and the old light cruisers (CL) [11.5131]
    unit_types={
        **SPI_SCHEMA.unit_types,
        "surface": (
            *SPI_SCHEMA.unit_types["surface"],
            *("CL", "CCL", "LCC", "AK", "TK", "LHA", "LPH", "LPD", "LST", "LSD", "LSM"),
        ),
    },
    # the Westpac optional rules 11.5131 to 11.5134: declared, not played yet
    optional_rules=(*SPI_SCHEMA.optional_rules, "11.5131", "11.5132", "11.5133", "11.5134"),
    # 'hex': a reinforcement that enters at one named hex, as most on the Westpac track do
    # [DTP 11.506, 11.5063]
    entry_kinds=(*SPI_SCHEMA.entry_kinds, "hex"),
    table_decls=(
        *SPI_SCHEMA.table_decls,
        DETECTION,
        STRIKE_CONTACT,
        HIT,
        READINESS,
        PLAYERS,
        BASE_RULES,
        VICTORY_UNITS,
        VICTORY_LEVELS,
        VICTORY_EXITS,
        VICTORY_AWARDS,
        VARIABLE_AIR,
        RETREAT_RULES,
    ),
    # the North Atlantic bonuses [DTP 11.3 victory, 11.31 rule 8] (victory.py)
    victory_conditions=(
        *SPI_SCHEMA.victory_conditions,
        "no_unit_entered",
        "unit_held",
        "occupied",
        "occupied_at_end",
        "convoy_docked",
    ),
    table_checks={
        **SPI_SCHEMA.table_checks,
        "detection": _check_detection_6_3,
        "hit": _check_hit_8_52,
        "readiness": _check_readiness_9_23,
        "players": _check_players_11_0,
        "base_rules": _check_base_rules_11_3,
        "victory_units": _check_victory_units_11_3,
        "victory_levels": _check_victory_levels_11_3,
        "victory_exits": _check_victory_exits_11_3,
        "victory_awards": _check_victory_awards_11_5124,
        "variable_air": _check_variable_air_11_507,
        "retreat_rules": _check_retreat_rules_11_503,
    },
    sequence=SEQUENCE,
    markers=MARKERS,
    off_map_boxes=_off_map_boxes,
    displays=DISPLAYS,
    module_displays=_module_displays,  # Westpac's reinforcement track, variable air box
    dice=(DiceDecl("2d6", 2, "DTP 8.51, 9.15, 9.29"),),  # an aborted air unit's delay
    table_rolls=(
        TableRollDecl("CRT", "crt", 1, "8.8", read="range"),
        # the +2 of Restricted or Coastal water [DTP 6.3 step 6] is asked for
        TableRollDecl(
            "Detection table",
            "detection",
            1,
            "DTP 6.3",
            read="at_least",
            modified=True,
            success="detection",
        ),
        # -1 ECM, +2 Detected, +2 Coastal or Restricted, -2 Night [DTP 8.15 step 10]
        TableRollDecl(
            "Strike contact",
            "strike_contact",
            1,
            "DTP 8.15",
            read="at_least",
            modified=True,
            success="contact",
        ),
        TableRollDecl("Hit table", "hit", 1, "DTP 8.52", read="outcome", success="D1"),
        # a landing air unit stays active on a d6 at or below its rating [DTP 9.23] (Soviet
        # air at Keflavik -1 [DTP 11.3 rule 5], asked for)
        TableRollDecl(
            "Readiness",
            "readiness",
            1,
            "DTP 9.23",
            read="at_most",
            modified=True,
            success="active",
        ),
        # an aborted air unit is back after 2d6 less its rating turns, at least 2 [DTP 8.51];
        # a unit at another NATO nation's base adds the 9.15 / 9.29 extra, asked for
        TableRollDecl(
            "Abort delay",
            "readiness",
            2,
            "DTP 8.51",
            read="minus",
            modified=True,
            success="turns",
            floor=MIN_DELAY_8_51,
        ),
        # Westpac's East Block variable air [DTP 11.507]; the other modules have no such table
        TableRollDecl("Variable air", "variable_air", 1, "DTP 11.507"),
    ),
    # each side's VP, fractions kept [DTP 8.57] (Westpac's awards [DTP 11.5124] too): text
    tracks=(
        TrackDecl(
            "VP_{side}",
            "{side} VP",
            "DTP 8.57",
            per_side=True,
            numeric=False,
            source="score:vp.{side}",
        ),
    ),
    # no Trigger adds a loss's VP: DTP scores a damaged ship's fraction [DTP 8.57] and
    # Denmark Strait's NATO only some kinds [DTP 11.3], on text tracks; the saves set them
    loss_score=None,
    rules=_rules,
)
