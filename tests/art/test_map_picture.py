"""A map picture under a hex map: the grid recovered from anchors, bad pictures and bad
anchors reported with file:line:col, the board drawn from the picture."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PIL import Image

from referee.render.board import board_layout, render_board
from referee.source.loader import load_module
from tests.art.pictures import Placement, art_source


def _load(src: Path):
    module, diags = load_module(src)
    return module, diags


@pytest.mark.parametrize(
    "place",
    [Placement(160.0, 4.0, 260.0, 120.0), Placement(93.7, -2.5, 140.0, 210.0)],
)
def test_grid_recovered_from_four_anchors_within_a_tenth_of_a_hex(
    tmp_path: Path, place: Placement
) -> None:
    src, place = art_source(tmp_path, place)
    module, diags = _load(src)
    assert module is not None, [str(d) for d in diags.errors]
    fit = module.map.art.fit
    unit = module.map.grid.scaled(1.0)
    worst = 0.0
    for hid in module.map.hexes:
        true = place.picture_of(*unit.centre(hid))
        got = fit.picture_of(*unit.centre(hid))
        worst = max(worst, math.dist(true, got) / place.scale)
    assert worst < 0.1
    assert fit.rotation_deg == pytest.approx(place.angle_deg, abs=0.5)
    assert fit.px_per_hex == pytest.approx(place.scale, rel=0.01)
    assert len(fit.anchors) == 4 and all(a.residual < 0.05 for a in fit.anchors)


@pytest.mark.parametrize("svg", [False, True])
def test_board_is_the_picture_turned_onto_the_grid(tmp_path: Path, svg: bool) -> None:
    """Every hex centre of the board shows that hex's terrain colour of the picture (a PNG,
    or an SVG rasterised at the board's resolution)."""
    src, _ = art_source(tmp_path, svg=svg)
    module, _ = _load(src)
    lay = board_layout(module, 100)
    img = render_board(module, 100)
    assert img.size == (lay.width, lay.height)
    assert lay.title_height == 0 and lay.legend_height == 0
    for hid, h in module.map.hexes.items():
        x, y = lay.pixel_centre(hid)
        want = Image.new("RGB", (1, 1), module.map.terrain[h.terrain].color).getpixel((0, 0))
        got = img.getpixel((round(x), round(y)))
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 6, hid


def _errors(src: Path) -> list[str]:
    module, diags = _load(src)
    assert module is None
    return [str(d) for d in diags.errors]


def test_a_wrong_anchor_is_refused_and_named(tmp_path: Path) -> None:
    src, _ = art_source(tmp_path, anchors=("0101", "0108", "0601", "0608", "0404"))
    text = (src / "map.toml").read_text()
    text = text.replace('hex = "0404"', 'hex = "0405"')  # the designer typed the wrong hex
    (src / "map.toml").write_text(text)
    errs = _errors(src)
    assert len(errs) == 1
    line = text.split("\n").index('hex = "0405"')  # 0-based index of the hex line
    assert errs[0].startswith(f"map.toml:{line}:1: error: anchor 0405 at (")
    assert "disagrees with the other anchors" in errs[0]
    assert "is in hex 0404" in errs[0]


def test_three_anchors_that_disagree_are_each_named(tmp_path: Path) -> None:
    src, _ = art_source(tmp_path, anchors=("0101", "0108", "0601"))
    text = (src / "map.toml").read_text().replace('hex = "0601"', 'hex = "0602"')
    (src / "map.toml").write_text(text)
    errs = _errors(src)
    assert errs and all("hexes from where the fit of all 3 anchors" in e for e in errs)


def test_too_few_anchors_and_unknown_hex(tmp_path: Path) -> None:
    src, _ = art_source(tmp_path, anchors=("0101", "0108"))
    assert any("a map picture needs at least 3" in e for e in _errors(src))
    src2, _ = art_source(tmp_path / "b", anchors=("0101", "0108", "0601", "0999"))
    assert any("hex '0999' is not a hex of the grid" in e for e in _errors(src2))
    src3, _ = art_source(tmp_path / "c", anchors=("0101", "0108", "0601", "0608"))
    text = (src3 / "map.toml").read_text().replace("x = 285", "x = -285")
    (src3 / "map.toml").write_text(text)
    assert any("0101: (-285, 909) is off the picture (1700 x 1200 px)" in e for e in _errors(src3))


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        (None, "picture 'map.png' not found (hint: picture names are relative"),
        (b"not a picture at all", "is not a readable PNG, JPEG or SVG (hint"),
        (
            b"<svg xmlns='http://www.w3.org/2000/svg' xmlns:x='http://www.w3.org/1999/xlink' "
            b"width='10' height='10'><image x:href='../../secret.png'/></svg>",
            "is an SVG that cannot be used: it refers to another file ('../../secret.png')",
        ),
        (
            b"<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY x SYSTEM 'file:///etc/passwd'>]>"
            b"<svg xmlns='http://www.w3.org/2000/svg'>&x;</svg>",
            "it has a DOCTYPE or entities",
        ),
        ("gif", "is a GIF image, not a PNG or JPEG (hint"),
        ("huge", "the limit is 64,000,000 pixels"),
        ("truncated", "is not a readable PNG, JPEG or SVG"),
    ],
)
def test_bad_pictures_get_file_line_and_hint(tmp_path: Path, content: object, expect: str) -> None:
    src, _ = art_source(tmp_path)
    pic = src / "map.png"
    if content is None:
        pic.unlink()
    elif content == "gif":
        Image.new("RGB", (10, 10)).save(pic, format="GIF")
    elif content == "huge":
        Image.new("1", (9000, 8000)).save(pic, format="PNG")
    elif content == "truncated":
        pic.write_bytes(pic.read_bytes()[:5000])
    else:
        pic.write_bytes(content)  # type: ignore[arg-type]
    errs = _errors(src)
    line = (src / "map.toml").read_text().split("\n").index('image = "map.png"') + 1
    assert len(errs) == 1
    assert errs[0].startswith(f"map.toml:{line}:1: error: [board] image: ")
    assert expect in errs[0] and "(hint: " in errs[0]


def test_low_resolution_and_off_picture_hexes_warn(tmp_path: Path) -> None:
    src, _ = art_source(
        tmp_path,
        Placement(60.0, 0.0, -100.0, 40.0),
        size=(500, 400),
        anchors=("0305", "0308", "0605", "0608"),
    )
    module, diags = _load(src)
    assert module is not None
    warns = [str(d) for d in diags.warnings]
    assert any("is 71 dpi at the printed hex width 0.85 in (below 150)" in w for w in warns)
    assert any("9 hex centres lie off the picture map.png (0101, 0102, 0201" in w for w in warns)


def test_legend_colours_flag_a_hex_map_txt_gets_wrong(tmp_path: Path) -> None:
    legend = (
        'legend = { high_seas = "#A9CCE3", restricted = "#7FB3D5", land = "#C8B88A", '
        'coastal = "#D4E6B5" }'
    )
    src, _ = art_source(tmp_path, extra_board=legend)
    module, diags = _load(src)
    assert module is not None and not diags.warnings, [str(d) for d in diags.warnings]
    # 0404 is land on the picture; say high seas in map.txt
    lines = (src / "map.txt").read_text().split("\n")
    n = next(i for i, ln in enumerate(lines) if ln.startswith("04 |"))
    cells = lines[n].split("|")[1]
    col = [i for i, ch in enumerate(cells) if ch != " "][3]
    lines[n] = lines[n][: 4 + col] + "." + lines[n][5 + col :]
    (src / "map.txt").write_text("\n".join(lines))
    module, diags = _load(src)
    warns = [str(d) for d in diags.warnings]
    assert warns == [
        f"map.txt:{n + 1}:{5 + col}: warning: hex 0404 is High Seas here but looks like Land "
        "on the picture map.png (#C8B88A round its centre) (hint: fix the cell, the [board] "
        "legend colour, or the anchors)"
    ]


def test_position_picture_is_drawn_on_the_map_picture(tmp_path: Path) -> None:
    """The reports' position.png draws its pieces on the designer's picture (through the
    cached board, whose key names the picture's bytes)."""
    import io

    from referee.cache import Cache, activated
    from referee.engine.ruleset import get_ruleset
    from referee.picture.png import position_png

    src, _ = art_source(tmp_path)
    module, _ = _load(src)
    state = get_ruleset(module.ruleset).new_game(module, "skirmish", "g", ())
    with activated(Cache(tmp_path / "cache")):
        first = position_png(module, None, state, [])
        again = position_png(module, None, state, [])
    assert first == again
    img = Image.open(io.BytesIO(first)).convert("RGB")
    img.save(tmp_path / "position.png")
    # the picture's paper margin colour is in it: the board is the picture, not a drawn map
    colours = img.getcolors(1 << 20) or []
    assert any(c == (0xF3, 0xEF, 0xE2) for _, c in colours)


def _doc_section() -> str:
    doc = Path(__file__).resolve().parents[2] / "docs" / "module-source.md"
    return doc.read_text(encoding="utf-8").split("### A map picture under the map", 1)[1]


def test_docs_example_loads_and_check_prints_what_the_docs_show(tmp_path: Path) -> None:
    """docs/module-source.md's hex example, appended to the mini map with the picture the
    tests draw, loads; `referee check` prints the fit the docs quote."""
    import re

    from referee.cli import app
    from tests.clirun import Runner

    section = _doc_section()
    toml = re.search(r"```toml\n(.*?)```", section, re.S).group(1)
    src, _ = art_source(tmp_path, anchors=())  # the picture, no [board] of its own
    text = (src / "map.toml").read_text(encoding="utf-8")
    text = text[: text.index("[board]")] + toml
    (src / "map.toml").write_text(text, encoding="utf-8")
    module, diags = _load(src)
    assert module is not None and not diags.items, [str(d) for d in diags.items]
    assert len(module.map.art.fit.anchors) == 4
    assert len(module.map.art.legend) == 4
    shown = re.search(r"```text\n\$ referee check artmini\n(.*?)```", section, re.S).group(1)
    run = Runner().invoke(app, ["check", str(src)])
    assert run.exit_code == 0, run.output
    assert run.output.replace(str(src), "artmini") == shown


def test_docs_area_example_board_with_a_picture(tmp_path: Path) -> None:
    import re
    import shutil

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "modules"
    board = re.findall(r"```toml\n(.*?)```", _doc_section(), re.S)[1]
    root = tmp_path / "area"
    shutil.copytree(fixtures / "area_med", root)
    text = (root / "map.toml").read_text(encoding="utf-8")
    start = text.index("[board]")
    end = text.index("[[", start)
    (root / "map.toml").write_text(text[:start] + board + "\n" + text[end:], encoding="utf-8")
    Image.new("RGB", (2000, 1200), "#9CC3E6").save(root / "board.png")
    module, diags = _load(root)
    assert module is not None and not diags.errors, [str(d) for d in diags.errors]
    assert all("plays on hex maps" in str(d) for d in diags.warnings)
    lay = board_layout(module, 100)
    assert (lay.width, lay.height) == (1000, 600)
    assert render_board(module, 100).getpixel((500, 300)) == (0x9C, 0xC3, 0xE6)
    Image.new("RGB", (2000, 1000), "#9CC3E6").save(root / "board.png")
    module, diags = _load(root)
    assert module is None
    assert "not in the proportions of the board (1000 x 600 px)" in str(diags.errors[0])


@pytest.mark.skipif(__import__("shutil").which("pdftoppm") is None, reason="needs poppler")
def test_an_svg_map_prints_as_vectors_where_the_png_prints(tmp_path: Path) -> None:
    """`referee map` of the same map picture as PNG and as SVG: the SVG's tiles are vectors
    (the only image in its PDF is the assembly page's overview), and both print the map in
    the same place (rasterised, the pages differ by a few levels on average, at edges)."""
    import subprocess

    from PIL import ImageChops, ImageStat

    from referee.render.playaids import build_map

    pages = {}
    for svg in (False, True):
        src, _ = art_source(tmp_path / str(svg), svg=svg)
        module, diags = _load(src)
        assert module is not None, [str(d) for d in diags.errors]
        outputs, _ = build_map(module, tmp_path / f"out{svg}", art_dpi=150)
        pdf = outputs[0][1]
        (tmp_path / f"m{svg}.pdf").write_bytes(pdf)
        if svg:
            assert pdf.count(b"/Subtype /Form") == 1 and pdf.count(b"/Subtype /Image") == 1
        cmd = ["pdftoppm", "-r", "60", "-f", "2", "-l", "2", "-png", "-singlefile"]
        subprocess.run([*cmd, str(tmp_path / f"m{svg}.pdf"), str(tmp_path / f"p{svg}")], check=True)
        pages[svg] = Image.open(tmp_path / f"p{svg}.png").convert("RGB")
    diff = ImageChops.difference(pages[False], pages[True])
    assert max(ImageStat.Stat(diff).mean) < 3.0


@pytest.mark.parametrize(
    ("board", "expect"),
    [
        ("width = 10", "unknown key 'width' in [board] of a hex map"),
        ("max_residual = 5", "[board] max_residual must be a number of hexes from 0.01 to 1"),
        ('legend = { lava = "#FF0000" }', "[board] legend: unknown terrain 'lava'"),
        ('legend = { land = "red" }', '[board] legend: land must be a colour like "#9CC3E6"'),
    ],
)
def test_bad_board_keys_on_a_hex_map(tmp_path: Path, board: str, expect: str) -> None:
    src, _ = art_source(tmp_path, extra_board=board)
    errs = _errors(src)
    line = (src / "map.toml").read_text().split("\n").index(board) + 1
    assert any(e.startswith(f"map.toml:{line}:1: error: {expect}") for e in errs), errs


def test_anchors_without_a_picture_are_refused(tmp_path: Path) -> None:
    src, _ = art_source(tmp_path)
    text = (src / "map.toml").read_text().replace('[board]\nimage = "map.png"\n', "")
    (src / "map.toml").write_text(text)
    errs = _errors(src)
    assert len(errs) == 1 and "[[grid.anchor]] places the grid on a map picture" in errs[0]
