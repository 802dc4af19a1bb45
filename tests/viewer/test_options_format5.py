"""Options format 5 (issue 28): the verbs a ruleset's options give since format 5, new in it,
and left out of a file written in format 4, which is format 5's file without them (so an
archive of format 4 still verifies: ``verify`` renders a file again in the format it names).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from referee.pbem.draft_options import OPTIONS_FORMAT, compact_json, draft_options
from tests.viewer.drafting import demo_step

pytestmark = pytest.mark.slow


def _without_since_5(rs: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ruleset's options as they were before format 5's verbs: every choice given with
    ``since`` 5 left out, of the units and of the side."""
    cls = type(rs)
    options, side_orders = cls.options, cls.side_orders

    def old_options(self: Any, *args: Any, **kw: Any) -> Any:
        rep = options(self, *args, **kw)
        kept = [c for c in rep.data.get("orders") or [] if int(c.get("since", 1)) < 5]
        return dataclasses.replace(rep, data={**rep.data, "orders": kept})

    def old_side_orders(self: Any, *args: Any) -> Any:
        return [c for c in side_orders(self, *args) if int(c.get("since", 1)) < 5]

    monkeypatch.setattr(cls, "options", old_options)
    monkeypatch.setattr(cls, "side_orders", old_side_orders)


@pytest.mark.parametrize("kind", ["cap", "base"])
def test_dtp_air_movement_offers_carrier_and_base_lines_only_in_format_5(
    finished_demo: Any, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """Denmark Strait's air movement steps: format 5 offers the carrier air's ``cap``/``box``
    [9.62] and the Be-12's ``base`` [DTP 11.3 rule 5]; format 4's file is byte for byte the
    one the options gave before these verbs."""
    demo = finished_demo("dtp_denmark_strait").out
    turn = next(
        t.name[:3]
        for t in sorted((demo / "game" / "turns").iterdir())
        for f in t.glob("options-*.json")
        if f'"kind":"{kind}"'.encode() in f.read_bytes()
    )
    module, rs, state, report = demo_step(demo, "dtp_denmark_strait", turn)
    side = state.active_side
    view = rs.view(module, state, side)
    old, new = (draft_options(module, rs, report, "0" * 64, view, side, v) for v in (4, 5))
    assert old["format"].endswith("/4") and new["format"].endswith("/5")
    kinds = {c["kind"] for e in new["units"].values() for c in e["choices"]}
    assert kind in kinds
    assert not {c["kind"] for e in old["units"].values() for c in e["choices"]} & {
        "cap",
        "box",
        "base",
    }
    _without_since_5(rs, monkeypatch)
    before = draft_options(module, rs, report, "0" * 64, view, side, 4)
    assert compact_json(before) == compact_json(old)


def test_the_published_dtp_files_are_todays_format(finished_demo: Any) -> None:
    """Every step of the Denmark Strait demo publishes today's format, and the demo's
    ``verify`` of the whole archive (which renders each file again in the format it names)
    passed: a failed step stops the demo."""
    demo = finished_demo("dtp_denmark_strait")
    formats = {
        json.loads(f.read_bytes())["format"]
        for f in (demo.out / "game" / "turns").glob("*/options-*.json")
    }
    assert formats == {OPTIONS_FORMAT} == {"referee-draft-options/8"}
    assert "Anyone can check the whole game" in demo.printed


def test_sixth_fleet_reinforcement_places_only_in_format_5(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Campaign's Reinforcement Interphase [12.2] (the conformance case 094's position):
    format 5 offers the reinforcement's ``place`` on its entry hex [12.21]; format 4's file
    is byte for byte the one the options gave before (no unit of the side listed)."""
    from referee.engine.ruleset import get_ruleset
    from tests.conformance.rulesets.sixth_fleet_1975 import build_state, fixture_module

    folder = Path(__file__).resolve().parents[1] / "conformance" / "sixth_fleet_1975"
    case = json.loads((folder / "094-12.21-reinforcement-with-loc.json").read_text())
    module = fixture_module(case["position"].get("module", "sf75ex"))
    state = build_state(module, case["position"])
    rs = get_ruleset(module.ruleset)
    side = case["position"]["side"]
    view = rs.view(module, state, side)
    report = {
        "game_id": state.game_id,
        "after": {"turn": state.turn, "phase": state.phase},
        "awaiting": {"side": side, "due": [{"side": side}]},
    }
    old, new = (draft_options(module, rs, report, "0" * 64, view, side, v) for v in (4, 5))
    assert [c["order"] for c in new["units"]["US-F4.3"]["choices"]] == [
        "place US-F4.3 1220",
        "stack",
    ]
    assert new["section"] == "reinforcement" and old["units"] == {}
    _without_since_5(rs, monkeypatch)
    before = draft_options(module, rs, report, "0" * 64, view, side, 4)
    assert compact_json(before) == compact_json(old)


def test_sixth_fleet_2019_divert_only_in_format_5(
    finished_demo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 2019 demo, NATO's first Action Phase (the referee's record of the position): format
    5 offers each air unit's standing ``divert`` [8.3.2], composed from its side's bases and
    holding boxes; format 4's file is byte for byte the one the options gave before it."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    demo = finished_demo("sixth_fleet_2019").out
    turn = "003-NATO-nato_events"
    state = GameState.from_json(
        json.loads((demo / "game" / "secret" / "turns" / turn / "state.json").read_bytes())
    )
    report = json.loads((demo / "game" / "turns" / turn / "report.json").read_bytes())
    src = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet_2019"
    module = load_module(src)[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    view = rs.view(module, state, "NATO")
    old, new = (draft_options(module, rs, report, "0" * 64, view, "NATO", v) for v in (4, 5))
    diverts = [c for e in new["units"].values() for c in e["choices"] if c["kind"] == "divert"]
    assert diverts and all(c["section"] == "standing" and c["from"] for c in diverts)
    assert not [c for e in old["units"].values() for c in e["choices"] if c["kind"] == "divert"]
    _without_since_5(rs, monkeypatch)
    before = draft_options(module, rs, report, "0" * 64, view, "NATO", 4)
    assert compact_json(before) == compact_json(old)
