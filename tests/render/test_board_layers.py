"""The board picture of area, point-to-point and combined maps."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from PIL import Image

from referee.render.board import board_layout, board_png, render_board
from referee.render.board_layers import CANVAS, anchor, draw_layers, shared_segments
from referee.render.colors import contrast_ratio, hex_rgb, luminance, readable_on_white
from referee.source.loader import load_module
from referee.source.model import Module

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"


def _load(name: str) -> Module:
    module, diags = load_module(FIXTURES / name)
    assert module is not None, [str(d) for d in diags.errors]
    return module


def _load_from(root: Path) -> Module:
    module, diags = load_module(root)
    assert module is not None, [str(d) for d in diags.errors]
    return module


def _labels(module: Module, dpi: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    lay = board_layout(module, dpi)
    img = Image.new("RGB", (lay.width, lay.height))
    return draw_layers(img, lay, module)


@pytest.mark.parametrize("name", ["area_med", "point_north", "naval_mix"])
@pytest.mark.parametrize("dpi", [60, 100, 150])
def test_names_never_overlap(name: str, dpi: int) -> None:
    labels = _labels(_load(name), dpi)
    assert labels
    for (na, a), (nb, b) in itertools.combinations(labels, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (na, nb)


@pytest.mark.parametrize("dpi", [60, 100, 150])
def test_zone_names_lie_inside_their_zone(dpi: int) -> None:
    module = _load("area_med")
    lay = board_layout(module, dpi)
    zones = module.map.zones
    assert zones is not None
    from referee.source.mapkinds import point_in_polygon

    for name, (x0, y0, x1, y1) in _labels(module, dpi):
        poly = [lay.px(p) for p in zones.zones[name].outline]
        for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            assert point_in_polygon(corner, poly), (name, corner)


def test_area_board_colours_zones_by_type() -> None:
    module = _load("area_med")
    lay = board_layout(module, 100)
    img = render_board(module, 100)
    assert img.size == (lay.width, lay.height)
    zones = module.map.zones
    assert zones is not None
    # a point of each zone well away from its name and border shows its type's colour
    for zname, probe in (
        ("Iberia", (0.5, 0.5)),
        ("Western Med", (0.5, 5.5)),
        ("Crete", (6.2, 5.8)),
    ):
        x, y = lay.px(probe)
        want = zones.types[zones.zones[zname].type].color
        got = "#{:02X}{:02X}{:02X}".format(*img.getpixel((round(x), round(y))))
        assert got == want, zname


def test_blocked_boundary_is_drawn_along_the_shared_border() -> None:
    module = _load("area_med")
    zones = module.map.zones
    assert zones is not None
    segs = shared_segments(zones.zones["Italy"].outline, zones.zones["Balkans"].outline)
    assert segs == [((6.0, 2.0), (6.0, 0.0))] or segs == [((6.0, 0.0), (6.0, 2.0))]
    lay = board_layout(module, 100)
    img = render_board(module, 100)
    x, y = lay.px((6.0, 1.5))
    assert img.getpixel((round(x), round(y))) == (0xB0, 0x3A, 0x2E)


def test_spaces_are_drawn_at_their_positions() -> None:
    module = _load("point_north")
    lay = board_layout(module, 100)
    img = render_board(module, 100)
    spaces = module.map.spaces
    assert spaces is not None
    for s in spaces.spaces.values():
        x, y = anchor(module, lay, s.name)
        assert (x, y) == lay.px(s.at)
        want = spaces.types[s.type].color
        got = "#{:02X}{:02X}{:02X}".format(*img.getpixel((round(x), round(y))))
        assert got == want, s.name


@pytest.mark.parametrize("name", ["area_med", "point_north", "naval_mix"])
def test_board_png_is_deterministic(name: str) -> None:
    module = _load(name)
    assert board_png(module, 50) == board_png(module, 50)


def test_legend_lists_the_types_and_lines() -> None:
    lay = board_layout(_load("point_north"), 100)
    kinds = [(e.kind, e.label) for e in lay.legend]
    assert ("space_type", "Chokepoint") in kinds and ("line", "Atlantic Line") in kinds
    assert ("blocked_link", "Link closed to some movement") in kinds
    lay = board_layout(_load("area_med"), 100)
    assert [e.label for e in lay.legend if e.kind == "zone_type"] == [
        "Sea zone", "Land zone", "Strait", "Small island", "No entry"
    ]  # fmt: skip


@pytest.mark.parametrize("color", ["#FFFFFF", "#F0D000", "#2E7D32"])
def test_a_line_name_reads_whatever_the_line_colour(tmp_path: Path, color: str) -> None:
    # Carrier Battlegroup draws its transit routes white: their names were written white on
    # a white halo over the pale sea and could not be read. The name is darkened until it
    # reads on white (WCAG 4.5:1); a dark route colour is kept as it is.
    src = tmp_path / "point_north"
    shutil.copytree(FIXTURES / "point_north", src)
    toml = src / "map.toml"
    toml.write_text(toml.read_text().replace('"#2E7D32"', f'"{color}"'), encoding="utf-8")
    module = _load_from(src)
    lay = board_layout(module, 100)
    img = Image.new("RGB", (lay.width, lay.height), CANVAS)
    box = dict(draw_layers(img, lay, module))["Atlantic Line"]
    inside = img.crop(tuple(round(v) for v in box))
    w, h = inside.size
    darkest = min((inside.getpixel((x, y)) for x in range(w) for y in range(h)), key=luminance)
    assert contrast_ratio(darkest, "#FFFFFF") >= 4.5, (color, darkest)
    if color == "#2E7D32":  # dark enough already: the route's own colour
        assert hex_rgb(readable_on_white(color)) == color
