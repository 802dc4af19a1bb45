"""The options files a viewer drafts from are versioned (issue 28): a step that published
format 1 -- before the DTP, naval and Carrier Battlegroup options gave order lines -- still
verifies, since ``verify`` renders a file again in the format it names; a file whose format
was changed after publication is caught.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import referee.pbem.draft_options as drafts
from tests.pbem.cliflow import Table

pytestmark = pytest.mark.slow

NAVAL = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"


def _published(game: Path) -> tuple[Path, dict]:
    turn = sorted((game / "turns").iterdir())[-1]
    path = next(turn.glob("options-*.json"))
    return path, json.loads(path.read_bytes())


def test_a_format_1_step_still_verifies_and_a_changed_format_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path, NAVAL, ("Soviet", "Axis"))
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.archive import Archive
    from referee.pbem.draft_options import draft_options
    from referee.source.loader import load_module

    module = load_module(NAVAL)[0]
    assert module is not None
    rs = get_ruleset("naval_module")
    monkeypatch.setattr(drafts, "OPTIONS_VERSION", 1)  # the referee of format 1
    table.new("kerch_feodosia")
    for _ in range(4):  # empty files until a step where today's format gives order lines
        path, old = _published(table.game)
        side = old["side"]
        state = GameState.from_json(json.loads((table.game / "state.json").read_bytes()))
        turn = Archive(table.game).turn_dirs()[-1]
        report = json.loads((turn.path / "report.json").read_bytes())
        view = rs.view(module, state, side)
        now = draft_options(module, rs, report, old["report_sha256"], view, side, 2)
        if any(e["choices"] for e in now["units"].values()):
            break
        table.send(side, *old["header"], f"[{old['section']}]")
    monkeypatch.undo()
    assert old["format"] == "referee-draft-options/1"
    assert old["units"] and all(not e["choices"] for e in old["units"].values())  # marks only
    assert now["format"] == "referee-draft-options/2"
    assert set(now["units"]) >= set(old["units"])  # today's: order lines too
    assert any(e["choices"] for e in now["units"].values()), now
    code, got = table.verify()
    assert code == 0, got
    path.write_bytes(path.read_bytes().replace(b"draft-options/1", b"draft-options/2"))
    code, got = table.verify()
    assert code != 0, got
    assert path.name in json.dumps(got), got
