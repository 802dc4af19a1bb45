"""What the toy_duel ruleset asks of a module source, and where its ruleset object is: the
one object the ``referee.rulesets`` entry point names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.source.schema import RulesetSchema, tracker_steps
from tests.toy_duel.sequence import PHASES

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
    # the turn tracker: the Action Phase of Blue's player turn, then of Red's [D2]
    sequence=tracker_steps(PHASES, player_turns=True),
    rules=_rules,
)
