"""Counter sheets cut into counters: a sheet rendered from a known roster is cut back into
counters identical pixel for pixel; bad sheets and missed cuts are reported."""

from __future__ import annotations

from pathlib import Path

from PIL import ImageChops

from referee.render.counter_art import cut_pixels
from referee.render.counters import counter_faces, render_counter
from referee.source.loader import load_module
from tests.art.pictures import SheetSpec, sheet_source


def _same(a, b) -> bool:
    return (
        a.size == b.size
        and ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None
    )


def test_a_sheet_cut_back_into_counters_matches_pixel_for_pixel(tmp_path: Path) -> None:
    src, faces = sheet_source(tmp_path)
    module, diags = load_module(src)
    assert module is not None and not diags.items, [str(d) for d in diags.items]
    for unit in module.units:
        assert unit.art is not None and unit.art.back is not None and unit.has_back
        front, back = faces[unit.id]
        assert _same(cut_pixels(module, unit.art.front), front), unit.id
        assert _same(cut_pixels(module, unit.art.back), back), unit.id
        # the VASSAL image of the counter is the cut itself (same dpi: no resampling)
        assert _same(render_counter(module, unit), front), unit.id
        assert _same(render_counter(module, unit, back=True), back), unit.id
    # every unit has a back now: the cut sheet's back is its back face
    assert len(counter_faces(module)) == 2 * len(module.units)
    # the values stay the roster's, for the rules and VASSAL's properties
    assert module.unit("US-CV-1").values["DEF"] == 12
