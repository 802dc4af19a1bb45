"""Options format 3 (issue 28): the composed choices and the side's own orders, new in it,
and left out of a file written in format 2, byte for byte as format 2 wrote it (so an
archive of format 2 still verifies: ``verify`` renders a file again in the format it names).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.pbem.draft_options import draft_options, options_files
from tests.viewer.drafting import demo_step

pytestmark = pytest.mark.slow


def _docs(module: Any, rs: Any, state: Any, report: dict[str, Any], side: str) -> tuple:
    view = rs.view(module, state, side)
    return tuple(draft_options(module, rs, report, "0" * 64, view, side, v) for v in (2, 3))


def test_sixth_fleet_answer_step_offers_standing_orders_only_in_format_3(
    finished_demo: Any,
) -> None:
    """NATO's answer step [8.71]: format 2 lists no unit; format 3 lists NATO's units with
    their standing ``retreat``/``displace`` preferences only, each composed from the hexes
    next to the unit, any hex of the map taken too."""
    demo = finished_demo("sixth_fleet").out
    module, rs, state, report = demo_step(demo, "sixth_fleet", "006-")
    old, new = _docs(module, rs, state, report, "NATO")
    assert old["format"].endswith("/2") and new["format"].endswith("/3")
    assert old["units"] == {} and "side_choices" not in old
    assert new["units"] and new["section"] == "answer"
    for uid, e in new["units"].items():
        kinds = sorted(c["kind"] for c in e["choices"])
        assert kinds == ["displace", "retreat"], (uid, kinds)
        for c in e["choices"]:
            assert c["section"] == "standing" and c["compose"] == "hexes" and c["anywhere"]
            assert c["order"] == f"{c['kind']} {uid} prefer" and c["from"]
    # today's publication is format 3, and what verify renders for a format 2 file is 2's
    views = {"NATO": rs.view(module, state, "NATO")}
    files = options_files(module, rs, {"NATO": report}, "0" * 64, state, views, 2)
    assert json.loads(next(iter(files.values())))["units"] == {}


def test_sixth_fleet_movement_offers_the_stack_line_in_format_3_only(
    finished_demo: Any,
) -> None:
    """The Soviet Movement Phase of Game-Turn 1: each unit's ``stack`` choice (its layer,
    air above naval [7.43]) is in format 3; format 2's file has the same units and
    choices without any composed one."""
    demo = finished_demo("sixth_fleet").out
    module, rs, state, report = demo_step(demo, "sixth_fleet", "002-")
    old, new = _docs(module, rs, state, report, "Soviet")
    assert set(old["units"]) <= set(new["units"])
    for uid, e in old["units"].items():
        assert not any("compose" in c for c in e["choices"])
        mine = [c for c in new["units"][uid]["choices"] if "compose" not in c]
        assert mine == e["choices"]
    layers = {
        uid: c["layer"]
        for uid, e in new["units"].items()
        for c in e["choices"]
        if c["kind"] == "stack"
    }
    assert layers["SO-T22"] == "air" and layers["SO-CV-1"] == "naval"


def test_dtp_side_pass_and_stack_only_in_format_3(finished_demo: Any) -> None:
    """DTP: the impulse's ``pass`` is the side's [DTP 8.2] and uses the impulse; in a
    movement phase a unit that moves opens its hex's ``stack`` line [7.42] (in the set-up
    every unit of the side does); format 2 has neither."""
    demo = finished_demo("dtp_denmark_strait").out
    turns = sorted(p.name for p in (demo / "game" / "turns").iterdir())
    seen = {"pass": False, "stack": False}
    for name in turns:
        for f in sorted((demo / "game" / "turns" / name).glob("options-*.json")):
            doc = json.loads(f.read_bytes())
            if any(c["order"] == "pass" for c in doc.get("side_choices", [])):
                (c,) = [c for c in doc["side_choices"] if c["order"] == "pass"]
                assert c["uses"] == ["this impulse's one attack [DTP 8.2]"]
                seen["pass"] = True
            for e in doc["units"].values() if "movement" in doc["phase"] else ():
                if any(c["kind"] == "stack" for c in e["choices"]):
                    moves = "route" in e or any(c["kind"] == "move" for c in e["choices"])
                    assert moves, e  # it moves in this phase
                    seen["stack"] = True
        if all(seen.values()):
            break
    assert all(seen.values()), seen
    module, rs, state, report = demo_step(demo, "dtp_denmark_strait", name)
    side = json.loads(next((demo / "game" / "turns" / name).glob("options-*.json")).read_bytes())
    old, _ = _docs(module, rs, state, report, side["side"])
    assert "side_choices" not in old
    assert not any(c["kind"] == "stack" for e in old["units"].values() for c in e["choices"])
