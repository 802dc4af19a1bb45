"""Which piece definitions a game's VASSAL saves hold: the piece-trait set, by version.

A VASSAL save holds every counter's whole definition (its traits with their types and
states, vassal-format.md §5), and ``verify`` proves a game's ``position.vsav`` by making it
again and comparing the command streams (:func:`referee.pbem.rendercheck.same_save`). A new
trait on the units (a movement trail, a trigger) would change every counter of every save
of every game, so an archive played before it could no longer be proved. So the trait set
is versioned, as a ruling is (``earlier_starts``): ``referee new`` records today's version
in the game's start (``state.data["vassal_pieces"]``), every state of the game carries it
on, and the save writer builds the pieces of the version the game records. A game begun
before versions were recorded has no entry and gets version 1, the pieces it was played
with, for good.

The version says nothing hidden: every game of a referee version records the same number.
Each version adds to the one before; the module ``referee build`` writes has the newest
(:data:`CURRENT`), and a save of an older version still loads in it (VASSAL reads a save's
pieces from the save, not from the palette).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from referee.errors import UserError

__all__ = [
    "CURRENT",
    "FACE_DOWN",
    "FIRST",
    "PIECES_KEY",
    "PIECE_COMMANDS",
    "REFIT",
    "TRACKS",
    "TRAILS",
    "VERSIONS",
    "has_piece_commands",
    "has_refit",
    "has_tracks",
    "has_trails",
    "recorded_version",
    "shows_face_down",
]

PIECES_KEY: Final = "vassal_pieces"
"""The ``GameState.data`` entry ``referee new`` records the version in."""

FIRST: Final = 1
"""The pieces of every game begun before versions were recorded: Report Action, Delete,
Send To the dead pile, Mark Moved, the marker layers, Masks."""
TRAILS: Final = 2
"""Version 1 and a movement trail (VASSAL's Footprint) on every unit (issue 27)."""

FACE_DOWN: Final = 3
"""Version 2, and a side's saves show the counters it knows lie face down (Carrier
Battlegroup's unrevealed SBG ships and coastal units) as masked anonymous counters rather
than not at all (issue 27; :mod:`referee.vassal.position.face_down`)."""

REFIT: Final = 4
"""Version 3, and on a map with a Refit Box (Sixth Fleet 2019) every unit has a Send To
"Refit Box" (Ctrl+Shift+R) [7.2] (issue 27)."""

TRACKS: Final = 5
"""Version 4, and the saves set the module's Global Properties (victory points, levels,
tracks) to the referee's values, and Westpac's reinforcement track and variable air box hold
the units still to come (issue 27, issue 26 §5; :mod:`referee.vassal.module.properties`)."""

PIECE_COMMANDS: Final = 6
"""Version 5, and the counters follow the rules by their own commands (issue 27): a unit's
Eliminate scores its VP on the side's Global Property by a Trigger where the rules score a
loss at once; the Tracks display changes the Global Properties by keys; Sixth Fleet 2019's
units go to the Permanently Eliminated Box and its strike markers back to their cups by menu.
Every other piece command of the same issue joins this version."""

VERSIONS: Final[Mapping[int, str]] = {
    FIRST: "the pieces of the games begun before the piece definitions were versioned",
    TRAILS: "every unit has a movement trail (Ctrl+Shift+T)",
    FACE_DOWN: "a side's saves show the face-down counters it knows of, masked",
    REFIT: "units have a Send To the map's Refit Box (Ctrl+Shift+R)",
    TRACKS: "saves set the Global Properties and fill Westpac's reinforcement displays",
    PIECE_COMMANDS: "triggers (an eliminated unit scores its VP), property keys, more Send Tos",
}
CURRENT: Final = max(VERSIONS)
"""The version ``referee new`` records and ``referee build`` writes."""


def recorded_version(data: Mapping[str, object]) -> int:
    """The piece version a game's state records (``data`` is ``GameState.data``): the
    recorded number, or :data:`FIRST` for a game begun before versions were recorded.

    Raises :class:`UserError` for a value that is no version this referee writes (a state
    from a newer referee, or a hand-edited one)."""
    got = data.get(PIECES_KEY, FIRST)
    if isinstance(got, bool) or not isinstance(got, int) or got not in VERSIONS:
        raise UserError(
            f"state data {PIECES_KEY} = {got!r} is no VASSAL piece version this referee writes "
            f"(it writes {', '.join(map(str, sorted(VERSIONS)))})",
            hint="a game begun with a newer referee needs that referee (or a newer one)",
        )
    return got


def has_trails(version: int) -> bool:
    """Whether units of ``version`` carry a movement trail."""
    return version >= TRAILS


def has_tracks(version: int) -> bool:
    """Whether saves of ``version`` set the Global Properties and fill computed display boxes."""
    return version >= TRACKS


def has_piece_commands(version: int) -> bool:
    """Whether counters of ``version`` carry the rules' piece commands (triggers, property
    keys, the 2019 Send Tos): :data:`PIECE_COMMANDS`."""
    return version >= PIECE_COMMANDS


def has_refit(version: int) -> bool:
    """Whether units of ``version`` have a Send To the map's Refit Box (where it has one)."""
    return version >= REFIT


def shows_face_down(version: int) -> bool:
    """Whether a side's saves of ``version`` show its known face-down counters masked."""
    return version >= FACE_DOWN
