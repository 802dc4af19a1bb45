"""Movement trails (issue 27): every unit of every module carries VASSAL's Footprint, so a
player shows the route a counter took (the path a zone-of-control or detection rule judged).
The fast test reads the buildFile; the ``vassal`` one has real VASSAL 3.7.26 decode the trait
and toggle it with its key (``tests/vassal/java/VPlay.java --trails``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from referee.source.loader import load_module
from referee.vassal.module.buildfile import buildfile_xml
from referee.vassal.module.module_writer import plan_build
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
MODULES = (
    "sixth_fleet",
    "sixth_fleet_2019",
    "sixth_fleet_dtp",
    "naval_module",
    "carrier_battlegroup",
)


@pytest.mark.parametrize("name", MODULES)
def test_every_unit_has_a_movement_trail_and_no_marker_has_one(name: str) -> None:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    plan = plan_build(module)
    root = etree.fromstring(buildfile_xml(plan))
    protos = {
        p.get("name"): p.text or "" for p in root.iter("VASSAL.build.module.PrototypeDefinition")
    }
    unit = protos["Unit"]
    assert unit.count("footprint;") == 1
    trail = unit[unit.index("footprint;") :]
    # Ctrl+Shift+T, not shown at first, each player his own view, never Ctrl+T (Attacked)
    assert trail.startswith("footprint;84,195;Movement trail;false;false;")
    markers = [
        s for s in root.iter("VASSAL.build.widget.PieceSlot") if "UnitId" not in (s.text or "")
    ]
    assert markers and all("footprint;" not in (s.text or "") for s in markers)


def test_the_pieces_of_a_game_begun_before_trails_have_none() -> None:
    """Version 1 (``piece_versions``): the units of a game begun before trails keep their
    definitions, so verify proves its saves."""
    module, _ = load_module(ROOT / "module_src" / "sixth_fleet")
    assert module is not None
    plan = plan_build(module, piece_version=1)
    assert plan.piece_version == 1
    assert all("footprint;" not in text for _, text in plan.prototypes)
    assert any("footprint;" in text for _, text in plan_build(module).prototypes)


def test_the_trail_state_is_a_fresh_pieces() -> None:
    from referee.vassal.module.traits import trail_trait

    t = trail_trait()
    assert t.state == "false;;0;false;0"  # VASSAL's Footprint.myGetState, nothing moved yet


@plays("sixth_fleet", request="trails")
def _trails(stage: Stage) -> list[str]:
    """Each unit's Movement Trail read, and its key pressed on a fresh piece."""
    return ["--trails"]


@pytest.mark.vassal
def test_real_vassal_reads_the_trail_and_toggles_it() -> None:
    module, _ = load_module(ROOT / "module_src" / "sixth_fleet")
    assert module is not None
    out = played("sixth_fleet", "trails")  # the module's one VPlay run of the session, exit 0
    assert not records(out, "PROBLEM")
    trails = records(out, "TRAIL")
    assert len(trails) == len(module.pieces())  # every unit slot, no marker
    for _slot, menu, key, before, after in trails:
        assert (menu, before, after) == ("Movement trail", "false", "true")
        assert key == "shift ctrl pressed T"
