"""A module of ``../shared/fixtures/vassal/`` made playable for the imported-game tests: the
zxvt fixture (*Capture of the territory*, its buildFile and moduledata, with stand-in images:
``tests/vassal/import_fixtures.py``) with a predefined set-up "Skirmish" that puts the
module's own pieces on named squares. Made in a temporary folder; nothing of the fixture is
copied into the repository."""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from pathlib import Path

from lxml import etree

from referee.vassal.codec.commands import (
    AddPiece,
    BeginSave,
    BoardPlacement,
    Compound,
    EndSave,
    NullCommand,
    SetBoards,
)
from referee.vassal.codec.pieces import Piece
from referee.vassal.codec.savefile import save_to_bytes
from referee.vassal.foreign.game import location_points
from referee.vassal.foreign.locations import read_module_locations
from referee.vassal.foreign.vmod import read_vmod
from tests.vassal.import_fixtures import fixture_vmod

FOLDER = "zxvt-capture-the-territory"
SETUP = (  # the module's piece name, the square VASSAL names its point
    ("Red", "B02"),
    ("Gray", "D04"),
    ("Town", "C03"),
    ("Captured by Red", "B03"),
    ("Captured by Red", "B04"),
    ("Captured by Gray", "D03"),
)
PIECE_IDS = ("Red", "Gray", "Town", "Captured-by-Red", "Captured-by-Red.2", "Captured-by-Gray")
"""The referee's ids of the pieces of :data:`SETUP`, made from the module's names."""


def skirmish_vmod(out: Path, decorate: Callable[[str, Piece], Piece] | None = None) -> Path:
    """``out/zxvt-skirmish.vmod``: the fixture with the "Skirmish" set-up; ``decorate``
    (the module's piece name, the piece) may give a set-up piece more traits."""
    vmod = fixture_vmod(FOLDER, out)
    contents = read_vmod(vmod)
    slots = {
        d.piece.basic_piece.name: d.piece
        for d in contents.definitions
        if d.kind == "slot" and d.piece.basic_piece is not None
    }
    module = read_module_locations(vmod)
    points = location_points(module.layout(), module)
    adds = []
    for i, (name, square) in enumerate(SETUP):
        at = points[square]
        piece = slots[name].placed(at.map, at.x, at.y)
        if decorate is not None:
            piece = decorate(name, piece)
        adds.append(AddPiece(str(1_000_000 + i), piece.type, piece.state))
    tail = [
        SetBoards(name, tuple(BoardPlacement(p.board.name) for p in placed))
        for name, placed in module.layout().chosen.items()
    ]
    save = save_to_bytes(
        Compound((BeginSave(), NullCommand(), Compound((NullCommand(), *adds)), *tail, EndSave()))
    )
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    etree.SubElement(
        root,
        "VASSAL.build.module.PredefinedSetup",
        {"file": "Skirmish.vsav", "isMenu": "false", "name": "Skirmish", "useFile": "true"},
    )
    entries[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    entries["Skirmish.vsav"] = save
    path = out / "zxvt-skirmish.vmod"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n in sorted(entries):
            z.writestr(n, entries[n])
    return path
