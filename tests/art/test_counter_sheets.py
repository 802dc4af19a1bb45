"""Counter sheets cut into counters: a sheet rendered from a known roster is cut back into
counters identical pixel for pixel; bad sheets and missed cuts are reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from referee.render.counter_art import cut_pixels
from referee.render.counters import counter_faces, render_counter
from referee.source.loader import load_module
from tests.art.pictures import sheet_source


def _same(a, b) -> bool:
    return (
        a.size == b.size
        and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
    )


def test_a_sheet_cut_back_into_counters_matches_pixel_for_pixel(tmp_path: Path) -> None:
    src, faces = sheet_source(tmp_path)
    module, diags = load_module(src)
    assert module is not None and not diags.items, [str(d) for d in diags.items]
    for unit in module.units:
        assert unit.art is not None and unit.art.back is not None and unit.has_back
        front, back = faces[unit.id]
        assert _same(cut_pixels(module, unit.art.front), front), unit.id
        assert _same(cut_pixels(module, unit.art.back), back), unit.id
        # the VASSAL image of the counter is the cut itself (same dpi: no resampling)
        assert _same(render_counter(module, unit), front), unit.id
        assert _same(render_counter(module, unit, back=True), back), unit.id
    # every unit has a back now: the cut sheet's back is its back face
    assert len(counter_faces(module)) == 2 * len(module.units)
    # the values stay the roster's, for the rules and VASSAL's properties
    assert module.unit("US-CV-1").values["DEF"] == 12


def _problems(src: Path) -> tuple[list[str], list[str]]:
    _, diags = load_module(src)
    return [str(d) for d in diags.errors], [str(d) for d in diags.warnings]


def _line(src: Path, file: str, text: str) -> int:
    return (src / file).read_text().split("\n").index(text) + 1


def test_a_grid_running_off_the_picture_is_refused(tmp_path: Path) -> None:
    src, _ = sheet_source(tmp_path)
    toml = (src / "module.toml").read_text().replace("columns = 4", "columns = 5")
    (src / "module.toml").write_text(toml)
    (src / "art" / "ids.csv").write_text("US-CV-1,US-DD-1,US-F4,SO-SG-1\nSO-DD-1,SO-T16\n")
    errors, _ = _problems(src)
    line = _line(src, "module.toml", "[[counter.sheet]]")
    assert errors == [
        f"module.toml:{line}:1: error: the sheet's grid runs off the picture art/front.png: 5 "
        "columns and 2 rows of 150 px end at (838, 370); the picture is 716 x 426 px (hint: "
        "check counter, first, gutter, columns and rows)"
    ]


def test_unknown_and_twice_cut_ids_name_their_cell(tmp_path: Path) -> None:
    src, _ = sheet_source(tmp_path)
    (src / "art" / "ids.csv").write_text("US-CV-1,US-DD-1,US-F5,SO-SG-1\nSO-DD-1,US-CV-1\n")
    errors, _ = _problems(src)
    assert (
        "art/ids.csv:1:17: error: 'US-F5' is not a unit id of the roster (hint: did you "
        "mean 'US-F4'?)" in errors
    )
    assert "art/ids.csv:2:9: error: unit US-CV-1 is cut twice (first art/ids.csv:1)" in errors


@pytest.mark.parametrize(
    ("what", "expect"),
    [
        ("missing", "[[counter.sheet]] back: picture 'art/back.png' not found"),
        ("small", "a duplex back must be the front's size"),
        ("text", "is not a readable PNG, JPEG or SVG"),
    ],
)
def test_bad_sheet_pictures(tmp_path: Path, what: str, expect: str) -> None:
    src, _ = sheet_source(tmp_path)
    back = src / "art" / "back.png"
    if what == "missing":
        back.unlink()
    elif what == "small":
        Image.new("RGB", (100, 100), "white").save(back)
    else:
        back.write_text("hello")
    errors, _ = _problems(src)
    line = _line(src, "module.toml", 'back = "art/back.png"')
    assert len(errors) == 1 and errors[0].startswith(f"module.toml:{line}:1: error: ")
    assert expect in errors[0] and "(hint: " in errors[0]


def test_a_cut_that_misses_warns(tmp_path: Path) -> None:
    """The designer measured the first counter 9 px too far left: on both sides of the sheet
    every counter's art runs over a cut line (even the white back of an air unit: its border
    crosses the cut)."""
    src, _ = sheet_source(tmp_path)
    toml = (src / "module.toml").read_text().replace("first = [40, 56]", "first = [31, 56]")
    (src / "module.toml").write_text(toml)
    module, diags = load_module(src)
    assert module is not None  # a warning: the module still builds
    warns = [str(d) for d in diags.warnings]
    assert len(warns) == 12  # six counters, front and back
    assert all(
        "the art runs over the cut (hint: check counter, first and gutter)" in w for w in warns
    )
    assert "the cut misses US-F4 (back, row 1, column 3)" in warns[5]
    src2, _ = sheet_source(tmp_path / "ok")
    assert _problems(src2) == ([], [])


def test_roster_row_names_its_own_faces(tmp_path: Path) -> None:
    src, faces = sheet_source(tmp_path)
    toml = (src / "module.toml").read_text()
    (src / "module.toml").write_text(toml[: toml.index("[[counter.sheet]]")])
    front, back = faces["US-CV-1"]
    front.save(src / "art" / "cv-front.png")
    back.save(src / "art" / "cv-back.png")
    rows = [r for r in (src / "units.csv").read_text().split("\n") if r]
    rows = [r + ",," for r in rows]
    rows[0] = rows[0][:-2] + ",front_image,back_image"
    rows[1] = rows[1][:-2] + ",art/cv-front.png,art/cv-back.png"
    (src / "units.csv").write_text("\n".join(rows) + "\n")
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.errors]
    cv = module.unit("US-CV-1")
    assert cv.has_back and _same(render_counter(module, cv, back=True), back)
    assert module.unit("US-DD-1").art is None
    Image.new("RGB", (150, 120)).save(src / "art" / "cv-back.png")
    errors, _ = _problems(src)
    assert errors == [
        "units.csv:2:1: error: back_image art/cv-back.png is 150 x 120 px; a counter face is "
        "square (hint: crop it to the counter)"
    ]


def _solid_sheet(tmp_path: Path, svg: bool = False) -> tuple[Path, dict[str, tuple[tuple, tuple]]]:
    """The sheet source with every counter a solid colour of its own, front and back (PNG
    pictures, or SVG drawings)."""
    from PIL import ImageDraw

    from tests.art.pictures import SheetSpec

    spec = SheetSpec()
    src, _ = sheet_source(tmp_path, spec)
    ids = [r.split(",") for r in (src / "art" / "ids.csv").read_text().split("\n") if r]
    front = Image.new("RGB", spec.size, "white")
    back = Image.new("RGB", spec.size, "white")
    colours = {}
    for r, row in enumerate(ids):
        for c, uid in enumerate(row):
            if not uid:
                continue
            n = r * spec.columns + c
            f, b = (220, 30 + 30 * n, 40), (40, 30 + 30 * n, 220)
            x, y = spec.cell(r, c)
            ImageDraw.Draw(front).rectangle([x, y, x + spec.counter - 1, y + spec.counter - 1], f)
            bx = spec.size[0] - x - spec.counter
            ImageDraw.Draw(back).rectangle([bx, y, bx + spec.counter - 1, y + spec.counter - 1], b)
            colours[uid] = (f, b)
    front.save(src / "art" / "front.png")
    back.save(src / "art" / "back.png")
    if svg:
        from tests.art.pictures import solid_sheet_svg

        fsvg, bsvg, colours = solid_sheet_svg(spec, ids)
        (src / "art" / "front.svg").write_text(fsvg)
        (src / "art" / "back.svg").write_text(bsvg)
        toml = (src / "module.toml").read_text().replace("front.png", "front.svg")
        (src / "module.toml").write_text(toml.replace("back.png", "back.svg"))
    return src, colours


def _bbox_of(page: Image.Image, colour: tuple) -> tuple[int, int, int, int] | None:
    r, g, b = ImageChops.difference(page, Image.new("RGB", page.size, colour)).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)  # the largest channel difference
    return worst.point(lambda v: 255 if v < 10 else 0).getbbox()


@pytest.mark.skipif(__import__("shutil").which("pdftoppm") is None, reason="needs poppler")
@pytest.mark.parametrize("svg", [False, True])
def test_sheets_print_art_counters_at_size_with_duplex_backs_aligned(
    tmp_path: Path, svg: bool
) -> None:
    """`referee sheets` of cut counters, rasterised: each counter is exactly 0.5 in, and its
    back lands behind its front when the sheet is turned over on its long edge (PNG sheets,
    and SVG sheets, whose counters the PDF draws as vectors)."""
    import subprocess

    from referee.render.playaids import write_sheets

    src, colours = _solid_sheet(tmp_path, svg)
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.errors]
    write_sheets(module, tmp_path / "out")
    pdf = tmp_path / "out" / "mini-counters.pdf"
    dpi = 144
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(tmp_path / "p")], check=True)
    pages = sorted(tmp_path.glob("p-*.png"))
    front, back = (Image.open(p).convert("RGB") for p in pages[:2])
    side = module.counter.size_in * dpi
    checked = 0
    for uid, (fc, bc) in colours.items():
        if module.unit(uid).count != 1:
            continue  # two copies of one colour: one box would span both
        f, b = _bbox_of(front, fc), _bbox_of(back, bc)
        assert f is not None and b is not None, uid
        for x0, y0, x1, y1 in (f, b):
            assert abs((x1 - x0) - side) <= 1 and abs((y1 - y0) - side) <= 1, uid
        # mirrored about the page's vertical centre line (turned over on the long edge): the
        # two centres are as far from either side, within 1.5 px (0.01 in: the cut lines
        # drawn over the counters' edges hide one edge pixel on either page)
        assert abs((f[0] + f[2]) / 2 + (b[0] + b[2]) / 2 - front.width) <= 1.5, uid
        assert abs(f[1] - b[1]) <= 1, uid
        checked += 1
    assert checked == 4
    if svg:  # vectors: the sheet's rectangles are paths of a form, and no counter is an image
        data = pdf.read_bytes()
        assert b"/Subtype /Form" in data
        assert data.count(b"/Subtype /Image") == 0


def test_check_png_previews_the_cut_with_every_id(tmp_path: Path) -> None:
    from referee.cli import app
    from referee.render.art_preview import sheet_panels
    from tests.clirun import Runner

    src, _ = sheet_source(tmp_path)
    out = tmp_path / "preview.png"
    run = Runner().invoke(app, ["check", str(src), "--png", str(out)])
    assert run.exit_code == 0, run.output
    img = Image.open(out)
    module, _ = load_module(src)
    panels = sheet_panels(module)
    assert len(panels) == 2  # the sheet's front and back, side by side
    assert img.width >= sum(p.width for p in panels) and img.height >= panels[0].height
    # every cut is outlined in red on its picture
    colours = panels[0].getcolors(1 << 24) or []
    red = sum(n for n, c in colours if c == (220, 20, 20))
    assert red > 6 * 4 * 150  # six counters, four sides of 150 px at least


def test_docs_sheet_example_is_the_one_the_tests_cut(tmp_path: Path) -> None:
    """docs/module-source.md's [[counter.sheet]] and ids.csv, on the sheet the tests render,
    load and cut every counter."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "module-source.md").read_text()
    section = doc.split("### Counter sheets cut into counters", 1)[1]
    toml = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    ids = re.search(r"```csv\n(.*?)```", section, re.S).group(1)
    src, faces = sheet_source(tmp_path)
    text = (src / "module.toml").read_text()
    (src / "module.toml").write_text(text[: text.index("[[counter.sheet]]")] + toml)
    (src / "art" / "ids.csv").write_text(ids)
    module, diags = load_module(src)
    assert module is not None and not diags.items, [str(d) for d in diags.items]
    assert all(_same(render_counter(module, u), faces[u.id][0]) for u in module.units)


def test_a_source_with_art_comes_back_from_the_cache_whole(tmp_path: Path) -> None:
    """The cached load rebuilds the art (map picture fit, cut counters) exactly."""
    from referee.cache import Cache, activated
    from referee.source.cached import load_module_cached
    from tests.art.pictures import add_sheet, art_source

    src, _ = art_source(tmp_path)
    add_sheet(src)
    fresh, _ = load_module(src)
    for _ in range(2):  # store, then read back
        with activated(Cache(tmp_path / "cache")) as cache:
            cached, _ = load_module_cached(src)
    assert cache.stats.hits == 1
    assert cached == fresh and cached.map.art == fresh.map.art
    assert all(u.art is not None for u in cached.units)


def test_a_cmyk_sheet_of_svg_counters_has_no_rgb(tmp_path: Path) -> None:
    """reportlab draws an SVG in RGB, so a `--cmyk` sheet places the cut's pixels (converted
    to the profile's CMYK) instead of the vectors: no RGB colour, no form."""
    import re

    from referee.render.playaids import write_sheets
    from referee.render.printcolor import load_cmyk_profile
    from tests.render.pdfread import page_contents
    from tests.render.test_vector_print import CMYK_PROFILE

    if CMYK_PROFILE is None:
        pytest.skip("no CMYK ICC profile (apt-get install libgs-common)")
    src, _ = _solid_sheet(tmp_path, svg=True)
    module, _ = load_module(src)
    write_sheets(module, tmp_path / "out", cmyk=load_cmyk_profile(CMYK_PROFILE))
    pdf = (tmp_path / "out" / "mini-counters.pdf").read_bytes()
    assert b"/Subtype /Form" not in pdf and b"/Subtype /Image" in pdf
    assert not re.search(rb"[\d.]+ [\d.]+ [\d.]+ rg", b"".join(page_contents(pdf)))


def test_art_shifted_inside_its_cell_warns(tmp_path: Path) -> None:
    """A counter printed smaller than its cell and 9 px off centre: the cut misses nothing,
    but the art sits off its cell."""
    from tests.art.pictures import SheetSpec

    spec = SheetSpec()
    src, faces = sheet_source(tmp_path, spec)
    sheet = Image.open(src / "art" / "front.png").convert("RGB")
    x, y = spec.cell(0, 1)  # US-DD-1
    sheet.paste((255, 255, 255), (x, y, x + spec.counter, y + spec.counter))
    sheet.paste(faces["US-DD-1"][0].resize((130, 130)), (x + 19, y + 10))
    sheet.save(src / "art" / "front.png")
    errors, warns = _problems(src)
    assert errors == []
    assert len(warns) == 1
    assert "the cut misses US-DD-1 (front, row 1, column 2): the art sits +9, +0 px" in warns[0]


def test_print_values_prints_the_layout_texts_over_the_art(tmp_path: Path) -> None:
    """A blank art counter (one colour) with print_values: the face shows the roster's
    values where the layout prints them; without it, the art alone."""
    from PIL import ImageStat

    from tests.art.pictures import SheetSpec

    spec = SheetSpec()
    src, _ = sheet_source(tmp_path, spec, extra="print_values = true")
    plain = Image.new("RGB", spec.size, "white")
    for r in range(spec.rows):
        for c in range(spec.columns):
            x, y = spec.cell(r, c)
            plain.paste((200, 220, 240), (x, y, x + spec.counter, y + spec.counter))
    plain.save(src / "art" / "front.png")
    module, diags = load_module(src)
    assert module is not None and not diags.errors, [str(d) for d in diags.errors]
    face = render_counter(module, module.unit("US-CV-1"))
    # the value line "7-1-36-4-12-6" at the bottom of the naval layout: dark ink on the art
    strip = face.crop((10, 115, 140, 145))
    assert min(ImageStat.Stat(strip).extrema[0]) < 80
    # the top left corner, where no text box of the naval layout prints anything, is the art
    assert face.getpixel((3, 3)) == (200, 220, 240)
    toml = (src / "module.toml").read_text().replace("print_values = true", "")
    (src / "module.toml").write_text(toml)
    module, _ = load_module(src)
    face = render_counter(module, module.unit("US-CV-1"))
    assert face.getcolors() == [(150 * 150, (200, 220, 240))]
