"""The declared game of the tests: Strait Patrol, deployed and played two Game-Turns by
email (each test module gets its own copy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.pbem.cliflow import Table

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "module_src" / "strait_patrol"


def orders_lines(side: str, turn: int, *lines: str, phase: str | None = None) -> tuple[str, ...]:
    head = ["game: g", f"turn: {turn}", f"side: {side}"]
    if phase:
        head.append(f"phase: {phase}")
    return (*head, "", "[orders]", *lines)


def reports_of(t: Table) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((t.game / "turns").glob("*/report.json"))]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """Deployment, then two Game-Turns with free rolls and rolls on the Gunnery Table."""
    t = Table(tmp_path_factory.mktemp("declared"), SRC, ("North", "South"))
    t.new("patrol")
    steps = [
        ("North", 0, "place N-DD-1 0301", "place N-DD-2 0401", "place N-SS-1 0601"),
        ("South", 0, "place S-DD-1 0308", "place S-DD-2 0408", "place S-SS-1 0508"),
        ("North", 1, "move N-DD-1 0302 0303 0304", 'roll 2d6 for "N-DD-1 spots at 0304"',
         "mark N-DD-1 spotted"),
        ("South", 1, "move S-DD-1 0307 0306 0305", "roll 2d6 on gunnery light", "flip S-DD-2"),
        ("North", 2, "roll 2d6+1 on gunnery heavy", "unmark N-DD-1 spotted", "eliminate N-SS-1"),
    ]  # fmt: skip
    for i, (side, turn, *lines) in enumerate(steps):
        t.send(side, *orders_lines(side, turn, *lines, phase="deploy_north" if i == 0 else None))
    return t
