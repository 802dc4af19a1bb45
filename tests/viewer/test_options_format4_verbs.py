"""Options format 4 (issue 28): the verbs a ruleset's options give since format 4, new in it,
and left out of a file written in format 3, which is format 4's file without them (so an
archive of format 3 still verifies: ``verify`` renders a file again in the format it names).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.pbem.draft_options import draft_options
from tests.viewer.test_options_format3 import _step

pytestmark = pytest.mark.slow

NEW_KINDS = {
    "load",
    "unload",
    "abort",
    "interdict",
    "survivors",
    "host",
    "shipping",
    "coastfire",
    "coastsupport",
    "defend",
    "assault",
}


def _without_format_4(doc: dict[str, Any]) -> dict[str, Any]:
    """Format 4's file as format 3 wrote it: the choices given since format 4 left out (a unit
    left with none is not listed), the side's own orders of the naval module too."""
    units = {}
    for uid, e in doc["units"].items():
        kept = [c for c in e["choices"] if c.get("kind") not in NEW_KINDS]
        if kept or e.get("route"):
            units[uid] = {**e, "choices": kept}
    side = [c for c in doc["side_choices"] if c.get("kind") not in NEW_KINDS]
    return {**doc, "format": "referee-draft-options/3", "units": units, "side_choices": side}


def test_naval_movement_step_offers_load_and_abort_only_in_format_4(finished_demo: Any) -> None:
    """The Soviet Movement Phase of the naval demo: format 4 offers the 1330 Regiment's
    ``load`` onto the transport in its port (first in its section [28.14a]) and each moving
    ship's Abort choice [27.32b]; format 3's file is format 4's without them, key for key."""
    demo = finished_demo("naval_module").out
    turn = next(
        t.name[:4]
        for t in sorted((demo / "game" / "turns").iterdir())
        for f in t.glob("options-*.json")
        if b'"kind":"load"' in f.read_bytes()
    )
    module, rs, state, report = _step(demo, "naval_module", turn)
    side = state.active_side
    view = rs.view(module, state, side)
    old, new = (draft_options(module, rs, report, "0" * 64, view, side, v) for v in (3, 4))
    assert old["format"].endswith("/3") and new["format"].endswith("/4")
    kinds = {c["kind"] for e in new["units"].values() for c in e["choices"]}
    assert {"load", "abort"} <= kinds
    assert not {c.get("kind") for e in old["units"].values() for c in e["choices"]} & NEW_KINDS
    loads = [c for e in new["units"].values() for c in e["choices"] if c["kind"] == "load"]
    assert all(c["first"] and c["order"].startswith("load ") for c in loads)
    assert not any(c.get("first") for e in old["units"].values() for c in e["choices"])
    assert json.dumps(_without_format_4(new), sort_keys=True) == json.dumps(old, sort_keys=True)


def test_the_published_naval_files_verify_in_their_format(finished_demo: Any) -> None:
    """Every step of the naval demo publishes today's format 4, and the demo's ``verify`` of
    the whole archive (which renders each file again in the format it names) passed: a
    failed step stops the demo."""
    demo = finished_demo("naval_module").out
    formats = {
        json.loads(f.read_bytes())["format"]
        for f in (demo / "game" / "turns").glob("*/options-*.json")
    }
    assert formats == {"referee-draft-options/4"}
    assert "Anyone can check the whole game" in finished_demo("naval_module").printed
