"""``referee map-from-geo`` end to end on the real land mask: the Strait of Gibraltar, bad
inputs, exit codes, and the Denmark Strait example in docs/ kept up to date."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.geo.fit import fit_grid
from referee.geo.spec import parse_spec
from referee.hexgrid import HexGrid
from referee.source.diagnostics import Diagnostics
from referee.source.mappicture import parse_map_picture
from tests.clirun import Runner

ROOT = Path(__file__).resolve().parents[2]
GIBRALTAR = ROOT / "tests" / "fixtures" / "geo" / "gibraltar.toml"
DENMARK = ROOT / "docs" / "examples" / "denmark_strait"
WESTPAC = ROOT / "docs" / "examples" / "westpac"
RUN = Runner()


def _run(*args: str):
    return RUN.invoke(app, ["map-from-geo", *args])


def _terrain(picture: str, grid: HexGrid) -> dict[str, str]:
    d = Diagnostics()
    layers = parse_map_picture(picture, grid, "map.txt", d)
    assert not d.items, [str(x) for x in d.items]
    return {h: c.char for h, c in layers["terrain"].items()}


@pytest.fixture(scope="module")
def gibraltar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gib")
    r = _run(
        str(GIBRALTAR),
        "-o",
        str(out / "map.txt"),
        "--png",
        str(out / "map.png"),
        "--places",
        str(out / "places.toml"),
    )
    assert r.exit_code == 0, r.output
    assert "2/2 expectations met" in r.output
    return out


def test_gibraltar_land_and_sea_where_they_must_be(gibraltar: Path) -> None:
    spec = parse_spec(GIBRALTAR.read_text(), "g.toml", Diagnostics())
    assert spec is not None
    terrain = _terrain((gibraltar / "map.txt").read_text(), spec.grid)
    fit = fit_grid(spec.grid, list(spec.anchors))
    known = {
        (36.12, -5.65): "#",  # Spain: the hills north of Tarifa
        (36.13, -5.50): "#",  # Spain: west of Algeciras
        (35.74, -5.65): "#",  # Morocco: the hills south of the strait
        (35.75, -5.40): "#",  # Morocco: inland of Ceuta
        (35.95, -5.55): ".",  # the strait itself
        (35.90, -5.93): ".",  # the Atlantic approach
        (36.02, -5.20): ".",  # the Mediterranean (Alboran Sea) side
    }
    for (lat, lon), want in known.items():
        hex_id = fit.hex_of(lat, lon)
        assert hex_id is not None, (lat, lon)
        assert terrain[hex_id] == want, (lat, lon, hex_id, terrain[hex_id])
    # the strait is open: a chain of sea hexes runs from the west edge to the east edge
    sea = {h for h, c in terrain.items() if c == "."}
    west = {h for h in sea if h.endswith("01")}
    seen, todo = set(west), list(west)
    while todo:
        for n in spec.grid.neighbours(todo.pop()):
            if n in sea and n not in seen:
                seen.add(n)
                todo.append(n)
    assert any(h.endswith("16") for h in seen)
    # every anchor is a coastal town: its hex is not open sea
    assert all(terrain[a.hex] in "c#" for a in spec.anchors)
    places = (gibraltar / "places.toml").read_text()
    assert '[[place]]\nhex = "1112"\nname = "Gibraltar"' in places


def test_output_is_byte_identical(gibraltar: Path, tmp_path: Path) -> None:
    r = _run(str(GIBRALTAR), "-o", str(tmp_path / "map.txt"), "--png", str(tmp_path / "m.png"))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "map.txt").read_bytes() == (gibraltar / "map.txt").read_bytes()
    assert (tmp_path / "m.png").read_bytes() == (gibraltar / "map.png").read_bytes()
    assert (gibraltar / "map.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_to_standard_output_report_to_standard_error() -> None:
    r = _run(str(GIBRALTAR), "--samples", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("# Made by `referee map-from-geo gibraltar.toml`")
    assert "[terrain]" in r.stdout and "residual" not in r.stdout
    assert "residual" in r.stderr


def test_thresholds_change_the_classification(tmp_path: Path) -> None:
    _run(str(GIBRALTAR), "-o", str(tmp_path / "a.txt"))
    _run(
        str(GIBRALTAR), "-o", str(tmp_path / "b.txt"), "--coastal-from", "0.5", "--land-from", "0.5"
    )
    a, b = (tmp_path / "a.txt").read_text(), (tmp_path / "b.txt").read_text()
    assert "c" in a.split("[terrain]")[1]
    assert " c" not in b.split("[terrain]")[1]  # no coastal hex when both thresholds meet


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = GIBRALTAR.read_text()
    assert old in text
    p = tmp_path / "anchors.toml"
    p.write_text(text.replace(old, new, 1))
    return p


def test_inconsistent_anchors_are_refused(tmp_path: Path) -> None:
    # Tangier's coordinates given to Gibraltar's hex
    bad = _variant(tmp_path, "lat = 36.1408\nlon = -5.3536", "lat = 35.7595\nlon = -5.8340")
    out = tmp_path / "map.txt"
    r = _run(str(bad), "-o", str(out))
    assert r.exit_code == 1
    assert f"{bad}:16:1: error: anchor 1112 Gibraltar is 6.44 hexes from its place" in r.output
    assert "the worst is 1112 Gibraltar" in r.output
    assert "the anchors are inconsistent" in r.output and "nothing written" in r.output
    assert not out.exists()
    # a looser limit lets the same anchors through
    assert _run(str(bad), "-o", str(out), "--max-residual", "20").exit_code == 0


def test_bad_input_exits_1_with_file_line_col(tmp_path: Path) -> None:
    cases = {
        ('id_format = "RRCC"', 'id_format = "RCRC"'): ":9: error: [grid] id_format must be",
        ('hex = "0807"', 'hex = "0817"'): ":23:8: error: [[anchor]] hex 0817 is off the map",
        ("lat = 36.0143", 'lat = "36.0143'): ":25:15: error: malformed TOML",
    }
    for (old, new), want in cases.items():
        p = _variant(tmp_path, old, new)
        r = _run(str(p), "-o", str(tmp_path / "map.txt"))
        assert r.exit_code == 1, (new, r.output)
        assert f"{p}{want}" in r.output, r.output
        assert not (tmp_path / "map.txt").exists()


def test_too_few_anchors(tmp_path: Path) -> None:
    text = GIBRALTAR.read_text()
    head, *anchors = text.split("[[anchor]]")
    p = tmp_path / "two.toml"
    p.write_text(
        head + "[[anchor]]" + anchors[0] + "[[anchor]]" + anchors[1].split("[[expect]]")[0]
    )
    r = _run(str(p))
    assert r.exit_code == 1
    assert "2 anchors; the similarity fit needs at least 3" in r.output


def test_strict_expectations(tmp_path: Path) -> None:
    p = _variant(tmp_path, 'terrain = "sea"\nnote = "mid-strait"', 'terrain = "land"')
    out = tmp_path / "map.txt"
    r = _run(str(p), "-o", str(out))
    assert r.exit_code == 0
    assert "warning: hex 0709 should be land but is sea" in r.output
    r = _run(str(p), "-o", str(out.with_name("strict.txt")), "--strict")
    assert r.exit_code == 1 and "error: hex 0709 should be land" in r.output
    assert not out.with_name("strict.txt").exists()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "map-from-geo", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    r = _cli(str(tmp_path / "missing.toml"))
    assert r.returncode == 2 and "file not found" in r.stderr and "Traceback" not in r.stderr
    r = _cli(str(GIBRALTAR), "--projection", "lambert")
    assert r.returncode == 2 and "--projection must be one of" in r.stderr
    r = _cli(str(GIBRALTAR), "--land-from", "0.05")
    assert r.returncode == 2 and "coastal_from (0.1) is above land_from (0.05)" in r.stderr


def test_denmark_strait_example_is_up_to_date(tmp_path: Path) -> None:
    """docs/examples/denmark_strait/map.txt is what the command makes from its anchors."""
    out = tmp_path / "map.txt"
    r = _run(str(DENMARK / "anchors.toml"), "-o", str(out), "--places", str(tmp_path / "p.toml"))
    assert r.exit_code == 0, r.output
    assert "13/13 expectations met" in r.output
    assert out.read_text() == (DENMARK / "map.txt").read_text()
    spec = parse_spec((DENMARK / "anchors.toml").read_text(), "a.toml", Diagnostics())
    assert spec is not None
    terrain = _terrain(out.read_text(), spec.grid)
    # the places the text names are ports or bases on the coast, the retreat edge is open
    assert [terrain[h] for h in ("2806", "2814", "0918", "2224", "3001")] == list("cccc.")
    assert (tmp_path / "p.toml").read_text() == (DENMARK / "places.toml").read_text()


def test_json_github_quiet_and_standard_input(tmp_path: Path) -> None:
    import json

    out = tmp_path / "map.txt"
    r = _run(str(GIBRALTAR), "-o", str(out), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["ok"] is True and data["errors"] == [] and data["out"] == str(out)
    assert [a["hex"] for a in data["fit"]["anchors"]] == ["1112", "0807", "0513", "0203"]
    assert max(a["residual"] for a in data["fit"]["anchors"]) < 0.5
    assert data["map"]["counts"] == {"sea": 109, "coastal": 30, "land": 53}
    # the anchors file from standard input, quiet: nothing printed, the same picture
    r = RUN.invoke(
        app, ["map-from-geo", "-", "-o", str(tmp_path / "s.txt"), "-q"], input=GIBRALTAR.read_text()
    )
    assert r.exit_code == 0 and r.output == ""
    body = (tmp_path / "s.txt").read_text().split("[terrain]")[1]
    assert body == out.read_text().split("[terrain]")[1]
    # refused anchors as GitHub annotations, and as JSON
    bad = _variant(tmp_path, "lat = 36.1408\nlon = -5.3536", "lat = 35.7595\nlon = -5.8340")
    r = _run(str(bad), "-o", str(tmp_path / "x.txt"), "--format", "github")
    assert r.exit_code == 1
    assert f"::error file={bad},line=16,col=1,title=referee map-from-geo::anchor 1112" in r.stdout
    r = _run(str(bad), "-o", str(tmp_path / "x.txt"), "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == 1 and data["ok"] is False and len(data["errors"]) == 4
    # the picture and a report format cannot share standard output
    r = _run(str(GIBRALTAR), "--json")
    assert r.exit_code != 0 and "both want standard output" in str(r.exception)


@pytest.mark.slow
def test_westpac_example_is_up_to_date(tmp_path: Path) -> None:
    """docs/examples/westpac/map.txt is what the command makes from its anchors, and the
    module's map is that picture with only the six hand edits its README lists."""
    out = tmp_path / "map.txt"
    r = _run(str(WESTPAC / "anchors.toml"), "-o", str(out), "--places", str(tmp_path / "p.toml"))
    assert r.exit_code == 0, r.output
    assert "42/48 expectations met" in r.output  # the six unmet are the hand edits
    assert out.read_text() == (WESTPAC / "map.txt").read_text()
    assert (tmp_path / "p.toml").read_text() == (WESTPAC / "places.toml").read_text()
    spec = parse_spec((WESTPAC / "anchors.toml").read_text(), "a.toml", Diagnostics())
    assert spec is not None
    made = _terrain(out.read_text(), spec.grid)
    module_map = (ROOT / "module_src" / "dtp_westpac" / "map.txt").read_text()
    edited = _terrain(module_map.split("[area]")[0], spec.grid)
    changed = {h: (made[h], edited[h]) for h in made if made[h] != edited[h]}
    assert changed == {h: (".", "c") for h in ("1862", "2342", "1671", "1672", "2558", "4059")}
