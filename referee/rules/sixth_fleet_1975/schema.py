"""What the Sixth Fleet (1975) ruleset needs from a module source.

Values are printed AntiAir-AntiSurface-AntiSub-Movement(Range for air)-Defense-ECM [3.2],
categories are air, surface and submarine [3.2], ship types are those of [3.24].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.rules.sixth_fleet_1975.sequence import SEQUENCE as PLAYED
from referee.source.schema import (
    LossScore,
    MarkerDecl,
    RulesetSchema,
    TableRollDecl,
    TrackDecl,
    tracker_steps,
)
from referee.source.tablemodel import Axis, TableDecl

if TYPE_CHECKING:
    from referee.engine.ruleset import Ruleset
    from referee.source.diagnostics import Diagnostic
    from referee.source.model import Module, UnitDef

# [14.3] Middle East air forces: what each d6 roll (or "-": no roll, always) gives each
# country. The roster and map checks are the ruleset's (middle_east.parse_table_14_3).
MIDDLE_EAST_AIR = TableDecl(
    name="middle_east_air",
    file="tables/middle_east_air.csv",
    rows=Axis(
        kind="composite",
        columns=("d6", "country"),
        parts=("die", "name"),
        blank="-",
        label="d6 / country",
        word="d6 and country",
    ),
    columns=Axis(kind="name"),
    title="Middle East Air Forces",
    source="[14.3]; the rules folder's tables.md A4",
    rule="14.3",
    cells=(("units", "counts"),),
    required=False,
)

# [4.0] one Game-Turn: each player's Combat Phase, then his Movement Phase (combat BEFORE
# movement [4.1]), then the Game-Turn Indication Phase; the Reinforcement Interphase [12.2]
# follows the indication of a turn after which reinforcements arrive. The steps are read
# from the referee's own sequence (sequence.SEQUENCE, declared once: each phase's id, title
# and case); the engine plays the Combat and Movement Phases once for each player (its
# ``state.active_side``), so the Game-Turn lists them per player here. Set-up is played
# once; the engine passes through the Game-Turn Indication on its own.
SEQUENCE = tracker_steps(
    PLAYED,
    ends={"combat": ("attacked",), "movement": ("returning",)},
    turn=(
        ("setup", ""),
        ("combat", "first"),
        ("movement", "first"),
        ("combat", "second"),
        ("movement", "second"),
        ("indication", ""),
        ("reinforcement", ""),
    ),
)

# what a counter shows: attacked this Combat Phase (units below may now be attacked [7.44];
# the phase record's ``attacked`` list), and an inverted air unit returning to base [9.22]
MARKERS = (
    MarkerDecl("attacked", "Attacked", "7.44", "attacked this Combat Phase", "combat.attacked"),
    MarkerDecl(
        "returning", "Returning", "9.22", "returning to base", categories=("air",), phasing=True
    ),
)

# ---- what the schema names lazily: ``referee check`` reads the schema without the rules ----


def _loss_score(module: Module, unit: UnitDef) -> LossScore | None:
    from referee.rules.sixth_fleet_1975.victory import loss_score_13_0

    return loss_score_13_0(module, unit)


def _rules() -> Ruleset:
    from referee.rules.sixth_fleet_1975.ruleset import RULESET

    return RULESET


def _check_table_14_3(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_1975.middle_east_table import check_table_14_3

    return check_table_14_3(module)


SCHEMA = RulesetSchema(
    id="sixth_fleet_1975",
    name="SPI Sixth Fleet (1975)",
    values=("AA", "AS", "ASW", "MA", "DEF", "ECM"),
    categories=("air", "surface", "submarine"),
    unit_types={
        "surface": ("CV", "CH", "CG", "CA", "DD", "DE"),
        "submarine": ("SS", "SG", "SN"),
        "air": (),  # any aircraft designation (F4, A7, T16, ...)
    },
    flags=("carrier", "daylight"),
    tables=("crt", "victory", "terrain"),
    terrain=("high_seas", "restricted", "coastal", "land", "prohibited_land", "prohibited_coastal"),
    victory_conditions=("no_enemy_in_area", "israel_cut_off", "no_enemy_naval_in_area"),
    optional_rules=("14.1", "14.2", "14.3", "14.4"),
    table_decls=(MIDDLE_EAST_AIR,),
    table_checks={"middle_east_air": _check_table_14_3},
    sequence=SEQUENCE,
    markers=MARKERS,
    # each side's VP for units destroyed [13.0] (the area bonuses [13.1] come at the end)
    table_rolls=(TableRollDecl("CRT", "crt", 1, "8.8", read="range"),),
    tracks=(TrackDecl("VP_{side}", "{side} VP", "13.0", per_side=True, source="score:vp.{side}"),),
    loss_score=_loss_score,  # a destroyed unit's ECM, at least 1, to the enemy [13.0]
    rules=_rules,
)
