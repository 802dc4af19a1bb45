"""``make demo-declared`` (issue 30): the declared game's demo signs and adjudicates its
example orders, says in every report what it referees and what not, and verifies."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.conftest import DemoRun


def test_the_declared_demo_plays_rolls_and_verifies(
    finished_demo: Callable[[str], DemoRun],
) -> None:
    run = finished_demo("strait_patrol")
    assert "replay matches" in run.printed
    table = run.printed.split("== Every bundled game")[1]
    row = next(ln for ln in table.splitlines() if ln.strip().startswith("Strait Patrol"))
    assert "ok, verified" in row and "make demo-declared" in row
    reports = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((run.out / "game" / "turns").glob("*/report.json"))
    ]
    assert len(reports) == 6  # report 000 and the five example orders files
    kinds = [e["kind"] for r in reports[1:] for e in r["events"]]
    assert kinds.count("roll") == 3  # one free roll [G3], two on the Gunnery Table [G4]
    for r in reports[1:]:
        assert "not its rules" in r["events"][0]["text"]
