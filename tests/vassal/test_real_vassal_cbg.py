"""Real VASSAL loads the Carrier Battlegroup module and a solitaire game's player positions
without a warning, and every piece reports its space's name (issue 14 §5).

Runs ``../shared/tools/vassal-check/vcheck`` on the built module (both scenario set-ups) and
the ``position-USN.vsav`` of every step of ``referee.demo_solitaire``. Marked ``vassal``
(about 30 s); skipped where the checker is absent, as ``test_real_vassal.py`` explains.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from referee import demo_solitaire
from referee.source.loader import load_module
from referee.vassal.setups import build_module_with_setups
from tests.vassal.test_real_vassal import MAIN_MAP
from tests.vassal.vcheck_run import pieces, run_vcheck

pytestmark = pytest.mark.vassal


@pytest.fixture(scope="module")
def vassal_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str, Path]:
    out = tmp_path_factory.mktemp("real-vassal-cbg")
    module, _ = load_module(demo_solitaire.SRC)
    assert module is not None
    vmod = build_module_with_setups(module, out / "vassal", workers=1).path
    with contextlib.redirect_stdout(io.StringIO()):
        game = demo_solitaire.demo(out / "demo", play_aids_too=False)
    saves = sorted(str(p) for p in (game / "turns").glob("*/position-USN.vsav"))
    assert len(saves) >= 5
    code, stderr, text = run_vcheck(vmod, saves, out / "vcheck.txt")
    return code, stderr, text, game


def test_vassal_loads_the_module_and_the_player_positions(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    code, stderr, out, _ = vassal_run
    problems = [ln for ln in out.splitlines() if ln.startswith("PROBLEM")]
    assert code == 0, stderr + "\n".join(problems)


def test_every_piece_reports_its_space_name(vassal_run: tuple[int, str, str, Path]) -> None:
    _, _, out, game = vassal_run
    seen = pieces(out)
    checked = 0
    for turn in sorted((game / "turns").iterdir()):
        save = turn / "position-USN.vsav"
        if not save.is_file():
            continue
        view = json.loads((turn / "view-USN.json").read_text(encoding="utf-8"))["state"]
        want = {u["id"]: u["location"] for u in view["units"] if u.get("location")}
        got = seen[str(save.resolve())]
        wrong = {u: (s, got.get(u)) for u, s in want.items() if got.get(u) != (MAIN_MAP, s)}
        assert wrong == {}, f"{save}: unit -> (its space, VASSAL's (map, location))"
        assert set(got) <= set(want)  # VASSAL shows the player nothing the view hides
        checked += len(want)
    assert checked > 20
