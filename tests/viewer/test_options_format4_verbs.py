"""Options format 4 (issue 28): the verbs a ruleset's options give since format 4, new in it,
and left out of a file written in format 3, which is format 4's file without them (so an
archive of format 3 still verifies: ``verify`` renders a file again in the format it names).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import referee.pbem.draft_options as drafts
from referee.pbem.draft_options import compact_json, draft_options
from tests.viewer.drafting import demo_step

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


def _without_since_4(rs: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ruleset's options as they were before format 4's verbs: every choice given with
    ``since`` 4 left out, of the units and of the side."""
    cls = type(rs)
    options, side_orders = cls.options, cls.side_orders

    def old_options(self: Any, *args: Any, **kw: Any) -> Any:
        rep = options(self, *args, **kw)
        kept = [c for c in rep.data.get("orders") or [] if int(c.get("since", 1)) < 4]
        return dataclasses.replace(rep, data={**rep.data, "orders": kept})

    def old_side_orders(self: Any, *args: Any) -> Any:
        return [c for c in side_orders(self, *args) if int(c.get("since", 1)) < 4]

    monkeypatch.setattr(cls, "options", old_options)
    monkeypatch.setattr(cls, "side_orders", old_side_orders)


def test_naval_movement_step_offers_load_and_abort_only_in_format_4(
    finished_demo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Soviet Movement Phase of the naval demo: format 4 offers the 1330 Regiment's
    ``load`` onto the transport in its port (first in its section [28.14a]) and each moving
    ship's Abort choice [27.32b]; format 3's file is byte for byte the one the options gave
    before these verbs."""
    demo = finished_demo("naval_module").out
    turn = next(
        t.name[:4]
        for t in sorted((demo / "game" / "turns").iterdir())
        for f in t.glob("options-*.json")
        if b'"kind":"load"' in f.read_bytes()
    )
    module, rs, state, report = demo_step(demo, "naval_module", turn)
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
    _without_since_4(rs, monkeypatch)
    before = draft_options(module, rs, report, "0" * 64, view, side, 3)
    assert compact_json(before) == compact_json(old)


def test_the_published_naval_files_verify_in_their_format(finished_demo: Any) -> None:
    """Every step of the naval demo publishes today's format, and the demo's ``verify`` of
    the whole archive (which renders each file again in the format it names) passed: a
    failed step stops the demo."""
    demo = finished_demo("naval_module").out
    formats = {
        json.loads(f.read_bytes())["format"]
        for f in (demo / "game" / "turns").glob("*/options-*.json")
    }
    assert formats == {drafts.OPTIONS_FORMAT}
    assert "Anyone can check the whole game" in finished_demo("naval_module").printed
