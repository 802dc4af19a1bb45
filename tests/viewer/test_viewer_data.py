"""The viewer's data without a browser (referee/viewer/data.py): placements kept as
changes rebuild every step's position, an attack carries its marks, differential and die,
and nothing in the data can end the script element it sits in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.demos.sixth_fleet_1975 import SRC
from referee.source.loader import load_module
from referee.viewer.data import step_from_view, viewer_model
from referee.viewer.page import script_json


def _model(demo_game: Path, side: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    module, _ = load_module(SRC)
    assert module is not None
    views = [
        json.loads((f / f"view-{side}.json").read_text())
        for f in sorted((demo_game / "game/turns").iterdir())
    ]
    return viewer_model(module, [step_from_view(v) for v in views], side=side, referee="r"), views


def test_the_changes_rebuild_every_steps_position(demo_game: Path) -> None:
    model, views = _model(demo_game, "NATO")
    shown: dict[str, list[Any]] = {}
    for step, view in zip(model["steps"], views, strict=True):
        for u in step["gone"]:
            del shown[u]
        shown.update(step["set"])
        want = {u["id"]: (u["location"], u["box"], u["status"]) for u in view["state"]["units"]}
        assert {u: (p[0], p[1], p[2]) for u, p in shown.items()} == want
        for ids in view["state"]["stacks"].values():
            assert [shown[u][3] for u in ids] == list(range(len(ids)))  # stack order
    # only changes are kept: the step after a combat changes few units
    assert 0 < len(model["steps"][7]["set"]) < len(views[7]["state"]["units"]) / 4
    assert set(model["units"]) == {u["id"] for v in views for u in v["state"]["units"]}


def test_an_attack_carries_its_marks_differential_and_die(demo_game: Path) -> None:
    model, views = _model(demo_game, "Soviet")
    step = model["steps"][6]
    # the die follows from the signed record (docs/dice.md), so it is read from the report
    recorded = next(e for e in views[6]["report"]["events"] if e["kind"] == "roll")
    roll = recorded["data"]["roll"]
    attack = next(e for e in step["events"] if e["kind"] == "attack")
    assert attack["rule"] == "8.0" and attack["data"]["differential"] == "126"
    assert attack["dice"] == [{"roll": roll, "rule": "8.9", "text": recorded["text"]}]
    assert recorded["text"] == f"die {roll}: retreat"  # the demo's retreat (any of 1..6 at 126)
    assert {m[0] for m in attack["marks"]} == {"attack"}
    assert all(m[1][-1] == "1720" for m in attack["marks"])
    assert step["rolls"][0]["value"] == roll and len(step["rolls"][0]["hmac"]) == 64
    assert step["pending"][0]["id"] == "D2-1" and step["score"]["level"] == "Draw"


def test_the_json_cannot_close_its_script_element() -> None:
    text = script_json({"text": "</script><script>alert(1)</script>&\u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"text": "</script><script>alert(1)</script>&\u2028"}
