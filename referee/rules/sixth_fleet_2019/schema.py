"""What the Sixth Fleet (2019) ruleset needs from a module source.

Factors are Anti-Ground, EW, Anti-Aircraft, Anti-Submarine, Anti-Surface Ship and
Movement/Range [2.2.1]; units are ground, naval (surface, submarine [2.12]) and air, plus
strike units [2.9] and markers [2.10]; the map is an area map [2.1].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.rules.sixth_fleet_2019.phases import PHASES
from referee.source.schema import (
    LossScore,
    RulesetSchema,
    TableRollDecl,
    TrackDecl,
    tracker_steps,
)

if TYPE_CHECKING:
    from referee.engine.ruleset import Ruleset
    from referee.source.diagnostics import Diagnostic
    from referee.source.model import Module, UnitDef

# [5.0] one turn for the VASSAL turn tracker, read from the phases the referee walks
# (phases.PHASES, declared once). Each step belongs to a fixed side, so the side is in its
# name and no step is "first" or "second" player's.
SEQUENCE = tracker_steps(PHASES)

# ---- what the schema names lazily: ``referee check`` reads the schema without the rules ----


def _loss_score(module: Module, unit: UnitDef) -> LossScore | None:
    from referee.rules.sixth_fleet_2019.victory import loss_score_4_3

    return loss_score_4_3(module, unit)


def _rules() -> Ruleset:
    from referee.rules.sixth_fleet_2019.ruleset import RULESET

    return RULESET


def _check_events_nato_5_1(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_2019.events import check_events_nato_5_1

    return check_events_nato_5_1(module)


def _check_events_soviet_5_1(module: Module) -> list[Diagnostic]:
    from referee.rules.sixth_fleet_2019.events import check_events_soviet_5_1

    return check_events_soviet_5_1(module)


SCHEMA = RulesetSchema(
    id="sixth_fleet_2019",
    name="Decision Games Sixth Fleet (2019)",
    values=("AG", "EW", "AA", "ASW", "ASU", "MA"),
    categories=("ground", "surface", "submarine", "air", "strike", "marker"),
    unit_types={
        "surface": (
            "CV",
            "CVN",
            "CVH",
            "BBG",
            "BC",
            "CA",
            "CG",
            "CGa",
            "CGN",
            "CSGN",
            "DDG",
            "DD",
            "FF",
            "FFG",
            "AWG",
            "SCG",
            "LCC",
            "AO",
            "BPK",
            "EM",
            "KR",
            "RKR",
            "SKR",
            "TARKR",
        ),
        "submarine": ("SS", "SSGN", "SSN", "SSN-A"),
        "air": (),
        "ground": ("MECH", "ABN", "MAR", "TRG"),
        "strike": ("CM", "EWS", "SOF"),
        "marker": ("C2", "TURN"),
    },
    flags=("cv", "vstol", "ace", "no_amphibious", "unlimited_range", "s1970", "s1980", "optional"),
    tables=("victory", "terrain"),
    terrain=("sea", "nato", "soviet_bloc", "neutral", "no_entry", "small_island", "off_map", "box"),
    victory_conditions=(),
    setup_kinds=("setup_code", "airbase", "carrier", "hexes"),
    # [[reinforcement]] entry = "bases": the zones listed (``hexes``) with a base the side may
    # use; the provisional ``reinforce`` action checks the rest (10.0 is not in the seed)
    entry_kinds=("bases",),
    map_kinds=("area",),
    sequence=SEQUENCE,
    masked_backs=("strike_back",),  # strike markers drawn face down (provisional 17.0)
    unit_sides=("neutral",),  # game.NEUTRAL: a neutral's side until it joins [2.3]
    table_checks={
        "events_nato": _check_events_nato_5_1,
        "events_soviet": _check_events_soviet_5_1,
    },
    # the provisional strike table: one d6 read in the column of its number (9.0)
    table_rolls=(
        TableRollDecl("Strike table", "strike", 1, "9.0", read="column"),
        TableRollDecl("NATO random events", "events_nato", 1, "5.1"),
        TableRollDecl("Soviet random events", "events_soviet", 1, "5.1"),
    ),
    # each side's VP [4.3] and the actions the phasing player has left this Action Phase [6.1]
    loss_score=_loss_score,  # an enemy unit in the Refit or Permanently Eliminated Box [4.3]
    tracks=(
        TrackDecl("VP_{side}", "{side} VP", "4.3", per_side=True, source="score:vp.{side}"),
        TrackDecl(
            "Actions",
            "Actions left this Action Phase",
            "6.1",
            maximum=9,
            source="data:actions_left",
        ),
    ),
    rules=_rules,
)
