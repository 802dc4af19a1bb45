"""The board of a map that has a designer's picture (``[board] image``): the picture itself,
turned and scaled so the hex grid the anchors fitted on it is the board's own grid.

:func:`art_layout` is what :func:`referee.render.board.board_layout` returns for such a map,
so everything that reads the board's geometry reads it from here: the VASSAL module's grid
(a counter dropped on a hex reports that hex's id), the reports' and ``position.png``'s
overlays, the viewer, and ``referee map``, which prints the board at the source's scale (a
hex centre to centre is ``hex_width_in``, so the picture prints at its true size). The board
is the picture alone: it already shows the map's terrain, hex numbers and legend.

On a hex map the board's hex width is the same whole even number of pixels as a drawn board
(:func:`referee.render.board.board_layout`), the grid has no margin and sits at a whole-pixel
``map_origin`` chosen so the turned picture's top-left corner is the board's; the board is
the turned picture's bounding box. The picture is resampled once, by the inverse of that
placement (Pillow's affine transform, bicubic, after a Lanczos reduction when the board is
smaller than the picture, so a 300 dpi scan shrinks to 100 dpi without aliasing). On a map
without a grid the picture is scaled to the ``[board]``.
"""

from __future__ import annotations

import math

from PIL import Image

from referee.render.board_geometry import BoardLayout
from referee.source.artfiles import open_picture
from referee.source.model import Module

PAPER = (255, 255, 255)


def _hex_px(module: Module, dpi: int) -> int:
    g = module.map.grid
    assert g is not None
    return max(8, 2 * round(g.hex_width * dpi / 2))


def art_layout(module: Module, dpi: int) -> BoardLayout:
    """The board geometry of a map with a picture (see the module docstring)."""
    art = module.map.art
    assert art is not None
    g = module.map.grid
    pic = art.picture
    if g is None or art.fit is None:
        canvas = module.map.canvas
        assert canvas is not None
        w, h = round(canvas.width * dpi), round(canvas.height * dpi)
        return _layout(dpi, None, w, h, (0, 0), float(dpi))
    hw = _hex_px(module, dpi)
    fit = art.fit
    xs, ys = [], []
    for x, y in ((0, 0), (pic.width, 0), (0, pic.height), (pic.width, pic.height)):
        u, v = fit.page_of(x, y)
        xs.append(u * hw)
        ys.append(v * hw)
    ox, oy = -math.floor(min(xs)), -math.floor(min(ys))
    width, height = math.ceil(max(xs)) + ox, math.ceil(max(ys)) + oy
    grid = g.scaled(hex_width=hw, margin=0.0)
    return _layout(dpi, grid, width, height, (ox, oy), hw / g.hex_width)


def _layout(
    dpi: int,
    grid: object,
    width: int,
    height: int,
    origin: tuple[int, int],
    scale: float,
) -> BoardLayout:
    return BoardLayout(
        dpi=dpi,
        grid=grid,  # type: ignore[arg-type]
        width=width,
        height=height,
        map_origin=origin,
        map_size=(width, height),
        title_height=0,
        legend_top=height,
        legend_height=0,
        legend_columns=1,
        legend=(),
        scale=scale,
        offset=(float(origin[0]), float(origin[1])),
    )


def paint_art(module: Module, lay: BoardLayout) -> Image.Image:
    """The picture resampled onto the board ``lay`` (RGB, ``lay.width`` x ``lay.height``)."""
    art = module.map.art
    assert art is not None
    pic = art.picture
    if art.fit is None or lay.grid is None:
        img = open_picture(module.root, pic, scale=lay.width / pic.width)
        return img.resize((lay.width, lay.height), Image.Resampling.LANCZOS)
    fit = art.fit
    hw = lay.grid.hex_width
    # board pixels per picture pixel: a raster picture is shrunk to it first (Lanczos), an SVG
    # rasterised at it, so the turn below resamples at about one pixel for one
    k = hw / fit.px_per_hex
    img = open_picture(module.root, pic, scale=k)
    sx, sy = img.width / pic.width, img.height / pic.height
    # board pixel (X, Y) -> page (u, v) -> picture pixel (x, y) -> reduced picture
    ox, oy = lay.map_origin
    q = fit.a * fit.a + fit.b * fit.b
    cu, cv = -ox / hw - fit.tu, -oy / hw - fit.tv
    coeffs = (
        sx * fit.a / (hw * q),
        sx * fit.b / (hw * q),
        sx * (fit.a * cu + fit.b * cv) / q,
        sy * -fit.b / (hw * q),
        sy * fit.a / (hw * q),
        sy * (fit.a * cv - fit.b * cu) / q,
    )
    return img.transform(
        (lay.width, lay.height),
        Image.Transform.AFFINE,
        coeffs,
        resample=Image.Resampling.BICUBIC,
        fillcolor=PAPER,
    )


def picture_dpi(module: Module, default: int = 150) -> int:
    """The resolution a printed map keeps of its picture: the picture's own pixels an inch at
    the printed size (a hex map's ``hex_width_in``, a board's inches), within 100..300 so the
    PDF stays printable; ``default`` for a drawn board."""
    art = module.map.art
    if art is None:
        return default
    g = module.map.grid
    if art.fit is not None and g is not None:
        own = art.fit.px_per_hex / g.hex_width
    else:
        canvas = module.map.canvas
        assert canvas is not None
        own = art.picture.width / canvas.width
    return max(100, min(300, round(own)))


Matrix = tuple[float, float, float, float, float, float]


def art_to_board(module: Module, lay: BoardLayout) -> Matrix:
    """Where a point of the map picture (its pixels, y down) lands on the board ``lay``:
    ``(a, b, c, d, e, f)`` with ``x = a px + c py + e``, ``y = b px + d py + f`` (the
    placement :func:`paint_art` resamples by, for drawing an SVG picture as vectors)."""
    art = module.map.art
    assert art is not None
    if art.fit is None or lay.grid is None:
        sx, sy = lay.width / art.picture.width, lay.height / art.picture.height
        return (sx, 0.0, 0.0, sy, 0.0, 0.0)
    hw, fit = lay.grid.hex_width, art.fit
    ox, oy = lay.map_origin
    return (hw * fit.a, hw * fit.b, -hw * fit.b, hw * fit.a, hw * fit.tu + ox, hw * fit.tv + oy)


def vector_map(module: Module, lay: BoardLayout) -> tuple[Matrix, str, object] | None:
    """An SVG map picture as ``(art_to_board, its SHA-256, its drawing)`` for the printed
    map's tiles; ``None`` for a raster picture or a drawn board."""
    from referee.source.artfiles import open_vector

    art = module.map.art
    if art is None or art.picture.kind != "svg":
        return None
    return art_to_board(module, lay), art.picture.sha256, open_vector(module.root, art.picture)
