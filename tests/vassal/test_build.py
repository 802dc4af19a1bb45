"""``referee build``: the .vmod archive, its buildFile and pieces, its grid, its guarantees.

Each test opens the produced archive and reads it back with the safe parser and the piece
codec, then compares with the module source: every counter, every value, every hex.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from referee.cli import app
from referee.errors import UserError
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.pieces import (
    BasicPiece,
    Embellishment,
    Marker,
    UsePrototype,
    marker_properties,
)
from referee.vassal.foreign.vmod import VmodContents, read_buildfile, read_vmod
from referee.vassal.module.buildfile import PredefinedSetup
from referee.vassal.module.grid import HEXGRID, NUMBERING, vassal_centre, vassal_label
from referee.vassal.module.module_writer import build_module, vmod_name
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[2]
MINI = REPO / "tests" / "fixtures" / "modules" / "mini"
SIXTH_FLEET = REPO / "module_src" / "sixth_fleet"
SHARED = REPO / ".." / "shared"

G = "VASSAL.build."
M = G + "module."
MAP = M + "map."
BOARD = MAP + "boardPicker."
W = G + "widget."

SIXTH_FLEET_NUMBERS = {"AA", "AS", "ASW", "MA", "DEF", "ECM"}


def _load(path: Path) -> Module:
    module, diags = load_module(path)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="module")
def mini() -> Module:
    return _load(MINI)


@pytest.fixture(scope="module")
def built(mini: Module, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, VmodContents]:
    out = tmp_path_factory.mktemp("vmod")
    result = build_module(mini, out, workers=1)
    assert result.path == out / "mini-0.1.vmod"
    return result.path, read_vmod(result.path)


# ---- the archive ---------------------------------------------------------------------------


def test_archive_layout(built: tuple[Path, VmodContents]) -> None:
    path, vmod = built
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names)
    assert {"buildFile.xml", "moduledata"} <= set(names)
    assert "buildFile" not in names  # 3.5+ name only (§2.1)
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
    for info in infos:
        if info.filename.endswith(".png"):
            assert info.compress_type == zipfile.ZIP_STORED
    # every image the buildFile names is in the archive, and nothing else under images/
    named = _image_names(vmod)
    assert {f"images/{n}" for n in named} == {n for n in names if n.startswith("images/")}


def _image_names(vmod: VmodContents) -> set[str]:
    root = vmod.buildfile
    names = {el.get("image") for el in root.iter(BOARD + "Board")}
    names |= {el.get("fileName") for el in root.iter(W + "Chart")}
    names |= {el.get("fileName") for el in root.iter(M + "documentation.AboutScreen")}
    for d in vmod.definitions:
        for trait in d.piece.traits:
            if isinstance(trait, BasicPiece) and trait.image:
                names.add(trait.image)
            if trait.prefix == "markmoved;":  # MovementMarkable: its image comes first
                names.add(trait.type.split(";")[1])
            if isinstance(trait, Embellishment):
                names.update(trait.image_names)
    return {n for n in names if n}


def test_moduledata_agrees_with_buildfile(built: tuple[Path, VmodContents], mini: Module) -> None:
    _, vmod = built
    meta = vmod.moduledata
    assert meta is not None and meta.tag == "data" and meta.get("version") == "1"
    root = vmod.buildfile
    assert meta.findtext("name") == root.get("name") == mini.name
    assert meta.findtext("version") == root.get("version") == mini.version
    vv = meta.findtext("VassalVersion")
    assert vv == root.get("VassalVersion")
    assert tuple(int(p) for p in vv.split(".")[:2]) >= (3, 5)
    assert meta.findtext("dateSaved", "").isdigit()


def test_skeleton(built: tuple[Path, VmodContents], mini: Module) -> None:
    """§3.4 skeleton and the §3.3 map helpers a usable map needs."""
    _, vmod = built
    root = vmod.buildfile
    assert root.tag == G + "GameModule"
    top = [el.tag for el in root]
    for tag in (
        "BasicCommandEncoder",
        "Documentation",
        "PlayerRoster",
        "GlobalOptions",
        "Chatter",
        "Map",
        "PrototypesContainer",
        "PieceWindow",
        "DiceButton",
        "turn.TurnTracker",
        "ChartWindow",
    ):
        assert M + tag in top, tag
    roster = root.find(M + "PlayerRoster")
    # every side, then the Solitaire seat of a player who plays them all (issue 27)
    assert [e.text for e in roster.iter("entry")] == [s.name for s in mini.sides] + ["Solitaire"]
    maps = {m.get("mapName"): m for m in root.findall(M + "Map")}
    main = maps["Main Map"]
    assert main.get("edgeWidth") == "0" and main.get("edgeHeight") == "0"
    helpers = {el.tag for el in main}
    for name in (
        "BoardPicker",
        "StackMetrics",
        "ForwardToKeyBuffer",
        "Scroller",
        "ForwardToChatter",
        "MenuDisplayer",
        "MapCenterer",
        "StackExpander",
        "PieceMover",
        "KeyBufferer",
        "ImageSaver",
        "CounterDetailViewer",
        "Flare",
        "Zoomer",
        "HighlightLastMoved",
    ):
        assert MAP + name in helpers, name
    boards = main.findall(f"{MAP}BoardPicker/{BOARD}Board")
    assert len(boards) == 1 and boards[0].get("reversible") == "false"
    grid = boards[0].find(BOARD + "board.HexGrid")
    numbering = grid.find(BOARD + "board.mapgrid.HexGridNumbering")
    assert grid.get("sideways") == "true"  # pointy hexes in rows (§4.2)
    for attr in ("dx", "dy", "x0", "y0"):
        float(grid.get(attr))
    int(grid.get("x0")), int(grid.get("y0"))
    assert numbering.get("stagger") == "false"
    dice = root.find(M + "DiceButton")
    assert (dice.get("nDice"), dice.get("nSides")) == ("1", "6")
    gpids = [int(el.get("gpid")) for el in root.iter(W + "PieceSlot")]
    assert len(gpids) == len(set(gpids))
    assert int(root.get("nextPieceSlotId")) == max(gpids) + 1


def test_turn_tracks(built: tuple[Path, VmodContents], mini: Module) -> None:
    """One tracker for every scenario (issue 18 §2): each scenario's turns, with their
    day/night state, are a run of the Game-Turn level's items; the Phase level below it
    lists the ruleset's sequence of play."""
    _, vmod = built
    trackers = vmod.buildfile.findall(M + "turn.TurnTracker")
    assert len(trackers) == 1
    level = trackers[0].find(M + "turn.ListTurnLevel")
    items = level.get("list").split(",")
    assert len(items) <= sum(s.turns for s in mini.scenarios.values())
    for scenario in mini.scenarios.values():
        run = [f"GT {t} {scenario.turn_state(t)}" for t in range(1, scenario.turns + 1)]
        starts = [i for i in range(len(items)) if items[i : i + len(run)] == run]
        assert starts, scenario.id
        assert run[2] == "GT 3 Night"
    phases = level.find(M + "turn.ListTurnLevel").get("list").split(",")
    assert phases[0] == "Set-up"
    assert phases[1:5] == [
        "NATO Combat Phase",
        "NATO Movement Phase",
        "Soviet Combat Phase",
        "Soviet Movement Phase",
    ]


def test_charts_and_holding_boxes(built: tuple[Path, VmodContents], mini: Module) -> None:
    _, vmod = built
    charts = [c.get("chartName") for c in vmod.buildfile.iter(W + "Chart")]
    assert len(charts) >= 2
    holding = [
        m
        for m in vmod.buildfile.findall(M + "Map")
        if m.get("mapName") not in ("Main Map", "Eliminated")
    ]
    assert len(holding) == 1
    zones = [z.get("name") for z in holding[0].iter(BOARD + "board.mapgrid.Zone")]
    carriers = [pid for pid, p in mini.pieces().items() if p.unit.type == "CV"]
    assert zones == [f"Holding box {pid}" for pid in carriers]


# ---- pieces --------------------------------------------------------------------------------


def test_every_counter_is_one_slot_with_its_values(
    built: tuple[Path, VmodContents], mini: Module
) -> None:
    _, vmod = built
    slots = [d for d in vmod.definitions if d.kind == "slot"]
    by_id: dict[str, dict[str, str]] = {}
    for d in slots:
        props = marker_properties(d.piece)
        basic = d.piece.basic_piece
        assert basic is not None
        assert basic.gpid == d.attrs["gpid"]
        assert basic.map_id is None
        if "UnitId" in props:
            assert props["UnitId"] not in by_id
            by_id[props["UnitId"]] = props
    pieces = mini.pieces()
    assert sorted(by_id) == sorted(pieces)
    for pid, piece in pieces.items():
        unit, props = piece.unit, by_id[pid]
        assert props["Side"] == unit.side
        assert props["Nationality"] == unit.nationality
        assert props["Category"] == unit.category
        assert props["Type"] == unit.type
        assert props["Name"] == unit.name
        assert props["Number"] == unit.number
        for key, value in unit.values.items():
            assert props[key] == str(value), (pid, key)
    assert set(mini.units[0].values) == SIXTH_FLEET_NUMBERS


def test_traits_are_well_formed(built: tuple[Path, VmodContents]) -> None:
    """§7.3: as many state levels as type levels; prototypes exist; emb2 version 1."""
    _, vmod = built
    prototypes = {d.name for d in vmod.definitions if d.kind == "prototype"}
    for d in vmod.definitions:
        assert all(t.state is not None for t in d.piece.traits), d.name
        assert d.text.startswith("+/null/")
        for trait in d.piece.traits:
            if isinstance(trait, UsePrototype):
                assert trait.name in prototypes
            if isinstance(trait, Embellishment):
                assert trait.version == 1
                assert not trait.active
            assert not trait.type.startswith("emb;")
        # re-encoding the decoded piece gives the same text (nothing lost)
        assert d.piece.type and d.piece.state is not None


def test_layers_for_the_rules(built: tuple[Path, VmodContents], mini: Module) -> None:
    _, vmod = built
    unit_proto = next(d for d in vmod.definitions if d.name == "Unit")
    attacked = unit_proto.piece.find(Embellishment)
    assert [e.layer_name for e in attacked] == ["Attacked"]
    for d in vmod.definitions:
        if d.kind != "slot" or "UnitId" not in marker_properties(d.piece):
            continue
        props = marker_properties(d.piece)
        layers = {e.layer_name: e for e in d.piece.find(Embellishment)}
        if props["Category"] == "air":
            unit = mini.unit(props["UnitId"].split(".")[0])
            expected = f"unit_{unit.id}_back.png" if unit.back else "layer_returning.png"
            assert layers["Returning"].image_names == (expected,)
        else:
            assert "Returning" not in layers
    names = {d.name for d in vmod.definitions if d.kind == "slot"}
    assert {"Destroyed", "Attacked"} <= names


def test_palette_grouped_by_side_nationality_type(
    built: tuple[Path, VmodContents], mini: Module
) -> None:
    _, vmod = built
    window = vmod.buildfile.find(M + "PieceWindow")
    top = window.find(W + "TabWidget")
    side_tabs = [t.get("entryName") for t in top.findall(W + "TabWidget")]
    assert side_tabs == [s.name for s in mini.sides]
    for side_tab in top.findall(W + "TabWidget"):
        for nat_tab in side_tab.findall(W + "TabWidget"):
            for lst in nat_tab.findall(W + "ListWidget"):
                for slot in lst.findall(W + "PieceSlot"):
                    props = marker_properties(
                        next(d.piece for d in vmod.definitions if d.text == slot.text.strip())
                    )
                    nat = mini.nationalities[props["Nationality"]]
                    assert nat.name == nat_tab.get("entryName")
                    assert lst.get("entryName").split()[0] == props["Type"]


# ---- the grid ------------------------------------------------------------------------------


def _grid_attrs(vmod: VmodContents) -> tuple[dict[str, dict[str, str]], str]:
    board = next(vmod.buildfile.iter(BOARD + "Board"))
    grid = board.find(BOARD + "board.HexGrid")
    numbering = grid.find(BOARD + "board.mapgrid.HexGridNumbering")
    return {HEXGRID: dict(grid.attrib), NUMBERING: dict(numbering.attrib)}, board.get("image")


def _check_grid(module: Module, vmod: VmodContents, dpi: int) -> None:
    from referee.render.board import board_layout

    attrs, image = _grid_attrs(vmod)
    with Image.open(io.BytesIO(vmod.entries[f"images/{image}"])) as im:
        width, height = im.size  # the Board's size is its image's size
    layout = board_layout(module, dpi)
    assert (width, height) == (layout.width, layout.height)
    for hid in module.map.grid.all_ids():
        cx, cy = layout.pixel_centre(hid)
        assert vassal_label(attrs, width, height, cx, cy) == hid
        sx, sy = vassal_centre(attrs, cx, cy)  # where a dropped counter is stored
        assert abs(sx - cx) <= 1.5 and abs(sy - cy) <= 1.5
        assert vassal_label(attrs, width, height, sx, sy) == hid
        for corner_x, corner_y in layout.corners(hid):  # near each corner, inside the hex
            px, py = cx + 0.7 * (corner_x - cx), cy + 0.7 * (corner_y - cy)
            assert vassal_label(attrs, width, height, px, py) == hid


def test_every_hex_is_named_by_its_id(built: tuple[Path, VmodContents], mini: Module) -> None:
    _check_grid(mini, built[1], 150)


# ---- guarantees ----------------------------------------------------------------------------


def test_build_is_byte_identical(mini: Module, tmp_path: Path, built) -> None:
    again = build_module(mini, tmp_path, workers=1)
    assert again.path.read_bytes() == built[0].read_bytes()


def test_parallel_rendering_gives_the_same_bytes(
    mini: Module, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import referee.vassal.module.module_writer as mw

    serial = build_module(mini, tmp_path / "a", workers=1).path.read_bytes()
    monkeypatch.setattr(mw, "PARALLEL_MIN_FACES", 0)
    parallel = build_module(mini, tmp_path / "b", workers=2).path.read_bytes()
    assert parallel == serial


def test_setup_hook(mini: Module, tmp_path: Path) -> None:
    vsav = b"PK-not-really-a-save"
    result = build_module(
        mini,
        tmp_path,
        workers=1,
        extra_files=[("skirmish.vsav", vsav)],
        setups=[PredefinedSetup("Skirmish", "skirmish.vsav", "Three turns")],
    )
    vmod = read_vmod(result.path)
    assert vmod.entries["skirmish.vsav"] == vsav
    setup = vmod.buildfile.find(M + "PredefinedSetup")
    assert setup.get("file") == "skirmish.vsav" and setup.get("useFile") == "true"
    with pytest.raises(UserError, match="not among"):
        build_module(mini, tmp_path / "x", setups=[PredefinedSetup("S", "missing.vsav")])
    with pytest.raises(UserError, match="not allowed"):
        build_module(mini, tmp_path / "x", extra_files=[("../evil.vsav", b"")])
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())


def _copy_mini(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(MINI, src)
    return src


def _with_image(src: Path, image: str) -> None:
    """Give the first roster row an ``image`` column naming ``image``."""
    csv = src / "units.csv"
    lines = csv.read_text().splitlines()
    lines[0] += ",image"
    lines[1:] = [ln + ("," + image if i == 0 else ",") for i, ln in enumerate(lines[1:])]
    csv.write_text("\n".join(lines) + "\n")


def _assert_refused(src: Path, out: Path, match: str) -> None:
    module = _load(src)
    out.mkdir(exist_ok=True)
    old = out / vmod_name(module)
    old.write_bytes(b"previous build")
    with pytest.raises(UserError, match=match):
        build_module(module, out, workers=1)
    assert old.read_bytes() == b"previous build"  # untouched: no partial .vmod
    assert sorted(p.name for p in out.iterdir()) == [old.name]  # no temp files left


def test_missing_image_is_refused(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    _with_image(src, "art/missing.png")
    _assert_refused(src, tmp_path / "out", "not found")


def test_non_image_is_refused(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    (src / "art.png").write_text("this is not a picture\n")
    _with_image(src, "art.png")
    _assert_refused(src, tmp_path / "out", "not a readable PNG or JPEG")


def test_gif_is_refused(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    Image.new("P", (10, 10)).save(src / "art.gif", format="GIF")
    _with_image(src, "art.gif")
    _assert_refused(src, tmp_path / "out", "only PNG and JPEG")


def test_huge_image_is_refused(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    Image.new("1", (5000, 2)).save(src / "huge.png")
    _with_image(src, "huge.png")
    _assert_refused(src, tmp_path / "out", "limit is 4096 px")


def test_absurd_counter_size_is_refused(mini: Module, tmp_path: Path) -> None:
    for size in (0.05, 12.0):
        silly = replace(mini, counter=replace(mini.counter, size_in=size))
        with pytest.raises(UserError, match="px counters"):
            build_module(silly, tmp_path, workers=1)
    assert not any(tmp_path.iterdir())


def test_no_sides_or_no_units_is_refused(mini: Module, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="side"):
        build_module(replace(mini, sides=()), tmp_path)
    with pytest.raises(UserError, match="roster is empty"):
        build_module(replace(mini, units=()), tmp_path)
    assert not any(tmp_path.iterdir())


# ---- the command ---------------------------------------------------------------------------


def test_cli_json(tmp_path: Path) -> None:
    result = Runner().invoke(app, ["build", str(MINI), "-o", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"path", "counters", "images", "bytes", "seconds"}
    assert data["counters"] == 8
    assert Path(data["path"]).stat().st_size == data["bytes"]


def test_cli_quiet_prints_path(tmp_path: Path) -> None:
    result = Runner().invoke(app, ["build", str(MINI), "-o", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(tmp_path / "mini-0.1.vmod")


def test_cli_refuses_a_broken_source_like_check(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    units = src / "units.csv"
    units.write_text(units.read_text().replace("Saratoga,7,", "Saratoga,x7,"))
    runner = Runner()
    build = runner.invoke(app, ["build", str(src), "-o", str(tmp_path / "out")])
    check = runner.invoke(app, ["check", str(src)])
    assert build.exit_code == 1 and check.exit_code == 1
    first = check.stderr.splitlines()[0] if check.stderr else check.output.splitlines()[0]
    assert "units.csv:2" in first and first in build.output
    assert not (tmp_path / "out").exists()


def test_cli_empty_roster(tmp_path: Path) -> None:
    src = _copy_mini(tmp_path)
    units = src / "units.csv"
    units.write_text(units.read_text().splitlines()[0] + "\n")
    result = Runner().invoke(app, ["build", str(src), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "roster is empty" in result.output
    assert not (tmp_path / "out").exists()


# ---- real files and the real module --------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "vive-lempereur/buildFile.xml",
        "zxvt-capture-the-territory/buildFile",
        "vassal-tour/buildFile",
    ],
)
def test_reader_decodes_real_buildfiles(name: str) -> None:
    from referee.vassal.foreign.vmod import piece_definitions

    path = SHARED / "fixtures" / "vassal" / name
    if not path.is_file():
        pytest.skip("shared VASSAL fixtures not present")
    root = read_buildfile(path.read_bytes(), str(path))
    defs = piece_definitions(root, str(path))
    assert defs
    for d in defs:
        assert d.piece.basic_piece is not None
        assert all(t.state is not None for t in d.piece.traits)
        for marker in d.piece.find(Marker):
            assert len(marker.values) == len(marker.names)


@pytest.fixture(scope="module")
def sixth_fleet() -> Module:
    module, _ = load_module(SIXTH_FLEET) if SIXTH_FLEET.is_dir() else (None, None)
    if module is None:
        pytest.skip("module_src/sixth_fleet does not load yet")
    return module


def test_sixth_fleet_module(sixth_fleet: Module, tmp_path: Path) -> None:
    result = build_module(sixth_fleet, tmp_path)
    vmod = read_vmod(result.path)
    _check_grid(sixth_fleet, vmod, 150)
    slots = [d for d in vmod.definitions if d.kind == "slot"]
    ids = {marker_properties(d.piece).get("UnitId") for d in slots} - {None}
    assert ids == set(sixth_fleet.pieces())
    # A counter dropped on the centre of hex 1423 reports location 1423.
    from referee.render.board import board_layout

    attrs, _ = _grid_attrs(vmod)
    layout = board_layout(sixth_fleet, 150)
    stored = vassal_centre(attrs, *layout.pixel_centre("1423"))
    assert vassal_label(attrs, layout.width, layout.height, *stored) == "1423"
