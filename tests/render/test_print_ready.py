"""Printing right by default [issue 18 §6]: viewer preferences, trim and bleed boxes, and font
subset names that differ between our two PDFs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.render.drawing import subset_prefix
from referee.render.playaids import write_charts, write_sheets
from referee.render.sheets import sheet_geometry
from referee.source.model import Module


def _boxes(pdf: bytes, name: str) -> list[tuple[float, ...]]:
    found = re.findall(rb"/" + name.encode() + rb" \[\s*([-\d. ]+?)\s*\]", pdf)
    return [tuple(float(v) for v in f.split()) for f in found]


def _base_fonts(pdf: bytes) -> set[str]:
    return {m.decode() for m in re.findall(rb"/BaseFont /([A-Z]{6}\+[\w-]+)", pdf)}


def test_viewer_preferences_ask_for_actual_size_and_long_edge_duplex(
    mini: Module, tmp_path: Path
) -> None:
    write_sheets(mini, tmp_path)
    write_charts(mini, tmp_path)
    for name in ("mini-counters.pdf", "mini-charts.pdf"):
        pdf = (tmp_path / name).read_bytes()
        ref = re.search(rb"/ViewerPreferences (\d+) 0 R", pdf)
        assert ref, name
        obj = re.search(ref.group(1) + rb" 0 obj\s*<<(.*?)>>", pdf, re.S)
        assert obj is not None
        assert b"/PrintScaling /None" in obj.group(1)
        assert b"/Duplex /DuplexFlipLongEdge" in obj.group(1)


def test_trim_and_bleed_boxes_follow_the_bleed(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path, bleed="0.0625in")
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    geo = sheet_geometry("letter", 0.5, 0.0625, 300)
    trims, bleeds = _boxes(pdf, "TrimBox"), _boxes(pdf, "BleedBox")
    media = _boxes(pdf, "MediaBox")
    assert len(trims) == len(bleeds) == len(media) == 2
    for t, b, m in zip(trims, bleeds, media, strict=True):
        # bleed = trim grown by the bleed on every side, all inside the paper
        assert [b[0], b[1]] == pytest.approx([t[0] - geo.bleed_pt, t[1] - geo.bleed_pt], abs=1e-3)
        assert [b[2], b[3]] == pytest.approx([t[2] + geo.bleed_pt, t[3] + geo.bleed_pt], abs=1e-3)
        assert m[0] <= b[0] < t[0] and t[2] < b[2] <= m[2]
        # the trim box's left edge is the first cut line
        assert t[0] == pytest.approx(geo.front_origin(0)[0], abs=1e-3)
        assert t[3] == pytest.approx(m[3] - geo.front_origin(0)[1], abs=1e-3)


def test_without_bleed_the_boxes_coincide(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path)
    write_charts(mini, tmp_path)
    sheet = (tmp_path / "mini-counters.pdf").read_bytes()
    assert _boxes(sheet, "TrimBox") == _boxes(sheet, "BleedBox")
    charts = (tmp_path / "mini-charts.pdf").read_bytes()
    assert _boxes(charts, "TrimBox") == _boxes(charts, "MediaBox") == _boxes(charts, "BleedBox")


def test_the_two_pdfs_name_their_font_subsets_apart(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path)
    write_charts(mini, tmp_path)
    sheet = _base_fonts((tmp_path / "mini-counters.pdf").read_bytes())
    charts = _base_fonts((tmp_path / "mini-charts.pdf").read_bytes())
    assert sheet and charts
    assert not sheet & charts
    assert not any(f.startswith("AAAAAA+") for f in sheet | charts)


def test_subset_prefix_is_six_letters_distinct_within_a_document() -> None:
    tags = [subset_prefix("doc", n) for n in range(50)]
    assert len(set(tags)) == 50
    assert all(re.fullmatch(rb"[A-Z]{6}", t) for t in tags)
    assert subset_prefix("doc", 0) == subset_prefix("doc", 0) != subset_prefix("other", 0)


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler-utils not installed")
def test_poppler_reads_the_boxes(mini: Module, tmp_path: Path) -> None:
    write_sheets(mini, tmp_path, bleed="1.5mm")
    out = subprocess.run(
        ["pdfinfo", "-box", "-f", "1", "-l", "1", str(tmp_path / "mini-counters.pdf")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    box = {
        m.group(1): [float(v) for v in m.group(2).split()]
        for m in re.finditer(r"Page\s+1 (\w+Box):\s+([-\d. ]+)", out)
    }
    bleed = sheet_geometry("letter", 0.5, 1.5 / 25.4, 300).bleed_pt
    assert box["BleedBox"][0] == pytest.approx(box["TrimBox"][0] - bleed, abs=0.01)
    assert box["MediaBox"] == [0.0, 0.0, 612.0, 792.0]


def test_art_dpi_sets_the_resolution_of_raster_art_only(mini_copy: Path, tmp_path: Path) -> None:
    """[issue 18 §7] the counters are vector; `sheets --art-dpi` is the resolution of what is
    genuinely raster, a roster picture: twice the pixels in the same place at 600 dpi as at
    the module's 300, deterministically, on an unchanged sheet geometry; the vector faces
    stay laid out on the module's grid, as the VASSAL images."""
    from PIL import Image

    from referee.source.loader import load_module

    units = mini_copy / "units.csv"
    lines = units.read_text().splitlines()
    lines[0] += ",image"
    lines[1:] = [ln + (",pic.png" if i == 0 else ",") for i, ln in enumerate(lines[1:])]
    units.write_text("\n".join(lines) + "\n")
    Image.new("RGB", (400, 200), (0, 200, 0)).save(mini_copy / "pic.png")
    module, _ = load_module(mini_copy)
    assert module is not None
    base = write_sheets(module, tmp_path / "base")
    sharp = write_sheets(module, tmp_path / "sharp", art_dpi=600)
    assert sharp.details["art_dpi"] == 600 and base.details["art_dpi"] == module.counter.dpi

    def widths(folder: str) -> set[int]:
        pdf = (tmp_path / folder / "mini-counters.pdf").read_bytes()
        return {int(w) for w in re.findall(rb"/Width (\d+)", pdf)}

    assert len(widths("base")) == 1 and len(widths("sharp")) == 1
    (w300,), (w600,) = widths("base"), widths("sharp")
    assert w300 > 50 and w600 == 2 * w300
    assert base.details["pitch_pt"] == sharp.details["pitch_pt"]
    again = write_sheets(module, tmp_path / "again", art_dpi=600)
    assert again.details == sharp.details
    assert (tmp_path / "again/mini-counters.pdf").read_bytes() == (
        tmp_path / "sharp/mini-counters.pdf"
    ).read_bytes()


def test_bleed_carries_edge_bands_into_the_bleed(sixth_fleet: Module) -> None:
    """[issue 18 §8] real bleed art: the daylight band along the top edge of an air counter
    [9.52] runs into the bleed, and the counter itself is unchanged pixel for pixel."""
    from PIL import ImageChops

    from referee.render.colors import parse_color
    from referee.render.counters import render_counter, render_counter_bleed

    unit = next(u for u in sixth_fleet.units if u.has("daylight"))
    plain = render_counter(sixth_fleet, unit)
    b = 19
    bled = render_counter_bleed(sixth_fleet, unit, bleed_px=b)
    band = parse_color("#D35400")
    mid = bled.width // 2
    assert bled.getpixel((mid, 0)) == band  # top of the bleed
    assert bled.getpixel((0, b + 1)) == band  # left bleed beside the band
    assert bled.getpixel((mid, bled.height - 1)) != band  # the band is on the top only
    inner = bled.crop((b, b, b + plain.width, b + plain.height))
    assert ImageChops.difference(inner, plain).getbbox() is None
