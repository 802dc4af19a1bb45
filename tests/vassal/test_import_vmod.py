"""``referee import-vmod`` (issue 19 §3), then ``check`` and ``build`` of what it wrote.

The fixture modules of ``../shared/fixtures/vassal/`` are zipped in a temporary folder with
stand-in images and a predefined set-up (:mod:`tests.vassal.import_fixtures`); nothing of
them is copied into the repository.
"""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from referee.cli import app
from referee.vassal.codec.pieces import marker_properties
from referee.vassal.foreign.locations import module_locations
from referee.vassal.foreign.rebuild import rebuild_entries
from referee.vassal.foreign.vassal_only import load_vassal_only
from referee.vassal.foreign.vmod import read_vmod
from tests.clirun import Runner
from tests.vassal.import_fixtures import FOLDERS, fixture_vmod
from tests.vassal.vcheck_locations import FIXTURES

RUN = Runner()
pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


def _run(*args: str) -> tuple[int, str]:
    r = RUN.invoke(app, list(args))
    code = r.exit_code
    exc = r.exception
    if exc is not None and hasattr(exc, "exit_code") and not isinstance(exc, SystemExit):
        code = int(exc.exit_code)
        return code, r.output + str(exc)  # what `referee` prints as "referee: error: ..."
    return code, r.output


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Each fixture: (its .vmod with a set-up, the imported source)."""
    work = tmp_path_factory.mktemp("import-vmod")
    result = {}
    for folder in FOLDERS:
        vmod = fixture_vmod(folder, work / "vmods", setup=True)
        src = work / f"src-{folder}"
        code, out = _run("import-vmod", str(vmod), "-o", str(src), "-q")
        assert code == 0, out
        result[folder] = (vmod, src)
    return result


@pytest.mark.parametrize("folder", FOLDERS)
def test_import_writes_a_source_that_check_passes(imported, folder: str) -> None:
    vmod, src = imported[folder]
    for name in ("module.toml", "units.csv", "maps.toml", "palette.toml", "prototypes.toml"):
        assert (src / name).is_file(), name
    report = json.loads((src / "import-report.json").read_text())
    assert report["units"] == sum(1 for d in read_vmod(vmod).definitions if d.kind == "slot")
    # the lattice set-up, and vive-lempereur's "No Setup" (no file: a blank game)
    assert report["scenarios"] == (2 if folder == "vive-lempereur" else 1)
    assert report["not_carried_over"], "every fixture has something the format cannot express"
    assert (src / "import-report.txt").read_text().count("\n") == len(
        report["not_carried_over"]
    ) + 1
    code, out = _run("check", str(src))
    assert code == 0, out
    assert "no ruleset" in out
    code, out = _run("check", str(src), "--json")
    assert json.loads(out)["ok"] is True


@pytest.mark.parametrize("folder", FOLDERS)
def test_rebuilt_module_has_the_same_slots_grids_and_setup(imported, folder: str, tmp_path):
    vmod, src = imported[folder]
    code, out = _run("build", str(src), "-o", str(tmp_path), "-q")
    assert code == 0, out
    rebuilt = Path(out.strip())
    old, new = read_vmod(vmod), read_vmod(rebuilt)
    slots = [(d.name, d.text) for d in old.definitions if d.kind == "slot"]
    assert [(d.name, d.text) for d in new.definitions if d.kind == "slot"] == slots
    assert [d.text for d in new.definitions if d.kind == "prototype"] == [
        d.text for d in old.definitions if d.kind == "prototype"
    ]
    old_loc, new_loc = module_locations(old, "old"), module_locations(new, "new")
    assert list(new_loc.maps) == list(old_loc.maps)
    for name in old_loc.maps:
        layout_old, layout_new = old_loc.layout(), new_loc.layout()
        for x in range(-20, 2700, 97):
            for y in range(-20, 2100, 89):
                assert layout_new.name(name, x, y) == layout_old.name(name, x, y), (name, x, y)
    with zipfile.ZipFile(rebuilt) as z:
        assert z.read("Lattice.vsav") == zipfile.ZipFile(vmod).read("Lattice.vsav")
    listing = (src / "scenarios" / "lattice.toml").read_text()
    assert 'location = "' in listing


def test_build_is_deterministic(imported, tmp_path: Path) -> None:
    _, src = imported["vive-lempereur"]
    source, diags = load_vassal_only(src)
    assert source is not None, [str(d) for d in diags.items]
    assert rebuild_entries(source) == rebuild_entries(load_vassal_only(src)[0])


def test_roster_columns_carry_properties_and_edits_reach_the_module(imported, tmp_path):
    import shutil

    _, src = imported["vive-lempereur"]
    copy = tmp_path / "src"

    shutil.copytree(src, copy)
    rows = list(csv.DictReader((copy / "units.csv").open(encoding="utf-8")))
    row = next(r for r in rows if r["prop:Unit Side"] == "France")
    assert row["prop:Formation"]  # folded from the slot's prototypes
    row["prop:Unit Side"] = "Prussia"
    row["prop:Morale"] = "4"  # a new column the module did not have
    with (copy / "units.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, [*rows[0].keys(), "prop:Morale"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    code, out = _run("build", str(copy), "-o", str(tmp_path / "b"), "-q")
    assert code == 0, out
    new = read_vmod(Path(out.strip()))
    piece = next(d.piece for d in new.definitions if d.kind == "slot" and d.name == row["name"])
    props = marker_properties(piece)
    assert props["Unit Side"] == "Prussia" and props["Morale"] == "4"


def _edited(vmod: Path, tmp: Path, edit) -> Path:
    entries = {}
    with zipfile.ZipFile(vmod) as z:
        for n in z.namelist():
            entries[n] = z.read(n)
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    edit(root)
    entries[name] = etree.tostring(root)
    out = tmp / "edited.vmod"
    with zipfile.ZipFile(out, "w") as z:
        for n, data in sorted(entries.items()):
            z.writestr(n, data)
    return out


def test_unsupported_grid_kind_is_named_and_nothing_is_written(imported, tmp_path):
    vmod, _ = imported["zxvt-capture-the-territory"]

    def edit(root):
        grid = next(root.iter("VASSAL.build.module.map.boardPicker.board.SquareGrid"))
        grid.tag = "terrain.TerrainHexGrid"

    code, out = _run("import-vmod", str(_edited(vmod, tmp_path, edit)), "-o", str(tmp_path / "s"))
    assert code == 2
    assert "terrain.TerrainHexGrid" in out
    assert not (tmp_path / "s").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["edited.vmod"]


def test_image_names_that_climb_out_are_refused(imported, tmp_path):
    vmod, _ = imported["vassal-tour"]

    def edit(root):
        board = next(root.iter("VASSAL.build.module.map.boardPicker.Board"))
        board.set("image", "../../etc/passwd")

    code, out = _run("import-vmod", str(_edited(vmod, tmp_path, edit)), "-o", str(tmp_path / "s"))
    assert code == 2
    assert "image name refused" in out and ".." in out
    assert not (tmp_path / "s").exists()


def test_truncated_archive_and_existing_target_are_refused(imported, tmp_path):
    vmod, src = imported["zxvt-capture-the-territory"]
    cut = tmp_path / "cut.vmod"
    cut.write_bytes(vmod.read_bytes()[:-200])
    code, out = _run("import-vmod", str(cut), "-o", str(tmp_path / "s"))
    assert code == 2 and "Traceback" not in out
    assert not (tmp_path / "s").exists()
    code, out = _run("import-vmod", str(vmod), "-o", str(src))
    assert code == 2 and "already exists" in out


def test_check_reports_a_broken_imported_source(imported, tmp_path):
    import shutil

    _, src = imported["zxvt-capture-the-territory"]
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    text = (copy / "units.csv").read_text()
    (copy / "units.csv").write_text(text.replace("pieces/red.txt", "../../red.txt"))
    code, out = _run("check", str(copy))
    assert code == 1
    assert "units.csv" in out and "red.txt" in out
