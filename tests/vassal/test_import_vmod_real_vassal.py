"""Real VASSAL 3.7.26 loads what ``import-vmod`` then ``build`` make of each fixture module:
the same piece slots with the same traits and property values, the set-up's pieces at the
same points with the same location names, the same dice buttons, chart windows (with their
charts) and turn trackers, and no problem the original module (with the same stand-in images)
does not have itself.

Marked ``vassal`` (about 15 s per vcheck run, two runs per fixture). Skipped with the reason
where the checker or its prerequisites are missing, except under ``CI=true`` when the
checker is there: then that is a failure.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from referee.cli import app
from referee.source.vassal_tools import TOOLS
from tests.clirun import Runner
from tests.vassal.import_fixtures import FOLDERS, edited_vmod, fixture_vmod
from tests.vassal.vassal_jvm import EMPTY_DIALOG, vcheck
from tests.vassal.vcheck_run import VCHECK
from tests.vassal.vcheck_run import unavailable as _unavailable

pytestmark = pytest.mark.vassal
RUN = Runner()


def _vcheck(vmod: Path, out: Path) -> tuple[int, list[str]]:
    proc = vcheck([vmod], out)
    if proc.returncode == 2 and "missing" in proc.stderr:
        _unavailable("vcheck's prerequisites are missing: " + proc.stderr.strip())
    assert out.is_file(), proc.stderr
    return proc.returncode, out.read_text(encoding="utf-8").splitlines()


def _tagged(lines: list[str], tag: str) -> list[str]:
    return [line.split("\t", 1)[1] for line in lines if line.split("\t", 1)[0] == tag]


def _problems(lines: list[str]) -> set[str]:
    """The run's problems but the checker's empty-dialog race (a dialog judged before Swing
    filled its text in: ``EMPTY_DIALOG``, seen beside the tour's board chooser in one run of
    the original module and not in the next)."""
    race = "\t".join(EMPTY_DIALOG)
    return {p for p in _tagged(lines, "PROBLEM") if p != race}


PIECE_IMAGE_CLASSES = {
    "VASSAL.build.module.gamepieceimage." + c
    for c in ("GamePieceImageDefinitions", "GamePieceImage", "GamePieceLayout", "ColorSwatch")
}
OWN_PROBLEMS = {
    "zxvt-capture-the-territory": {"board-image"},
    "vassal-tour": {"dialog"},
    "vive-lempereur": set(),
}


def _tool_classes() -> set[str]:
    """Every VASSAL class ``tools.toml`` carries (dice, special dice and faces, chart windows
    and their widgets, turn trackers and levels)."""
    found: set[str] = set()

    def walk(spec) -> None:
        if spec.tag not in found:
            found.add(spec.tag)
            for child in spec.children.values():
                walk(child)

    for spec in TOOLS.values():
        walk(spec)
    return found


@pytest.mark.parametrize("folder", FOLDERS)
def test_vassal_loads_the_rebuilt_module_like_the_original(folder: str, tmp_path: Path) -> None:
    """zxvt gets a turn tracker (no fixture has one). The whole module is imported;
    vive-lempereur's "No Setup" (a set-up without a file: a blank game, which the rebuilt
    module has with useFile="false") is left out of the original only where vcheck loads
    it, because the harness cannot load a file-less set-up (import_fixtures.edited_vmod):
    every other component, set-up and piece is compared."""
    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK})")
    vmod = fixture_vmod(folder, tmp_path / "in", setup=True)
    tracker = folder == "zxvt-capture-the-territory"
    original = edited_vmod(vmod, tmp_path / "original.vmod", tracker=tracker)
    vmod = edited_vmod(vmod, tmp_path / "for-vcheck.vmod", tracker=tracker, fileless=False)
    src = tmp_path / "src"
    r = RUN.invoke(app, ["import-vmod", str(original), "-o", str(src), "-q"])
    assert r.exit_code == 0, r.output
    r = RUN.invoke(app, ["check", str(src), "-q"])
    assert r.exit_code == 0, r.output
    r = RUN.invoke(app, ["build", str(src), "-o", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 0, r.output
    rebuilt = Path(r.output.strip())
    _, before = _vcheck(vmod, tmp_path / "before.txt")
    _, after = _vcheck(rebuilt, tmp_path / "after.txt")
    slots = _tagged(before, "SLOT")
    assert slots, "vcheck listed no piece slot"
    assert Counter(_tagged(after, "SLOT")) == Counter(slots)  # same slots, traits, values
    pieces = [p for p in _tagged(before, "PIECE") if p.startswith("setup:Lattice\t")]
    assert len(pieces) >= 20
    assert _tagged(after, "PIECE") == pieces  # same points, names and location names
    listing = (src / "scenarios" / "lattice.toml").read_text(encoding="utf-8")
    for p in pieces:
        location = p.split("\t")[4]
        assert f"location = {location!r}".replace("'", '"') in listing
    problems = _problems(after)
    assert problems == _problems(before)
    # what remains is the module's own (the same stand-in images are in both): zxvt's board
    # without an image, the tour's board chooser (several boards, no default)
    assert {p.split("\t")[0] for p in problems} == OWN_PROBLEMS[folder], problems
    tools = _tool_classes() | PIECE_IMAGE_CLASSES
    shown = Counter(c for c in _tagged(before, "COMP") if c.split("\t")[1] in tools)
    assert sum(n for c, n in shown.items() if "DiceButton" in c) >= 1, "every fixture has dice"
    assert Counter(c for c in _tagged(after, "COMP") if c.split("\t")[1] in tools) == shown
