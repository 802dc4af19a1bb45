"""``referee state new`` writes the start ``referee new`` records (issue 27): the VASSAL
piece version included (``vassal_pieces``, :mod:`referee.vassal.module.piece_versions`), so
a position written from it has today's pieces, and a game begun from it the saves it will
be proved with. Before, it wrote the ruleset's bare new game: a state with no version, whose
saves fell back to the first pieces (no movement trail, no masked face-down counters)."""

from __future__ import annotations

import json
from pathlib import Path

from referee.cli import app
from referee.engine.ruleset import get_ruleset
from referee.pbem.rulings import new_start
from referee.source.loader import load_module
from referee.vassal.module import piece_versions as pv
from tests.clirun import Runner

ROOT = Path(__file__).resolve().parents[2]
RUN = Runner()


def test_state_new_records_the_piece_version_as_referee_new_does(tmp_path: Path) -> None:
    out = tmp_path / "state.json"
    r = RUN.invoke(
        app,
        ["state", "new", "--example", "carrier_battlegroup", "--scenario", "mission",
         "--game-id", "g1", "-o", str(out), "-q"],
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text(encoding="utf-8"))["data"]
    assert data[pv.PIECES_KEY] == pv.CURRENT
    assert pv.recorded_version(data) == pv.CURRENT  # not the first pieces of an old game
    module, _ = load_module(ROOT / "module_src" / "carrier_battlegroup")
    assert module is not None
    start = new_start(get_ruleset(module.ruleset), module, "mission", "g1", ())
    assert out.read_text(encoding="utf-8") == start.canonical()  # the very start `new` records
