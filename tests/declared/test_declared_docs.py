"""The complete example of ``docs/declared-games.md`` is a real game: its files, copied as
the page says, check clean, build, and play Blue's orders shown there by email."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.pbem.cliflow import Table, cli

PAGE = Path(__file__).resolve().parents[2] / "docs" / "declared-games.md"
BLOCK = re.compile(r"<!-- (file|orders): ([^>]+?) -->\n```\w*\n(.*?)^```$", re.M | re.S)


def _blocks() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(3)) for m in BLOCK.finditer(PAGE.read_text())]


def test_the_page_holds_a_whole_game(tmp_path: Path) -> None:
    files = [(name, body) for kind, name, body in _blocks() if kind == "file"]
    assert {n for n, _ in files} >= {"module.toml", "units.csv", "map.toml", "map.txt"}
    src = tmp_path / "two_fords"
    for name, body in files:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(body, encoding="utf-8")
    code, out = cli("check", src)
    assert code == 0 and "(declared)" in out, out
    code, out = cli("build", src, "-o", tmp_path / "out")
    assert code == 0, out
    orders = next(body for kind, _, body in _blocks() if kind == "orders")
    t = Table(tmp_path / "play", src, ("Blue", "Red"))
    t.new("fords")
    t.send("Blue", *orders.replace("game: fords-1", "game: g").splitlines())
    report = json.loads(sorted((t.game / "turns").glob("*/report.json"))[-1].read_text())
    texts = [e["text"] for e in report["events"]]
    assert "not its rules" in texts[0] and "B-1 moves to 0301 by 0201" in texts
    rolls = [e for e in report["events"] if e["kind"] == "roll"]
    assert [e["rule"] for e in rolls] == ["G4", "G3"] and rolls[0]["data"]["column"] == "odds_2_1"
    code, verdict = t.verify()
    assert code == 0, verdict
