"""Location names of any module equal real VASSAL's (issue 19 §1).

Two kinds of evidence, both from VASSAL 3.7.26 itself (``../shared/tools/vassal-check``):

* **Recorded answers** (``tests/vassal/data/vassal_locations.json``), produced on 2026-11-24
  by running ``vcheck`` through ``python -m tests.vassal.vcheck_locations``: for each probe
  module, a save with one piece at each of ~16,000 points (a lattice over every board, zone
  corners and their neighbours, region origins, decks, points off the boards) and VASSAL's
  ``Map.locationName`` for each; and VASSAL's piece listing at the end of each fixture log.
  The probes: zxvt's square grid, the same with map edge padding, Vive l'Empereur's zoned
  hex grid, the VASSAL tour with four boards on one map (square; regions and zones with
  their own grids; a reversed hex board; a square grid with a fixed format) plus edge
  padding, and three variants of those buildFiles that turn on the settings the fixtures
  leave off: a sideways hex grid, vertical part first, letters, stagger, both directions
  descending, offsets; descending columns with a ``$column$``/``$row$`` format and a zone
  using its parent grid; numbered square grids inside zones (sized by the zone) with an
  unknown ``$property$`` in the zone's format, and a staggered hex board with descending
  rows. These tests need only the fixtures, not Java.
* **A live run** of ``vcheck`` where Java is installed (always under ``CI=true``), on the
  zxvt probe and the zxvt log, compared point by point with ``show-vsav --vmod``; marked
  ``vassal`` (about 20 s), so ``pytest -m "not vassal"`` leaves it out.

Board images missing from a fixture are replaced by plain PNGs of stated sizes (see
``PROBES``); both VASSAL and referee read the same archive, so the sizes agree.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from referee.cli import app
from referee.vassal.codec.commands import SetBoards
from referee.vassal.foreign.locations import read_module_locations
from tests.clirun import Runner
from tests.vassal import vcheck_locations as probes

RUN = Runner()


def _need_fixtures() -> None:
    if not probes.FIXTURES.is_dir():
        reason = f"shared VASSAL fixtures not available ({probes.FIXTURES})"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + " under CI=true")
        pytest.skip(reason)


def _recorded() -> dict:
    return json.loads(probes.DATA.read_text(encoding="utf-8"))


@pytest.mark.parametrize("probe", probes.PROBES, ids=[p.key for p in probes.PROBES])
def test_every_probed_point_is_named_as_vassal_names_it(
    probe: probes.Probe, tmp_path: Path
) -> None:
    _need_fixtures()
    vmod = probes.build_module(probe, tmp_path)
    points = probes.build_save(vmod, probe, tmp_path / "probe.vsav")
    expected = probes.decode_names(_recorded()["probes"][probe.key], points)
    module = read_module_locations(vmod)
    layout = module.layout()
    for map_name, boards in (probe.boards or {}).items():
        layout.set_boards(SetBoards(map_name, boards))
    wrong = []
    for (map_name, x, y), name in zip(points, expected, strict=True):
        ours = layout.name(map_name, x, y)
        if ours != name:
            wrong.append(((map_name, x, y), name, ours))
    assert not wrong, f"{len(wrong)} of {len(expected)} differ, e.g. {wrong[:5]}"
    assert len(set(expected)) > 40  # the probe meets many different names


def _show(save: Path, vmod: Path) -> list[list[object]]:
    r = RUN.invoke(app, ["show-vsav", str(save), "--vmod", str(vmod), "--json"])
    assert r.exit_code == 0, r.output
    pieces = json.loads(r.stdout)["pieces"]
    return sorted([p["map"], p["x"], p["y"], p["location"], p["name"]] for p in pieces)


@pytest.mark.parametrize("key,folder,name", probes.SAVES, ids=[s[0] for s in probes.SAVES])
def test_show_vsav_and_log_name_the_pieces_of_each_fixture_log_as_vassal(
    key: str, folder: str, name: str, tmp_path: Path
) -> None:
    _need_fixtures()
    expected = _recorded()["saves"][key]
    vmod = probes.save_module(folder, tmp_path)
    save = probes.FIXTURES / folder / name
    assert _show(save, vmod) == expected
    r = RUN.invoke(app, ["log", str(save), "--vmod", str(vmod), "--json", "--position"])
    assert r.exit_code == 0, r.output
    end = sorted(
        [p["map"], p["x"], p["y"], p["location"], p["name"]] for p in json.loads(r.stdout)["end"]
    )
    assert end == expected


def _java() -> bool:
    if shutil.which("java") and probes.VCHECK.exists():
        return True
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true but Java or vcheck is missing: run ../shared/tools/vassal-check/setup")
    pytest.skip("Java or ../shared/tools/vassal-check not installed: live VASSAL check skipped")
    return False


@pytest.mark.vassal
def test_live_vassal_names_the_zxvt_probe_and_log_as_show_vsav(tmp_path: Path) -> None:
    _need_fixtures()
    _java()
    probe = probes.PROBES[0]
    vmod = probes.build_module(probe, tmp_path)
    save = tmp_path / "probe.vsav"
    probes.build_save(vmod, probe, save)
    vlog = tmp_path / "startup.vlog"
    vlog.write_bytes((probes.FIXTURES / probe.folder / "5x5_startup.vlog").read_bytes())
    output = probes.run_vcheck(vmod, [save, vlog], tmp_path)
    blocks: dict[str, list[list[object]]] = {}
    for line in output.splitlines():
        f = line.split("\t")
        if f[0] == "PIECE":
            blocks.setdefault(Path(f[1]).name, []).append([f[2], int(f[3]), int(f[4]), f[5], f[6]])
    assert len(blocks.get("probe.vsav", [])) > 400
    for file in (save, vlog):
        assert _show(file, vmod) == sorted(blocks[file.name]), file.name


REPORT = re.compile(
    r"^\* (?P<piece>.+?) (?:moves (?P<a>.+?) -> (?P<b>.+?) \*|created in (?P<c>.+?)|"
    r"deleted from (?P<d>.+?) \*)$"
)


def test_log_locations_match_vassals_own_2005_auto_reports(tmp_path: Path) -> None:
    """The tour log carries VASSAL's auto-reports, written when the log was recorded with the
    real module ("* 1ME moves G7 -> H6 *"). With stand-in board images of the probe sizes,
    every move, creation and deletion referee reads names the same locations, and the piece
    by the same name (``GamePiece.getName``: layer and label names included)."""
    _need_fixtures()
    tour = next(p for p in probes.PROBES if p.key == "tour")
    plain = probes.Probe("tour-images", tour.folder, tour.images)
    vmod = probes.build_module(plain, tmp_path)
    log = probes.FIXTURES / "vassal-tour" / "tour.log"
    r = RUN.invoke(app, ["log", str(log), "--vmod", str(vmod), "--json"])
    assert r.exit_code == 0, r.output
    events = json.loads(r.stdout)["events"]
    checked = 0
    for event, nxt in itertools.pairwise(events):
        if event["kind"] not in ("move", "create", "delete") or nxt["kind"] != "chat":
            continue
        m = REPORT.match(nxt["text"].strip())
        if m is None:
            continue
        if m["piece"] != "?":  # "?" is a masked piece, as the other player saw it
            assert event["piece"] == m["piece"], (event, nxt)
        if m["a"] is not None:
            assert event["kind"] == "move", (event, nxt)
            got = (event["from"]["location"], event["to"]["location"])
            assert got == (m["a"], m["b"]), (event, nxt)
        elif m["c"] is not None:
            assert event["to"]["location"] == m["c"].rstrip(" *"), (event, nxt)
        else:
            assert event["from"]["location"] == m["d"], (event, nxt)
        checked += 1
    assert checked >= 25, checked


def test_layer_changes_are_told_in_the_modules_words(tmp_path: Path) -> None:
    """Layers are named by their name or menu command, levels by level name or image."""
    _need_fixtures()
    vmod = probes.save_module("vassal-tour", tmp_path)
    log = probes.FIXTURES / "vassal-tour" / "tour.log"
    r = RUN.invoke(app, ["log", str(log), "--vmod", str(vmod), "--json"])
    changes = {e["step"]: e.get("changes") for e in json.loads(r.stdout)["events"]}
    assert changes[29] == ["Smoking: on"]
    assert changes[96] == ["Disrupt: Cntr-Disrupt2 (was Cntr-Disrupt1)"]
    assert changes[110] == ["Rotate Right: CA = 5 (was CA = 4)"]
    assert changes[17] == ["rotated"]
