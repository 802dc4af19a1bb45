"""Area, point-to-point and combined maps in the VASSAL module: the grids of the buildFile, the
save writer placing pieces by zone or space name, and real VASSAL reporting each piece's zone
or space name (``../shared/tools/vassal-check/vcheck``, skipped where Java is absent)."""

from __future__ import annotations

import shutil
import zipfile
from functools import cache
from pathlib import Path

import pytest
from lxml import etree

from referee.engine.graphboard import AreaBoard, board_for
from referee.render.board import board_layout
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.codec.tabletop import replay
from referee.vassal.module.layers import awt_contains
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.savewriter import Placed, build_save
from referee.vassal.position.setups import build_module_with_setups, scenario_setup_vsav
from referee.vassal.position.survey import survey
from tests.vassal.vassal_jvm import vcheck

pytestmark = pytest.mark.shared_cache  # its module builds are a means, not what it tests

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "modules"
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
BOARD = "VASSAL.build.module.map.boardPicker.board."
SCENARIO = {"area_med": "opening", "point_north": "patrol", "naval_mix": "convoy"}


@cache
def _module(name: str) -> Module:
    module, diags = load_module(FIXTURES / name)
    assert module is not None, [str(d) for d in diags.errors]
    return module


@cache
def _table(name: str) -> Table:
    return table_for(_module(name))


def _expected(name: str) -> dict[str, str]:
    """piece id -> the zone or space name VASSAL must report for the scenario's placement
    (on the combined map a piece placed by hex id reports the zone holding that hex)."""
    module = _module(name)
    board = board_for(module.map)
    out = {}
    for f in module.scenarios[SCENARIO[name]].fixed:
        where = f.hex
        if isinstance(board, AreaBoard) and module.map.grid and module.map.grid.is_valid_id(where):
            where = board.zone_of_hex(where) or where
        out[f.unit] = where
    return out


def _buildfile(vmod: Path) -> etree._Element:
    with zipfile.ZipFile(vmod) as z:
        return etree.fromstring(z.read("buildFile.xml"))


def _main_board(root: etree._Element) -> etree._Element:
    for m in root.iter("VASSAL.build.module.Map"):
        if m.get("mapName") == "Main Map":
            return next(m.iter("VASSAL.build.module.map.boardPicker.Board"))
    raise AssertionError("no Main Map")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("mapkinds")
    return {
        name: build_module_with_setups(_module(name), out / name, workers=1).path
        for name in SCENARIO
    }


# ---- the buildFile ----------------------------------------------------------------------------
def test_area_map_is_a_zoned_grid_of_polygons(built: dict[str, Path]) -> None:
    module = _module("area_med")
    board = _main_board(_buildfile(built["area_med"]))
    grids = list(board)
    assert [g.tag for g in grids] == [BOARD + "ZonedGrid"]
    zones = list(grids[0])
    assert [z.tag for z in zones] == [BOARD + "mapgrid.Zone"] * 11
    assert module.map.zones is not None
    assert [z.get("name") for z in zones] == list(module.map.zones.zones)
    lay = board_layout(module, _table("area_med").plan.dpi)
    for el in zones:
        zone = module.map.zones.zones[el.get("name")]
        want = ";".join(f"{round(x)},{round(y)}" for x, y in (lay.px(p) for p in zone.outline))
        assert el.get("path") == want
        assert el.get("locationFormat") == "$name$"
        assert el.get("useParentGrid") == "false"
        assert len(el) == 0  # no grid: a piece stays where it is dropped


def test_point_map_is_a_region_grid(built: dict[str, Path]) -> None:
    module = _module("point_north")
    board = _main_board(_buildfile(built["point_north"]))
    grids = list(board)
    assert [g.tag for g in grids] == [BOARD + "RegionGrid"]
    assert grids[0].get("snapto") == "true"
    regions = list(grids[0])
    assert module.map.spaces is not None
    assert [r.get("name") for r in regions] == list(module.map.spaces.spaces)
    lay = board_layout(module, _table("point_north").plan.dpi)
    for r in regions:
        x, y = lay.px(module.map.spaces.spaces[r.get("name")].at)
        assert (r.get("originx"), r.get("originy")) == (str(round(x)), str(round(y)))


def test_combined_map_zones_over_the_hex_grid(built: dict[str, Path]) -> None:
    board = _main_board(_buildfile(built["naval_mix"]))
    zoned = list(board)
    assert [g.tag for g in zoned] == [BOARD + "ZonedGrid"]
    children = list(zoned[0])
    assert children[0].tag == BOARD + "HexGrid"  # the background grid outside every zone
    zones = children[1:]
    assert [z.get("name") for z in zones] == [
        "Southport",
        "Northfield",
        "West Basin",
        "Inner Basin",
        "East Basin",
    ]  # fmt: skip  (ports first: VASSAL takes the first zone that holds a point)
    for port in zones[:2]:
        assert port.get("useParentGrid") == "false"
        (regions,) = list(port)
        assert regions.tag == BOARD + "RegionGrid"
        assert [r.get("name") for r in regions] == [port.get("name")]
    for sea in zones[2:]:
        assert sea.get("useParentGrid") == "true" and len(sea) == 0
        assert sea.get("locationFormat") == "$name$"


def test_hex_module_keeps_its_plain_hex_grid() -> None:
    plan = table_for(load_module(FIXTURES / "mini")[0]).plan  # type: ignore[arg-type]
    assert plan.layers is None and plan.grid


# ---- placement by name ------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SCENARIO))
def test_every_location_reads_back_as_its_own_name(name: str) -> None:
    table = _table(name)
    module = table.module
    for loc in module.map.location_names():
        map_id, x, y = table.location_point(loc)
        got = table.locate(map_id, x, y)
        assert (got.name, got.kind) == (
            loc,
            "space" if module.map.spaces and loc in module.map.spaces.spaces else "zone",
        )
    layers = table.plan.layers
    assert layers is not None
    for z in layers.zones:  # the stored point is inside the zone by VASSAL's own test
        assert awt_contains(z.polygon, *z.place)


@pytest.mark.parametrize("name", list(SCENARIO))
def test_setup_save_places_pieces_by_name(name: str) -> None:
    table = _table(name)
    data = scenario_setup_vsav(table, SCENARIO[name])
    got = {c.unit: c.location for c in survey(table, replay(read_save_bytes(data).commands).end)}
    for unit, where in _expected(name).items():
        assert got[unit].name == where, unit


def _fixed_save(name: str) -> bytes:
    """A save written with the save writer from the scenario's placements, one stack each."""
    table = _table(name)
    stacks = []
    for f in table.module.scenarios[SCENARIO[name]].fixed:
        map_id, x, y = table.location_point(f.hex)
        stacks.append([Placed(f.unit, map_id, x, y)])
    return build_save(table, stacks, description=f"{name} by name")


# ---- real VASSAL ------------------------------------------------------------------------------
def _vcheck_reason() -> str | None:
    if not VCHECK.is_file():
        return f"the real-VASSAL checker is not at {VCHECK}"
    if shutil.which("java") is None:
        return "Java is not installed (run ../shared/tools/vassal-check/setup)"
    return None


@pytest.mark.skipif(_vcheck_reason() is not None, reason=str(_vcheck_reason()))
@pytest.mark.parametrize("name", list(SCENARIO))
def test_real_vassal_reports_every_piece_by_zone_or_space(
    name: str, built: dict[str, Path], tmp_path: Path
) -> None:
    save = tmp_path / f"{name}.vsav"
    save.write_bytes(_fixed_save(name))
    out = tmp_path / "vcheck.txt"
    run = vcheck([built[name], save], out, timeout=300)
    assert run.returncode == 0, run.stderr
    pieces: dict[str, dict[str, str]] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if f[0] == "PIECE" and f[2] == "Main Map":
            pieces.setdefault(f[1], {})[f[6].split(" ")[0]] = f[5]
    expected = _expected(name)
    setup = f"setup:{_module(name).scenarios[SCENARIO[name]].name}"
    assert pieces[setup] == expected  # the module's own New Game set-up
    assert pieces[str(save.resolve())] == expected  # the save writer's save


def test_outline_zone_over_a_hex_map_snaps_to_hexes(tmp_path: Path) -> None:
    """A zone drawn as an outline over a hex map (pixels of the grid at 100 dpi) uses the hex
    grid like a zone of hexes: a piece placed in it stands on a hex centre inside it."""
    root = tmp_path / "mix"
    shutil.copytree(FIXTURES / "naval_mix", root)
    grid = _module("naval_mix").map.grid
    assert grid is not None
    w, h = grid.pixel_size()
    # right of every column-6 hex (Inner Basin), so the outline only meets that zone's border
    x0 = 1 + round(
        max(grid.centre(f"{r:02d}06")[0] + grid.hex_width / 2 for r in range(1, 7)) * 100
    )
    text = (root / "map.toml").read_text(encoding="utf-8")
    start = text.index('name = "East Basin"')
    end = text.index("adjacent", start)
    right, bottom = f"{w * 100:.0f}", f"{h * 100:.0f}"
    outline = f"outline = [[{x0}, 0], [{right}, 0], [{right}, {bottom}], [{x0}, {bottom}]]\n"
    text = text[:start] + 'name = "East Basin"\ntype = "sea_zone"\n' + outline + text[end:]
    (root / "map.toml").write_text(text, encoding="utf-8")
    module, diags = load_module(root)
    assert module is not None, [str(d) for d in diags.errors]
    east = module.map.zones.zones["East Basin"]  # type: ignore[union-attr]
    assert east.hexes == () and len(east.outline) == 4
    table = table_for(module)
    layers = table.plan.layers
    assert layers is not None
    zone = next(z for z in layers.zones if z.name == "East Basin")
    assert zone.parent_grid
    hex_id = table.point_hex(*zone.place)
    assert hex_id is not None and table.plan.hex_centre(hex_id) == zone.place
    got = table.locate(*table.location_point("East Basin"))
    assert (got.kind, got.name) == ("zone", "East Basin")
