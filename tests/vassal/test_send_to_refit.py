"""Sixth Fleet 2019: every unit goes to the Refit Box by menu (Ctrl+Shift+R), where the rules
put units eliminated by over-stacking [7.2] (and, provisionally, in combat [2.8.3]); piece
version 4 (issue 27), so only games begun since get it. The ``vassal`` test has real VASSAL
press the key on a piece on the map (``tests/vassal/java/VPlay.java --sendto``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.vassal.module import piece_versions as pv
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.plan import refit_zone
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
REFIT = "macro;Refit Box;Refit Box;82,195;"  # the menu's Trigger (piece version 6)
REFIT_SEND = "sendto;;82,650;Main Map;"  # its Send To, on the Trigger's key Ctrl+Alt+R


def _unit(name: str, version: int = pv.CURRENT) -> str:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return dict(plan_build(module, piece_version=version).prototypes)["Unit"]


def test_2019_units_go_to_the_refit_box_by_menu() -> None:
    module, _ = load_module(ROOT / "module_src" / "sixth_fleet_2019")
    assert module is not None
    assert refit_zone(module) == "Refit Box"
    unit = _unit("sixth_fleet_2019")
    assert unit.count(REFIT) == 1 and unit.count(REFIT_SEND) == 1
    assert ";Z;Refit Box;" in unit  # to the printed zone of that name
    # a game of piece version 4 or 5 has the Send To itself on the menu
    old = _unit("sixth_fleet_2019", pv.TRACKS)
    assert old.count("sendto;Refit Box;82,195;Main Map;") == 1 and "macro;" not in old
    # and the Report Action logs it as it logs Eliminate and Delete (Ctrl+E, Ctrl+D)
    assert "report;69\\,130,68\\,130,82\\,195," in unit  # (then Ctrl+Shift+E, version 6)


def test_older_games_and_maps_without_a_refit_box_have_none() -> None:
    assert "Refit Box" not in _unit("sixth_fleet_2019", pv.FACE_DOWN)
    for name in ("sixth_fleet", "sixth_fleet_dtp", "naval_module", "carrier_battlegroup"):
        assert "Refit Box" not in _unit(name)


@plays("sixth_fleet_2019", request="sendto")
def _send_to(stage: Stage) -> list[str]:
    """Each Send To of the pieces on the first map of the first scenario's set-up."""
    return ["--sendto", str(stage.setup())]


@pytest.mark.vassal
def test_real_vassal_sends_a_unit_to_the_refit_box() -> None:
    out = played("sixth_fleet_2019", "sendto")  # the module's one VPlay run, exit 0
    assert not records(out, "PROBLEM")
    # each Send To pressed by its own key: since piece version 6 the menu's Ctrl+Shift+R is
    # a Trigger firing Ctrl+Alt+R (the player's key: tests/vassal/test_triggers.py)
    rows = records(out, "SENDTO")
    refit = [r for r in rows if r[4] == "Refit Box"]
    assert refit, rows
    for _slot, cmd, key, map_name, _location in refit:
        assert (cmd, key, map_name) == ("", "ctrl alt pressed R", "Main Map")
    eliminate = [r for r in rows if r[2] == "ctrl alt pressed E"]
    assert eliminate and all(r[3] == "Eliminated" for r in eliminate)
