"""Counter sheets cut into counters, and roster rows that name their own face pictures.

What a designer holds is a counter sheet: a picture of the front of the sheet (scanned, or
exported from a sheet-making program) and one of its back. ``module.toml`` says how to cut it::

    [[counter.sheet]]
    front = "art/sheet1-front.png"
    back = "art/sheet1-back.png"   # optional
    ids = "art/sheet1.csv"         # one line a sheet row, one roster id a cell ("" = none)
    columns = 6
    rows = 4
    counter = 150                  # a counter's side in pixels of the picture
    first = [40, 40]               # the top-left corner of the top-left counter
    gutter = [10, 10]              # pixels between counters, across and down
    print_values = false           # also print the layout's texts over the art

The back is cut as a duplex sheet prints: the sheet is turned over about its long side, so
the back of the counter in column ``c`` of a row is in column ``columns - 1 - c`` of the back
picture, at the mirrored position (the back picture must be the front's size). A roster row
may instead name its faces directly (``front_image``, ``back_image`` columns of
``units.csv``): square pictures, each one face.

Every problem is a diagnostic with ``file:line:col``: a picture that cannot be read
(:mod:`referee.source.artfiles`), a grid running off the picture, an id that is no roster
row or is cut twice. With the pixels at hand the cut is checked too (warnings): a cell whose
ring of gutter just outside the cut is not the sheet's background (the art runs over the cut
line) and a counter whose art is shifted from its cell.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from referee.source.artfiles import ArtProblem, read_picture
from referee.source.base import MODULE_FILE, Ctx
from referee.source.diagnostics import did_you_mean
from referee.source.model import ArtCut, ArtFile, CounterArt, Origin, UnitDef
from referee.source.tomlpos import TomlText

if TYPE_CHECKING:
    from PIL import Image

SHEET_KEYS = (
    "front",
    "back",
    "ids",
    "columns",
    "rows",
    "counter",
    "first",
    "gutter",
    "print_values",
    "background",
)
MAX_SHEETS = 50
MAX_CELLS = 2000
MIN_PRINT_DPI = 150.0
SQUARE = 0.02  # a face picture's sides may differ by 2 %
MISS = 60.0  # RGB distance from the background that counts as art in the gutter
SHIFT = 0.04  # of a counter's side: art off its cell by more than this is a warning
MAX_CUT_WARNINGS = 12
RING_MISSES = 3  # art pixels on one side of the ring round a cut that make it a miss


@dataclass(slots=True)
class Sheet:
    """One ``[[counter.sheet]]`` as read: geometry in pixels of the front picture."""

    line: int | None
    columns: int
    rows: int
    size: int
    first: tuple[int, int]
    gutter: tuple[int, int]
    print_values: bool
    front: tuple[ArtFile, Image.Image]
    back: tuple[ArtFile, Image.Image] | None

    def cell(self, row: int, col: int) -> tuple[int, int, int, int]:
        """The front's box of the counter in ``row``, ``col`` (0-based)."""
        x0 = self.first[0] + col * (self.size + self.gutter[0])
        y0 = self.first[1] + row * (self.size + self.gutter[1])
        return x0, y0, x0 + self.size, y0 + self.size

    def back_cell(self, row: int, col: int) -> tuple[int, int, int, int]:
        """The back's box of that counter: mirrored left to right, as a duplex sheet prints."""
        x0, y0, x1, y1 = self.cell(row, col)
        w = self.front[0].width
        return w - x1, y0, w - x0, y1


class SheetCtx:
    """The module file's positions and the diagnostics, for one sheet."""

    def __init__(self, ctx: Ctx, tt: TomlText, line: int | None) -> None:
        self.ctx, self.tt, self.line = ctx, tt, line

    def key_line(self, key: str) -> int | None:
        return self.tt.key_line(key, start=self.line) if self.line else None

    def error(self, key: str | None, msg: str, hint: str | None = None) -> None:
        line = self.key_line(key) if key else self.line
        self.ctx.diags.error(MODULE_FILE, line, msg, col=1 if line else None, hint=hint)

    def warning(self, key: str | None, msg: str, hint: str | None = None) -> None:
        line = self.key_line(key) if key else self.line
        self.ctx.diags.warning(MODULE_FILE, line, msg, col=1 if line else None, hint=hint)


def _int(sc: SheetCtx, t: dict[str, Any], key: str, lo: int, hi: int) -> int | None:
    v = t.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        sc.error(
            key, f"[[counter.sheet]] {key} must be a whole number from {lo} to {hi}, got {v!r}"
        )
        return None
    return v


def _pair(sc: SheetCtx, t: dict[str, Any], key: str, default: tuple[int, int] | None) -> Any:
    v = t.get(key, default)
    if (
        not isinstance(v, list | tuple)
        or len(v) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 100_000 for x in v)
    ):
        sc.error(key, f"[[counter.sheet]] {key} must be [x, y], two whole pixels, got {v!r}")
        return None
    return int(v[0]), int(v[1])


def _pic(sc: SheetCtx, t: dict[str, Any], key: str) -> tuple[ArtFile, Image.Image] | None:
    try:
        return read_picture(sc.ctx.root, t.get(key))
    except ArtProblem as exc:
        sc.error(key, f"[[counter.sheet]] {key}: {exc.message}", exc.hint)
        return None


def _read_sheet(sc: SheetCtx, t: dict[str, Any]) -> Sheet | None:
    for k in t:
        if k not in SHEET_KEYS:
            sc.error(
                k,
                f"unknown key {k!r} in [[counter.sheet]]",
                did_you_mean(k, SHEET_KEYS) or "keys: " + ", ".join(SHEET_KEYS),
            )
    cols, rows = _int(sc, t, "columns", 1, 100), _int(sc, t, "rows", 1, 100)
    size = _int(sc, t, "counter", 8, 4000)
    first, gutter = _pair(sc, t, "first", None), _pair(sc, t, "gutter", (0, 0))
    pv = t.get("print_values", False)
    if not isinstance(pv, bool):
        sc.error(
            "print_values", f"[[counter.sheet]] print_values must be true or false, got {pv!r}"
        )
    front = _pic(sc, t, "front")
    back = _pic(sc, t, "back") if "back" in t else None
    if None in (cols, rows, size, first, gutter, front) or ("back" in t and back is None):
        return None
    assert front is not None and cols and rows and size
    sheet = Sheet(sc.line, cols, rows, size, first, gutter, pv is True, front, back)
    return sheet if _fits(sc, sheet) else None


def _fits(sc: SheetCtx, sheet: Sheet) -> bool:
    """The grid must lie on the front picture, and the back must be the front's size."""
    pic = sheet.front[0]
    x1 = sheet.cell(0, sheet.columns - 1)[2]
    y1 = sheet.cell(sheet.rows - 1, 0)[3]
    ok = True
    if x1 > pic.width or y1 > pic.height:
        sc.error(
            None,
            f"the sheet's grid runs off the picture {pic.name}: {sheet.columns} columns and "
            f"{sheet.rows} rows of {sheet.size} px end at ({x1}, {y1}); the picture is "
            f"{pic.width} x {pic.height} px",
            "check counter, first, gutter, columns and rows",
        )
        ok = False
    if sheet.back is not None and (sheet.back[0].width, sheet.back[0].height) != (
        pic.width,
        pic.height,
    ):
        b = sheet.back[0]
        sc.error(
            "back",
            f"the back {b.name} is {b.width} x {b.height} px and the front {pic.width} x "
            f"{pic.height}: a duplex back must be the front's size",
            "scan or export both sides at the same size and resolution",
        )
        ok = False
    return ok


def _ids(sc: SheetCtx, t: dict[str, Any], sheet: Sheet) -> list[tuple[str, int, int, int, int]]:
    """``(id, row, column, csv line, csv column)`` of every filled cell of the ids grid."""
    name = t.get("ids")
    if not isinstance(name, str):
        sc.error("ids", '[[counter.sheet]] needs ids = "sheet.csv" (the roster id of each cell)')
        return []
    got = sc.ctx.read(name, what="counter sheet ids", line=sc.key_line("ids"))
    if got is None:
        return []
    out = []
    row = 0
    for lineno, raw in enumerate(got[1].split("\n"), start=1):
        if raw.strip().startswith("#") or not raw.strip():
            continue
        cells = next(csv.reader(io.StringIO(raw)))
        if row >= sheet.rows:
            sc.ctx.diags.error(
                name, lineno, f"more than {sheet.rows} rows; the sheet has {sheet.rows}", col=1
            )
            break
        if len(cells) > sheet.columns:
            sc.ctx.diags.error(
                name,
                lineno,
                f"{len(cells)} cells; the sheet has {sheet.columns} columns",
                col=1,
                hint="one cell a counter, separated by commas; leave a cell empty for none",
            )
        col_pos = 1
        for c, cell in enumerate(cells[: sheet.columns]):
            if cell.strip():
                out.append((cell.strip(), row, c, lineno, col_pos + len(cell) - len(cell.lstrip())))
            col_pos += len(cell) + 1
        row += 1
    if row < sheet.rows:
        sc.ctx.diags.error(name, None, f"{row} rows of ids; the sheet has {sheet.rows}")
    return out


def _background(sheet: Sheet, t: dict[str, Any], sc: SheetCtx) -> tuple[int, int, int]:
    """The sheet's background: ``background = "#RRGGBB"`` or the top-left pixel."""
    v = t.get("background")
    if isinstance(v, str) and len(v) == 7 and v.startswith("#"):
        try:
            return int(v[1:3], 16), int(v[3:5], 16), int(v[5:7], 16)
        except ValueError:
            pass
    if v is not None:
        sc.error("background", f'[[counter.sheet]] background must be like "#FFFFFF", got {v!r}')
    px = sheet.front[1].getpixel((0, 0))
    return px[0], px[1], px[2]  # type: ignore[index]


def _ring_misses(img: Image.Image, box: tuple[int, int, int, int], bg: tuple) -> int:
    """The most pixels on any one side of the one-pixel ring just outside ``box`` that are
    not background (a correct cut's ring lies in the gutter: none; a cut one line of art too
    far crosses that line's width)."""
    x0, y0, x1, y1 = box
    px = img.load()
    sides = (
        [(x, y0 - 1) for x in range(x0, x1)],
        [(x, y1) for x in range(x0, x1)],
        [(x0 - 1, y) for y in range(y0, y1)],
        [(x1, y) for y in range(y0, y1)],
    )
    worst = 0
    for ring in sides:
        n = sum(
            1
            for x, y in ring
            if 0 <= x < img.width and 0 <= y < img.height and math.dist(px[x, y][:3], bg) > MISS
        )
        worst = max(worst, n)
    return worst


def _art_shift(
    img: Image.Image, box: tuple[int, int, int, int], gutter: tuple[int, int], bg: tuple
) -> tuple[int, int] | None:
    """How far the centre of a cell's art (whatever is not background, inside the cell and
    its half gutters) is from the cell's centre; ``None`` for an empty cell."""
    from PIL import Image, ImageChops

    x0, y0, x1, y1 = box
    gx, gy = max(1, gutter[0] // 2), max(1, gutter[1] // 2)
    ox, oy = max(0, x0 - gx), max(0, y0 - gy)
    region = img.crop((ox, oy, min(img.width, x1 + gx), min(img.height, y1 + gy)))
    plain = Image.new("RGB", region.size, bg)
    mask = ImageChops.difference(region, plain).convert("L").point(lambda v: 255 if v > 40 else 0)
    bbox = mask.getbbox()
    if bbox is None:
        return None
    dx = (bbox[0] + bbox[2]) / 2 + ox - (x0 + x1) / 2
    dy = (bbox[1] + bbox[3]) / 2 + oy - (y0 + y1) / 2
    return round(dx), round(dy)


def _check_cut(
    sc: SheetCtx, sheet: Sheet, bg: tuple, cells: list[tuple[str, int, int, int, int]]
) -> None:
    """Warnings for cells the cut misses (see the module docstring)."""
    found: list[str] = []
    for uid, r, c, _l, _c in cells:
        for side, img, box in (("front", sheet.front[1], sheet.cell(r, c)),) + (
            (("back", sheet.back[1], sheet.back_cell(r, c)),) if sheet.back else ()
        ):
            if min(sheet.gutter) >= 2 and _ring_misses(img, box, bg) >= RING_MISSES:
                found.append(
                    f"{uid} ({side}, row {r + 1}, column {c + 1}): the art runs over the cut"
                )
                continue
            shift = _art_shift(img, box, sheet.gutter, bg) if min(sheet.gutter) >= 2 else None
            if shift and max(abs(shift[0]), abs(shift[1])) > SHIFT * sheet.size:
                found.append(
                    f"{uid} ({side}, row {r + 1}, column {c + 1}): the art sits "
                    f"{shift[0]:+d}, {shift[1]:+d} px from its cell"
                )
    for msg in found[:MAX_CUT_WARNINGS]:
        sc.warning(None, f"the cut misses {msg}", "check counter, first and gutter")
    if len(found) > MAX_CUT_WARNINGS:
        sc.warning(None, f"the cut misses {len(found) - MAX_CUT_WARNINGS} more counters")


def _sheet_arts(
    sc: SheetCtx, t: dict[str, Any], units: dict[str, UnitDef], taken: dict[str, str]
) -> dict[str, CounterArt]:
    sheet = _read_sheet(sc, t)
    if sheet is None:
        return {}
    ids_name = str(t.get("ids"))
    cells = _ids(sc, t, sheet)
    out: dict[str, CounterArt] = {}
    for uid, r, c, lineno, col in cells:
        if uid not in units:
            sc.ctx.diags.error(
                ids_name,
                lineno,
                f"{uid!r} is not a unit id of the roster",
                col=col,
                hint=did_you_mean(uid, list(units)) or "cells hold ids of units.csv",
            )
            continue
        if uid in taken:
            sc.ctx.diags.error(
                ids_name, lineno, f"unit {uid} is cut twice (first {taken[uid]})", col=col
            )
            continue
        taken[uid] = f"{ids_name}:{lineno}"
        back = ArtCut(sheet.back[0], sheet.back_cell(r, c)) if sheet.back else None
        out[uid] = CounterArt(
            ArtCut(sheet.front[0], sheet.cell(r, c)),
            back,
            sheet.print_values,
            Origin(ids_name, lineno),
        )
    _check_cut(sc, sheet, _background(sheet, t, sc), cells)
    return out


def _dpi_warning(sc: SheetCtx, sheet_px: int, size_in: float, what: str) -> None:
    dpi = sheet_px / size_in
    if dpi < MIN_PRINT_DPI:
        sc.warning(
            None,
            f"{what} is {dpi:.0f} dpi at the counter's printed size {size_in:g} in (below "
            f"{MIN_PRINT_DPI:.0f}): printed counters will look soft",
            "scan or export the sheet at 300 dpi",
        )


def load_counter_sheets(
    ctx: Ctx, data: dict[str, Any], tt: TomlText, units: tuple[UnitDef, ...], size_in: float
) -> tuple[UnitDef, ...]:
    """``units`` with the art of every ``[[counter.sheet]]`` cell and every roster row's own
    face pictures attached (see the module docstring)."""
    counter = data.get("counter")
    raw = counter.get("sheet", []) if isinstance(counter, dict) else []
    starts = tt.block_starts("counter.sheet")
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        ctx.diags.error(MODULE_FILE, tt.table_start("counter"), "use [[counter.sheet]] tables")
        return units
    if len(raw) > MAX_SHEETS:
        ctx.diags.error(
            MODULE_FILE, starts[0] if starts else None, f"more than {MAX_SHEETS} sheets"
        )
        return units
    by_id = {u.id: u for u in units}
    taken: dict[str, str] = {}
    arts: dict[str, CounterArt] = {}
    for i, t in enumerate(raw):
        sc = SheetCtx(ctx, tt, starts[i] if i < len(starts) else None)
        got = _sheet_arts(sc, t, by_id, taken)
        first = next(iter(got.values())).front if got else None
        if first is not None and first.picture.kind != "svg":  # vectors have no resolution
            _dpi_warning(sc, first.box[2] - first.box[0], size_in, "the sheet")
        arts.update(got)
    shown = _row_print_values(ctx, counter, tt)
    out = []
    for u in units:
        art = arts.get(u.id) or _row_art(ctx, u, size_in, taken, shown)
        out.append(replace(u, art=art) if art is not None else u)
    return tuple(out)


def _row_print_values(ctx: Ctx, counter: object, tt: TomlText) -> bool:
    """``[counter] print_values``: whether the layout's texts are printed over the roster
    rows' own face pictures (a sheet says it for its own counters)."""
    v = counter.get("print_values", False) if isinstance(counter, dict) else False
    if not isinstance(v, bool):
        line = tt.key_line("print_values", start=tt.table_start("counter"))
        ctx.diags.error(
            MODULE_FILE, line, f"[counter] print_values must be true/false, not {v!r}", col=1
        )
        return False
    return v


def _row_art(
    ctx: Ctx, u: UnitDef, size_in: float, taken: dict[str, str], print_values: bool
) -> CounterArt | None:
    """A roster row's own ``front_image``/``back_image`` (kept on :class:`UnitDef` by the
    roster loader in ``face_images``)."""
    names = u.face_images
    if not names:
        return None
    where = u.origin
    if u.id in taken:
        ctx.diags.error(
            where.file,
            where.line,
            f"unit {u.id} names front_image but is also cut from a sheet ({taken[u.id]})",
            col=1,
        )
        return None
    faces: list[ArtCut] = []
    for column, name in zip(("front_image", "back_image"), names, strict=False):
        if not name:
            continue
        try:
            pic, _ = read_picture(ctx.root, name)
        except ArtProblem as exc:
            ctx.diags.error(
                where.file, where.line, f"{column}: {exc.message}", col=1, hint=exc.hint
            )
            return None
        if abs(pic.width / pic.height - 1.0) > SQUARE:
            ctx.diags.error(
                where.file,
                where.line,
                f"{column} {name} is {pic.width} x {pic.height} px; a counter face is square",
                col=1,
                hint="crop it to the counter",
            )
            return None
        if pic.width / size_in < MIN_PRINT_DPI and pic.kind != "svg":
            ctx.diags.warning(
                where.file,
                where.line,
                f"{column} {name} is {pic.width / size_in:.0f} dpi at the counter's printed "
                f"size {size_in:g} in (below {MIN_PRINT_DPI:.0f})",
                col=1,
            )
        faces.append(ArtCut(pic, (0, 0, pic.width, pic.height)))
    if not names[0]:
        ctx.diags.error(where.file, where.line, "back_image without front_image", col=1)
        return None
    return CounterArt(faces[0], faces[1] if len(faces) > 1 else None, print_values, where)
