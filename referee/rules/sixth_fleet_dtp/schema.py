"""What the DTP revised rules need from a module source.

DTP keeps SPI's counters, values and map [DTP 100.3, 3.0], so the SPI declaration is reused
as it stands (``dataclasses.replace`` of the SPI schema, not a copy) and DTP adds the four
tables the kit uses but does not print (Detection [DTP 6.3], Strike Contact [DTP 8.15], Hit
Table [DTP 8.52], Readiness [DTP 8.51, 9.23]) and the players' table of the scenario
[DTP 11.0]. Every table is read under [DTP 4.01]: columns at or below, the top column above
it, an action below the lowest column fails.
"""

from dataclasses import replace

from referee.rules.sixth_fleet_1975.schema import SCHEMA as SPI_SCHEMA
from referee.source.schema import MarkerDecl, PhaseDecl, RulesetSchema
from referee.source.tablemodel import Axis, TableDecl

_CHECKS = "referee.rules.sixth_fleet_dtp.tables"

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

# [DTP 4.1] one Game-Turn, as the kit lists it; "first" is Player A, "second" Player B. The
# combat phase belongs to both (alternating impulses, B first [DTP 8.2]); phases 6 and 7 to
# neither. Detection attempts happen inside the movement phases [DTP 4.0].
SEQUENCE = (
    PhaseDecl("setup", "Set-up", "11.0", once=True),
    PhaseDecl("ship_movement_a", "Player A ship and sub movement", "DTP 4.1", "first"),
    PhaseDecl("ship_movement_b", "Player B ship and sub movement", "DTP 4.1", "second"),
    PhaseDecl("air_movement_b", "Player B air movement", "DTP 4.1", "second"),
    PhaseDecl("air_movement_a", "Player A air movement", "DTP 4.1", "first"),
    PhaseDecl("combat", "Combat phase", "DTP 8.2", ends=("attacked",)),
    PhaseDecl("rebasing", "Air rebasing and readiness", "DTP 9.22"),
    PhaseDecl(
        "night", "Night: surface Detected markers removed", "DTP 6.62", ends=("detected_surface",)
    ),
)

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
    MarkerDecl(
        "D1", "D1", "DTP 8.54", "one damage level", "damage", ("surface", "submarine"), level=1
    ),
    MarkerDecl(
        "D2",
        "D2",
        "DTP 8.55",
        "movement halved, attack strengths 0",
        "damage",
        ("surface", "submarine"),
        level=2,
    ),
    MarkerDecl(
        "inactive",
        "Inactive",
        "DTP 9.23",
        "face down: failed its readiness roll",
        categories=("air",),
    ),
    MarkerDecl("attacked", "Attacked", "7.44", "attacked this combat phase", "combat.engaged"),
)

SCHEMA: RulesetSchema = replace(
    SPI_SCHEMA,
    id="sixth_fleet_dtp",
    name="Sixth Fleet, DTP revised rules",
    # 'convoy': the Denmark Strait convoy, sunk at D12 not D3, 2 MP from D2 [DTP 11.3 rule 7]
    # 'flight_deck': a ship other than a CV whose carrier air uses it (the Kiev, DTP-40)
    flags=(*SPI_SCHEMA.flags, "convoy", "flight_deck"),
    table_decls=(*SPI_SCHEMA.table_decls, DETECTION, STRIKE_CONTACT, HIT, READINESS, PLAYERS),
    table_checks={
        **SPI_SCHEMA.table_checks,
        "detection": f"{_CHECKS}:check_detection_6_3",
        "hit": f"{_CHECKS}:check_hit_8_52",
        "readiness": f"{_CHECKS}:check_readiness_9_23",
        "players": f"{_CHECKS}:check_players_11_0",
    },
    sequence=SEQUENCE,
    markers=MARKERS,
)
