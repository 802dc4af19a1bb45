"""What a ruleset asks of a module source.

A module names its ruleset (``ruleset = "sixth_fleet_1975"``). The ruleset declares, as plain
data, which value columns every unit must carry, which unit categories and types exist, which
flags a roster may set, which tables it needs and which victory conditions and set-up kinds it
understands. The source checker reads this declaration, so another game can define its own
value columns without touching the loader.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from referee.source.tablemodel import TableDecl


@dataclass(frozen=True, slots=True)
class RulesetSchema:
    id: str
    name: str
    values: tuple[str, ...]
    categories: tuple[str, ...]
    unit_types: dict[str, tuple[str, ...]] = field(default_factory=dict)  # category -> types
    flags: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    terrain: tuple[str, ...] = ()  # terrain ids the ruleset's code refers to
    victory_conditions: tuple[str, ...] = ()
    setup_kinds: tuple[str, ...] = ("setup_code", "airbase", "carrier", "hexes")
    entry_kinds: tuple[str, ...] = ("airbases", "edge_adjacent", "area")
    optional_rules: tuple[str, ...] = ()
    # named tables the ruleset reads beyond the standard ones, with their default file; a
    # module's own [[table]] of the same name replaces the declaration
    table_decls: tuple[TableDecl, ...] = ()
    # table name -> "module:function(module) -> list[Diagnostic]": the ruleset's own checks of
    # a table against the whole module (roster, map), run by the loader on a clean module
    table_checks: dict[str, str] = field(default_factory=dict)
    map_kinds: tuple[str, ...] = ("hex",)  # MapDef.kind values the ruleset plays on


# Ruleset id -> "module:attribute" of its schema; imported lazily so `check` stays fast.
_SCHEMAS: dict[str, str] = {
    "sixth_fleet_1975": "referee.rules.sixth_fleet_1975.schema:SCHEMA",
    "carrier_battlegroup": "referee.rules.carrier_battlegroup.schema:SCHEMA",
    "sixth_fleet_2019": "referee.rules.sixth_fleet_2019.schema:SCHEMA",
}


def known_rulesets() -> list[str]:
    return sorted(_SCHEMAS)


def ruleset_schema(ruleset_id: str) -> RulesetSchema | None:
    target = _SCHEMAS.get(ruleset_id)
    if target is None:
        return None
    mod_name, attr = target.split(":")
    return getattr(importlib.import_module(mod_name), attr)
