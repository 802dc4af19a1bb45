"""Read a save or log of any VASSAL module against that module: checks and dice buttons.

``show-vsav --vmod`` and ``referee log`` read a ``.vsav``/``.vlog`` through the ``.vmod``
it belongs to. Before naming anything, :func:`check_same_module` refuses a file that was
written by another module (its ``moduledata`` name differs, or its pieces lie on maps the
module does not have), and :func:`board_warnings` says which chosen boards have no image
in the archive (VASSAL then sees a board of 0 x 0 pixels and calls every point on it
``offboard``, and so do we).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

from referee.errors import UserError
from referee.vassal.locations import BoardLayout, ModuleLocations, module_locations
from referee.vassal.movelist import LogReading, dice_patterns, read_log
from referee.vassal.savefile import SaveGame, read_save
from referee.vassal.vmod import read_vmod

__all__ = ["ForeignReading", "board_warnings", "check_same_module", "read_foreign"]

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


def check_same_module(
    save: SaveGame, module: ModuleLocations, reading: LogReading, save_name: str, vmod_name: str
) -> None:
    """Refuse a save or log that another module wrote."""
    meta = save.module_metadata
    if meta is not None and meta.name and module.name and meta.name != module.name:
        raise UserError(
            f"{save_name} was written by module {meta.name!r} {meta.version}, "
            f"not by {module.name!r} {module.version} ({vmod_name})",
            hint="give the .vmod the game is played with",
        )
    unknown = sorted(m for m in reading.maps_seen if module.find(m) is None)
    if unknown:
        raise UserError(
            f"{save_name}: pieces lie on map(s) {', '.join(map(repr, unknown))} that module "
            f"{module.name!r} ({vmod_name}) does not have",
            hint="was this file made with another module? give the .vmod it belongs to",
        )


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
    check_same_module(save, module, reading, os.fspath(save_path), os.fspath(vmod_path))
    layout = reading.layout or module.layout()
    return ForeignReading(module, save, reading, board_warnings(layout))
