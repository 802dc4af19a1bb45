"""What a caller adds to a module archive, checked before anything is drawn: extra files
(the scenario set-up saves), extra pictures (the set-up area) and the roster's own pictures.
Bad input is a :class:`~referee.errors.UserError` with a hint;
:mod:`referee.vassal.module.module_writer`
calls these first so that nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from referee.errors import UserError
from referee.source.model import Module
from referee.vassal.codec.safezip import check_entry_name
from referee.vassal.module.buildfile import PredefinedSetup
from referee.vassal.module.plan import ModulePlan
from referee.vassal.module.tools import HELP_FILE

MAX_EXTRA_BYTES: Final = 64 * 1024 * 1024
RESERVED: Final = ("buildFile.xml", "buildFile", "moduledata", HELP_FILE)


def check_extras(
    extra_files: Sequence[tuple[str, bytes]], setups: Sequence[PredefinedSetup]
) -> dict[str, bytes]:
    """The extra files a caller adds to the archive (scenario set-ups), refused when a name
    is not a plain entry name, reserved, given twice or too large, or a set-up names a file
    that is not among them."""
    extras: dict[str, bytes] = {}
    for name, data in extra_files:
        problem = check_entry_name(name)
        if problem or name in RESERVED or name.startswith("images/"):
            raise UserError(
                f"extra module file {name!r} is not allowed: {problem or 'reserved name'}",
                hint="store set-ups as plain names such as scenario.vsav",
            )
        if name in extras:
            raise UserError(f"extra module file {name!r} is given twice")
        if len(data) > MAX_EXTRA_BYTES:
            raise UserError(f"extra module file {name!r} is {len(data):,} bytes; too large")
        extras[name] = bytes(data)
    for setup in setups:
        if setup.file is not None and setup.file not in extras:
            raise UserError(
                f"predefined set-up {setup.name!r} names {setup.file!r}, which is not among "
                "the files added to the module",
                hint="pass the .vsav in extra_files",
            )
    return extras


def check_extra_pictures(
    pictures: Sequence[tuple[str, Callable[[], bytes]]], plan: ModulePlan
) -> list[tuple[str, Callable[[], bytes]]]:
    """Refuse an extra picture whose name is not a plain file name, is given twice or is one
    of the module's own (VASSAL finds images by file name in ``images/``)."""
    taken = set(plan.image_names())
    out: list[tuple[str, Callable[[], bytes]]] = []
    for name, draw in pictures:
        problem = check_entry_name(name) or ("it is not a plain file name" if "/" in name else None)
        if problem or name in taken:
            raise UserError(
                f"extra module picture {name!r} is not allowed: {problem or 'name taken'}",
                hint="name it after what it shows, e.g. setup_area.png",
            )
        taken.add(name)
        out.append((name, draw))
    return out


def check_unit_images(module: Module) -> None:
    """Refuse missing, non-PNG/JPEG or huge roster pictures before anything is drawn (the
    renderer's own checks, run up front so the error comes at once)."""
    from referee.render.counters import unit_image

    for unit in module.units:
        if unit.image:
            unit_image(module, unit)
