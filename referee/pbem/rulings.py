"""Which reading of a ruling an archive was played with.

A ruleset that changes how it reads a rule (a flag new games record, how a score is tabled)
still verifies the archives begun before the change: it declares the readings its older
versions made, and ``verify`` replays an archive under the reading it was started with.
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset


def matching_start(rs: Ruleset, new: GameState, recorded: bytes) -> GameState:
    """The starting position ``new_game`` makes, or -- when the archive's recorded start
    differs -- the earlier start the ruleset made before a later ruling, if it is that one.

    A ruleset that records a ruling in new games (Sixth Fleet's [8.5] flag) offers the starts
    its older versions made through an optional ``earlier_starts(state)`` method; an archive
    begun before the ruling then replays under the reading it was played with."""
    if new.canonical().encode() == recorded:
        return new
    earlier = getattr(rs, "earlier_starts", None)
    for alt in earlier(new) if earlier is not None else ():
        if alt.canonical().encode() == recorded:
            return alt
    return new
