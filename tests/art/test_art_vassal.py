"""Real VASSAL on a module whose board is a designer's picture, turned and scaled, and whose
counters are cut from a sheet: it loads without a warning and reports every piece of every
set-up, and of a save spreading the pieces over the map, on the intended hex (the grid VASSAL
gets is the one the anchors fitted); the piece images are the cut art."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image, ImageChops

from referee.engine.ruleset import get_ruleset
from referee.source.loader import load_module
from referee.vassal.module.palette import face_image
from referee.vassal.position.placement import table_for
from referee.vassal.position.savewriter import Placed, build_save
from referee.vassal.position.setups import SETUP_GAME_ID, build_module_with_setups
from tests.art.pictures import Placement, add_sheet, art_source
from tests.vassal.vcheck_run import pieces, run_vcheck

pytestmark = pytest.mark.vassal
MAIN_MAP = "Main Map"


def test_real_vassal_puts_every_piece_on_its_hex_of_the_picture(tmp_path: Path) -> None:
    src, _ = art_source(tmp_path, Placement(131.0, -3.0, 200.0, 260.0), size=(1500, 1250))
    faces = add_sheet(src)  # and counters cut from a sheet, front and back
    module, diags = load_module(src)
    assert module is not None, [str(d) for d in diags.errors]
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    with zipfile.ZipFile(vmod) as z:
        board = etree.fromstring(z.read("buildFile.xml")).iter(
            "VASSAL.build.module.map.boardPicker.Board"
        )
        assert any(b.get("image") for b in board)
        # the piece images are the cut art, scaled once to the module's piece size
        for unit in module.units:
            for back, art in ((False, faces[unit.id][0]), (True, faces[unit.id][1])):
                got = Image.open(io.BytesIO(z.read("images/" + face_image(unit, back))))
                want = art.resize(got.size, Image.Resampling.LANCZOS)
                diff = ImageChops.difference(got.convert("RGB"), want.convert("RGB"))
                assert diff.getbbox() is None, (unit.id, back)
    expected: dict[str, dict[str, str]] = {}
    for sc in module.scenarios.values():
        state = get_ruleset(module.ruleset).new_game(module, sc.id, SETUP_GAME_ID, ())
        units = state.to_json()["units"]
        expected[f"setup:{sc.name}"] = {u["id"]: u["location"] for u in units if u["location"]}
    # every piece of the mix on its own hex, spread over the whole map
    table = table_for(module)
    ids = sorted(module.pieces())
    hexes = sorted(module.map.hexes)
    step = max(1, len(hexes) // len(ids))
    spread = {pid: hexes[(i * step) % len(hexes)] for i, pid in enumerate(ids)}
    stacks = []
    for pid, hid in spread.items():
        map_id, x, y = table.location_point(hid)
        stacks.append([Placed(pid, map_id, x, y)])
    save = tmp_path / "spread.vsav"
    save.write_bytes(build_save(table, stacks, description="spread over the picture"))
    expected[str(save.resolve())] = spread
    code, stderr, out = run_vcheck(vmod, [str(save)], tmp_path / "vcheck.txt")
    problems = [ln for ln in out.splitlines() if ln.startswith("PROBLEM")]
    assert code == 0 and problems == [], stderr + "\n".join(problems)
    seen = pieces(out)
    for source, want in expected.items():
        got = seen[source]
        wrong = {u: (h, got.get(u)) for u, h in want.items() if got.get(u) != (MAIN_MAP, h)}
        assert wrong == {}, source
    assert sum(len(v) for v in expected.values()) >= 10
    # an art counter keeps its values as properties (VASSAL reports them)
    cv = next(
        ln.split("\t")[-1]
        for ln in out.splitlines()
        if ln.startswith("PIECE") and "UnitId=US-CV-1;" in ln + ";"
    )
    assert "DEF=12" in cv.split(";") and "MA=4" in cv.split(";")
