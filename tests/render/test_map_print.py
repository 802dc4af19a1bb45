"""The printed map (issue 10 §2): the board at the scale its source declares, tiled across
pages with overlap strips, cut lines, registration crosses and tile labels, for every map
kind (hex, area, point-to-point, zones and ports over hexes)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.errors import UserError
from referee.render.board import board_layout
from referee.render.drawing import Circle, Picture
from referee.render.mapprint import map_geometry, parse_overlap_in, row_letters
from referee.render.playaids import build_map, write_map
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner
from tests.render.pdfread import image_placements, media_boxes

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "modules"
RUN = Runner()


def _load(path: Path) -> Module:
    module, diags = load_module(path)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="module")
def area_med() -> Module:
    return _load(FIXTURES / "area_med")


def _tile_pages(module: Module, **kw: object):
    """The geometry and the tile pages of ``module``'s printed map (assembly page left out)."""
    from PIL import Image

    from referee.render.board import render_board
    from referee.render.mapprint import map_pages

    dpi = int(kw.get("art_dpi", 150))  # type: ignore[call-overload]
    lay = board_layout(module, dpi)
    image = render_board(module, dpi)
    assert isinstance(image, Image.Image)
    geo, pages = map_pages(module, image, 72.0 / lay.scale, str(kw.get("paper", "letter")), 0.5)
    return lay, geo, pages[1:] if len(pages) > 1 else pages


def _printed(geo, lay, point_in: tuple[float, float]):
    """Every (tile, page point) where a map point (inches, the source's own coordinates)
    prints."""
    px, py = lay.px(point_in)
    return [(t, geo.page_point(t, px, py)) for t in geo.tiles_at(px, py)]


def test_a_zone_corner_prints_at_its_declared_inches(area_med: Module) -> None:
    """area_med's Aegean Sea has a corner at [600, 200] px of a 100 dpi board, 6 x 2 in from
    the board's top-left, and another at [800, 450]. Wherever they print, and on every tile
    that shows them, they sit exactly that far from the board's corner on the assembled map
    (a tile's page point plus where its picture starts on the map)."""
    lay, geo, _ = _tile_pages(area_med)
    aegean = area_med.map.zones.zones["Aegean Sea"]  # type: ignore[union-attr]
    assert (6.0, 2.0) in [tuple(round(v, 6) for v in p) for p in aegean.outline]
    wx, wy = geo.window
    k = geo.pt_per_px

    def assembled(point: tuple[float, float]) -> tuple[float, float]:
        spots = {
            (round(t.x0 * k + x - wx, 6), round(t.y0 * k + y - wy, 6))
            for t, (x, y) in _printed(geo, lay, point)
        }
        assert len(spots) == 1, spots  # the same place on every tile showing it
        return spots.pop()

    o, c, f = assembled((0.0, 0.0)), assembled((6.0, 2.0)), assembled((8.0, 4.5))
    assert (c[0] - o[0], c[1] - o[1]) == pytest.approx((432.0, 144.0), abs=1e-6)
    assert (f[0] - c[0], f[1] - c[1]) == pytest.approx((144.0, 180.0), abs=1e-6)
    assert len(_printed(geo, lay, (6.0, 2.0))) >= 1


def test_neighbouring_hexes_print_one_hex_width_apart(mini: Module) -> None:
    """The printed distance between neighbouring hex centres is the source's hex_width_in,
    exactly, on whichever tile shows both."""
    g = mini.map.grid
    assert g is not None
    lay, geo, _ = _tile_pages(mini)
    a, b = lay.pixel_centre("0101"), lay.pixel_centre("0102")
    assert math.dist(a, b) == pytest.approx(lay.grid.hex_width)  # type: ignore[union-attr]
    for t in geo.tiles_at(*a):
        if t in geo.tiles_at(*b):
            pa, pb = geo.page_point(t, *a), geo.page_point(t, *b)
            assert math.dist(pa, pb) == pytest.approx(g.hex_width * 72, abs=1e-6)
            break
    else:
        pytest.fail("no tile shows both hexes")


def test_a_hex_lands_on_the_right_tile_at_its_physical_place_in_the_pdf(
    tmp_path: Path,
) -> None:
    """Sixth Fleet's hex 1311 (Sicily) at 100 dpi: the PDF places each tile's picture so
    that the hex's centre prints at its physical distance from the board's corner."""
    module = _load(REPO / "module_src" / "sixth_fleet")
    outputs, info = build_map(module, tmp_path, art_dpi=100)
    pdf = outputs[0][1]
    lay = board_layout(module, 100)
    geo = map_geometry("letter", lay.width, lay.height, 72.0 / lay.scale, 0.5)
    assert info.pages == geo.rows * geo.columns + 1 == len(media_boxes(pdf))
    placed = image_placements(pdf)
    assert len(placed) == info.pages  # one picture per page (the assembly page's too)
    x, y = lay.pixel_centre("1311")
    inches = (x * 72 / lay.scale / 72, y * 72 / lay.scale / 72)
    hits = geo.tiles_at(x, y)
    assert hits
    g = module.map.grid
    assert g is not None
    for t in hits:
        page = 1 + geo.tiles().index(t)  # after the assembly page
        w, h, px, py_up = placed[page][0]
        page_h = media_boxes(pdf)[page][3]
        k = w / (t.x1 - t.x0)
        assert k == pytest.approx(72.0 / lay.scale)  # the source's scale, no other
        assert h == pytest.approx((t.y1 - t.y0) * k)
        # where the centre prints, read from the PDF's own placement of the picture
        cx = px + (x - t.x0) * k
        cy = page_h - (py_up + h) + (y - t.y0) * k
        assert (cx, cy) == pytest.approx(geo.page_point(t, x, y), abs=1e-3)
        # and the tile's corner is where the JSON says on the assembled map
        entry = info.details["tiles"][page - 1]
        assert entry["tile"] == t.label and entry["page"] == page + 1
        bx, by = entry["map_box_in"][:2]
        assert (bx + (cx - px) / 72, by + (cy - (page_h - py_up - h)) / 72) == pytest.approx(
            inches, abs=1e-3
        )
    # one hex width on paper is the declared 0.85 in
    assert lay.grid.hex_width * 72.0 / lay.scale == pytest.approx(g.hex_width * 72)  # type: ignore[union-attr]


def test_registration_crosses_meet_on_both_sides_of_every_seam(area_med: Module) -> None:
    _, geo, pages = _tile_pages(area_med, paper="a4")
    assert geo.rows * geo.columns > 1
    tiles = geo.tiles()
    k = geo.pt_per_px
    wx, wy = geo.window

    def crosses(i: int) -> set[tuple[float, float]]:
        t = tiles[i]
        return {
            (round((c.x - wx) / k + t.x0, 3), round((c.y - wy) / k + t.y0, 3))
            for c in pages[i].items
            if isinstance(c, Circle) and c.stroke == "#000000"
        }

    for i, t in enumerate(tiles):
        for j, u in enumerate(tiles):
            if (u.row, u.col) in ((t.row, t.col + 1), (t.row + 1, t.col)):
                shared = crosses(i) & crosses(j)
                assert len(shared) == 2, (t.label, u.label)
                for x, y in shared:  # in the overlap strip, on its middle line
                    assert u.x0 <= x < t.x1 and u.y0 <= y < t.y1


def test_tiles_overlap_and_cover_the_whole_board(area_med: Module) -> None:
    for paper in ("letter", "a4"):
        lay, geo, pages = _tile_pages(area_med, paper=paper)
        covered = set()
        for t, page in zip(geo.tiles(), pages, strict=True):
            pic = next(i for i in page.items if isinstance(i, Picture))
            assert pic.image.size == (t.x1 - t.x0, t.y1 - t.y0)
            assert page.trim == (pic.x, pic.y, pic.w, pic.h)
            assert pic.x >= 36 and pic.x + pic.w <= page.width - 36 + 1e-6
            assert pic.y + pic.h <= page.height - 36 + 1e-6
            covered.add((t.x0, t.y0))
            if t.col:
                left = geo.tile(t.row, t.col - 1)
                assert left.x1 - t.x0 == geo.overlap
        assert geo.tile(geo.rows - 1, geo.columns - 1).x1 == lay.width
        assert geo.tile(geo.rows - 1, geo.columns - 1).y1 == lay.height
        assert geo.overlap * geo.pt_per_px == pytest.approx(36.0, abs=geo.pt_per_px)


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("sixth_fleet", "hex"),
        ("sixth_fleet_2019", "area"),
        ("carrier_battlegroup", "point"),
        ("naval_module", "hex+area+point"),
    ],
)
def test_every_bundled_map_prints(source: str, kind: str, tmp_path: Path) -> None:
    module = _load(REPO / "module_src" / source)
    info = write_map(module, tmp_path, paper="a4", art_dpi=100)
    assert info.details["map_kind"] == kind
    pdf = (tmp_path / f"{module.id}-map.pdf").read_bytes()
    assert info.pages == info.details["rows"] * info.details["columns"] + 1
    assert len(media_boxes(pdf)) == info.pages
    w, h = (
        (595.2756, 841.8898) if info.details["orientation"] == "portrait" else (841.8898, 595.2756)
    )
    for box in media_boxes(pdf):
        assert box[2:] == pytest.approx((w, h), abs=1e-3)
    assert b"/Duplex /Simplex" in pdf and b"/PrintScaling /None" in pdf
    labels = [t["tile"] for t in info.details["tiles"]]
    assert labels[0] == "A1" and len(set(labels)) == len(labels)


def test_the_map_pdf_is_byte_identical_twice(area_med: Module, tmp_path: Path) -> None:
    a, info = build_map(area_med, tmp_path, png=True)
    b, _ = build_map(area_med, tmp_path, png=True)
    assert len(a) == 1 + info.pages > 2
    assert [d for _, d in a] == [d for _, d in b]


def test_map_previews_are_the_pdf_rasterised(area_med: Module, tmp_path: Path) -> None:
    """A preview is exactly what prints: each PNG is the PDF's own page rasterised [#18 §7]."""
    from referee.render.rasterise import pdf_page_pngs

    out, info = build_map(area_med, tmp_path, png=True, png_dpi=60)
    pdf = out[0][1]
    assert [d for _, d in out[1:]] == pdf_page_pngs(pdf, 60)
    assert len(out) == 1 + info.pages


def test_overlap_and_labels() -> None:
    assert parse_overlap_in("12.7mm") == pytest.approx(0.5)
    assert parse_overlap_in("36pt") == pytest.approx(0.5)
    for bad in ("abc", "0.1in", "3in", ""):
        with pytest.raises(UserError):
            parse_overlap_in(bad)
    assert [row_letters(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def test_cli_writes_the_map_and_lists_its_pages(tmp_path: Path) -> None:
    r = RUN.invoke(
        app,
        ["map", str(FIXTURES / "point_north"), "-o", str(tmp_path), "--format", "json", "--png"],
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["kind"] == "map" and data["map_kind"] == "point"
    assert data["files"][0].endswith("point_north-map.pdf")
    assert len(data["files"]) == 1 + data["pages"]  # the PDF and one preview per page
    assert [t["page"] for t in data["tiles"]] == list(
        range(2 if data["assembly_page"] else 1, data["pages"] + 1)
    )
    for f in data["files"]:
        assert Path(f).is_file()


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--paper", "legal"], 2, "unknown paper size"),
        (["--overlap", "5in"], 2, "overlap '5in' is outside"),
        (["--overlap", "wide"], 2, "not a length"),
        (["--art-dpi", "40"], 2, "greater than or equal to 100"),
    ],
)
def test_cli_refuses_bad_options_and_writes_nothing(
    args: list[str], code: int, words: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    r = _run("map", str(FIXTURES / "mini"), "-o", str(out), *args)
    assert r.returncode == code, r.stderr
    assert words in r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists() or not any(out.iterdir())


def test_cli_on_a_broken_source_says_where(tmp_path: Path) -> None:
    src = tmp_path / "broken"
    src.mkdir()
    (src / "module.toml").write_text("[module\n", encoding="utf-8")
    r = _run("map", str(src), "-o", str(tmp_path / "o"))
    assert r.returncode == 1, r.stderr
    assert "module.toml:1:" in r.stderr
    assert not (tmp_path / "o").exists()
    missing = _run("map", str(tmp_path / "nowhere"), "-o", str(tmp_path / "o"))
    assert missing.returncode == 2, missing.stderr
    assert "Traceback" not in missing.stderr


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    """The real entry point (``python -m referee``), which turns errors into exit codes."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, check=False
    )


def test_a_map_that_fits_one_page_has_no_assembly_page_and_no_seams(mini: Module) -> None:
    from PIL import Image

    from referee.render.drawing import Text
    from referee.render.mapprint import map_pages

    image = Image.new("RGB", (400, 300), (200, 220, 240))
    geo, pages = map_pages(mini, image, 0.72, "letter", 0.5)
    assert (geo.rows, geo.columns, geo.pages, len(pages)) == (1, 1, 1, 1)
    assert not any(isinstance(i, Circle) and i.r == 5.0 for i in pages[0].items)
    words = " ".join(i.text for i in pages[0].items if isinstance(i, Text))
    assert "The whole map fits on this page." in words
    assert "tile A1" in words and "neighbours: none" in words
