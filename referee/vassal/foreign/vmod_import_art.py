"""``import-vmod`` keeps the art (issue 29 §4): the module's board pictures and piece images
written as a ruleset source takes them.

Pure, like :mod:`referee.vassal.foreign.vmod_import`, which calls :func:`import_art` once it has
copied every image (boards to ``boards/``, the rest to ``images/``). Two kinds of file go
under ``art/`` of the new source, each ready to be pasted into a source that names a ruleset:

* ``art/<map>-<board>.toml`` for every board whose grid is a VASSAL ``HexGrid`` (on its own or
  as a ``ZonedGrid``'s background): ``[board] image`` naming the board picture and four
  ``[[grid.anchor]]`` tables, the centres of the grid's corner hexes as VASSAL puts them
  (``HexGrid.hexPointCenterFromRawIndex``: ``x0 + nx * dx``, ``y0 + ny * dy``, half a hex down
  on odd columns, axes swapped when ``sideways``) under the ids VASSAL's numbering gives them
  (:meth:`HexGridSpec.location_name`). When VASSAL's ids are four digits, the ``[grid]``
  settings (orientation, shifted, rows_grow, id_format, first column and row) under which the
  anchors' fit (:func:`referee.similarity_fit.fit_similarity`, the solver ``check`` fits them
  with) puts *every* hex of the board on VASSAL's centre are found by trying each, and written
  with the worst distance in hexes; otherwise the anchors carry VASSAL's ids and the report
  says what the designer must change.
* ``art/roster.csv``: ``id, name, front_image, back_image`` for every roster row with a
  picture: the BasicPiece image as the front and, for a piece with a two-level Layer (a
  flip, its own or from its prototypes), the second level's image as the back; the ids are
  the roster's own (``units.csv``).

What cannot be carried (a grid of another kind, non-regular hexes beyond 0.1 hex) is a
report item. See docs/vassal.md, "import-vmod".
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from lxml import etree

from referee.hexgrid import HexGrid, IdFormat, Orientation
from referee.similarity_fit import FitError, fit_similarity
from referee.vassal.codec.pieces import Embellishment, Piece, expand_prototypes
from referee.vassal.foreign.grids_read import HexGridSpec, read_grid
from referee.vassal.foreign.locations import ModuleLocations
from referee.vassal.foreign.vmod import VmodContents

__all__ = ["ArtGrid", "BoardHexes", "board_hexes", "fit_art_grid", "import_art", "piece_faces"]

BOARD = "VASSAL.build.module.map.boardPicker.Board"
MAP_TAGS = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap")
HEX_GRID = "VASSAL.build.module.map.boardPicker.board.HexGrid"
ZONED_GRID = "VASSAL.build.module.map.boardPicker.board.ZonedGrid"
TOLERANCE = 0.1  # hexes: how far a fitted centre may be from VASSAL's
MAX_HEXES = 40_000  # a board with more hex centres is not fitted (bounded cost)

Note = Callable[[str, str], None]
Centre = tuple[str, float, float]


@dataclass(frozen=True, slots=True)
class BoardHexes:
    """Every hex centre of a VASSAL hex grid that lies on its board, VASSAL's id with each,
    and the four corner hexes chosen as anchors."""

    centres: tuple[Centre, ...]
    anchors: tuple[Centre, ...]
    sideways: bool
    hex_px: float  # VASSAL's dy: the hex's width across its sides, in pixels


@dataclass(frozen=True, slots=True)
class ArtGrid:
    """A referee ``[grid]`` under which the anchors put every hex on VASSAL's centre."""

    grid: HexGrid
    worst: float  # hexes: the largest distance of a fitted centre from VASSAL's


def _vassal_centre(spec: HexGridSpec, nx: int, ny: int) -> tuple[float, float]:
    u = spec.dx * nx + spec.x0
    v = spec.dy * ny + (spec.dy / 2 if nx % 2 else 0.0) + spec.y0
    return (v, u) if spec.sideways else (u, v)


def board_hexes(spec: HexGridSpec, size: tuple[int, int]) -> BoardHexes | None:
    """The hexes whose VASSAL centre lies on a board of ``size`` pixels; ``None`` when there
    are none, too many, or the grid names none of them."""
    w, h = size
    along_u, along_v = (h, w) if spec.sideways else (w, h)
    if spec.dx <= 0 or spec.dy <= 0:
        return None
    nx_range = range(math.ceil(-spec.x0 / spec.dx), math.floor((along_u - spec.x0) / spec.dx) + 1)
    ny_lo = math.ceil((-spec.y0 - spec.dy / 2) / spec.dy)
    ny_range = range(ny_lo, math.floor((along_v - spec.y0) / spec.dy) + 1)
    if len(nx_range) * len(ny_range) > MAX_HEXES:
        return None
    centres: list[Centre] = []
    for nx, ny in itertools.product(nx_range, ny_range):
        x, y = _vassal_centre(spec, nx, ny)
        if not (0 <= x < w and 0 <= y < h):
            continue
        name = spec.location_name(int(x), int(y), size, {})
        if name:
            centres.append((name, x, y))
    if len(centres) < 3:
        return None
    corners = {
        min(centres, key=lambda c: c[1] + c[2]),
        max(centres, key=lambda c: c[1] + c[2]),
        min(centres, key=lambda c: c[1] - c[2]),
        max(centres, key=lambda c: c[1] - c[2]),
    }
    anchors = tuple(sorted(corners))
    return BoardHexes(tuple(centres), anchors, spec.sideways, spec.dy)


def _candidates(ids: list[str], orientation: Orientation) -> Iterable[HexGrid]:
    """Every referee grid whose ids cover ``ids`` exactly in one of the two id formats."""
    if not all(len(i) == 4 and i.isascii() and i.isdigit() for i in ids):
        return
    formats: tuple[IdFormat, ...] = ("CCRR", "RRCC")
    for fmt in formats:
        pairs = [
            (int(i[:2]), int(i[2:])) if fmt == "CCRR" else (int(i[2:]), int(i[:2])) for i in ids
        ]
        cols = [p[0] for p in pairs]
        rows = [p[1] for p in pairs]
        first_c, first_r = min(cols), min(rows)
        for shifted, grow in itertools.product(("odd", "even"), ("south", "north")):
            yield HexGrid(
                columns=max(cols) - first_c + 1,
                rows=max(rows) - first_r + 1,
                orientation=orientation,
                shifted=shifted,  # type: ignore[arg-type]
                rows_grow=grow,  # type: ignore[arg-type]
                id_format=fmt,
                first_column=first_c,
                first_row=first_r,
            )


def _worst(grid: HexGrid, hexes: BoardHexes) -> float | None:
    """The largest distance, in hexes, between VASSAL's centre of a hex and where the fit of
    the anchors puts it under ``grid``; ``None`` when an id is not on ``grid``."""
    try:
        src = [grid.centre(h) for h, _, _ in hexes.anchors]
        (m11, m12, m21, m22), (tu, tv) = fit_similarity(
            src, [(x, y) for _, x, y in hexes.anchors], [1.0] * len(src)
        )
        scale = math.hypot(m11, m21) * grid.hex_width
        worst = 0.0
        for h, x, y in hexes.centres:
            gx, gy = grid.centre(h)
            u, v = m11 * gx + m12 * gy + tu, m21 * gx + m22 * gy + tv
            worst = max(worst, math.hypot(u - x, v - y) / scale)
    except (ValueError, FitError):
        return None
    return worst


def fit_art_grid(hexes: BoardHexes) -> ArtGrid | None:
    """The referee grid (of those whose ids match VASSAL's) that puts every hex nearest to
    VASSAL's centre, with that distance; ``None`` when VASSAL's ids are not four digits or
    no grid holds them all."""
    orientation: Orientation = "pointy" if hexes.sideways else "flat"
    best: ArtGrid | None = None
    for grid in _candidates([c[0] for c in hexes.centres], orientation):
        worst = _worst(grid, hexes)
        if worst is not None and (best is None or worst < best.worst):
            best = ArtGrid(grid, worst)
    return best


def _toml(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's), as the importer writes strings."""
    return json.dumps(value, ensure_ascii=True)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _board_toml(title: str, image: str, hexes: BoardHexes, art: ArtGrid | None) -> str:
    lines = [
        f"# The board {title} of the VASSAL module as a map picture with its hex grid, for",
        '# the map.toml of a source that names a ruleset (docs/module-source.md, "A map',
        "# picture under the map\"). The anchors are the centres of VASSAL's corner hexes.",
    ]
    if art is not None:
        g = art.grid
        lines += [
            f"# Under this [grid] every hex of the board is within {art.worst:.3f} hex of",
            "# VASSAL's centre; the ruleset may need another hex_width_in (the printed size).",
            "[grid]",
            f"columns = {g.columns}",
            f"rows = {g.rows}",
            f"orientation = {_toml(g.orientation)}",
            f"shifted = {_toml(g.shifted)}",
            f"rows_grow = {_toml(g.rows_grow)}",
            f"id_format = {_toml(g.id_format)}",
            f"first_column = {g.first_column}",
            f"first_row = {g.first_row}",
            f"hex_width_in = {round(hexes.hex_px / 100, 3)}",
            "",
        ]
    else:
        lines += [
            "# VASSAL's hex ids here are not four digits (or no referee grid holds them):",
            "# rename each anchor's hex to the ruleset's id of the same hex.",
        ]
    lines += ["[board]", f"image = {_toml(image)}", ""]
    for h, x, y in hexes.anchors:
        lines += [
            "[[grid.anchor]]",
            f"hex = {_toml(h)}",
            f"x = {round(x)}",
            f"y = {round(y)}",
            "",
        ]
    return "\n".join(lines)


def _free(stem: str, out: Mapping[str, bytes]) -> str:
    """``stem.toml``, or ``stem-2.toml``... when two boards' names give the same file."""
    path, n = f"{stem}.toml", 2
    while path in out:
        path, n = f"{stem}-{n}.toml", n + 1
    return path


def _hex_spec(board: etree._Element, source: str) -> HexGridSpec | None:
    for child in board:
        if child.tag == HEX_GRID:
            spec = read_grid(child, source)
            return spec if isinstance(spec, HexGridSpec) else None
        if child.tag == ZONED_GRID:
            inner = child.find(HEX_GRID)  # the background grid, where no zone is
            if inner is not None:
                spec = read_grid(inner, source)
                return spec if isinstance(spec, HexGridSpec) else None
    return None


def _boards(
    vmod: VmodContents, locations: ModuleLocations, source: str, out: dict[str, bytes], note: Note
) -> int:
    """One ``art/<map>-<board>.toml`` per hex board with a picture; returns how many."""
    written = 0
    for m in vmod.buildfile.iter(*MAP_TAGS):
        map_name = m.get("mapName", "")
        spec_map = locations.maps.get(map_name)
        for b in m.iter(BOARD):
            name, image = b.get("name", ""), b.get("image", "")
            spec = _hex_spec(b, source)
            where = f"map {map_name!r} board {name!r}"
            board = spec_map.boards.get(name) if spec_map is not None else None
            if spec is None or board is None:
                continue
            if not image or not board.image_found:
                note(where, "a hex board without a picture: no map picture for a ruleset source")
                continue
            hexes = board_hexes(spec, board.size)
            if hexes is None:
                note(
                    where,
                    f"no hex centres of its grid on the board picture (or over {MAX_HEXES:,}): "
                    "no anchors",
                )
                continue
            art = fit_art_grid(hexes)
            path = _free(f"art/{_slug(map_name)}-{_slug(name)}", out)
            text = _board_toml(f"{name!r} of map {map_name!r}", f"boards/{image}", hexes, art)
            out[path] = text.encode("utf-8")
            written += 1
            if b.find(ZONED_GRID) is not None:
                note(
                    where,
                    f"{path}: the anchors' ids are the zoned grid's background hex "
                    "grid's; where a zone covers a hex VASSAL names the zone instead",
                )
            if art is None:
                note(
                    where,
                    f"{path}: VASSAL's hex ids are not four digits; rename the anchors' "
                    "hexes to the ruleset's ids",
                )
            elif art.worst > TOLERANCE:
                note(
                    where,
                    f"{path}: its hexes are not regular; the fitted grid is up to "
                    f"{art.worst:.2f} hex from VASSAL's centres",
                )
    return written


def piece_faces(piece: Piece, prototypes: Mapping[str, Piece]) -> tuple[str, str]:
    """``(front, back)`` image names of a piece as VASSAL shows it: the BasicPiece image as
    the front and, where the piece (its prototypes expanded, as VASSAL expands them) has a
    Layer of exactly two levels (a flip) with a second image, that image as the back. A
    piece whose own image is empty shows its flip layer's first image as the front."""
    expanded = expand_prototypes(piece, prototypes)
    basic = expanded.basic_piece
    front = basic.image.strip() if basic is not None else ""
    for layer in expanded.find(Embellishment):
        images = [i.strip() for i in layer.image_names]
        if len(images) == 2 and images[1]:
            return (front or images[0], images[1])
    return front, ""


def _copied(image: str, files: Mapping[str, bytes]) -> str:
    """Where the importer copied an archive image: ``boards/`` for a board's, else ``images/``."""
    return f"boards/{image}" if f"boards/{image}" in files else f"images/{image}"


def _roster(vmod: VmodContents, files: Mapping[str, bytes], out: dict[str, bytes]) -> int:
    """``art/roster.csv`` from the roster ``units.csv`` and each row's definition text;
    returns how many rows have a picture."""
    from referee.vassal.foreign.vmod import decode_definition

    prototypes = {d.name: d.piece for d in vmod.definitions if d.kind == "prototype"}
    rows = csv.DictReader(io.StringIO(files["units.csv"].decode("utf-8")))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "name", "front_image", "back_image"])
    n = 0
    for row in rows:
        text = files.get(row.get("traits") or "", b"").decode("utf-8")
        piece = decode_definition(text, row["traits"]) if text.strip() else None
        if piece is None:
            continue
        front, back = piece_faces(piece, prototypes)
        if not front:
            continue
        face = [_copied(front, files), _copied(back, files) if back else ""]
        writer.writerow([row["id"], row.get("name", ""), *face])
        n += 1
    if n:
        out["art/roster.csv"] = buf.getvalue().encode("utf-8")
    return n


def import_art(
    vmod: VmodContents,
    locations: ModuleLocations,
    source: str,
    files: Mapping[str, bytes],
    note: Note,
) -> dict[str, bytes]:
    """The ``art/`` files for a module whose roster (``units.csv``, ``pieces/*.txt``) is
    already in ``files``; things that cannot be carried are reported through ``note``."""
    out: dict[str, bytes] = {}
    _boards(vmod, locations, source, out, note)
    _roster(vmod, files, out)
    return out
