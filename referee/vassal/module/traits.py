"""The play traits of our counters: Delete, Clone, Send To, mark moved and Report Action.

Each builder writes the trait's type and state exactly as VASSAL 3.7's ``myGetType`` and
``myGetState`` write them (``Delete``, ``Clone``, ``SendToLocation``, ``MovementMarkable``,
``ReportState``), so a piece we write and the same piece saved by VASSAL are the same text.

* **Delete** (Ctrl+D): a marker dragged from the palette, or a unit put on the map by
  mistake, can be removed.
* **Clone** (Ctrl+C), on markers only: a marker is a token of which the game has as many as
  needed; a unit is one physical counter of the countermix, and a second copy of it would be
  a counter the game does not have (``import-vlog`` refuses a counter on the table twice).
* **Send To** "Eliminate" (Ctrl+E), on units: the counter goes to its side's box of the
  Eliminated map (zone ``Eliminated <side id>``, chosen from the counter's ``Side``).
* **Mark moved**: the moved marker of the map's "mark moved" option, cleared by the map's
  toolbar button.
* **Mask** (Ctrl+F), on face-down counters (chits, hidden warships): VASSAL's own
  ``Obscurable``; masked by a player, the counter shows its printed back and the name
  ``mask_name`` to every other side. Only the players of the counter's own side and the
  Solitaire side (the roster's names, ``sides:A:B``) may mask or unmask it; in a two-player
  game the side that masked it sees the face with its back inset, in a solitaire game
  nobody sees the face until the rules reveal it (no Peek).
* **Movement trail** (Ctrl+Shift+T), on units: VASSAL's ``Footprint``, the path a counter moved
  along since its trail was last cleared, each player turning his own view of it on and off
  (a trail shows the opponent how a unit reached its hex: the route that a path rule such as
  the enemy zone of control or a detection hex judged).
* **Report Action**: the Ctrl keys that flip a counter or set a marker layer, eliminate,
  clone or delete it, each reported in the log the opponent reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from referee.vassal.codec.pieces import Trait, UnknownTrait
from referee.vassal.codec.sequence import encode_sequence

__all__ = [
    "CLONE_KEY",
    "CUP_KEY",
    "DELETE_KEY",
    "ELIMINATED_MAP",
    "ELIMINATE_KEY",
    "MOVED_KEY",
    "PERMANENT_KEY",
    "REFIT_KEY",
    "SOLITAIRE_SIDE",
    "clone_trait",
    "delete_trait",
    "eliminated_zone",
    "key_stroke",
    "mask_trait",
    "moved_trait",
    "report_trait",
    "return_to_deck_trait",
    "send_to_eliminated_trait",
    "send_to_zone_trait",
    "trail_trait",
]

CTRL: Final = 130
CTRL_SHIFT: Final = 195
DELETE_KEY: Final = "D"
CLONE_KEY: Final = "C"
ELIMINATE_KEY: Final = "E"
MOVED_KEY: Final = "M"
TRAIL_KEY: Final = "T"  # Ctrl+Shift+T (Ctrl+T is the Attacked layer): show or hide the trail
REFIT_KEY: Final = "R"  # Ctrl+Shift+R (Ctrl+R is the Returning layer): to the Refit Box
PERMANENT_KEY: Final = "E"  # Ctrl+Shift+E (Ctrl+E eliminates): Permanently Eliminated Box
CUP_KEY: Final = "C"  # Ctrl+Shift+C (Ctrl+C clones a marker): a strike marker back to its cup
MASK_KEY: Final = "F"  # Ctrl+F: face down / face up
SOLITAIRE_SIDE: Final = "Solitaire"
"""The roster side of a player who plays every side (VASSAL's own name for it: the side
chooser lists it as a side): the one seat of a solitaire game, and in a two-player game
the player who plays both sides at one table."""
ELIMINATED_MAP: Final = "Eliminated"
"""The map window holding one dead-pile box per side."""

REPORT_FORMAT: Final = "$location$: $menuCommand$ - $newPieceName$ *"


def key_stroke(letter: str) -> str:
    """``NamedHotKeyConfigurer.encode`` of Ctrl+letter: ``keycode,modifiers``."""
    return f"{ord(letter.upper())},{CTRL}"


def _se(tokens: Iterable[str | int | bool | None], delimiter: str) -> str:
    return encode_sequence(tokens, delimiter) or ""


def eliminated_zone(side_id: str) -> str:
    """The Zone of the Eliminated map where ``side_id``'s eliminated units go."""
    return f"Eliminated {side_id}"


def delete_trait(description: str = "Remove the counter from play") -> Trait:
    """``delete;Delete;68,130;description`` with an empty state."""
    return UnknownTrait("delete;" + _se(["Delete", key_stroke(DELETE_KEY), description], ";"), "")


def clone_trait(description: str = "Another marker like this one") -> Trait:
    """``clone;Clone;67,130;description`` with an empty state."""
    return UnknownTrait("clone;" + _se(["Clone", key_stroke(CLONE_KEY), description], ";"), "")


def send_to_eliminated_trait(command: str = "Eliminate", stroke: str = "") -> Trait:
    """Send To Location, destination a Zone (``Z``) of the Eliminated map named after the
    counter's side (``Eliminated $Side$``); the state is "no way back stored yet". The menu
    command and key (``keycode,modifiers``) are Eliminate, Ctrl+E unless given (an empty
    command: no menu entry, the key of a Trigger that owns the menu)."""
    fields: list[str | int | bool | None] = [
        command,  # commandName
        stroke or key_stroke(ELIMINATE_KEY),  # key
        ELIMINATED_MAP,  # mapId
        ELIMINATED_MAP,  # boardName
        "0",  # x
        "0",  # y
        "",  # backCommandName
        "",  # backKey
        "0",  # xIndex
        "0",  # yIndex
        "1",  # xOffset
        "1",  # yOffset
        "Eliminated: to the side's dead pile",  # description
        "Z",  # destination: a zone
        eliminated_zone("$Side$"),  # zone (a format evaluated on the piece)
        "",  # region
        "",  # propertyFilter
        "",  # gridLocation
    ]
    return UnknownTrait("sendto;" + _se(fields, ";"), _se(["", "", ""], ";"))


def send_to_zone_trait(
    command: str, stroke: str, map_name: str, board: str, zone: str, description: str
) -> Trait:
    """Send To Location, destination the Zone ``zone`` of board ``board`` on ``map_name``
    (a box printed on the map, such as the 2019 Refit Box); ``stroke`` is the encoded key
    (``keycode,modifiers``). Written as :func:`send_to_eliminated_trait` writes its own."""
    fields: list[str | int | bool | None] = [
        command,
        stroke,
        map_name,
        board,
        "0",
        "0",
        "",
        "",
        "0",
        "0",
        "1",
        "1",
        description,
        "Z",
        zone,
        "",
        "",
        "",
    ]
    return UnknownTrait("sendto;" + _se(fields, ";"), _se(["", "", ""], ";"))


def return_to_deck_trait(command: str, stroke: str, deck: str, description: str) -> Trait:
    """Return to Deck (``return;``) as VASSAL 3.7's ``ReturnToDeck.myGetType`` writes it: the
    menu command, its key, no deck id, the (unused) prompt, the description, format version
    2, no choosing at game time, and the deck by name (the DrawPile's ``name``)."""
    fields: list[str | int | bool | None] = [
        command,
        stroke,
        "",
        "Select destination",
        description,
        2,
        False,
        deck,
    ]
    return UnknownTrait("return;" + _se(fields, ";"), "")


def moved_trait(image: str, x_offset: int, y_offset: int) -> Trait:
    """Mark Moved: ``image`` drawn with its top left corner at ``(x_offset, y_offset)`` from
    the counter's centre while the counter has moved (until the map's "clear moved")."""
    fields: list[str | int | bool | None] = [
        image,
        x_offset,
        y_offset,
        "Mark moved",
        key_stroke(MOVED_KEY),
        "Moved this phase",
        False,  # ignoreSameLocation
        "",
        "",
        "",
        "",
    ]
    return UnknownTrait("markmoved;" + _se(fields, ";"), "false")


def report_trait(
    letters: Sequence[str],
    description: str = "Report to the log",
    shifted: Sequence[str] = (),
    *,
    fmt: str = REPORT_FORMAT,
    strokes: Sequence[str] = (),
) -> Trait:
    """Report Action on the Ctrl+letter keys (and the Ctrl+Shift+letter keys ``shifted``,
    and the encoded keys ``strokes``): ``fmt`` in the log, by default ``location: command -
    new name``."""
    keys = _se(
        [key_stroke(k) for k in letters]
        + [f"{ord(k.upper())},{CTRL_SHIFT}" for k in shifted]
        + list(strokes),
        ",",
    )
    fields: list[str | int | bool | None] = [keys, fmt, "", "", description, False]
    return UnknownTrait("report;" + _se(fields, ";"), "-1")


def mask_trait(back_image: str, mask_name: str, sides: Sequence[str], *, peek: bool) -> Trait:
    """VASSAL's Mask (``Obscurable``): ``obs;`` then keyCommand, the back image, the menu
    command, the display style, the name others see, the access, the peek command, the
    description, auto-peek on rollover (off), the deal key and expression (none). State
    ``null`` = not masked (``Obscurable.myGetType``/``myGetState`` of VASSAL 3.7).

    ``sides`` are roster side names (``PlayerRoster`` entries, never side ids): VASSAL's
    ``SpecifiedSideAccess`` lets a player mask or unmask only when his side is listed, and
    shows the face only when both his side and the side that masked it are listed; a name
    the roster lacks locks the counter for good. With ``peek`` (two players) the owner sees
    the face with the back inset (style ``I``) and may Peek; without it (solitaire) every
    side sees the back (style ``P``, no peek command) until a player unmasks it."""
    fields: list[str | int | bool | None] = [
        key_stroke(MASK_KEY),
        back_image,
        "Face down",
        "I" if peek else "P",
        mask_name,
        "sides:" + (encode_sequence(list(sides), ":") or ""),
        "Peek" if peek else "",
        "Face down until the rules reveal it",
        False,
        "",
        "",
    ]
    return UnknownTrait("obs;" + _se(fields, ";"), _se(["null", ""], ";"))


def trail_trait() -> Trait:
    """Footprint (``footprint;``) as VASSAL 3.7's ``Footprint.myGetType`` writes it: the
    key, the menu command, trail not shown at first and not shared (each player shows his
    own view), a 4 px dot per point in the unit's blue, transparency 100 selected and 50
    not, 20/30 px edge buffers, 2 px lines, no on/off/clear keys, the description, and
    every point kept (not only a change of location name). The state is a fresh piece's:
    not shown, no start map, no points, never initialised, 0 points last time."""
    fields: list[str | int | bool | None] = [
        f"{ord(TRAIL_KEY)},{CTRL_SHIFT}",
        "Movement trail",
        False,  # initiallyVisible
        False,  # globallyVisible
        4,  # circleRadius
        "51,51,255",  # fillColor
        "51,51,255",  # lineColor
        100,  # selectedTransparency
        50,  # unSelectedTransparency
        20,  # edgePointBuffer
        30,  # edgeDisplayBuffer
        "2.0",  # lineWidth
        "",  # trailKeyOn
        "",  # trailKeyOff
        "",  # trailKeyClear
        "Movement trail: where the counter moved",  # description
        False,  # ignoreSameLocation
    ]
    return UnknownTrait("footprint;" + _se(fields, ";"), _se([False, "", 0, False, 0], ";"))
