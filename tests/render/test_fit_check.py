"""`referee check` refuses what `build` and `sheets` would refuse: a counter text that cannot
fit its layout box at the legible minimum, every such box at once, at its line in module.toml."""

from __future__ import annotations

import re
from pathlib import Path

from referee.cli import app
from tests.clirun import Runner


def _shrink_value_boxes(src: Path) -> list[int]:
    """Make every value-line box of the mini layouts 0.2 wide; returns their box lines."""
    toml = src / "module.toml"
    lines = toml.read_text(encoding="utf-8").splitlines()
    box_lines, last_box = [], 0
    for n, line in enumerate(lines):
        if line.strip() == "[[counter.layout.box]]":
            last_box = n + 1
        if line.startswith('text = "{AA}'):
            box_lines.append(last_box)
        if line.strip() == "w = 0.96":
            lines[n] = "w = 0.2"
    toml.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return box_lines


def test_check_passes_a_source_whose_counters_fit(mini_copy: Path) -> None:
    r = Runner().invoke(app, ["check", str(mini_copy)])
    assert r.exit_code == 0, r.output


def test_check_reports_every_box_a_counter_text_overflows(mini_copy: Path, tmp_path: Path) -> None:
    box_lines = _shrink_value_boxes(mini_copy)
    assert len(box_lines) == 2  # the naval and the air value lines
    r = Runner().invoke(app, ["check", str(mini_copy)])
    assert r.exit_code == 1, r.output
    found = re.findall(r"module\.toml:(\d+): error: unit \S+: text '[^']+' does not fit", r.output)
    assert sorted(int(n) for n in found) == box_lines, r.output
    assert "under the legible minimum of 4.0 pt" in r.output
    # and sheets refuses the same source, so check is the earlier warning, not a different rule
    s = Runner().invoke(app, ["sheets", str(mini_copy), "-o", str(tmp_path / "o"), "-q"])
    assert s.exit_code != 0 and "does not fit" in s.output + str(s.exception)


def test_check_json_lists_the_fit_errors(mini_copy: Path) -> None:
    import json

    _shrink_value_boxes(mini_copy)
    r = Runner().invoke(app, ["check", str(mini_copy), "--json"])
    data = json.loads(r.output)
    assert data["ok"] is False
    assert sum("does not fit box" in e["message"] for e in data["errors"]) == 2
