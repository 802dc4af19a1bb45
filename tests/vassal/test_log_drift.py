"""``referee log`` on a real log whose module has since been revised (issue 27).

VASSAL loads a log recorded with another version of its module, skips the pieces that lie
on windows the module no longer has and shows the rest. So does ``referee log``: it names
every move on the maps the module has exactly as with the module the log was recorded
with, lists the rest with raw map coordinates and a warning naming the map, and exits 0;
only a file none of whose pieces lies on a map of the module is refused (exit 2).

The logs are the real ones of ``../shared/fixtures/vassal`` (the 2005 VASSAL tour, zxvt's
5x5 start-up log); the revised modules are their modules with a map window taken out and
the version raised, as a designer's later version would have it.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from referee.cli import app
from referee.errors import UserError
from tests.clirun import Runner
from tests.vassal import vcheck_locations as probes

RUN = Runner()


def _need_fixtures() -> None:
    if not (probes.FIXTURES / "vassal-tour" / "tour.log").is_file():
        pytest.skip("the shared VASSAL fixtures are not here")


def _revised(vmod: Path, drop: str, out: Path) -> Path:
    """``vmod`` without its map window ``drop``, one version later."""
    with zipfile.ZipFile(vmod) as z, zipfile.ZipFile(out, "w") as w:
        for name in z.namelist():
            data = z.read(name)
            if name.startswith("buildFile"):
                text = data.decode("utf-8")
                tag = r"VASSAL\.build\.module\.Map"
                block = rf'<{tag} mapName="{re.escape(drop)}".*?</{tag}>'
                text, n = re.subn(block, "", text, flags=re.S)
                assert n == 1, drop
                text = re.sub(
                    r'(<VASSAL\.build\.(?:module\.Basic|)\w*Module[^>]*version=")[^"]*',
                    r"\g<1>9.9",
                    text,
                    count=1,
                )
                data = text.encode("utf-8")
            w.writestr(name, data)
    return out


def _log(log: Path, vmod: Path) -> tuple[int, dict, str]:
    r = RUN.invoke(app, ["log", str(log), "--vmod", str(vmod), "--json", "--position"])
    return r.exit_code, json.loads(r.stdout) if r.exit_code == 0 else {}, r.output


def _tour(tmp_path: Path) -> Path:
    tour = next(p for p in probes.PROBES if p.key == "tour")
    return probes.build_module(probes.Probe("tour-images", tour.folder, tour.images), tmp_path)


def test_a_log_of_an_older_version_names_what_the_module_has(tmp_path: Path) -> None:
    _need_fixtures()
    log = probes.FIXTURES / "vassal-tour" / "tour.log"
    vmod = _tour(tmp_path)
    code, full, out = _log(log, vmod)
    assert code == 0, out
    revised = _revised(vmod, "Force Pool", tmp_path / "tour-revised.vmod")
    code, got, out = _log(log, revised)
    assert code == 0, out
    # every event the full module names on its Main Map is named the same
    assert got["events"] == full["events"]
    warned = [w for w in got["warnings"] if "'Force Pool'" in w]
    assert len(warned) == 1 and "raw map coordinates" in warned[0], got["warnings"]
    lost = [p for p in got["end"] if p["map"] not in (None, "Main Map")]
    assert lost, "the tour keeps pieces in its Force Pool window"
    assert all(re.fullmatch(r"-?\d+,-?\d+ px", p["location"]) for p in lost), lost[:3]
    named = [p for p in got["end"] if p["map"] == "Main Map"]
    assert named and named == [p for p in full["end"] if p["map"] == "Main Map"]


def test_moves_on_a_window_the_module_lost_keep_their_coordinates(tmp_path: Path) -> None:
    _need_fixtures()
    log = probes.FIXTURES / "vassal-tour" / "tour.log"
    vmod = _tour(tmp_path)
    _, full, _ = _log(log, vmod)
    revised = _revised(vmod, "Main Map", tmp_path / "tour-no-main.vmod")
    code, got, out = _log(log, revised)
    assert code == 0, out  # the Force Pool's pieces are still named
    moves = [e for e in got["events"] if e["kind"] == "move" and e["to"]["map"] == "Main Map"]
    assert len(moves) >= 20
    assert all(re.fullmatch(r"-?\d+,-?\d+ px", e["to"]["location"]) for e in moves)
    assert any("'Main Map'" in w and "event(s)" in w for w in got["warnings"])
    assert len(got["events"]) == len(full["events"])


def test_a_log_none_of_whose_maps_the_module_has_is_refused(tmp_path: Path) -> None:
    _need_fixtures()
    log = probes.FIXTURES / "vassal-tour" / "tour.log"
    vmod = _tour(tmp_path)
    both = _revised(
        _revised(vmod, "Force Pool", tmp_path / "a.vmod"), "Main Map", tmp_path / "b.vmod"
    )
    r = RUN.invoke(app, ["log", str(log), "--vmod", str(both)])
    assert isinstance(r.exception, UserError) and r.exception.exit_code == 2  # refused
    assert "nothing could be named" in str(r.exception)
