"""``import-vmod`` keeps the art (issue 29 §4): board pictures with ``[[grid.anchor]]`` fitted
to VASSAL's own hex grid, piece images as roster ``front_image``/``back_image``.

Two modules: one these tests build themselves (:mod:`tests.vassal.art_module`, numbered as
the ``mini`` test module so that its art drops into ``mini`` and ``check`` takes it), and the
real buildFile of ``../shared/fixtures/vassal/vive-lempereur`` zipped with stand-in images
in a temporary folder (nothing of it is copied into the repository).
"""

from __future__ import annotations

import csv
import io
import math
import shutil
import tomllib
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from referee.cli import app
from referee.hexgrid import HexGrid
from referee.similarity_fit import fit_similarity
from referee.vassal.foreign.grids_read import HexGridSpec, read_grid
from referee.vassal.foreign.vmod import read_vmod
from referee.vassal.module.grid import HEXGRID, raw_centre
from tests.clirun import Runner
from tests.vassal.art_module import BOARD, PIECES, art_vmod
from tests.vassal.vcheck_locations import FIXTURES
from tests.vassal.vcheck_run import run_vcheck

RUN = Runner()
MINI = Path(__file__).parents[1] / "fixtures" / "modules" / "mini"
HEX_GRID = "VASSAL.build.module.map.boardPicker.board.HexGrid"


def _import(vmod: Path, out: Path) -> Path:
    r = RUN.invoke(app, ["import-vmod", str(vmod), "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    work = tmp_path_factory.mktemp("art-import")
    vmod = art_vmod(work)
    return vmod, _import(vmod, work / "src")


def _vassal_hexes(vmod: Path, size: tuple[int, int]) -> list[tuple[str, int, int]]:
    """Every hex centre of the module's (only) hex grid on the board, as VASSAL stores a
    snapped piece (``hexPointCenterFromRawIndex``, integer pixels) with VASSAL's name."""
    el = next(read_vmod(vmod).buildfile.iter(HEX_GRID))
    spec = read_grid(el, "t")
    assert isinstance(spec, HexGridSpec)
    attrs = {HEXGRID: {k: el.get(k, "") for k in ("dx", "dy", "x0", "y0", "sideways")}}
    out = []
    for nx in range(-2, 60):
        for ny in range(-2, 60):
            x, y = raw_centre(attrs, nx, ny)
            if 0 <= x < size[0] and 0 <= y < size[1]:
                name = spec.location_name(x, y, size, {})
                assert name
                out.append((name, x, y))
    return out


def _worst(art: dict, hexes: list[tuple[str, int, int]], hex_px: float) -> float:
    """The largest distance, in hexes, between VASSAL's centre and where the fit of the art
    file's anchors under its [grid] puts the same id."""
    g = art["grid"]
    grid = HexGrid(**{k: g[k] for k in g if k not in ("anchor", "hex_width_in")})
    anchors = g["anchor"]
    (m11, m12, m21, m22), (tu, tv) = fit_similarity(
        [grid.centre(a["hex"]) for a in anchors],
        [(a["x"], a["y"]) for a in anchors],
        [1.0] * len(anchors),
    )
    worst = 0.0
    for name, x, y in hexes:
        gx, gy = grid.centre(name)
        worst = max(worst, math.hypot(m11 * gx + m12 * gy + tu - x, m21 * gx + m22 * gy + tv - y))
    return worst / hex_px


def test_small_module_anchors_reproduce_every_vassal_hex(small) -> None:
    vmod, src = small
    art = tomllib.loads((src / "art" / "sea-sea.toml").read_text())
    g = art["grid"]
    # the grid the module was numbered as: the mini test module's
    assert (g["columns"], g["rows"], g["orientation"], g["shifted"]) == (8, 6, "pointy", "even")
    assert (g["rows_grow"], g["id_format"], g["first_column"], g["first_row"]) == (
        "north",
        "RRCC",
        1,
        1,
    )
    assert art["board"]["image"] == "boards/sea.png"
    assert len(g["anchor"]) == 4
    hexes = _vassal_hexes(vmod, BOARD)
    assert len(hexes) == 48
    assert _worst(art, hexes, 90.0) < 0.1


def test_small_module_faces_are_the_module_images_byte_for_byte(small) -> None:
    vmod, src = small
    rows = {r["name"]: r for r in csv.DictReader((src / "art" / "roster.csv").open())}
    assert set(rows) == set(PIECES)
    with zipfile.ZipFile(vmod) as z:
        for name, (front, back) in PIECES.items():
            row = rows[name]
            assert row["front_image"] == f"images/{front}"
            assert row["back_image"] == (f"images/{back}" if back else "")
            for column, image in (("front_image", front), ("back_image", back)):
                if image:
                    assert (src / row[column]).read_bytes() == z.read(f"images/{image}")
        assert (src / "boards" / "sea.png").read_bytes() == z.read("images/sea.png")


@pytest.fixture(scope="module")
def with_ruleset(small, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What a designer does: paste the art file's [board] and anchors into the map.toml of a
    source that names a ruleset (``mini``, whose [grid] is the module's), copy the pictures
    and give the roster the art roster's front_image/back_image columns."""
    _vmod, src = small
    dest = tmp_path_factory.mktemp("art-ruleset") / "mini"
    shutil.copytree(MINI, dest)
    art_text = (src / "art" / "sea-sea.toml").read_text()
    with (dest / "map.toml").open("a") as f:
        f.write("\n" + art_text[art_text.index("[board]") :])
    for folder in ("boards", "images"):
        shutil.copytree(src / folder, dest / folder)
    faces = {r["name"]: r for r in csv.DictReader((src / "art" / "roster.csv").open())}
    with (dest / "units.csv").open() as f:
        rows = list(csv.DictReader(f))
    header = [*rows[0].keys(), "front_image", "back_image"]
    for row in rows:
        face = faces.get(row["id"], {})
        row["front_image"] = face.get("front_image", "")
        row["back_image"] = face.get("back_image", "")
    with (dest / "units.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return dest


def test_art_drops_into_a_ruleset_source_and_check_takes_it(with_ruleset: Path) -> None:
    r = RUN.invoke(app, ["check", str(with_ruleset)])
    assert r.exit_code == 0, r.output
    assert "map picture boards/sea.png" in r.output and "4 anchors" in r.output, r.output
    residuals = [
        float(line.split()[-1])
        for line in r.output.splitlines()
        if line.strip()[:4].isdigit() and len(line.split()) == 4
    ]
    assert len(residuals) == 4 and max(residuals) < 0.1, r.output


@pytest.fixture(scope="module")
def built(with_ruleset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("art-build")
    r = RUN.invoke(app, ["build", str(with_ruleset), "-o", str(out)])
    assert r.exit_code == 0, r.output
    (vmod,) = out.glob("*.vmod")
    return vmod


def test_built_module_pieces_show_the_module_art(small, built: Path) -> None:
    """The built counters are the VASSAL module's pictures at the counter size, front and
    back (pixel for pixel the source picture resampled)."""
    vmod, _src = small
    pairs = {
        "images/unit_US-CV-1.png": "images/cv.png",
        "images/unit_SO-SG-1.png": "images/sg-front.png",
        "images/unit_SO-SG-1_back.png": "images/sg-back.png",
    }
    with zipfile.ZipFile(built) as b, zipfile.ZipFile(vmod) as o:
        for made, original in pairs.items():
            got = Image.open(io.BytesIO(b.read(made))).convert("RGB")
            want = Image.open(io.BytesIO(o.read(original))).convert("RGB")
            want = want.resize(got.size, Image.Resampling.LANCZOS)
            diff = ImageStat.Stat(ImageChops.difference(got, want)).mean
            assert max(diff) < 2.0, (made, diff)


@pytest.mark.vassal
def test_real_vassal_loads_the_built_module_cleanly(built: Path, tmp_path: Path) -> None:
    listing = tmp_path / "vcheck.txt"
    code, out, err = run_vcheck(built, [], listing)
    assert code == 0, out + err
    assert "loaded everything cleanly" in out + err


def test_ids_that_are_not_four_digits_get_anchors_and_a_report_item(tmp_path: Path) -> None:
    src = _import(art_vmod(tmp_path, h_type="A"), tmp_path / "src")
    art = tomllib.loads((src / "art" / "sea-sea.toml").read_text())
    assert "grid" in art and "columns" not in art["grid"]  # no [grid] settings, anchors only
    assert sorted(a["hex"] for a in art["grid"]["anchor"]) == [
        "B01",
        "B08",
        "G01",
        "G08",
    ]  # hOff 1: A is 0
    report = (src / "import-report.txt").read_text()
    assert "art/sea-sea.toml: VASSAL's hex ids are not four digits" in report


@pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")
def test_real_module_anchors_and_flip_backs(tmp_path: Path) -> None:
    from tests.vassal.import_fixtures import fixture_vmod

    vmod = fixture_vmod("vive-lempereur", tmp_path / "vmods")
    src = _import(vmod, tmp_path / "src")
    art = tomllib.loads((src / "art" / "main-map-map.toml").read_text())
    assert art["board"]["image"] == "boards/vive-lempereur map v2.png"
    contents = read_vmod(vmod)
    with zipfile.ZipFile(vmod) as z:
        size = Image.open(z.open("images/vive-lempereur map v2.png")).size
    hexes = _vassal_hexes(vmod, size)
    assert len(hexes) > 300
    # the module's hexes are not quite regular (dx/dy 0.8715, not 0.8660): within 0.1 hex
    assert _worst(art, hexes, 125.3) < 0.1
    rows = list(csv.DictReader((src / "art" / "roster.csv").open()))
    backs = [r for r in rows if r["back_image"]]
    assert len(backs) > 10
    for r in rows:
        for column in ("front_image", "back_image"):
            if r[column]:
                entry = "images/" + r[column].split("/", 1)[1]
                assert (src / r[column]).read_bytes() == contents.entries[entry]
