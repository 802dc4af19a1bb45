"""Real VASSAL 3.7.26 lists the issue-18 components and loads a referee save with its markers.

``../shared/tools/vassal-check/vcheck`` builds each module of every map kind in the real
engine and lists its components (``COMP``), each palette slot's traits with prototypes
expanded (``SLOT``) and each piece of a loaded save (``PIECE``, whose name carries the active
layers, e.g. ``SO-SG-1 Charlie (attacked)``). Asserted here: no problem at all; the Help,
Notes, Inventory, turn tracker (Game-Turn and Phase levels, hotkeys), clearing commands,
line-of-sight thread, hide-pieces button, Eliminated map and every chart; Delete, Send To,
Report Action and moved marker on every unit and Delete and Clone on every marker; and a
``position.vsav`` written by the referee shows the markers the state lists, and VASSAL,
writing its live state back out, holds the tracker exactly where the save put it.

Marked ``vassal`` (about 10 s a module); skipped with the reason where Java or the checker
is missing.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from referee.vassal.codec.commands import AddPiece, SetTurn, iter_leaves
from referee.vassal.codec.pieces import Embellishment, decode_piece, marker_properties
from referee.vassal.codec.savefile import SaveGame, read_save_bytes
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.setups import build_module_with_setups
from tests.vassal.test_play_features import KINDS, _mini_state, _module
from tests.vassal.vassal_jvm import vcheck

ROOT = Path(__file__).resolve().parents[2]
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
M = "VASSAL.build.module."

pytestmark = [pytest.mark.vassal, pytest.mark.shared_cache]  # its builds are a means


def _reason() -> str | None:
    if not VCHECK.is_file():
        return f"the real-VASSAL checker is not at {VCHECK}"
    if shutil.which("java") is None and not list(Path("/usr/lib/jvm").glob("java-17-*/bin/java")):
        return "Java is not installed (run ../shared/tools/vassal-check/setup)"
    return None


@pytest.mark.skipif(_reason() is not None, reason=str(_reason()))
@pytest.mark.parametrize("name", list(KINDS))
def test_real_vassal_lists_the_play_features(name: str, tmp_path: Path) -> None:
    module = _module(name)
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    saves = []
    if name == "mini":
        save = tmp_path / "position.vsav"
        save.write_bytes(position_vsav_bytes(table_for(module), _mini_state()))
        saves.append(str(save))
    out = tmp_path / "vcheck.txt"
    run = vcheck([vmod, *saves], out)
    if run.returncode == 2 and "missing" in run.stderr:
        pytest.skip("vcheck's prerequisites are missing: " + run.stderr.strip())
    lines = [ln.split("\t") for ln in out.read_text(encoding="utf-8").splitlines()]
    problems = [ln for ln in lines if ln[0] == "PROBLEM"]
    assert run.returncode == 0 and problems == [], run.stderr

    comps = [(ln[2], ln[3] if len(ln) > 3 else "") for ln in lines if ln[0] == "COMP"]
    classes = [c for c, _ in comps]
    for cls in (
        "documentation.AboutScreen",
        "documentation.HelpFile",
        "NotesWindow",
        "Inventory",
        "map.LOS_Thread",
        "map.HidePiecesButton",
        "turn.TurnGlobalHotkey",
        "GlobalKeyCommand",
    ):
        assert M + cls in classes, cls
    assert classes.count(M + "turn.TurnTracker") == 1
    assert classes.count(M + "turn.ListTurnLevel") == 2  # Game-Turn, then Phase
    assert ("VASSAL.build.module.Map", "Eliminated") in comps
    zones = {n for c, n in comps if c.endswith("mapgrid.Zone")}
    assert {f"Eliminated {s.id}" for s in module.sides} <= zones
    plan = table_for(module).plan
    charts = [n for c, n in comps if c == "VASSAL.build.widget.Chart"]
    assert charts == [c.name for c in plan.charts]

    slots = {ln[1]: ln[3].split(",") for ln in lines if ln[0] == "SLOT"}
    units = [s.entry_name for s in plan.unit_slots.values()]
    assert units and set(units) <= set(slots)
    for entry in units:
        traits = slots[entry]
        for trait in ("Delete", "SendToLocation", "ReportState", "MovementMarkable"):
            assert trait in traits, (entry, trait)
        assert "UsePrototype" not in traits and "Clone" not in traits
    for marker in plan.marker_slots:
        assert {"Delete", "Clone", "ReportState"} <= set(slots[marker.entry_name])

    if name == "mini":
        source = str(Path(saves[0]).resolve())
        names = {ln[6].split(" ")[0]: ln[6] for ln in lines if ln[0] == "PIECE" and ln[1] == source}
        state = _mini_state()
        assert set(names) == set(state.units)
        assert names["SO-SG-1"].endswith("(attacked)")  # the phase record's attacked [7.44]
        assert names["US-F4.1"].endswith("(returning)")  # the status flag [9.22]
        assert not names["SO-DD-1"].endswith(")") and not names["US-DD-1"].endswith(")")


@pytest.mark.skipif(_reason() is not None, reason=str(_reason()))
def test_vassal_holds_the_tracker_and_markers_of_a_referee_save(tmp_path: Path) -> None:
    """VASSAL loads a ``position.vsav`` and writes its own state back out (vcheck's
    ``--write-vlog``: the log starts with ``GameState.getRestoreCommand`` of the live game):
    its turn tracker stands where the referee put it and the markers are on.

    The harness names the piece to move by its VASSAL name, one word, so one unit of the
    test module is given an empty name (its piece name is then its id)."""
    module = _module("mini")
    module = replace(
        module, units=tuple(replace(u, name="") if u.id == "US-DD-1" else u for u in module.units)
    )
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    save, vlog = tmp_path / "position.vsav", tmp_path / "out.vlog"
    state = _mini_state()
    save.write_bytes(position_vsav_bytes(table_for(module), state))
    args = f"--no-slots --no-setups --write-vlog {save} US-DD-1 0303 {vlog}"
    run = vcheck([vmod], tmp_path / "vcheck.txt", args=args)
    if run.returncode == 2 and "missing" in run.stderr:
        pytest.skip("vcheck's prerequisites are missing: " + run.stderr.strip())
    assert run.returncode == 0, run.stderr
    ours = read_save_bytes(save.read_bytes())
    theirs = read_save_bytes(vlog.read_bytes())

    def turns(s: SaveGame) -> list[str]:
        return [c.state for c, _ in iter_leaves(s.commands) if isinstance(c, SetTurn)]

    assert len(turns(ours)) == 1 and turns(theirs) == turns(ours)
    layers = {}
    for command, _ in iter_leaves(theirs.commands):
        if isinstance(command, AddPiece) and command.type != "stack":
            piece = decode_piece(command.type, command.state)
            active = {t.layer_name for t in piece.find(Embellishment) if t.active}
            layers[marker_properties(piece)["UnitId"]] = active
    assert layers == {
        "SO-SG-1": {"Attacked"},
        "SO-DD-1": set(),
        "US-F4.1": {"Returning"},
        "US-DD-1": set(),
    }
