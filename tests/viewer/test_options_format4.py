"""Options format 4 (issue 28): move trees written compactly (each place's successors, each
label's ends), names with spaces quoted so the naval module's zone and port moves are a tree
too, and every move of a unit in its tree (the 400-line cap counts the other choices only).
The naval demo's largest step was 726 KB in format 3, its ships cut at 400 moves each; in
format 4 it offers every move ``referee options`` lists in a few hundred KB at most. A file
of format 3 is still rendered byte for byte as format 3 wrote it, so its archive verifies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import referee.pbem.draft_options as drafts
from referee.pbem.draft_options import MAX_CHOICES, MAX_LINES, draft_options, offered_lines

pytestmark = pytest.mark.slow

SRC = Path(__file__).resolve().parents[2] / "module_src"
BUDGET = 300_000
"""Bytes of one side's options file at one step: "a few hundred KB for the options of a
large position" (issue 28 item 3)."""


def _largest(demo: Path) -> Path:
    files = sorted((demo / "game" / "turns").glob("*/options-*.json"))
    return max(files, key=lambda f: (f.stat().st_size, f.as_posix()))


def test_naval_largest_step_offers_every_move_within_the_budget(finished_demo: Any) -> None:
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    demo = finished_demo("naval_module").out
    f = _largest(demo)
    published = f.read_bytes()
    doc = json.loads(published)
    assert doc["format"] == drafts.OPTIONS_FORMAT  # today's: format 4's trees (and 5's forces)
    assert len(published) < BUDGET, len(published)
    module = load_module(SRC / "naval_module")[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    state = GameState.from_json(json.loads((f.parent / "state.json").read_bytes()))
    view = rs.view(module, state, doc["side"])
    offered = offered_lines(doc)
    moves = 0
    for uid, lines in offered.items():
        want = [c["order"] for c in rs.options(module, view, uid, limit=MAX_LINES).data["orders"]]
        assert sorted(lines) == sorted(want), uid  # every line, none more
        assert len(set(lines)) == len(lines)
        moves += len(lines)
    assert moves > 12 * 400  # more than format 3's cap left
    report = json.loads((f.parent / "report.json").read_bytes())
    old = draft_options(module, rs, report, doc["report_sha256"], view, doc["side"], 3)
    assert old["format"] == "referee-draft-options/3"
    assert len(drafts.compact_json(old)) > 4 * len(published)
    for uid, lines in offered_lines(old).items():  # format 3 offered a part of them
        assert set(lines) <= set(offered[uid]), uid


def test_format_4_trees_spell_the_same_lines_as_format_3(finished_demo: Any) -> None:
    """Sixth Fleet's largest step (NATO's movement, move trees of hexes): the two formats
    offer the same order lines, format 4 in fewer bytes, except that format 3 cut a unit
    at 400 lines before its moves went in a tree (an air unit's reach: its standing
    orders lost too) and format 4 keeps them all."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.source.loader import load_module

    demo = finished_demo("sixth_fleet").out
    f = _largest(demo)
    new = json.loads(f.read_bytes())
    assert new["format"] == drafts.OPTIONS_FORMAT and new["trees"]
    assert all(set(t) == {"kids", "labels"} for t in new["trees"])
    module = load_module(SRC / "sixth_fleet")[0]
    assert module is not None
    rs = get_ruleset(module.ruleset)
    state = GameState.from_json(json.loads((f.parent / "state.json").read_bytes()))
    report = json.loads((f.parent / "report.json").read_bytes())
    view = rs.view(module, state, new["side"])
    old = draft_options(module, rs, report, new["report_sha256"], view, new["side"], 3)
    assert all(set(t) == {"prev", "ends"} for t in old["trees"])
    a, b = offered_lines(old), offered_lines(new)
    assert set(a) == set(b)
    cut = 0
    for uid, lines in a.items():
        assert set(lines) <= set(b[uid]), uid
        if len(lines) < MAX_CHOICES:
            assert sorted(lines) == sorted(b[uid]), uid
        else:
            cut += 1
            assert len(b[uid]) > MAX_CHOICES, uid
    assert cut  # the step has a unit format 3 cut short
    assert len(drafts.compact_json(new)) < len(drafts.compact_json(old))


def test_a_format_3_archive_still_verifies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game published by the referee of format 3 verifies with today's, which renders
    each file again in format 3; the same file claimed as format 4 is caught."""
    from tests.pbem.cliflow import Table

    table = Table(tmp_path, SRC / "naval_module", ("Soviet", "Axis"))
    monkeypatch.setattr(drafts, "OPTIONS_VERSION", 3)
    table.new("kerch_feodosia")
    for _ in range(3):
        turn = sorted((table.game / "turns").iterdir())[-1]
        path = next(turn.glob("options-*.json"))
        old = json.loads(path.read_bytes())
        if old["units"]:
            break
        table.send(old["side"], *old["header"], f"[{old['section']}]")
    monkeypatch.undo()
    assert old["format"] == "referee-draft-options/3" and old["units"], old
    code, got = table.verify()
    assert code == 0, got
    path.write_bytes(path.read_bytes().replace(b"draft-options/3", b"draft-options/4"))
    code, got = table.verify()
    assert code != 0, got
    assert path.name in json.dumps(got), got
