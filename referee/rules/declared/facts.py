"""The position facts of the declared referee: the one key it keeps in ``state.data``
(``docs/rulesets.md``, "Position facts").

A declared game's position is its pieces; the referee keeps beside them only ``flags``, the
rulings made after the first declared games that ``new_game`` records (``ruleset.
NEW_GAME_FLAGS``), so an archive begun before one replays as it was played and ``verify``
accepts its start (``earlier_starts``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine.facts import Facts


@dataclass(frozen=True)
class DeclaredFacts(Facts):
    """Every key the declared referee keeps in ``state.data``, typed."""

    ruleset = "declared"

    flags: dict[str, bool] = field(default_factory=dict)  # ruleset.NEW_GAME_FLAGS
