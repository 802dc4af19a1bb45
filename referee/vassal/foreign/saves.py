"""Read a save or log of any VASSAL module against that module: checks and dice buttons.

``show-vsav --vmod`` and ``referee log`` read a ``.vsav``/``.vlog`` through the ``.vmod``
it belongs to. Before naming anything, :func:`check_same_module` refuses a file that was
written by another module (its ``moduledata`` name differs, or its pieces lie on maps the
module does not have, and nothing of it lies on a map the module has: a log of another
version of the module is read as far as it goes, see :func:`unknown_map_warnings`);
:func:`image_warnings` says when a file that does not name its module
shows no image the module has, and :func:`board_warnings` says which chosen boards have no image
in the archive (VASSAL then sees a board of 0 x 0 pixels and calls every point on it
``offboard``, and so do we).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

from referee.errors import UserError
from referee.vassal.codec.commands import AddPiece, iter_leaves
from referee.vassal.codec.pieces import BasicPiece, Embellishment, decode_piece
from referee.vassal.codec.savefile import SaveGame, read_save
from referee.vassal.foreign.locations import BoardLayout, ModuleLocations, module_locations
from referee.vassal.foreign.movelist import LogReading, dice_patterns, read_log
from referee.vassal.foreign.vmod import read_vmod

__all__ = [
    "ForeignReading",
    "board_warnings",
    "check_same_module",
    "image_warnings",
    "piece_images",
    "read_foreign",
    "unknown_map_warnings",
]

DICE_BUTTON: Final = "VASSAL.build.module.DiceButton"
DEFAULT_DICE_REPORT: Final = "** $name$ = $result$ *** &lt;$playerName$&gt;"
"""``DiceButton.reportFormat``'s default."""
SPECIAL_DICE_BUTTON: Final = "VASSAL.build.module.SpecialDiceButton"
DEFAULT_SPECIAL_REPORT: Final = "** $name$ = [$result1$] *** &lt;$PlayerName$&gt;"
"""``SpecialDiceButton.format``'s default (VASSAL 3.7); its ``$resultN$`` are the faces'
texts."""


@dataclass
class ForeignReading:
    module: ModuleLocations
    save: SaveGame
    reading: LogReading
    warnings: list[str]


def piece_images(save: SaveGame) -> set[str]:
    """Every image the pieces a file creates show (BasicPiece and layer images)."""
    names: set[str] = set()
    for visit in iter_leaves(save.commands):
        command = visit.command
        if not isinstance(command, AddPiece) or not command.type:
            continue
        for trait in decode_piece(command.type, command.state).traits:
            if isinstance(trait, BasicPiece):
                names.add(trait.image)
            elif isinstance(trait, Embellishment):
                names.update(trait.image_names)
    return {n for n in names if n.strip()}


def _stem(name: str) -> str:
    """An image name without folder, extension or case: old modules name ``AlbC`` for
    ``AlbC.gif``, so only a file none of whose images is in the module under any spelling
    is refused."""
    base = name.rsplit("/", 1)[-1].lower()
    return base.rsplit(".", 1)[0] if "." in base else base


def check_same_module(
    save: SaveGame,
    module: ModuleLocations,
    reading: LogReading,
    save_name: str,
    vmod_name: str,
) -> None:
    """Refuse a save or log that another module wrote: its ``moduledata`` names another
    module, or every map its pieces lie on is one the module lacks (nothing could be
    named). Some maps missing is a version drift, which :func:`unknown_map_warnings` tells."""
    meta = save.module_metadata
    if meta is not None and meta.name and module.name and meta.name != module.name:
        raise UserError(
            f"{save_name} was written by module {meta.name!r} {meta.version}, "
            f"not by {module.name!r} {module.version} ({vmod_name})",
            hint="give the .vmod the game is played with",
        )
    unknown = sorted(m for m in reading.maps_seen if module.find(m) is None)
    if unknown and len(unknown) == len(reading.maps_seen):
        raise UserError(
            f"{save_name}: pieces lie only on map(s) {', '.join(map(repr, unknown))} that "
            f"module {module.name!r} ({vmod_name}) does not have: nothing could be named",
            hint="was this file made with another module? give the .vmod it belongs to",
        )


def unknown_map_warnings(
    save: SaveGame, module: ModuleLocations, reading: LogReading, vmod_name: str
) -> list[str]:
    """One warning per map the file's pieces lie on that the module lacks, with how many
    events there are listed with raw coordinates: a log recorded with an older or newer
    version of the module. VASSAL loads such a file, skips the pieces it cannot place and
    shows the rest; so does referee (``where`` names their points ``x,y px``)."""
    out = []
    meta = save.module_metadata
    made = f" (the file was written by version {meta.version})" if meta and meta.version else ""
    for m in sorted(x for x in reading.maps_seen if module.find(x) is None):
        n = sum(1 for e in reading.events if m in (e.map_from, e.map_to))
        pieces = sum(1 for p in reading.start if p.map == m)
        out.append(
            f"map {m!r} is not in module {module.name!r} {module.version} ({vmod_name}){made}: "
            f"its {pieces} piece(s) at the start and {n} event(s) on it are listed with raw "
            "map coordinates 'x,y px'; every other location is named as the module names it"
        )
    return out


def image_warnings(
    save: SaveGame, module: ModuleLocations, module_images: set[str], vmod_name: str
) -> list[str]:
    """For a file without ``moduledata`` (VASSAL before 3.0, some later saves) whose pieces
    lie only on maps the module has too: a warning when none of the images its pieces show
    is in the module (``module_images``: names under ``images/`` and the module's Game
    Piece Image definitions). A warning, not a refusal: a module whose piece images come
    from an extension is read correctly all the same."""
    if save.module_metadata is not None or not module_images:
        return []
    shown = piece_images(save)
    if not shown or {_stem(n) for n in shown} & {_stem(n) for n in module_images}:
        return []
    some = ", ".join(map(repr, sorted(shown)[:3])) + (", ..." if len(shown) > 3 else "")
    return [
        f"none of the {len(shown)} image(s) its pieces show ({some}) is in module "
        f"{module.name!r} ({vmod_name}), and the file does not say which module wrote it: "
        "was it made with another module? (the locations are named as this module names "
        "them)"
    ]


def board_warnings(layout: BoardLayout) -> list[str]:
    """One line per board used in the file whose image the module archive lacks."""
    return [
        f"board {board.name!r} of map {map_name!r}: image {board.image!r} is not in the "
        "module, so VASSAL (and referee) call every point on it 'offboard'"
        for (map_name, _), board in sorted(layout.used.items())
        if board.image is not None and not board.image_found
    ]


def read_foreign(
    save_path: str | os.PathLike[str], vmod_path: str | os.PathLike[str]
) -> ForeignReading:
    """Read ``save_path`` through the module at ``vmod_path`` (both untrusted)."""
    vmod = read_vmod(vmod_path)
    module = module_locations(vmod, os.fspath(vmod_path))
    buttons = [
        (el.get("name", ""), el.get("reportFormat") or DEFAULT_DICE_REPORT)
        for el in vmod.buildfile.iter(DICE_BUTTON)
    ]
    buttons += [
        (el.get("name", ""), el.get("format") or DEFAULT_SPECIAL_REPORT)
        for el in vmod.buildfile.iter(SPECIAL_DICE_BUTTON)
    ]
    dice = dice_patterns(buttons)
    save = read_save(save_path)
    reading = read_log(save.commands, module, dice)
    images = {e[len("images/") :] for e in vmod.entries if e.startswith("images/")}
    images |= {  # images the module draws itself (Game Piece Image definitions)
        el.get("name", "")
        for el in vmod.buildfile.iter("VASSAL.build.module.gamepieceimage.GamePieceImage")
    }
    check_same_module(save, module, reading, os.fspath(save_path), os.fspath(vmod_path))
    layout = reading.layout or module.layout()
    warnings = unknown_map_warnings(save, module, reading, os.fspath(vmod_path))
    warnings += image_warnings(save, module, images - {""}, os.fspath(vmod_path))
    return ForeignReading(module, save, reading, warnings + board_warnings(layout))
