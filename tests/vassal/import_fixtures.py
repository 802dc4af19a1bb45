"""Fixture modules for ``import-vmod`` tests: the fixture's buildFile and moduledata zipped as
a ``.vmod`` with stand-in images (boards at the sizes of :data:`vcheck_locations.PROBES`,
40 x 40 pieces for every image a piece or layer names), optionally with a predefined set-up
whose save puts a piece at each point of a small lattice. Nothing is copied into the repo:
the archive is made in a temporary folder."""

from __future__ import annotations

import dataclasses
import re
import zipfile
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
from referee.vassal.codec.pieces import BasicPiece, Embellishment
from referee.vassal.codec.savefile import save_to_bytes
from referee.vassal.foreign.locations import read_module_locations
from referee.vassal.foreign.vmod import decode_definition, read_vmod
from tests.vassal.vcheck_locations import (
    FIXTURES,
    PROBES,
    Probe,
    _board_points,
    _png,
    build_module,
)

MAX_SETUP_PIECES = 120

FOLDERS = ("zxvt-capture-the-territory", "vassal-tour", "vive-lempereur")
PIECE_SIZE = (40, 40)


def probe_for(folder: str) -> Probe:
    """The plain probe of a fixture (the first one without edits or padding)."""
    return (
        next(p for p in PROBES if p.folder == folder and not p.edit and p.edge is None)
        if (folder != "vassal-tour")
        else dataclasses.replace(next(p for p in PROBES if p.key == "tour"), edge=None, boards=None)
    )


def piece_images(vmod: Path) -> set[str]:
    """Every image a PieceSlot or prototype names (BasicPiece and Layer images)."""
    names: set[str] = set()
    contents = read_vmod(vmod)
    cards = [
        decode_definition((el.text or "").strip(), "card")
        for el in contents.buildfile.iter("VASSAL.build.widget.CardSlot")
    ]
    for d in [*contents.definitions, *cards]:
        for t in getattr(d, "piece", d).traits:
            if isinstance(t, BasicPiece) and t.image.strip():
                names.add(t.image)
            if isinstance(t, Embellishment):
                names.update(n for n in t.image_names if n.strip())
    return names


def _icons_and_boards(entries: dict[str, bytes]) -> set[str]:
    """Icons (toolbar, die face, showing/hidden...), images of Game Piece Image layouts,
    chart images and board images the fixture names (boards the probe gives no size get a
    small stand-in)."""
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    found = {
        value
        for el in root.iter()
        for key, value in el.attrib.items()
        if key.lower().endswith("icon") and value.strip()
    }
    for el in root.iter("VASSAL.build.module.gamepieceimage.GamePieceLayout"):
        found |= set(re.findall(r"(?:^|\|)Image;([^;|]+);", el.get("layout", "")))
    found |= {
        el.get("image", "")
        for el in root.iter("VASSAL.build.module.map.boardPicker.Board")
        if el.get("image", "").strip()
    }
    found |= {
        el.get("fileName", "")
        for el in root.iter("VASSAL.build.widget.Chart")
        if el.get("fileName", "").strip()
    }
    return {n for n in found if not n.startswith("/")}


def fixture_vmod(folder: str, out: Path, *, setup: bool = False) -> Path:
    """``out/<key>.vmod``: the fixture with stand-in images (and a set-up when asked)."""
    out.mkdir(parents=True, exist_ok=True)
    probe = probe_for(folder)
    bare = build_module(probe, out)
    images = piece_images(bare)
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(bare) as z:
        for name in z.namelist():
            entries[name] = z.read(name)
    for name in sorted(images | _icons_and_boards(entries)):
        entries.setdefault("images/" + name, _png(PIECE_SIZE))
    if setup:
        small = dataclasses.replace(probe, lattice=(5, 4))
        save = out / "setup.vsav"
        with_images = out / "with-images.vmod"
        _zip(entries, with_images)
        _setup_save(with_images, small, save)
        entries["Lattice.vsav"] = save.read_bytes()
        name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
        root = etree.fromstring(entries[name])
        etree.SubElement(
            root,
            "VASSAL.build.module.PredefinedSetup",
            {"file": "Lattice.vsav", "isMenu": "false", "name": "Lattice", "useFile": "true"},
        )
        for el in root.iter("VASSAL.build.module.PredefinedSetup"):
            if el.get("file") and el.get("file") not in entries:
                el.getparent().remove(el)  # set-ups whose saves the fixture lacks
        entries[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    path = out / f"{probe.key}{'-setup' if setup else ''}.vmod"
    _zip(entries, path)
    return path


def _setup_save(vmod: Path, probe: Probe, out: Path) -> None:
    """A save with the first slot's piece at up to :data:`MAX_SETUP_PIECES` of the probe's
    points (lattice, zone corners and their neighbours, region origins, decks), evenly
    sampled so every board and zone is visited while vcheck stays quick."""
    contents = read_vmod(vmod)
    slot = next(d for d in contents.definitions if d.kind == "slot" and d.piece.basic_piece)
    points = _board_points(read_module_locations(vmod), probe)
    step = max(1, -(-len(points) // MAX_SETUP_PIECES))
    pieces = []
    for i, (map_name, x, y) in enumerate(points[::step]):
        piece = slot.piece.placed(map_name, x, y)
        pieces.append(AddPiece(str(1_000_000 + i), piece.type, piece.state))
    module = read_module_locations(vmod)
    tail = [
        SetBoards(name, tuple(BoardPlacement(p.board.name) for p in placed))
        for name, placed in module.layout().chosen.items()
    ]
    commands = Compound(
        (BeginSave(), NullCommand(), Compound((NullCommand(), *pieces)), *tail, EndSave())
    )
    out.write_bytes(save_to_bytes(commands))


def _zip(entries: dict[str, bytes], path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            z.writestr(name, entries[name])


assert FIXTURES  # the fixtures live in ../shared, never in this repository


TRACKER = b"""<VASSAL.build.module.turn.TurnTracker buttonText="Turn" hotkey="" icon=""
 length="-1" lengthStyle="Maximum" name="Game Turn" reportFormat="* $newTurn$ *"
 tooltip="Turn and phase" turnFormat="$level1$ $level2$">
 <VASSAL.build.module.turn.CounterTurnLevel incr="1" loop="true" loopLimit="12" name="Turn"
  property="Turn" start="1" turnFormat="Turn $value$">
  <VASSAL.build.module.turn.ListTurnLevel configFirst="false" configList="false"
   list="Red move,Blue move,Capture\\, then score" name="Phase" prompt="" property="Phase"
   turnFormat="$value$"/>
 </VASSAL.build.module.turn.CounterTurnLevel>
 <VASSAL.build.module.turn.TurnGlobalHotkey hotkey="65,130" match="" name="Clear"
  reportFormat=""/>
</VASSAL.build.module.turn.TurnTracker>"""
"""No fixture module has a turn tracker: tests add this one (a counter level with a list level
nested, an escaped comma in an item, and a global hotkey the format does not carry)."""


def edited_vmod(vmod: Path, out: Path, *, tracker: bool = False, fileless: bool = True) -> Path:
    """A copy of ``vmod`` with :data:`TRACKER` added (``tracker``) and, unless ``fileless``,
    its set-ups that name no file removed: vcheck's harness (VCheck.java, the set-up loop)
    calls ``PredefinedSetup.getSavedGameContents`` on every non-menu set-up with
    ``useFile="true"``, and for one without a ``file`` (vive-lempereur's "No Setup")
    ``DataArchive.getInputStream(null)`` throws a NullPointerException that the harness does
    not catch; the JVM then does not exit. VASSAL's Player starts a blank game for such a
    set-up (``PredefinedSetup.launch``: a file is loaded only when ``useFile`` and ``file``)."""
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(vmod) as z:
        for name in z.namelist():
            entries[name] = z.read(name)
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    if tracker:
        root.append(etree.fromstring(TRACKER))
    if not fileless:
        for el in list(root.iter("VASSAL.build.module.PredefinedSetup")):
            if el.get("isMenu") != "true" and el.get("useFile") != "false" and not el.get("file"):
                el.getparent().remove(el)
    entries[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    _zip(entries, out)
    return out
