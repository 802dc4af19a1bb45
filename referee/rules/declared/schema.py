"""The ``declared`` ruleset's schema: what every declared game's ``[game]`` table starts
from. A declared game's own schema is this one with its declarations
(``referee.source.gamedecl.schema_of``, read through ``Module.schema``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.source.schema import RulesetSchema

if TYPE_CHECKING:
    from referee.engine.ruleset import Ruleset


def _rules() -> Ruleset:
    from referee.rules.declared.ruleset import RULESET

    return RULESET


SCHEMA = RulesetSchema(
    id="declared",
    name="Declared game (refereed for its record and dice, not its rules)",
    values=(),
    categories=(),
    setup_kinds=("hexes",),
    # every kind of map a source may declare (docs/module-source.md): hexes, zones, spaces and
    # their combinations; a module imported from VASSAL has its named locations as spaces
    # (referee/vassal/foreign/game.py)
    map_kinds=("hex", "area", "point", "hex+area", "hex+point", "area+point", "hex+area+point"),
    rules=_rules,
)
