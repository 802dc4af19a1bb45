"""Pictures of each bundled module's main map with a set-up at 100 %, drawn by real VASSAL
3.7.26 under Xvfb (``tests/vassal/java/VPlay.java``: the boards, then the pieces as the map
draws them), kept under ``build/vassal-pictures/`` to look at (issue 27). Each run checks
what a player would see there:

* no stack covers a place name the board writes (the stack as VASSAL draws it: its bottom
  counter and each one above 2 px right and 4 px up, against ``board_layers.name_boxes``),
  except the names listed in ``STILL_COVERED``;
* on a hex map a counter fits its hex: no wider than the hex is high, and no wider than
  the columns are apart, so counters of neighbouring hexes never overlap.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from referee.render.board import board_layout
from referee.render.board_layers import name_boxes
from referee.source.loader import load_module
from referee.vassal.module.layers import STACK_STEP
from referee.vassal.module.module_writer import plan_build
from tests.conftest import bundled_vmod
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
PICTURES = ROOT / "build" / "vassal-pictures"
# Names a stack still covers (not yet done, issue 27): a small island or strait whose zone
# has no room for a counter beside its name, the track boxes whose title fills the box, and
# on the naval and Carrier Battlegroup maps a port's or space's counters, which stand on its
# point right above the name the board writes under it.
STILL_COVERED = {
    "sixth_fleet_2019": {
        "Cyprus", "Malta", "Naples", "Turkish Straits", "NATO Actions 0", "Soviet Actions 0",
        "Turn 1",
    },
    "carrier_battlegroup": {"NATO Base (Britain)"},
}  # fmt: skip
MODULES = sorted(p.name for p in (ROOT / "module_src").iterdir() if (p / "module.toml").is_file())


@pytest.mark.parametrize("name", MODULES)
def test_counters_fit_their_hexes(name: str) -> None:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    if module.map.grid is None:
        pytest.skip("no hex grid")
    lay = board_layout(module, 150)
    side = plan_build(module).counter_px
    across = lay.grid.hex_width  # corner to corner of a flat-topped hex, or flat to flat
    high = across * 3**0.5 / 2 if module.map.grid.orientation == "flat" else across
    apart = across * 0.75 if module.map.grid.orientation == "flat" else across
    assert side <= high and side <= apart, (side, across, high, apart)


def _first_setup(name: str) -> str:
    with zipfile.ZipFile(bundled_vmod(name)) as z:
        return sorted(n for n in z.namelist() if n.startswith("setup_") and n.endswith(".vsav"))[0]


def _picture(name: str) -> Path:
    return PICTURES / f"{name}-{_first_setup(name).removesuffix('.vsav')}.png"


@plays(*MODULES, request="picture")
def _main_map_picture(stage: Stage) -> list[str]:
    """The main map drawn at 100 % with the module's first set-up (the save in its .vmod)."""
    setup = _first_setup(stage.name)
    save = stage.folder / setup
    with zipfile.ZipFile(bundled_vmod(stage.name)) as z:
        save.write_bytes(z.read(setup))
    PICTURES.mkdir(parents=True, exist_ok=True)
    return ["--picture", str(save), "Main Map", str(_picture(stage.name))]


@pytest.mark.vassal
@pytest.mark.parametrize("name", MODULES)
def test_picture_of_the_main_map_with_its_set_up(name: str) -> None:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    out = played(name, "picture")  # the module's one VPlay run of the session, exit 0
    picture = _picture(name)
    assert records(out, "PICTURE") and picture.stat().st_size > 10_000
    plan = plan_build(module)
    names = name_boxes(module, board_layout(module, plan.dpi))
    if not names:
        return
    half, (sx, sy) = plan.counter_px / 2, STACK_STEP
    hidden = []
    for f in records(out, "PIECE"):
        if f[1] != "Main Map" or not f[6].startswith("1/"):
            continue  # the bottom counter of each stack on the main map
        x, y, more = int(f[2]), int(f[3]), int(f[6].split("/")[1]) - 1
        box = (x - half, y - half - sy * more, x + half + sx * more, y + half)
        hidden += [
            (f[4], n)
            for n, b in names.items()
            if b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3]
        ]
    allowed = STILL_COVERED.get(name, set())
    if name == "naval_module" and module.map.spaces is not None:
        allowed |= set(module.map.spaces.spaces)  # the ports
    wrong = [(where, n) for where, n in hidden if n not in allowed]
    assert wrong == [], "(stack's location, the place name it covers)"
