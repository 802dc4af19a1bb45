"""Counter sheets: page geometry, duplex mirroring, the PDF itself, refused input."""

from __future__ import annotations

import dataclasses
import math
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import app
from referee.errors import UserError
from referee.render.playaids import build_sheets, write_sheets
from referee.render.sheets import (
    MARGIN_PT,
    PAPERS,
    parse_length_in,
    sheet_geometry,
    sheet_pieces,
)
from referee.source.model import Module
from tests.clirun import Runner

from .pdfread import filled_squares, image_placements, media_boxes


def test_half_inch_counters_on_letter_edge_to_edge() -> None:
    geo = sheet_geometry("letter", 0.5)
    assert geo.pitch == 36.0 and geo.counter_pt == 36.0
    # 7 in of width inside the margins and the crop-mark bands: 14 columns; 18 rows
    assert geo.columns == 14 and geo.rows == 18
    x0, y0 = geo.front_origin(0)
    x1, _y1 = geo.front_origin(1)
    xr, yr = geo.front_origin(geo.columns)
    assert x1 - x0 == pytest.approx(36.0, abs=0.1)
    assert (xr, yr - y0) == (pytest.approx(x0, abs=0.1), pytest.approx(36.0, abs=0.1))
    assert x0 == pytest.approx((612 - 14 * 36) / 2, abs=0.1)


def test_back_lands_behind_front_for_long_edge_duplex() -> None:
    geo = sheet_geometry("letter", 0.5)
    # long-edge flip maps page x to (page width - x): the back's right edge sits where the
    # front's left edge was, mirrored
    for slot in (0, 1, geo.columns - 1, geo.columns, geo.per_page - 1):
        fx, fy = geo.front_origin(slot)
        bx, by = geo.back_origin(slot)
        assert by == fy
        assert bx + geo.counter_pt == pytest.approx(geo.page_w - fx, abs=1e-9)
    # first column's back is in the last column
    assert geo.back_origin(0)[0] == pytest.approx(geo.front_origin(geo.columns - 1)[0])


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(sorted(PAPERS)),
    st.floats(min_value=0.25, max_value=3.0),
    st.sampled_from([0.0, 1 / 32, 0.0625, 0.125]),
)
def test_grid_invariants(paper: str, size: float, bleed: float) -> None:
    geo = sheet_geometry(paper, size, bleed)
    for slot in range(geo.per_page):
        for x, y in (geo.front_origin(slot), geo.back_origin(slot)):
            # the counter, bleed included, stays inside the 0.5 in margins
            assert x - geo.bleed_pt >= MARGIN_PT - 1e-6
            assert x + geo.counter_pt + geo.bleed_pt <= geo.page_w - MARGIN_PT + 1e-6
            assert y - geo.bleed_pt >= MARGIN_PT - 1e-6
            assert y + geo.counter_pt + geo.bleed_pt <= geo.page_h - MARGIN_PT + 1e-6
    # mirroring twice is the identity, and backs occupy exactly the fronts' cells
    fronts = {tuple(round(v, 6) for v in geo.front_origin(s)) for s in range(geo.per_page)}
    backs = {tuple(round(v, 6) for v in geo.back_origin(s)) for s in range(geo.per_page)}
    assert fronts == backs


def test_pdf_pages_and_image_positions(mini: Module, tmp_path: Path) -> None:
    info = write_sheets(mini, tmp_path)
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    assert info.pages == 2  # a front and its back: the mini mix has double-sided counters
    assert media_boxes(pdf) == [(0.0, 0.0, 612.0, 792.0)] * 2
    geo = sheet_geometry("letter", 0.5)
    assert image_placements(pdf) == []  # [issue 18 §7] the counters are vector drawings
    front, back = filled_squares(pdf, 36.0)  # each counter's background square
    n = len(sheet_pieces(mini))
    assert len(front) == len(back) == n
    for slot, (x, y) in enumerate(front):
        fx, fy = geo.front_origin(slot)
        assert x == pytest.approx(fx, abs=0.1)
        assert y == pytest.approx(792 - fy - 36, abs=0.1)  # PDF y grows up
    for slot, (x, _y) in enumerate(back):
        assert x == pytest.approx(geo.back_origin(slot)[0], abs=0.1)


def test_counter_mix_is_honoured(mini: Module) -> None:
    pieces = [pid for pid, _ in sheet_pieces(mini)]
    assert len(pieces) == sum(u.count for u in mini.units)
    assert "US-F4.2" in pieces and "SO-T16.2" in pieces


def test_a4_and_bleed(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path, paper="a4", bleed="0.0625in")
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    boxes = media_boxes(pdf)
    assert boxes[0][2:] == (pytest.approx(595.2756, abs=0.01), pytest.approx(841.8898, abs=0.01))
    geo = sheet_geometry("a4", 0.5, 0.0625, 300)
    x, _y = filled_squares(pdf, 36 + 2 * geo.bleed_pt)[0][0]  # background with its bleed
    assert x == pytest.approx(geo.front_origin(0)[0] - geo.bleed_pt, abs=0.1)


def test_same_inputs_same_bytes(mini: Module, tmp_path: Path) -> None:
    a, _ = build_sheets(mini, tmp_path, png=True)
    b, _ = build_sheets(mini, tmp_path, png=True)
    assert [(p.name, d) for p, d in a] == [(p.name, d) for p, d in b]
    assert any(p.suffix == ".png" for p, _ in a)


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_pdf_rasterises_with_poppler(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path)
    subprocess.run(
        ["pdftoppm", "-r", "30", "-png", str(tmp_path / "mini-counters.pdf"), str(tmp_path / "p")],
        check=True,
        capture_output=True,
    )
    assert sorted(p.name for p in tmp_path.glob("p-*.png")) == ["p-1.png", "p-2.png"]


def test_alignment_test_sheet(mini: Module, tmp_path: Path) -> None:
    info = write_sheets(mini, tmp_path, alignment_test=True)
    assert [p.name for p in info.files] == ["mini-alignment-test.pdf"]
    assert not (tmp_path / "mini-counters.pdf").exists()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"paper": "b5"}, "unknown paper"),
        ({"bleed": "lots"}, "not a length"),
        ({"bleed": "1in"}, "more than 0.25 in"),
    ],
)
def test_bad_options_write_nothing(
    mini: Module, tmp_path: Path, kwargs: dict, message: str
) -> None:
    with pytest.raises(UserError, match=message):
        write_sheets(mini, tmp_path / "out", **kwargs)
    assert not (tmp_path / "out").exists()


def test_counter_larger_than_printable_area(mini: Module, tmp_path: Path) -> None:
    big = dataclasses.replace(mini, counter=dataclasses.replace(mini.counter, size_in=7.5, dpi=72))
    with pytest.raises(UserError, match="does not fit the printable area"):
        write_sheets(big, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_parse_length() -> None:
    assert parse_length_in("0.0625in") == 0.0625
    assert parse_length_in("1.5875mm") == pytest.approx(0.0625)
    assert parse_length_in("4.5pt") == 0.0625
    assert parse_length_in(".1") == 0.1


def test_cli_sheets(tmp_path: Path) -> None:
    from .conftest import MINI

    r = Runner().invoke(app, ["sheets", str(MINI), "-o", str(tmp_path), "--quiet", "--png"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "mini-counters.pdf").is_file()
    assert (tmp_path / "mini-counters-p01.png").is_file()
    assert str(tmp_path / "mini-counters.pdf") in r.output


def test_cli_bad_paper_is_a_clean_error(tmp_path: Path) -> None:
    from .conftest import MINI

    r = Runner().invoke(app, ["sheets", str(MINI), "-o", str(tmp_path / "o"), "--paper", "x"])
    assert r.exit_code != 0
    assert isinstance(r.exception, UserError)
    assert not (tmp_path / "o").exists()


def test_sixth_fleet_sheet_has_a_legend_of_band_c_fleet_values_and_nationalities(
    sixth_fleet: Module,
) -> None:
    """The sheet explains the orange band [9.52], the C [9.11], M and B [3.25], the value
    order and the nationalities, below the counters, inside the printable area."""
    from referee.render.drawing import Text
    from referee.render.sheets import FOOTER_PT, counter_pages, face_arts

    geo = sheet_geometry("letter", sixth_fleet.counter.size_in)
    pages = counter_pages(sixth_fleet, geo, face_arts(sixth_fleet, 0))
    texts = [(it.text, it.y) for page in pages for it in page.items if isinstance(it, Text)]
    words = " ".join(t for t, _ in texts)
    assert "How to read a counter" in words
    for needle in ("[9.52]", "[9.11]", "M Mediterranean", "B Black Sea", "[3.25]"):
        assert needle in words, needle
    assert "AA-AS-ASW: Anti-Air" in words and "MA-DEF-ECM: Range Allowance" in words
    for nat in sixth_fleet.nationalities.values():
        assert f"{nat.code} {nat.name}" in words
    rows = math.ceil(len(sheet_pieces(sixth_fleet)) / geo.columns)
    top = geo.grid_y + rows * geo.pitch
    legend_y = [y for t, y in texts if t == "How to read a counter"]
    assert legend_y and legend_y[0] > top
    body = [y for t, y in texts if not t.startswith("Print at 100")]
    assert max(body) <= geo.page_h - MARGIN_PT - FOOTER_PT + 1e-6


@pytest.mark.parametrize(("args", "width"), [([], 1275), (["--dpi", "75"], 638)])
def test_png_previews_take_a_dpi(tmp_path: Path, args: list[str], width: int) -> None:
    from PIL import Image

    from .conftest import MINI

    r = Runner().invoke(app, ["sheets", str(MINI), "-o", str(tmp_path), "--quiet", "--png", *args])
    assert r.exit_code == 0, r.output
    with Image.open(tmp_path / "mini-counters-p01.png") as im:
        assert im.width == width  # letter paper, 8.5 in: 150 dpi by default
