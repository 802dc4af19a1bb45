"""Real VASSAL 3.7.26 loads what we write, without a warning, every piece in its hex.

Runs ``../shared/tools/vassal-check/vcheck`` (the real VASSAL engine, headless under Xvfb) on
the built Sixth Fleet module, which carries both scenario set-ups, and on the position saves
of the session's Sixth Fleet demo game (``finished_demo`` in ``tests/conftest.py``). vcheck
exits 0 only when VASSAL logged no warning or error; it also lists every piece with the location
name VASSAL itself gives it, which must be the hex the referee's state puts the unit in.

About 20-40 s (Java start-up, two set-ups and seven saves), so it is marked ``vassal``:
``pytest -m "not vassal"`` leaves it out. Where the checker or its prerequisites (Java, Xvfb)
are missing it is skipped with the reason, except under ``CI=true`` when the checker is
there: then a missing prerequisite is a failure, not a silent skip.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos.sixth_fleet_1975 import GAME, SRC
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.vassal.position.setups import SETUP_GAME_ID
from tests.conftest import bundled_vmod
from tests.vassal.vcheck_run import pieces, run_vcheck

if TYPE_CHECKING:
    from tests.conftest import DemoRun

MAIN_MAP = "Main Map"

pytestmark = pytest.mark.vassal


def _hexes(state: dict[str, object]) -> dict[str, str]:
    units = state["units"]
    assert isinstance(units, list)
    return {u["id"]: u["location"] for u in units if u.get("location")}


@pytest.fixture(scope="module")
def vassal_run(
    tmp_path_factory: pytest.TempPathFactory, finished_demo: Callable[[str], DemoRun]
) -> tuple[int, str, str, Path]:
    out = tmp_path_factory.mktemp("real-vassal")
    module, _ = load_module(SRC)
    assert module is not None
    vmod = bundled_vmod("sixth_fleet")
    game = finished_demo("sixth_fleet").game  # the session's demo game, read only
    saves = sorted(str(p) for p in (game / "turns").glob("*/position.vsav"))
    assert len(saves) >= 8
    code, stderr, text = run_vcheck(vmod, saves, out / "vcheck.txt")
    return code, stderr, text, game


def test_vassal_loads_module_setups_and_saves_without_a_warning(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    code, stderr, out, _ = vassal_run
    problems = [ln for ln in out.splitlines() if ln.startswith("PROBLEM")]
    assert code == 0, stderr + "\n".join(problems)
    assert problems == []


def test_every_piece_stands_where_the_state_puts_it(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    _, _, out, game = vassal_run
    seen = pieces(out)
    module, _ = load_module(SRC)
    assert module is not None
    checked = 0
    expected: dict[str, dict[str, str]] = {}
    for sc in module.scenarios.values():
        state = get_ruleset(module.ruleset).new_game(module, sc.id, SETUP_GAME_ID, ())
        expected[f"setup:{sc.name}"] = _hexes(state.to_json())
    for turn in sorted((game / "turns").iterdir()):
        if (turn / "position.vsav").is_file():
            state = json.loads((turn / "state.json").read_text(encoding="utf-8"))
            expected[str((turn / "position.vsav").resolve())] = _hexes(state)
    assert GAME.scenario in module.scenarios
    for source, hexes in expected.items():
        assert source in seen, f"VASSAL did not load {source}"
        got = seen[source]
        wrong = {u: (h, got.get(u)) for u, h in hexes.items() if got.get(u) != (MAIN_MAP, h)}
        assert wrong == {}, f"{source}: unit -> (intended hex, VASSAL's (map, location))"
        checked += len(hexes)
    assert checked > 500  # both set-ups and eight demo positions, hundreds of placements
