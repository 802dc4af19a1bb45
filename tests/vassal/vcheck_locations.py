"""Probe saves for checking location names against real VASSAL (``vcheck``).

For a fixture module this builds, in a temporary folder, a ``.vmod`` (the fixture's buildFile
and moduledata, plus plain PNG board images of stated sizes where the fixture has none, and
optionally map edge padding) and a ``.vsav`` that puts one piece at each of many points:
a lattice over every board, just inside and outside every zone corner, every region origin
and every deck. ``vcheck`` loads the save and prints, for every piece, the name VASSAL's
``Map.locationName`` gives its point; :func:`parse_pieces` reads those lines.

Run as a script to re-record ``tests/vassal/data/vassal_locations.json`` (needs Java)::

    .venv/bin/python -m tests.vassal.vcheck_locations
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from referee.vassal.codec.pieces import BasicPiece
from referee.vassal.codec.savefile import save_to_bytes
from referee.vassal.foreign.grids_read import RegionGridSpec, ZonedGridSpec
from referee.vassal.foreign.locations import ModuleLocations, read_module_locations
from referee.vassal.foreign.vmod import read_vmod

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "vassal"
VCHECK = SHARED / "tools" / "vassal-check" / "vcheck"
DATA = Path(__file__).resolve().parent / "data" / "vassal_locations.json"


@dataclass(frozen=True)
class Probe:
    """One fixture module prepared for probing."""

    key: str
    folder: str
    images: dict[str, tuple[int, int]]  # board image -> size of the stand-in PNG
    edge: tuple[int, int] | None = None  # (edgeWidth, edgeHeight) forced on every map
    boards: dict[str, tuple[BoardPlacement, ...]] | None = None  # map -> board layout
    edit: str = ""  # name of a function in EDITS that changes the buildFile's grid settings
    lattice: tuple[int, int] = (23, 19)  # lattice points across and down each board


_G = "VASSAL.build.module.map.boardPicker.board."


def _hex_numbering(root: etree._Element) -> etree._Element:
    return next(root.iter(_G + "mapgrid.HexGridNumbering"))


def _vive_sideways(root: etree._Element) -> None:
    """Sideways grid, vertical part first, letters, stagger, both directions descending."""
    next(root.iter(_G + "HexGrid")).set("sideways", "true")
    _hex_numbering(root).attrib.update(
        {
            "first": "V",
            "sep": "-",
            "hType": "A",
            "hLeading": "0",
            "stagger": "true",
            "vDescend": "true",
            "hDescend": "true",
            "hOff": "3",
            "vOff": "-2",
        }
    )


def _vive_parent_grid(root: etree._Element) -> None:
    """Descending columns and a ``$column$``/``$row$`` format; the big 'Board' zone uses the
    parent grid and names itself with ``$name$`` and ``$gridLocation$``. (VASSAL 3.7.26 has
    no ObliqueHexGridNumbering, so the oblique rows cannot be checked with it.)"""
    _hex_numbering(root).attrib.update(
        {"hDescend": "true", "stagger": "true", "locationFormat": "c$column$ r$row$"}
    )
    for z in root.iter(_G + "mapgrid.Zone"):
        if z.get("name") == "Board":
            z.attrib.update({"useParentGrid": "true", "locationFormat": "$name$ $gridLocation$"})


def _tour_zone_grids(root: etree._Element) -> None:
    """Numbered square grids inside the POC Track zones (sized by the zone: descending rows),
    a staggered hex board with descending rows, and a region format with an unknown name."""
    for z in root.iter(_G + "mapgrid.Zone"):
        if z.get("name", "").startswith("POC Track"):
            z.set("locationFormat", "$name$ at $gridLocation$ $nothing$")
            grid = next(z.iter(_G + "SquareGrid"))
            etree.SubElement(
                grid,
                _G + "mapgrid.SquareGridNumbering",
                {
                    "first": "V",
                    "sep": "/",
                    "hType": "A",
                    "vDescend": "true",
                    "hDescend": "true",
                    "vLeading": "2",
                    "hOff": "0",
                    "vOff": "0",
                },
            )
    n = _hex_numbering(root)
    n.attrib.update({"stagger": "true", "vDescend": "true", "locationFormat": "$gridLocation$"})


EDITS = {f.__name__: f for f in (_vive_sideways, _vive_parent_grid, _tour_zone_grids)}


PROBES: tuple[Probe, ...] = (
    Probe("zxvt", "zxvt-capture-the-territory", {}),
    Probe("zxvt-edge", "zxvt-capture-the-territory", {}, edge=(40, 25)),
    Probe(
        "vive",
        "vive-lempereur",
        {"vive-lempereur map v2.png": (2640, 2040), "graveyard.png": (600, 400)},
    ),
    Probe(
        "tour",
        "vassal-tour",
        {"VIP-map2.png": (2680, 670), "bd41.gif": (1800, 645), "tourForces.gif": (860, 300)},
        edge=(30, 20),
        boards={
            "Main Map": (
                BoardPlacement("plain", False, 0, 0),
                BoardPlacement("VIP", False, 1, 0),
                BoardPlacement("SL", True, 0, 1),
                BoardPlacement("Empty", False, 1, 1),
            ),
        },
    ),
    Probe(
        "vive-sideways",
        "vive-lempereur",
        {"vive-lempereur map v2.png": (2640, 2040)},
        edit="_vive_sideways",
        lattice=(37, 31),
    ),
    Probe(
        "vive-parent-grid",
        "vive-lempereur",
        {"vive-lempereur map v2.png": (2640, 2040)},
        edit="_vive_parent_grid",
        lattice=(37, 31),
    ),
    Probe(
        "tour-zone-grids",
        "vassal-tour",
        {"VIP-map2.png": (2680, 670), "bd41.gif": (1800, 645)},
        edit="_tour_zone_grids",
        lattice=(41, 23),
        boards={
            "Main Map": (BoardPlacement("VIP", False, 0, 0), BoardPlacement("SL", False, 0, 1))
        },
    ),
)


def _png(size: tuple[int, int]) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, (200, 200, 200)).save(buf, "PNG")
    return buf.getvalue()


def build_module(probe: Probe, out_dir: Path) -> Path:
    """Zip the fixture into ``out_dir/<key>.vmod`` with stand-in images and edge padding."""
    src = FIXTURES / probe.folder
    entries: dict[str, bytes] = {}
    for name in ("buildFile.xml", "buildFile", "moduledata"):
        if (src / name).is_file():
            entries[name] = (src / name).read_bytes()
    if probe.edge is not None or probe.edit:
        name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
        root = etree.fromstring(entries[name])
        if probe.edge is not None:
            for el in root.iter("VASSAL.build.module.Map"):
                el.set("edgeWidth", str(probe.edge[0]))
                el.set("edgeHeight", str(probe.edge[1]))
        if probe.edit:
            EDITS[probe.edit](root)
        entries[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    for image, size in probe.images.items():
        entries["images/" + image] = _png(size)
    path = out_dir / f"{probe.key}.vmod"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            z.writestr(name, entries[name])
    return path


def _grid_points(grid: object) -> list[tuple[int, int]]:
    """A board grid's own points in board pixels: each zone's outline (and a pixel round it)
    and every region's origin."""
    local: list[tuple[int, int]] = []
    if isinstance(grid, ZonedGridSpec):
        for zone in grid.zones:
            for zx, zy in zone.polygon:
                local.extend((zx + dx, zy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            if isinstance(zone.grid, RegionGridSpec):
                local.extend(zone.grid.origins)
        if isinstance(grid.background, RegionGridSpec):
            local.extend(grid.background.origins)
    if isinstance(grid, RegionGridSpec):
        local.extend(grid.origins)
    return local


def _placed_points(map_name: str, placed: Any, lattice: tuple[int, int]) -> set:
    """A lattice over one placed board (a little past its edges) and its grid's points."""
    w, h = placed.board.size
    step_x, step_y = max(w // lattice[0], 7), max(h // lattice[1], 7)
    points = {
        (map_name, placed.x + x, placed.y + y)
        for x in range(-3, w + 4, step_x)
        for y in range(-2, h + 3, step_y)
    }
    for lx, ly in _grid_points(placed.board.grid):
        if placed.reversed:
            lx, ly = w - lx, h - ly
        points.add((map_name, placed.x + lx, placed.y + ly))
    return points


def _board_points(layout_module: ModuleLocations, probe: Probe) -> list[tuple[str, int, int]]:
    """Points to probe on every map, in map pixels."""
    layout = layout_module.layout()
    for map_name, boards in (probe.boards or {}).items():
        layout.set_boards(SetBoards(map_name, boards))
    points: set[tuple[str, int, int]] = set()
    for map_name, placed_list in layout.chosen.items():
        spec = layout_module.maps[map_name]
        for deck in spec.decks:
            points.add((map_name, deck.x + spec.edge[0], deck.y + spec.edge[1]))
        for placed in placed_list:
            points |= _placed_points(map_name, placed, probe.lattice)
    return sorted(points)


def build_save(vmod: Path, probe: Probe, out: Path) -> list[tuple[str, int, int]]:
    """Write the probe save; returns the probed points (one piece each, in file order)."""
    contents = read_vmod(vmod)
    module = read_module_locations(vmod)
    slot = next(d for d in contents.definitions if d.kind == "slot" and d.piece.basic_piece)
    points = _board_points(module, probe)
    pieces = []
    for i, (map_name, x, y) in enumerate(points):
        piece = slot.piece.placed(map_name, x, y)
        pieces.append(AddPiece(str(1_000_000 + i), piece.type, piece.state))
    layout = module.layout()
    for map_name, boards in (probe.boards or {}).items():
        layout.set_boards(SetBoards(map_name, boards))
    tail = []
    for map_name, placed in layout.chosen.items():
        wanted = (probe.boards or {}).get(map_name)
        tail.append(
            SetBoards(map_name, wanted or tuple(BoardPlacement(p.board.name) for p in placed))
        )
    commands = Compound(
        (BeginSave(), NullCommand(), Compound((NullCommand(), *pieces)), *tail, EndSave())
    )
    out.write_bytes(save_to_bytes(commands))
    assert isinstance(slot.piece.basic_piece, BasicPiece)
    return points


def parse_pieces(output: str) -> dict[tuple[str, int, int], str]:
    """``(map, x, y) -> VASSAL's location name`` from vcheck's PIECE lines."""
    names: dict[tuple[str, int, int], str] = {}
    for line in output.splitlines():
        fields = line.split("\t")
        if fields[0] == "PIECE" and len(fields) > 5:
            names[(fields[2], int(fields[3]), int(fields[4]))] = fields[5]
    return names


def run_vcheck(vmod: Path, saves: list[Path], work: Path) -> str:
    """Run vcheck; returns its full output file's text (problems do not matter here)."""
    from tests.vassal.vassal_jvm import vcheck

    out = work / "vcheck.txt"
    vcheck([vmod, *saves], out, args="--no-slots --no-setups")
    return out.read_text(encoding="utf-8")


SAVES: tuple[tuple[str, str, str], ...] = (
    ("zxvt-log", "zxvt-capture-the-territory", "5x5_startup.vlog"),
    ("tour-log", "vassal-tour", "tour.log"),
)
"""Real fixture logs, checked against the fixture module as it is (no stand-in images)."""


def save_module(folder: str, out_dir: Path) -> Path:
    """The fixture's buildFile and moduledata zipped as a module, nothing added."""
    return build_module(Probe(folder, folder, {}), out_dir)


def record_saves(work: Path) -> dict[str, list[list[object]]]:
    """VASSAL's piece listing at the end of each fixture log: ``[map, x, y, location, name]``."""
    result: dict[str, list[list[object]]] = {}
    for key, folder, name in SAVES:
        d = work / key
        d.mkdir(parents=True, exist_ok=True)
        vmod = save_module(folder, d)
        save = d / (Path(name).stem + ".vlog")
        save.write_bytes((FIXTURES / folder / name).read_bytes())
        rows = []
        for line in run_vcheck(vmod, [save], d).splitlines():
            f = line.split("\t")
            if f[0] == "PIECE":
                rows.append([f[2], int(f[3]), int(f[4]), f[5], f[6]])
        result[key] = sorted(rows)
    return result


def points_digest(points: list[tuple[str, int, int]]) -> str:
    """A fingerprint of the probed points, so a change to the probe asks for a re-record."""
    text = "\n".join(f"{m}|{x}|{y}" for m, x, y in points)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode_names(points: list[tuple[str, int, int]], names: dict) -> dict[str, object]:
    """VASSAL's name of each point, compactly: a table of names and one index per point."""
    table = sorted({names[p] for p in points})
    where = {n: i for i, n in enumerate(table)}
    return {
        "points": len(points),
        "points_sha256": points_digest(points),
        "names": table,
        "at": [where[names[p]] for p in points],
    }


def decode_names(entry: dict, points: list[tuple[str, int, int]]) -> list[str]:
    """The recorded name of each of ``points`` (which must be the recorded probe)."""
    if entry["points_sha256"] != points_digest(points):
        raise AssertionError("the probe points changed: re-record with vcheck (see module doc)")
    return [entry["names"][i] for i in entry["at"]]


def record(work: Path) -> dict[str, dict[str, object]]:
    """VASSAL's names for every probe (see :func:`encode_names`)."""
    result: dict[str, dict[str, object]] = {}
    for probe in PROBES:
        d = work / probe.key
        d.mkdir(parents=True, exist_ok=True)
        vmod = build_module(probe, d)
        save = d / "probe.vsav"
        points = build_save(vmod, probe, save)
        names = parse_pieces(run_vcheck(vmod, [save], d))
        missing = [p for p in points if p not in names]
        if missing:
            raise SystemExit(f"{probe.key}: vcheck listed no piece at {missing[:5]}")
        result[probe.key] = encode_names(points, names)
    return result


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        data: dict[str, object] = {"probes": record(Path(tmp)), "saves": record_saves(Path(tmp))}
    DATA.write_text(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{DATA}: recorded", file=sys.stderr)
