"""Real VASSAL 3.7.26 loads what we write, without a warning, every piece in its hex.

Runs ``../shared/tools/vassal-check/vcheck`` (the real VASSAL engine, headless under Xvfb) on
the built Sixth Fleet module, which carries both scenario set-ups, and on the position saves
of a demo game (``referee.demo`` without its play aids, into a temporary folder). vcheck exits
0 only when VASSAL logged no warning or error; it also lists every piece with the location
name VASSAL itself gives it, which must be the hex the referee's state puts the unit in.

About 20-40 s (Java start-up, two set-ups and seven saves), so it is marked ``vassal``:
``pytest -m "not vassal"`` leaves it out. Where the checker or its prerequisites (Java, Xvfb)
are missing it is skipped with the reason, except under ``CI=true`` when the checker is
there: then a missing prerequisite is a failure, not a silent skip.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from referee.demo import DEMO_SCENARIO, SRC, demo
from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.vassal.setups import SETUP_GAME_ID, build_module_with_setups

ROOT = Path(__file__).resolve().parents[2]
VCHECK = ROOT.parent / "shared" / "tools" / "vassal-check" / "vcheck"
MAIN_MAP = "Main Map"

pytestmark = pytest.mark.vassal


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"under CI=true the real-VASSAL check must run, but {reason}")
    pytest.skip(reason)


def _pieces(out: str) -> dict[str, dict[str, tuple[str, str]]]:
    """``PIECE`` lines of vcheck's output by load source, then unit id: (map, location)."""
    by_source: dict[str, dict[str, tuple[str, str]]] = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "LOAD":
            by_source.setdefault(f[1], {})
        if f[0] != "PIECE":
            continue
        source, map_name, location, props = f[1], f[2], f[5], f[-1]
        unit = dict(p.split("=", 1) for p in props.split(";") if "=" in p).get("UnitId")
        if unit:
            by_source.setdefault(source, {})[unit] = (map_name, location)
    return by_source


def _hexes(state: dict[str, object]) -> dict[str, str]:
    units = state["units"]
    assert isinstance(units, list)
    return {u["id"]: u["location"] for u in units if u.get("location")}


@pytest.fixture(scope="module")
def vassal_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str, Path]:
    if not VCHECK.is_file():
        pytest.skip(f"the real-VASSAL checker is not here ({VCHECK}); it lives in ../shared")
    out = tmp_path_factory.mktemp("real-vassal")
    module, _ = load_module(SRC)
    assert module is not None
    vmod = build_module_with_setups(module, out / "vassal", workers=1).path
    with contextlib.redirect_stdout(io.StringIO()):
        game = demo(out / "demo", play_aids_too=False)
    saves = sorted(str(p) for p in (game / "turns").glob("*/position.vsav"))
    assert len(saves) >= 8
    listing = out / "vcheck.txt"
    env = dict(os.environ, VCHECK_OUT=str(listing))
    env.pop("VCHECK_ALLOW", None)
    proc = subprocess.run(
        [str(VCHECK), str(vmod), *saves],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    if proc.returncode == 2 and "missing" in proc.stderr:
        _unavailable("vcheck's prerequisites are missing: " + proc.stderr.strip())
    text = listing.read_text(encoding="utf-8") if listing.is_file() else ""
    return proc.returncode, proc.stderr, text, game


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
    seen = _pieces(out)
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
    assert DEMO_SCENARIO in module.scenarios
    for source, hexes in expected.items():
        assert source in seen, f"VASSAL did not load {source}"
        got = seen[source]
        wrong = {u: (h, got.get(u)) for u, h in hexes.items() if got.get(u) != (MAIN_MAP, h)}
        assert wrong == {}, f"{source}: unit -> (intended hex, VASSAL's (map, location))"
        checked += len(hexes)
    assert checked > 500  # both set-ups and eight demo positions, hundreds of placements
