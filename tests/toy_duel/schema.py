"""What the toy_duel ruleset asks of a module source, and where its ruleset object is: the
one object the ``referee.rulesets`` entry point names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.source.schema import PhaseDecl, RulesetSchema

if TYPE_CHECKING:
    from referee.engine.ruleset import Ruleset


def _rules() -> Ruleset:
    from tests.toy_duel.ruleset import RULESET

    return RULESET


SCHEMA = RulesetSchema(
    id="toy_duel",
    name="Toy Duel",
    values=("GUN",),
    categories=("ship",),
    unit_types={"ship": ("DD",)},
    setup_kinds=(),
    sequence=(
        PhaseDecl("action", "Blue Action Phase", "D2", "first"),
        PhaseDecl("action", "Red Action Phase", "D2", "second"),
    ),
    rules=_rules,
)
