"""Build the printable play aids and write them: the I/O edge of ``referee sheets``,
``referee charts`` and ``referee map``.

Every output is made in memory first and written only when all of it has been made, each file
atomically (temporary file, fsync, rename): a refused input leaves no file behind and a crash
never leaves half a PDF.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import UserError
from referee.safeio import write_bytes_atomic
from referee.source.model import Module

if TYPE_CHECKING:
    from referee.render.printcolor import CmykProfile

PREVIEW_DPI = 150  # `sheets --png` default: 6.8 pt counter values are 14 px high


@dataclass(slots=True)
class Written:
    kind: str
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "files": [str(p) for p in self.files],
            "pages": self.pages,
            **self.details,
        }


def _write_all(outputs: list[tuple[Path, bytes]]) -> list[Path]:
    for path, data in outputs:
        try:
            write_bytes_atomic(path, data)
        except OSError as exc:  # a full disk, a folder made read-only meanwhile: exit 2
            raise UserError(
                f"cannot write {path}: {exc.strerror or exc}", hint="name another folder with -o"
            ) from None
    return [p for p, _ in outputs]


def _out_dir(out: Path) -> Path:
    """The output folder, checked before anything is drawn and made only when the files
    are written (nothing half-written): a file on its way or a folder we may not write is
    refused with exit 2 and a hint, not as an internal error."""
    if out.exists() and not out.is_dir():
        raise UserError(f"output folder {out} is a file", hint="name a folder with -o")
    nearest = out
    while not nearest.exists() and nearest.parent != nearest:
        nearest = nearest.parent
    if not nearest.is_dir() or not os.access(nearest, os.W_OK | os.X_OK):
        why = "is a file" if nearest.exists() and not nearest.is_dir() else "is not writable"
        raise UserError(
            f"cannot make the output folder {out}: {nearest} {why}",
            hint="name a folder you can write with -o",
        )
    return out


def build_sheets(
    module: Module,
    out: Path,
    *,
    paper: str = "letter",
    bleed: str = "0",
    alignment_test: bool = False,
    png: bool = False,
    png_dpi: int = PREVIEW_DPI,
    art_dpi: int | None = None,
    cmyk: CmykProfile | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[tuple[Path, bytes]], Written]:
    """The counter-sheet PDF (and previews) as bytes, not yet written.

    Counters are vector drawings in the PDF, laid out on the module's ``counter.dpi`` grid
    exactly as the VASSAL images; ``art_dpi`` is the resolution of what stays raster (a
    roster picture; the module's ``counter.dpi`` by default). ``png`` previews are
    rasterised from the PDF itself and ``cmyk`` writes the PDF in that output profile's
    CMYK."""
    from referee.render.aidcache import cached_pdf, cached_previews, spelled
    from referee.render.artcache import remembered_measures
    from referee.render.drawing import pdf_bytes
    from referee.render.sheets import (
        alignment_pages,
        counter_pages,
        face_arts,
        parse_length_in,
        sheet_geometry,
        sheet_pieces,
    )

    bleed_in = parse_length_in(bleed) if bleed.strip() not in ("", "0") else 0.0
    dpi = module.counter.dpi
    geo = sheet_geometry(paper, module.counter.size_in, bleed_in, dpi)
    folder = _out_dir(out)
    if alignment_test:
        pages = alignment_pages(module, geo)
        name = f"{module.id}-alignment-test"
        title = f"{module.name}: printer alignment test"
    else:
        bleed_px = round(bleed_in * dpi)
        with remembered_measures():  # the legend's sample counters measure their texts too
            faces = face_arts(module, bleed_px, art_dpi or dpi)
            pages = counter_pages(module, geo, faces, progress=progress, picture_dpi=art_dpi or dpi)
        name = f"{module.id}-counters"
        title = f"{module.name} {module.version}: counter sheets"
    pdf, _ = cached_pdf(
        ("sheets-pdf", title, _colour_key(cmyk), [spelled(p) for p in pages]),
        lambda: (pdf_bytes(pages, title=title, subject="counter sheet", cmyk=cmyk), len(pages)),
    )
    outputs = [(folder / f"{name}.pdf", pdf)]
    if png:
        for i, preview in enumerate(cached_previews(pdf, len(pages), png_dpi), 1):
            outputs.append((folder / f"{name}-p{i:02d}.png", preview))
    info = Written(
        "sheets",
        pages=len(pages),
        details={
            "paper": geo.paper,
            "counters": 0 if alignment_test else len(sheet_pieces(module)),
            "columns": geo.columns,
            "rows": geo.rows,
            "pitch_pt": round(geo.pitch, 4),
            "bleed_in": round(geo.bleed_pt / 72.0, 5),
            "art_dpi": art_dpi or dpi,
            "colour": _colour_name(cmyk),
        },
    )
    return outputs, info


def _colour_key(cmyk: CmykProfile | None) -> object:
    import hashlib

    return None if cmyk is None else ("cmyk", hashlib.sha256(cmyk.data).hexdigest())


def _colour_name(cmyk: CmykProfile | None) -> str:
    return "RGB" if cmyk is None else f"CMYK ({cmyk.name})"


def write_sheets(module: Module, out: Path, **kwargs: Any) -> Written:
    outputs, info = build_sheets(module, out, **kwargs)
    info.files = _write_all(outputs)
    return info


def build_charts(
    module: Module,
    out: Path,
    *,
    paper: str = "letter",
    dpi: int = 150,
    png: bool = False,
    cmyk: CmykProfile | None = None,
) -> tuple[list[tuple[Path, bytes]], Written]:
    """The charts PDF and one PNG per chart (the pictures the VASSAL module shows, drawn by
    Pillow from the same vector drawings), as bytes, not yet written; with ``png`` also a
    preview of each PDF page rasterised from the PDF itself; with ``cmyk`` the PDF is in
    that output profile's CMYK."""
    from referee.render.aidcache import cached_pdf, cached_png, cached_previews
    from referee.render.charts import build_charts as make
    from referee.render.charts import charts_pdf, print_charts
    from referee.render.counters import png_bytes
    from referee.render.drawing import to_image

    folder = _out_dir(out)
    charts = make(module)
    printed = print_charts(module, paper)  # long tables over several pages
    pdf, pages = cached_pdf(
        (
            "charts-pdf",
            paper,
            module.name,
            module.version,
            _colour_key(cmyk),
            [c.drawing for c in printed],
        ),
        lambda: charts_pdf(module, printed, paper, cmyk=cmyk),
    )
    outputs = [(folder / f"{module.id}-charts.pdf", pdf)]
    for ch in charts:
        picture = cached_png(
            ("chart-png", dpi, ch.drawing), lambda d=ch.drawing: png_bytes(to_image(d, dpi))
        )
        outputs.append((folder / f"{module.id}-chart-{ch.name}.png", picture))
    if png:
        for i, preview in enumerate(cached_previews(pdf, pages, dpi), 1):
            outputs.append((folder / f"{module.id}-charts-p{i:02d}.png", preview))
    info = Written(
        "charts",
        pages=pages,
        details={
            "paper": paper,
            "charts": [c.name for c in charts],
            "colour": _colour_name(cmyk),
        },
    )
    return outputs, info


def write_charts(module: Module, out: Path, **kwargs: Any) -> Written:
    outputs, info = build_charts(module, out, **kwargs)
    info.files = _write_all(outputs)
    return info


def build_map(
    module: Module,
    out: Path,
    *,
    paper: str = "letter",
    overlap: str = "0.5in",
    art_dpi: int | None = None,
    png: bool = False,
    png_dpi: int = PREVIEW_DPI,
) -> tuple[list[tuple[Path, bytes]], Written]:
    """The printed map (``<id>-map.pdf``: the board at its declared size, tiled with overlap
    strips, cut lines and registration crosses; :mod:`referee.render.mapprint`) and, with
    ``png``, a preview of each page, as bytes, not yet written."""
    import io

    from PIL import Image

    from referee.render.aidcache import cached_pdf, cached_previews, spelled
    from referee.render.board import board_layout
    from referee.render.drawing import pdf_bytes
    from referee.render.mapprint import map_pages, parse_overlap_in
    from referee.render.sheets import paper_size

    paper_size(paper)
    overlap_in = parse_overlap_in(overlap)
    if art_dpi is None:  # a map picture prints at its own resolution (within 100..300)
        from referee.render.map_art import picture_dpi

        art_dpi = picture_dpi(module)
    if not 100 <= art_dpi <= 300:
        raise UserError(
            f"map art dpi {art_dpi} is out of range", hint="use 100..300 (150 is usual)"
        )
    folder = _out_dir(out)
    lay = board_layout(module, art_dpi)
    image = Image.open(io.BytesIO(_board_png(module, art_dpi)))
    image.load()
    from referee.render.map_art import vector_map

    vector = vector_map(module, lay)  # an SVG map picture prints as vectors
    geo, pages = map_pages(
        module, image.convert("RGB"), 72.0 / lay.scale, paper, overlap_in, vector
    )
    name = f"{module.id}-map"
    title = f"{module.name} {module.version}: printed map"
    pdf, _ = cached_pdf(
        ("map-pdf", title, [spelled(p) for p in pages]),
        lambda: (pdf_bytes(pages, title=title, subject="map", duplex="Simplex"), len(pages)),
    )
    outputs = [(folder / f"{name}.pdf", pdf)]
    if png:
        # previews rasterised from the PDF itself, so a preview is exactly what prints [#18 §7]
        for i, preview in enumerate(cached_previews(pdf, len(pages), png_dpi), 1):
            outputs.append((folder / f"{name}-p{i:02d}.png", preview))
    first = 1 if len(pages) > 1 else 0
    tiles = []
    for n, t in enumerate(geo.tiles(), first + 1):
        x, y = geo.map_point_in(t.x0, t.y0)
        w, h = geo.map_point_in(t.x1 - t.x0, t.y1 - t.y0)
        tiles.append(
            {
                "page": n,
                "tile": t.label,
                "row": t.row + 1,
                "column": t.col + 1,
                "map_box_in": [round(v, 4) for v in (x, y, w, h)],
            }
        )
    mw, mh = geo.map_point_in(geo.image_w, geo.image_h)
    info = Written(
        "map",
        pages=len(pages),
        details={
            "paper": geo.paper,
            "orientation": geo.orientation,
            "rows": geo.rows,
            "columns": geo.columns,
            "assembly_page": bool(first),
            "overlap_in": round(geo.overlap * geo.pt_per_px / 72.0, 4),
            "art_dpi": art_dpi,
            "map_size_in": [round(mw, 4), round(mh, 4)],
            "map_kind": module.map.kind,
            "tiles": tiles,
        },
    )
    return outputs, info


def _board_png(module: Module, dpi: int) -> bytes:
    """The board picture at ``dpi``, from the cache under the key the VASSAL build uses
    (:func:`referee.render.artcache.board_key`) when the cache is on."""
    from referee.cache import active, valid_png
    from referee.render.artcache import BOARD_READS, NotDeclared, board_key, narrowed
    from referee.render.board import board_png

    def draw() -> bytes:
        try:
            return board_png(narrowed(module, BOARD_READS), dpi)
        except NotDeclared:
            return board_png(module, dpi)

    cache = active()
    if not cache.enabled:
        return draw()
    return cache.fetch("png", board_key(module, dpi), draw, valid_png)


def write_map(module: Module, out: Path, **kwargs: Any) -> Written:
    outputs, info = build_map(module, out, **kwargs)
    info.files = _write_all(outputs)
    return info
