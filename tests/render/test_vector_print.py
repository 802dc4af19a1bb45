"""Sharp on any printer, previews that are what prints, CMYK for a print shop [issue 18 §7-8].

The counter sheet draws counters as vector graphics from the same face model the VASSAL
images are rasterised from; `--png` previews are the PDF's own pages; `--cmyk PROFILE` writes
CMYK with the profile as the PDF's OutputIntent.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from referee.cli import app
from referee.errors import UserError
from referee.render.counters import face_art, render_counter
from referee.render.drawing import Drawing, Picture, pdf_bytes, transformed
from referee.render.playaids import build_charts, build_sheets, write_sheets
from referee.render.rasterise import pdf_page_images
from referee.source.model import Module
from tests.clirun import Runner

from .conftest import MINI
from .pdfread import image_placements, page_contents

# A CMYK output profile for the tests: Ghostscript's SWOP profile from Debian's libgs-common
# (installed by .ci/run with poppler-utils); a print shop would give its own.
CMYK_PROFILES = [
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/share/color/icc/ghostscript/ps_cmyk.icc"),
]
CMYK_PROFILE = next((p for p in CMYK_PROFILES if p.is_file()), None)
needs_profile = pytest.mark.skipif(
    CMYK_PROFILE is None and os.environ.get("CI") != "true",
    reason="no CMYK ICC profile (apt-get install libgs-common)",
)
needs_poppler = pytest.mark.skipif(
    shutil.which("pdftoppm") is None and os.environ.get("CI") != "true",
    reason="poppler-utils not installed",
)


def _counter_pdf(module: Module, unit, *, vector: bool) -> bytes:
    """One counter alone on a 0.5 in page: the vector face, or (the old way) its 300 ppi
    image."""
    art = face_art(module, unit)
    side = module.counter.size_in * 72.0
    if vector:
        page = Drawing(side, side, transformed(art.items, 0, 0, side / art.size_px))
    else:
        page = Drawing(side, side, [Picture(0, 0, side, side, render_counter(module, unit))])
    return pdf_bytes([page], title="one counter")


def test_counter_sheet_text_is_vector_text_in_embedded_fonts(mini: Module, tmp_path) -> None:
    write_sheets(mini, tmp_path)
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    assert image_placements(pdf) == []
    front = page_contents(pdf)[0]
    shown = re.findall(rb"\((.*?)\) Tj", front)
    assert b"F4" in shown and len(shown) > 3 * len(mini.units)  # every value line is text
    assert b"BT" in front and b" Tf " in front
    fonts = set(re.findall(rb"/BaseFont /[A-Z]{6}\+([\w-]+)", pdf))
    assert {b"DejaVuSans-Bold"} <= fonts
    assert b"/FontFile2" in pdf  # embedded TrueType subsets


@needs_poppler
def test_pdffonts_lists_the_embedded_subsets(mini: Module, tmp_path) -> None:
    write_sheets(mini, tmp_path)
    out = subprocess.run(
        ["pdffonts", str(tmp_path / "mini-counters.pdf")], capture_output=True, text=True
    ).stdout
    rows = [ln.split() for ln in out.splitlines()[2:] if ln.strip()]
    assert rows and all(r[-5:-3] == ["yes", "yes"] for r in rows)  # emb, sub
    assert any("DejaVuSans" in r[0] for r in rows)


def _soft_fraction(img: Image.Image) -> float:
    """Share of pixels in the value lines (the lower third of a counter) that are neither
    background nor ink: the blur at glyph edges."""
    grey = img.convert("L")
    w, h = grey.size
    crop = grey.crop((int(w * 0.08), int(h * 0.62), int(w * 0.92), int(h * 0.95)))
    px = crop.tobytes()
    lo, hi = min(px), max(px)
    span = hi - lo
    soft = sum(1 for p in px if lo + 0.15 * span < p < lo + 0.85 * span)
    return soft / len(px)


@needs_poppler
def test_counter_text_is_sharp_at_1200_dpi(sixth_fleet: Module, tmp_path: Path) -> None:
    """`pdftoppm -r 1200` of one counter: the vector face has sharp glyph edges; the old
    300 ppi image, at the same size, shows each edge as a band of grey blocks. The share of
    in-between pixels in the value lines is measured on both (vector about 0.02, image about
    0.07 on Sixth Fleet's counters)."""
    unit = next(u for u in sixth_fleet.units if u.category == "air")
    soft = {}
    for kind in ("vector", "raster"):
        pdf = tmp_path / f"{kind}.pdf"
        pdf.write_bytes(_counter_pdf(sixth_fleet, unit, vector=kind == "vector"))
        subprocess.run(
            ["pdftoppm", "-r", "1200", "-png", "-singlefile", str(pdf), str(tmp_path / kind)],
            check=True,
            capture_output=True,
        )
        with Image.open(tmp_path / f"{kind}.png") as im:
            assert im.size == (600, 600)
            soft[kind] = _soft_fraction(im)
    assert soft["vector"] < 0.03
    assert soft["vector"] < 0.4 * soft["raster"], soft


@pytest.mark.parametrize("module_name", ["mini", "sixth_fleet"])
def test_pdf_counter_at_the_module_dpi_matches_the_vassal_image(
    module_name: str, request: pytest.FixtureRequest
) -> None:
    """One model, two back ends: every face in the PDF, rasterised at the module's dpi,
    against the VASSAL image of that face. They differ only by anti-aliasing and by Pillow's
    hinting of large type (measured on Sixth Fleet: median mean difference 2.9/255, worst
    face 10.7/255 with 5.7 % of pixels off by more than a quarter of the range, the 63 px
    "RTB" of a back face). The whole face shifted by 2 px scores 11-13.5 and 7-9 %, and it
    would move every face, so the median bound catches a misplaced model and the per-face
    bound a missing or mis-coloured part."""
    from referee.render.counters import counter_faces

    module: Module = request.getfixturevalue(module_name)
    side = module.counter.size_in * 72.0
    faces = counter_faces(module)
    pages = []
    for unit, back in faces:
        art = face_art(module, unit, back)
        pages.append(Drawing(side, side, transformed(art.items, 0, 0, side / art.size_px)))
    printed = pdf_page_images(pdf_bytes(pages, title="t"), module.counter.dpi)
    means = []
    for (unit, back), image in zip(faces, printed, strict=True):
        vassal = render_counter(module, unit, back=back)
        assert image.size == vassal.size
        hist = ImageChops.difference(image, vassal).convert("L").histogram()
        n = sum(hist)
        mean = sum(i * c for i, c in enumerate(hist)) / n
        far = sum(hist[65:]) / n
        assert mean < 11.0 and far < 0.065, (unit.id, back, mean, far)
        means.append(mean)
    means.sort()
    assert means[len(means) // 2] < 4.0, means


def test_previews_are_the_pdf_pages_rasterised(mini: Module, tmp_path: Path) -> None:
    """`sheets --png` and `charts --png`: each preview is the PDF's page as PDFium draws it
    at the preview's dpi (the same pixels as rasterising the written PDF)."""
    outputs, _ = build_sheets(mini, tmp_path, png=True, png_dpi=100)
    files = dict((p.name, data) for p, data in outputs)
    pages = pdf_page_images(files["mini-counters.pdf"], 100)
    for i, page in enumerate(pages, 1):
        import io

        with Image.open(io.BytesIO(files[f"mini-counters-p{i:02d}.png"])) as im:
            assert im.size == (850, 1100)
            assert ImageChops.difference(im.convert("RGB"), page).getbbox() is None
    outputs, info = build_charts(mini, tmp_path, png=True, dpi=60)
    names = [p.name for p, _ in outputs]
    previews = [n for n in names if re.fullmatch(r"mini-charts-p\d\d\.png", n)]
    assert len(previews) == info.pages >= 1
    assert "mini-chart-crt.png" in names  # the module's chart pictures are still written


def test_missing_rasteriser_is_a_clear_error(monkeypatch, tmp_path: Path) -> None:
    import builtins

    real = builtins.__import__

    def no_pdfium(name, *args, **kwargs):
        if name == "pypdfium2":
            raise ImportError("No module named 'pypdfium2'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pdfium)
    args = ["sheets", str(MINI), "-o", str(tmp_path / "o"), "-q", "--png", "--no-cache"]
    r = Runner().invoke(app, args)
    assert isinstance(r.exception, UserError) and r.exception.exit_code == 2
    assert "pypdfium2" in str(r.exception) and "leave out --png" in (r.exception.hint or "")
    assert not (tmp_path / "o").exists()  # nothing half-written


@needs_profile
def test_cmyk_writes_cmyk_colour_and_the_output_intent(mini: Module, tmp_path: Path) -> None:
    from referee.render.printcolor import load_cmyk_profile

    assert CMYK_PROFILE is not None
    profile = load_cmyk_profile(CMYK_PROFILE)
    info = write_sheets(mini, tmp_path, cmyk=profile)
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    assert info.details["colour"] == f"CMYK ({profile.name})"
    content = b"".join(page_contents(pdf))
    assert re.search(rb"[\d.]+ [\d.]+ [\d.]+ [\d.]+ k", content)  # CMYK fills
    assert not re.search(rb"[\d.]+ [\d.]+ [\d.]+ rg", content)  # and no RGB at all
    assert b"0 0 0 1 k" in content  # black text is black ink only
    assert b"/OutputIntents" in pdf and b"/S /GTS_PDFX" in pdf
    assert f"/OutputConditionIdentifier ({profile.name})".encode() in pdf
    assert b"/DestOutputProfile" in pdf and b"/N 4" in pdf
    rgb = (tmp_path / "rgb").mkdir() or write_sheets(mini, tmp_path / "rgb")
    assert rgb.details["colour"] == "RGB"
    assert b"/OutputIntents" not in (tmp_path / "rgb/mini-counters.pdf").read_bytes()


@needs_profile
def test_cmyk_cli_for_sheets_and_charts_and_bad_profiles(tmp_path: Path) -> None:
    runner = Runner()
    for cmd in ("sheets", "charts"):
        r = runner.invoke(
            app, [cmd, str(MINI), "-o", str(tmp_path / cmd), "-q", "--cmyk", str(CMYK_PROFILE)]
        )
        assert r.exit_code == 0, r.output
        pdf = next((tmp_path / cmd).glob("*.pdf")).read_bytes()
        assert b"/OutputIntents" in pdf
    rgb_profile = tmp_path / "srgb.icc"
    from PIL import ImageCms

    rgb_profile.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    (tmp_path / "junk.icc").write_text("not a profile")
    for bad, words in (
        (tmp_path / "missing.icc", "no such file"),
        (tmp_path / "junk.icc", "not a readable ICC profile"),
        (rgb_profile, "not a CMYK output"),
    ):
        r = runner.invoke(app, ["sheets", str(MINI), "-o", str(tmp_path / "bad"), "--cmyk", bad])
        assert isinstance(r.exception, UserError) and r.exception.exit_code == 2, r.output
        assert words in str(r.exception)
        assert not (tmp_path / "bad").exists()


@needs_profile
def test_a_transparent_roster_picture_prints_on_its_box_in_rgb_and_cmyk(
    mini_copy: Path, tmp_path: Path
) -> None:
    """A roster picture is composited on its box's colour once, in the face model: the
    VASSAL image, the RGB PDF and the CMYK PDF (DeviceCMYK, no soft mask, so no white box
    round a transparent silhouette) all show the counter's colour around it."""
    from PIL import ImageDraw

    from referee.render.colors import parse_color
    from referee.render.counters import face_colors, face_layout
    from referee.render.printcolor import load_cmyk_profile
    from referee.source.loader import load_module

    units = mini_copy / "units.csv"
    lines = units.read_text().splitlines()
    lines[0] += ",image"
    lines[1:] = [ln + (",pic.png" if i == 0 else ",") for i, ln in enumerate(lines[1:])]
    units.write_text("\n".join(lines) + "\n")
    pic = Image.new("RGBA", (400, 200), (0, 0, 0, 0))
    ImageDraw.Draw(pic).ellipse((40, 20, 360, 180), fill=(0, 160, 0, 255))
    pic.save(mini_copy / "pic.png")
    module, _ = load_module(mini_copy)
    assert module is not None
    unit = module.units[0]
    (picture,) = [it for it in face_art(module, unit).items if isinstance(it, Picture)]
    box = next(b for b in face_layout(module, unit).boxes if b.kind in ("symbol", "image"))
    under = parse_color(box.fill or face_colors(module, unit, face_layout(module, unit))[0])
    assert picture.image.mode == "RGB" and picture.image.getpixel((0, 0)) == under
    assert render_counter(module, unit).getpixel((round(picture.x), round(picture.y))) == under
    assert CMYK_PROFILE is not None
    write_sheets(module, tmp_path, cmyk=load_cmyk_profile(CMYK_PROFILE))
    pdf = (tmp_path / "mini-counters.pdf").read_bytes()
    assert b"/ColorSpace /DeviceCMYK" in pdf and b"/SMask" not in pdf


def test_vector_bleed_carries_the_band_beyond_the_cut(sixth_fleet: Module, tmp_path: Path) -> None:
    """[issue 18 §8] `--bleed` on the vector sheet: above a daylight air counter [9.52] the
    orange band runs on into the bleed, past the cut line at the counter's true edge; below
    it, the counter's own colour does."""
    from referee.render.colors import parse_color
    from referee.render.sheets import sheet_geometry, sheet_pieces

    write_sheets(sixth_fleet, tmp_path, bleed="0.0625in")
    pdf = (tmp_path / "sixth_fleet-counters.pdf").read_bytes()
    (front, *_rest) = pdf_page_images(pdf, 300)
    geo = sheet_geometry("letter", sixth_fleet.counter.size_in, 0.0625, 300)
    slot, unit = next(
        (i, u) for i, (_p, u) in enumerate(sheet_pieces(sixth_fleet)) if u.has("daylight")
    )
    x, y = geo.front_origin(slot)
    k = 300 / 72
    mid = round((x + geo.counter_pt / 2) * k)
    above = front.getpixel((mid, round((y - geo.bleed_pt / 2) * k)))
    below = front.getpixel((mid, round((y + geo.counter_pt + geo.bleed_pt / 2) * k)))
    band = parse_color("#D35400")
    assert max(abs(a - b) for a, b in zip(above, band, strict=True)) <= 2, above
    colour = parse_color(sixth_fleet.nationalities[unit.nationality].color)
    assert max(abs(a - b) for a, b in zip(below, colour, strict=True)) <= 2, below
