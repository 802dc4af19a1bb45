"""A picture under the map: ``[board] image`` and the anchors that put the hex grid on it.

A designer who holds a map picture (scanned, or drawn in a paint or drawing program) names it
in ``map.toml``::

    [board]
    image = "art/map.png"
    legend = { sea = "#9CC3E6", land = "#D9C99A" }   # optional: terrain colours of the picture

    [[grid.anchor]]          # a hex centre read off the picture, in its pixels
    hex = "1423"
    x = 1210
    y = 884

On a hex map the grid's size, rotation and position on the picture are fitted to the anchors
by least squares (:func:`referee.similarity_fit.fit_similarity`, the solver ``map-from-geo``
fits its projection with); each anchor's residual is the distance, in hexes, from where the
designer read its centre to where the fit puts it. Reading a centre off a picture is
accurate to a few pixels, so an anchor more than ``max_residual`` (default 0.25 hex) away is a
wrong anchor: it is refused and named (when leaving it out makes the others agree, as the one
that disagrees with them). Terrain still comes from ``map.txt``; with a ``legend`` the picture
is sampled round every hex centre and a hex whose picture colour is clearly another terrain's
is a warning at its cell of ``map.txt``. On a map without a grid the picture spans the
``[board]``. Problems are diagnostics with ``file:line:col``, never exceptions.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.hexgrid import HexGrid
from referee.similarity_fit import FitError, fit_similarity
from referee.source.artfiles import ArtProblem, read_picture
from referee.source.base import Ctx
from referee.source.diagnostics import did_you_mean
from referee.source.mapkinds import Canvas
from referee.source.mappicture import Cell
from referee.source.model import AnchorFit, ArtFile, MapArt, Origin, PictureFit, TerrainType
from referee.source.tomlpos import TomlText

if TYPE_CHECKING:
    from PIL import Image

HEX_BOARD_KEYS = ("image", "legend", "max_residual")
ANCHOR_KEYS = ("hex", "x", "y")
MIN_ANCHORS = 3
MAX_ANCHORS = 100
DEFAULT_MAX_RESIDUAL = 0.25
MIN_PRINT_DPI = 150.0
COLOR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")
CLEARLY = 48.0  # RGB distance by which another terrain's colour must be nearer to warn
MAX_COLOUR_WARNINGS = 12


@dataclass(slots=True)
class ArtCtx:
    """The map file being read and where its ``[board]`` is."""

    ctx: Ctx
    file: str
    tt: TomlText

    @property
    def board_line(self) -> int | None:
        return self.tt.table_start("board")

    def key_line(self, key: str) -> int | None:
        return self.tt.key_line(key, start=self.board_line)

    def error(self, line: int | None, msg: str, hint: str | None = None) -> None:
        self.ctx.diags.error(self.file, line, msg, col=1 if line else None, hint=hint)

    def warning(self, line: int | None, msg: str, hint: str | None = None) -> None:
        self.ctx.diags.warning(self.file, line, msg, col=1 if line else None, hint=hint)


def _picture(ac: ArtCtx, board: dict[str, Any]) -> tuple[ArtFile, Image.Image] | None:
    line = ac.key_line("image")
    try:
        return read_picture(ac.ctx.root, board.get("image"))
    except ArtProblem as exc:
        ac.error(line, f"[board] image: {exc.message}", exc.hint)
        return None


def _anchor_tables(ac: ArtCtx, grid_table: dict[str, Any]) -> list[tuple[str, float, float, int]]:
    raw = grid_table.get("anchor", [])
    starts = ac.tt.block_starts("grid.anchor")
    if not isinstance(raw, list) or not all(isinstance(a, dict) for a in raw):
        ac.error(ac.tt.table_start("grid"), "grid.anchor must be [[grid.anchor]] tables")
        return []
    if len(raw) > MAX_ANCHORS:
        ac.error(starts[0] if starts else None, f"more than {MAX_ANCHORS} [[grid.anchor]]")
        return []
    out = []
    for i, a in enumerate(raw):
        line = starts[i] if i < len(starts) else None
        for k in a:
            if k not in ANCHOR_KEYS:
                ac.error(
                    ac.tt.key_line(k, start=line),
                    f"unknown key {k!r} in [[grid.anchor]]",
                    did_you_mean(k, ANCHOR_KEYS) or "keys: hex, x, y",
                )
        h, x, y = a.get("hex"), a.get("x"), a.get("y")
        if not isinstance(h, str):
            ac.error(line, f'[[grid.anchor]] hex must be a quoted hex id like "1423", got {h!r}')
            continue
        if not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in (x, y)
        ):
            ac.error(
                line,
                f"[[grid.anchor]] {h}: x and y must be numbers (the pixel of the hex centre "
                f"on the picture), got {x!r}, {y!r}",
            )
            continue
        out.append((h, float(x), float(y), line or 0))  # type: ignore[arg-type]
    return out


def _solve(
    grid: HexGrid, anchors: list[tuple[str, float, float, int]]
) -> tuple[PictureFit, list[float]]:
    unit = grid.scaled(1.0)
    src = [(x, y) for _, x, y, _ in anchors]
    dst = [unit.centre(h) for h, _, _, _ in anchors]
    (m11, _m12, m21, _m22), (tu, tv) = fit_similarity(src, dst, [1.0] * len(anchors))
    fit = PictureFit(m11, m21, tu, tv)
    res = []
    for (hx, hy), (x, y) in zip(dst, src, strict=True):
        u, v = fit.page_of(x, y)
        res.append(math.hypot(u - hx, v - hy))
    return fit, res


def _odd_one_out(
    grid: HexGrid, anchors: list[tuple[str, float, float, int]], tol: float
) -> tuple[int, PictureFit] | None:
    """The one anchor whose removal makes every other agree within ``tol`` (``None`` if no
    single anchor does, or fewer than four anchors make it impossible to tell)."""
    if len(anchors) < MIN_ANCHORS + 1:
        return None
    found = []
    for i in range(len(anchors)):
        rest = anchors[:i] + anchors[i + 1 :]
        try:
            fit, res = _solve(grid, rest)
        except FitError:
            continue
        if max(res) <= tol:
            found.append((i, fit))
    return found[0] if len(found) == 1 else None


def _fit_anchors(
    ac: ArtCtx,
    grid: HexGrid,
    anchors: list[tuple[str, float, float, int]],
    tol: float,
    pic: ArtFile,
) -> PictureFit | None:
    bad = [a for a in anchors if not grid.is_valid_id(a[0])]
    for h, _, _, line in bad:
        ac.error(line or None, f"[[grid.anchor]] hex {h!r} is not a hex of the grid")
    off = [a for a in anchors if not (0 <= a[1] <= pic.width and 0 <= a[2] <= pic.height)]
    for h, x, y, line in off:
        ac.error(
            line or None,
            f"[[grid.anchor]] {h}: ({x:g}, {y:g}) is off the picture "
            f"({pic.width} x {pic.height} px)",
            "x runs right and y down from the picture's top-left pixel",
        )
    bad += off
    if bad:
        return None
    if len(anchors) < MIN_ANCHORS:
        ac.error(
            ac.tt.table_start("grid"),
            f"{len(anchors)} [[grid.anchor]]; a map picture needs at least {MIN_ANCHORS}",
            "two fix the grid's size, rotation and place; a third shows a wrong one",
        )
        return None
    try:
        fit, res = _solve(grid, anchors)
    except FitError as exc:
        ac.error(anchors[0][3] or None, f"[[grid.anchor]]: {exc}")
        return None
    if max(res) > tol:
        _refuse(ac, grid, anchors, res, tol)
        return None
    return PictureFit(
        fit.a,
        fit.b,
        fit.tu,
        fit.tv,
        tuple(
            AnchorFit(h, x, y, round(r, 4), line or None)
            for (h, x, y, line), r in zip(anchors, res, strict=True)
        ),
    )


def _refuse(
    ac: ArtCtx,
    grid: HexGrid,
    anchors: list[tuple[str, float, float, int]],
    res: list[float],
    tol: float,
) -> None:
    odd = _odd_one_out(grid, anchors, tol)
    if odd is not None:
        i, fit = odd
        h, x, y, line = anchors[i]
        unit = grid.scaled(1.0)
        u, v = fit.page_of(x, y)
        there = unit.hex_at(u, v)
        cx, cy = fit.picture_of(*unit.centre(h))
        ac.error(
            line or None,
            f"anchor {h} at ({x:g}, {y:g}) disagrees with the other anchors: they put the "
            f"centre of {h} at ({cx:.0f}, {cy:.0f}), "
            f"{math.hypot(u - unit.centre(h)[0], v - unit.centre(h)[1]):.2f} hexes away",
            f"by the others, ({x:g}, {y:g}) is in hex {there or 'no hex of the map'}; check "
            "the hex id and the pixel",
        )
        return
    for (h, x, y, line), r in zip(anchors, res, strict=True):
        if r > tol:
            ac.error(
                line or None,
                f"anchor {h} at ({x:g}, {y:g}) is {r:.2f} hexes from where the fit of all "
                f"{len(anchors)} anchors puts its centre (at most {tol:g} allowed)",
                "the anchors disagree; check each hex id and pixel, or add anchors so the "
                "wrong one shows",
            )


def _tolerance(ac: ArtCtx, board: dict[str, Any]) -> float:
    v = board.get("max_residual", DEFAULT_MAX_RESIDUAL)
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0.01 <= v <= 1.0:
        ac.error(
            ac.key_line("max_residual"),
            f"[board] max_residual must be a number of hexes from 0.01 to 1, got {v!r}",
        )
        return DEFAULT_MAX_RESIDUAL
    return float(v)


def _legend(
    ac: ArtCtx, board: dict[str, Any], terrain: dict[str, TerrainType]
) -> tuple[tuple[str, str], ...]:
    raw = board.get("legend", {})
    line = ac.key_line("legend")
    if not isinstance(raw, dict):
        ac.error(line, '[board] legend must be a table like { sea = "#9CC3E6" }')
        return ()
    out = []
    for tid, color in sorted(raw.items()):
        if tid not in terrain:
            ac.error(
                line,
                f"[board] legend: unknown terrain {tid!r}",
                did_you_mean(tid, list(terrain)) or "keys are terrain ids of the terrain table",
            )
        elif not isinstance(color, str) or not COLOR_RE.match(color):
            ac.error(line, f'[board] legend: {tid} must be a colour like "#9CC3E6", got {color!r}')
        else:
            out.append((tid, color.upper()))
    return tuple(out)


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def sample_colour(img: Image.Image, fit: PictureFit, grid: HexGrid, hex_id: str) -> tuple:
    """The median colour of the picture round a hex centre (19 points within 0.3 hex), so a
    printed hex number or a thin line through the centre does not decide it."""
    unit = grid.scaled(1.0)
    cu, cv = unit.centre(hex_id)
    pts = [(0.0, 0.0)] + [
        (r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
        for r, n in ((0.15, 6), (0.3, 12))
        for a in (i * 360.0 / n + 15 for i in range(n))
    ]
    px = img.load()
    got = []
    for du, dv in pts:
        x, y = fit.picture_of(cu + du, cv + dv)
        xi, yi = int(x), int(y)
        if 0 <= xi < img.width and 0 <= yi < img.height:
            got.append(px[xi, yi])
    if not got:
        return ()
    return tuple(sorted(c[k] for c in got)[len(got) // 2] for k in range(3))


def _check_colours(
    ac: ArtCtx,
    img: Image.Image,
    art: MapArt,
    grid: HexGrid,
    hexes: dict[str, str],
    cells: dict[str, Cell],
    terrain: dict[str, TerrainType],
    picture_name: str,
) -> None:
    """Warn where the picture's colour is clearly another terrain's than ``map.txt`` says."""
    assert art.fit is not None
    legend = {t: _rgb(c) for t, c in art.legend}
    if len(legend) < 2:
        return
    found = []
    for hid in sorted(hexes):
        said = hexes[hid]
        if said not in legend:
            continue
        c = sample_colour(img, art.fit, grid, hid)
        if not c:
            continue
        dist = {t: math.dist(c, rgb) for t, rgb in legend.items()}
        best = min(dist, key=lambda t: (dist[t], t))
        if best != said and dist[said] - dist[best] > CLEARLY:
            found.append((hid, said, best, c))
    for hid, said, best, c in found[:MAX_COLOUR_WARNINGS]:
        cell = cells.get(hid)
        ac.ctx.diags.warning(
            picture_name,
            cell.line if cell else None,
            f"hex {hid} is {terrain[said].name} here but looks like {terrain[best].name} on "
            f"the picture {art.picture.name} (#{c[0]:02X}{c[1]:02X}{c[2]:02X} round its centre)",
            col=cell.col if cell else None,
            hint="fix the cell, the [board] legend colour, or the anchors",
        )
    if len(found) > MAX_COLOUR_WARNINGS:
        ac.warning(
            ac.key_line("legend"),
            f"{len(found) - MAX_COLOUR_WARNINGS} more hexes disagree with the picture's colours",
        )


def _check_hex_art(ac: ArtCtx, art: MapArt, grid: HexGrid) -> None:
    """Warnings that do not stop a build: low resolution, hexes off the picture."""
    assert art.fit is not None
    pic = art.picture
    dpi = art.fit.px_per_hex / grid.hex_width
    if dpi < MIN_PRINT_DPI and pic.kind != "svg":  # a vector picture has no resolution
        ac.warning(
            ac.key_line("image"),
            f"[board] image {pic.name} is {dpi:.0f} dpi at the printed hex width "
            f"{grid.hex_width:g} in (below {MIN_PRINT_DPI:.0f}): the printed map will look soft",
            "scan or export the map at 300 dpi",
        )
    unit = grid.scaled(1.0)
    off = []
    for hid in grid.all_ids():
        x, y = art.fit.picture_of(*unit.centre(hid))
        if not (0 <= x < pic.width and 0 <= y < pic.height):
            off.append(hid)
    if off:
        ac.warning(
            ac.key_line("image"),
            f"{len(off)} hex centres lie off the picture {pic.name} "
            f"({', '.join(off[:5])}{' ...' if len(off) > 5 else ''})",
            "check the anchors, or the grid's columns and rows",
        )


def load_hex_art(
    ctx: Ctx,
    file: str,
    tt: TomlText,
    data: dict[str, Any],
    grid: HexGrid,
    terrain: dict[str, TerrainType],
    hexes: dict[str, str],
    cells: dict[str, Cell],
    picture_name: str,
) -> MapArt | None:
    """``[board]`` and ``[[grid.anchor]]`` of a hex map (``hexes``: hex -> terrain id from
    ``map.txt``, ``cells`` its cells for messages)."""
    ac = ArtCtx(ctx, file, tt)
    board = data.get("board")
    grid_table = data.get("grid") if isinstance(data.get("grid"), dict) else {}
    has_anchors = "anchor" in grid_table
    if board is None:
        if has_anchors:
            ac.error(
                tt.block_starts("grid.anchor")[0] if tt.block_starts("grid.anchor") else None,
                "[[grid.anchor]] places the grid on a map picture, and there is none",
                'name the picture: [board] image = "map.png"',
            )
        return None
    if not isinstance(board, dict):
        ac.error(ac.board_line, "[board] must be a table")
        return None
    for k in board:
        if k not in HEX_BOARD_KEYS:
            ac.error(
                ac.key_line(k),
                f"unknown key {k!r} in [board] of a hex map",
                did_you_mean(k, HEX_BOARD_KEYS)
                or "on a hex map [board] takes image, legend and max_residual; the grid sets "
                "the size",
            )
    if "image" not in board:
        ac.error(ac.board_line, '[board] on a hex map needs image = "map.png"')
        return None
    tol = _tolerance(ac, board)
    legend = _legend(ac, board, terrain)
    got = _picture(ac, board)
    anchors = _anchor_tables(ac, grid_table)
    if got is None:
        return None
    fit = _fit_anchors(ac, grid, anchors, tol, got[0])
    if fit is None:
        return None
    art = MapArt(got[0], fit, legend, Origin(file, ac.key_line("image")))
    _check_hex_art(ac, art, grid)
    _check_colours(ac, got[1], art, grid, hexes, cells, terrain, picture_name)
    return art


def load_canvas_art(
    ctx: Ctx, file: str, tt: TomlText, data: dict[str, Any], canvas: Canvas
) -> MapArt | None:
    """``[board] image`` of a map without a grid: the picture spans the board, so its sides
    must be in the board's proportions (within 1 %)."""
    ac = ArtCtx(ctx, file, tt)
    board = data.get("board")
    if not isinstance(board, dict) or "image" not in board:
        return None
    got = _picture(ac, board)
    if got is None:
        return None
    pic = got[0]
    ratio = (pic.width / pic.height) / (canvas.width / canvas.height)
    if abs(ratio - 1.0) > 0.01:
        w, h = canvas.to_source((canvas.width, canvas.height))
        ac.error(
            ac.key_line("image"),
            f"[board] image {pic.name} is {pic.width} x {pic.height} px, not in the "
            f"proportions of the board ({w:g} x {h:g} {canvas.unit})",
            "the picture spans the whole board: give the board the picture's size",
        )
        return None
    dpi = pic.width / canvas.width
    if dpi < MIN_PRINT_DPI and pic.kind != "svg":
        ac.warning(
            ac.key_line("image"),
            f"[board] image {pic.name} is {dpi:.0f} dpi at the board's printed size (below "
            f"{MIN_PRINT_DPI:.0f}): the printed map will look soft",
            "scan or export the map at 300 dpi",
        )
    return MapArt(pic, None, (), Origin(file, ac.key_line("image")))
