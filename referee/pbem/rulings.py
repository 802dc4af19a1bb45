"""Which reading of a ruling an archive was played with.

A referee version that changes how a ruleset reads a rule still verifies, and goes on
adjudicating, the archives begun before the change, under the reading each was started with:

* **the start**: a ruleset that records a ruling in new games (Sixth Fleet's [8.5] flag, Carrier
  Battlegroup's [5.0 step 10] flags) declares the starts its older versions made
  (``earlier_starts``, a method of every ruleset, by default none); the
  archive's recorded start says which one it was played from (:func:`matching_start`);
* **the score**: issue 31 gave every ruleset's score the entries the reports' score tables read
  (each loss with its rule, the units each side scores, the VP track's label, whether bonuses
  are counted in the VP). Every report records the report templates it was made with
  (``templates_sha256``); a game whose report 000 was made with templates from before the
  score tables keeps the score it was started with, today's without those entries
  (:func:`score_reading`), in ``verify`` and in every step ``adjudicate`` adds to it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset
from referee.source.model import Module
from referee.vassal.module.piece_versions import CURRENT as CURRENT_PIECES
from referee.vassal.module.piece_versions import PIECES_KEY, VERSIONS


def new_start(
    rs: Ruleset, module: Module, scenario: str, game_id: str, options: tuple[str, ...]
) -> GameState:
    """The start ``referee new`` records: the ruleset's new game with the VASSAL piece
    version of today's saves (:mod:`referee.vassal.module.piece_versions`), which the game's
    saves keep for good, so a later trait never changes an older game's saves."""
    state = rs.new_game(module, scenario, game_id, options)
    return state.with_data(**{PIECES_KEY: CURRENT_PIECES})


def matching_start(rs: Ruleset, new: GameState, recorded: bytes) -> GameState:
    """The starting position :func:`new_start` makes, or -- when the archive's recorded start
    differs -- the earlier start the ruleset made before a later ruling, if it is that one;
    an archive begun before the ruling then replays under the reading it was played with.
    Each of them may also be the start of a game begun under an earlier VASSAL piece version
    (any version this referee knows, each game's saves keeping its own) or before the version
    was recorded (no ``vassal_pieces``: its saves keep the first pieces)."""
    for alt in (new, *rs.earlier_starts(new)):
        for start in (alt, *_with_earlier_pieces(alt)):
            if start.canonical().encode() == recorded:
                return start
    return new


def _with_earlier_pieces(state: GameState) -> list[GameState]:
    """``state`` recording each earlier piece version, newest first, then none at all."""
    data = {k: v for k, v in state.data.items() if k != PIECES_KEY}
    made = state.data.get(PIECES_KEY)
    out = [state.evolve(data={**data, PIECES_KEY: v}) for v in sorted(VERSIONS, reverse=True)]
    return [s for s in out if s.data[PIECES_KEY] != made] + [state.evolve(data=data)]


# What the score tables of the reports read, added to every ruleset's score by issue 31.
SCORE_TABLE_ENTRIES = frozenset({"losses", "destroyed", "vp_label", "bonuses_in_vp"})
# The report templates of the referee versions before the score tables, named one by one:
# the template sets of later versions (also in KNOWN_TEMPLATES) record today's score.
BEFORE_SCORE_TABLES = frozenset(
    {
        "cd777dd0e35ca150d2c70c6d8557fe87f77211d538cf7a1320995ffde4efc867",
        "0345707263fb3e07e1fb3f819d01d6cf3df6eb4341d37a8976df01660ba9cdf3",
    }
)


@dataclass(frozen=True, slots=True)
class ScoreReading:
    """How a game's reports record the score: today's ``ruleset.score`` less ``without``."""

    name: str
    without: frozenset[str] = frozenset()

    def score(self, rs: Ruleset, module: Module, state: GameState) -> dict[str, Any]:
        """The score as this reading records it (what a report's ``score`` is made from)."""
        full: Mapping[str, Any] = rs.score(module, state)
        return {k: v for k, v in full.items() if k not in self.without}

    def recorded(self, rs: Ruleset, module: Module, state: GameState) -> Any:
        """:meth:`score` as the report's JSON reads back (what ``verify`` compares)."""
        return json.loads(json.dumps(self.score(rs, module, state)))


TODAY = ScoreReading("today's")
WITHOUT_SCORE_TABLES = ScoreReading("before the score tables (issue 31)", SCORE_TABLE_ENTRIES)


def score_reading(setup: Mapping[str, Any] | None) -> ScoreReading:
    """The score reading of the game whose report 000 (or its full record) is ``setup``."""
    if setup is not None and setup.get("templates_sha256") in BEFORE_SCORE_TABLES:
        return WITHOUT_SCORE_TABLES
    return TODAY
