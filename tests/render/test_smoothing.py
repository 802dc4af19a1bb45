"""Smoothing by supersampling: the board and the chart previews are drawn 2x oversize and
shrunk by averaging 2 x 2 blocks. An average never invents a colour: across any edge every
pixel lies between the colours that meet there (a Lanczos shrink rings: dark and light halos
round lines and text). The geometry does not move: the image keeps the layout's size."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from referee.render.board import GRID_LINE, board_layout, render_board
from referee.render.colors import parse_color
from referee.render.drawing import Drawing, Rect, to_image
from referee.source.model import Module

RGB = tuple[int, int, int]


def _between(pixel: RGB, colours: list[RGB]) -> bool:
    return all(
        min(c[i] for c in colours) <= pixel[i] <= max(c[i] for c in colours) for i in range(3)
    )


def _plain_pairs(module: Module) -> list[tuple[str, str]]:
    """Neighbouring hexes with nothing printed near their common side: no country, no badge,
    no name, no all-land bar, no area boundary."""
    m = module.map
    placed = {p.hex for p in m.places if p.label}

    def plain(hid: str) -> bool:
        h = m.hexes[hid]
        return (
            h.country is None
            and h.airbase is None
            and h.defended is None
            and not h.setup_code
            and hid not in placed
        )

    land = {frozenset(s) for s in m.all_land_hexsides}
    out = []
    for a in sorted(m.hexes):
        for b in m.grid.neighbours(a):
            if (
                b in m.hexes
                and a < b
                and plain(a)
                and plain(b)
                and frozenset((a, b)) not in land
                and m.hexes[a].areas == m.hexes[b].areas
            ):
                out.append((a, b))
    return out


def test_board_keeps_its_layout_size(mini: Module) -> None:
    for dpi in (37, 60, 100):
        lay = board_layout(mini, dpi)
        assert render_board(mini, dpi).size == (lay.width, lay.height)


def test_no_halo_across_hexsides(mini: Module) -> None:
    """Walking from one hex centre to its neighbour's, every pixel is a blend of the two
    terrain colours and the grid line: nothing lighter or darker than all three."""
    dpi = 100
    img = render_board(mini, dpi, country_names=False)
    lay = board_layout(mini, dpi)
    pairs = _plain_pairs(mini)
    assert len(pairs) >= 5
    grid = parse_color(GRID_LINE)
    for a, b in pairs:
        (ax, ay), (bx, by) = lay.pixel_centre(a), lay.pixel_centre(b)
        # the middle half of the walk: clear of anything printed at the hex centres
        colours = [img.getpixel((round(x), round(y))) for x, y in ((ax, ay), (bx, by))]
        steps = 60
        for i in range(steps // 4, 3 * steps // 4 + 1):
            t = i / steps
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            pixel = img.getpixel((round(x), round(y)))
            assert _between(pixel, [*colours, grid]), (a, b, (x, y), pixel, colours)


@settings(max_examples=25, deadline=None)
@given(
    paper=st.tuples(*[st.integers(30, 225)] * 3),
    ink=st.tuples(*[st.integers(30, 225)] * 3),
    x=st.floats(3, 40),
    y=st.floats(3, 40),
    w=st.floats(0.4, 30),
    h=st.floats(0.4, 30),
    dpi=st.sampled_from([72, 100, 150]),
)
def test_preview_pixels_are_blends_of_the_drawn_colours(
    paper: RGB, ink: RGB, x: float, y: float, w: float, h: float, dpi: int
) -> None:
    """A filled rectangle on a coloured page: every preview pixel lies between the two."""
    hexes = ["#" + "".join(f"{v:02X}" for v in c) for c in (paper, ink)]
    drawing = Drawing(80, 80, [Rect(0, 0, 80, 80, fill=hexes[0]), Rect(x, y, w, h, hexes[1])])
    img = to_image(drawing, dpi)
    side = round(80 * dpi / 72)
    assert img.size == (side, side)
    lo = tuple(min(paper[i], ink[i]) for i in range(3))
    hi = tuple(max(paper[i], ink[i]) for i in range(3))
    for band, a, b in zip(img.split(), lo, hi, strict=True):
        low, high = band.getextrema()
        assert a <= low and high <= b


def test_preview_keeps_flat_colours_exact() -> None:
    drawing = Drawing(72, 72, [Rect(0, 0, 72, 72, fill="#336699")])
    img = to_image(drawing, 100)
    assert img.getcolors() == [(img.width * img.height, (0x33, 0x66, 0x99))]
    assert isinstance(img, Image.Image)
