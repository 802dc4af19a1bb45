"""Board geometry (the one source of pixel positions) and the board image."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import ImageDraw

from referee.render.board import board_layout, board_png, render_board
from referee.source.model import Module


def test_layout_is_consistent(mini: Module) -> None:
    lay = board_layout(mini, 100)
    assert lay.hex_width % 2 == 0
    assert lay.map_origin == (0, lay.title_height)
    assert lay.height == lay.title_height + lay.map_size[1] + lay.legend_height
    for hid in mini.map.hexes:
        x, y = lay.pixel_centre(hid)
        gx, gy = lay.grid.centre(hid)
        assert (x, y) == (gx + lay.map_origin[0], gy + lay.map_origin[1])
        assert lay.hex_at(x, y) == hid
        assert 0 <= x < lay.width and lay.title_height <= y < lay.legend_top
        assert float(x).is_integer()  # pointy grid: x centres on whole pixels


def test_title_and_legend_are_off_the_map(mini: Module) -> None:
    lay = board_layout(mini, 100)
    assert lay.hex_at(lay.width / 2, lay.title_height / 2) is None
    assert lay.hex_at(lay.width / 2, lay.height - 2) is None


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=40, max_value=300), st.data())
def test_hex_at_inverts_pixel_centre_at_any_dpi(
    mini: Module, dpi: int, data: st.DataObject
) -> None:
    lay = board_layout(mini, dpi)
    hid = data.draw(st.sampled_from(sorted(mini.map.hexes)))
    x, y = lay.pixel_centre(hid)
    dx = data.draw(st.floats(-0.3, 0.3)) * lay.grid.size
    dy = data.draw(st.floats(-0.3, 0.3)) * lay.grid.size
    assert lay.hex_at(x + dx, y + dy) == hid


def test_image_matches_layout_and_overlay_draws_last(mini: Module) -> None:
    calls = []

    def overlay(draw: ImageDraw.ImageDraw, lay) -> None:
        calls.append(lay)
        x, y = lay.pixel_centre("0304")
        draw.rectangle([x - 3, y - 3, x + 3, y + 3], fill=(255, 0, 255))

    img = render_board(mini, 100, overlay=overlay)
    lay = board_layout(mini, 100)
    assert img.size == (lay.width, lay.height)
    assert calls == [lay]
    x, y = lay.pixel_centre("0304")
    assert img.getpixel((round(x), round(y))) == (255, 0, 255)


def test_terrain_colour_at_hex_centre(mini: Module) -> None:
    img = render_board(mini, 100, country_names=False)
    lay = board_layout(mini, 100)
    # 0403 is plain High Seas with nothing printed at its centre
    x, y = lay.pixel_centre("0403")
    want = tuple(int(mini.map.terrain["high_seas"].color[i : i + 2], 16) for i in (1, 3, 5))
    got = img.getpixel((round(x), round(y) + 4))
    assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 2


def test_png_is_deterministic(mini: Module) -> None:
    assert board_png(mini, 60) == board_png(mini, 60)


def test_sixth_fleet_board_geometry(sixth_fleet: Module) -> None:
    lay = board_layout(sixth_fleet, 50)
    for hid in sixth_fleet.map.hexes:
        assert lay.hex_at(*lay.pixel_centre(hid)) == hid
