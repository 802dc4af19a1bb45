"""Real VASSAL loads the Carrier Battlegroup module and a solitaire game's player positions
without a warning, and every piece reports its space's name (issue 14 §5).

Runs ``../shared/tools/vassal-check/vcheck`` on the built module (both scenario set-ups) and
the ``position-USN.vsav`` of every step of ``referee.demos.carrier_battlegroup``. The face-down
counters
carry VASSAL's own Mask trait, and the Ship Display (system tracks), the Tactical Display
(Inner and Outer zones) and the Soviet Display (SBG boxes) are map windows of named boxes,
read both from the buildFile and from what VASSAL itself built. Marked ``vassal``
(about 30 s); skipped where the checker is absent, as ``test_real_vassal.py`` explains.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos import carrier_battlegroup as demo_solitaire
from referee.engine.ruleset import get_ruleset
from referee.rules.carrier_battlegroup.schema import TRACK_MARKERS
from referee.source.loader import load_module
from tests.conftest import bundled_vmod
from tests.pbem.cliflow import unsealed
from tests.vassal.test_real_vassal import MAIN_MAP
from tests.vassal.vcheck_run import pieces, run_vcheck

if TYPE_CHECKING:
    from tests.conftest import DemoRun

pytestmark = pytest.mark.vassal


@pytest.fixture(scope="module")
def vassal_run(
    tmp_path_factory: pytest.TempPathFactory, finished_demo: Callable[[str], DemoRun]
) -> tuple[int, str, str, Path]:
    out = tmp_path_factory.mktemp("real-vassal-cbg")
    module, _ = load_module(demo_solitaire.SRC)
    assert module is not None
    vmod = bundled_vmod("carrier_battlegroup")
    game = finished_demo("carrier_battlegroup").game  # the session's demo game, read only
    game = unsealed(game, out / "unsealed" / "game")  # the player's files, from his parts
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
        got = dict(seen[str(save.resolve())])
        for mark in TRACK_MARKERS:
            got.pop(mark.piece, None)  # the Ship Display's markers: checked below
        wrong = {u: (s, got.get(u)) for u, s in want.items() if got.get(u) != (MAIN_MAP, s)}
        assert wrong == {}, f"{save}: unit -> (its space, VASSAL's (map, location))"
        assert set(got) <= set(want)  # VASSAL shows the player nothing the view hides
        checked += len(want)
    assert checked > 20


def _track_boxes(data: dict[str, object]) -> dict[str, tuple[str, str]]:
    """Each track marker -> (Ship Display, the box of the value ``data`` records)."""
    out = {}
    for mark in TRACK_MARKERS:
        node: object = data
        for part in mark.data.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, int):
            out[mark.piece] = ("Ship Display", f"{mark.track} {node}")
    return out


def test_the_ship_display_markers_stand_at_the_engines_values(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    """[4.0 step 6], [9.2]: in every position the player receives, each system track's
    marker reports the box of the value the engine's state (his view) records; each
    scenario set-up shows the printed start values (CIC and CAG wait for their d6)."""
    _, _, out, game = vassal_run
    seen = pieces(out)
    saves = 0
    for turn in sorted((game / "turns").iterdir()):
        save = turn / "position-USN.vsav"
        if not save.is_file():
            continue
        view = json.loads((turn / "view-USN.json").read_text(encoding="utf-8"))["state"]
        want = _track_boxes(view["data"])
        # every track has its value, but CIC and CAG before set-up rolls them [4.0 step 6]
        assert len(want) == len(TRACK_MARKERS) - 2 * ("carrier_start" not in view["data"])
        got = {u: w for u, w in seen[str(save.resolve())].items() if u in want}
        assert got == want, save
        saves += len(want) == len(TRACK_MARKERS)
    assert saves >= 5
    module, _ = load_module(demo_solitaire.SRC)
    assert module is not None
    for sc in module.scenarios.values():
        start = get_ruleset(module.ruleset).new_game(module, sc.id, "setup")
        want = _track_boxes(start.data)
        assert want["US-TRK-HULL"] == ("Ship Display", "Hull 12")
        assert "US-TRK-CIC" not in want
        setup = next(v for k, v in seen.items() if k.endswith(sc.name) or sc.id in k)
        got = {u: w for u, w in setup.items() if u.startswith("US-TRK-")}
        assert got == want, sc.id


MASKED_BACKS = {"chit_back", "warship_back", "standoff_back", "coastal_back"}
DISPLAYS = {
    "Ship Display": {"CIC 0", "Hangar 8", "Flight Deck 6", "Air Defense 3", "Propulsion 6",
                     "EW 5", "Hull 12", "Crew 8", "CAG 6"},
    "Tactical Display": {"USN Outer Zone", "USN Inner Zone", "Soviet Inner Zone",
                         "Soviet Outer Zone"},
    "Soviet Display": {"SBG-1", "SBG-6", "Warship pool", "Incident chit pool"},
}  # fmt: skip


def _vmod(game: Path) -> Path:
    """The module the positions were loaded in: the session's build of the bundled source."""
    return bundled_vmod("carrier_battlegroup")


def test_face_down_counters_carry_vassals_mask_trait(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    _, _, out, game = vassal_run
    module, _ = load_module(demo_solitaire.SRC)
    assert module is not None
    masked = {p for p, pc in module.pieces().items() if pc.unit.back in MASKED_BACKS}
    assert {"SO-KIROV.1", "CHIT-UP.1", "ORD-O1"} <= masked
    with zipfile.ZipFile(_vmod(game)) as z:
        build = z.read("buildFile.xml").decode("utf-8")
    for line in build.splitlines():
        if "PieceSlot" not in line or 'entryName="' not in line:
            continue
        pid = line.split('entryName="', 1)[1].split(" ", 1)[0].split('"', 1)[0]
        if pid in masked:
            back = f"mask_{module.piece(pid).unit.back}.png"  # shared: it names no counter
            assert f"obs;70,130;{back};Face down;P;face-down " in line, pid  # no peek [1.0]
            mask = line.split("obs;", 1)[1].split("\t", 1)[0]  # the Mask's own fields
            assert module.piece(pid).unit.id not in mask and module.piece(pid).unit.name not in mask
        elif pid in module.pieces():
            assert "obs;" not in line, pid
    slots = {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "SLOT":
            slots[f[1].split(" ", 1)[0]] = f[3].split(",")
    assert all("Obscurable" in slots[p] for p in masked), "VASSAL built every Mask"
    assert "Obscurable" not in slots["US-CVN-68"]


def test_the_displays_are_map_windows_of_named_boxes(
    vassal_run: tuple[int, str, str, Path],
) -> None:
    _, _, out, game = vassal_run
    with zipfile.ZipFile(_vmod(game)) as z:
        build = z.read("buildFile.xml").decode("utf-8")
        names = set(z.namelist())
    maps: dict[str, set[str]] = {}
    current = None
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] != "COMP":
            continue
        if f[2] == "VASSAL.build.module.Map":
            current = f[3]
            maps.setdefault(current, set())
        elif f[2].endswith("mapgrid.Zone") and current is not None:
            maps[current].add(f[3])
    for name, boxes in DISPLAYS.items():
        assert boxes <= maps.get(name, set()), (name, sorted(maps.get(name, set()))[:8])
        assert f'mapName="{name}"' in build
        slug = name.lower().replace(" ", "_")
        assert f"images/display_{slug}.png" in names
    assert {f"images/mask_{b}.png" for b in MASKED_BACKS} <= names
