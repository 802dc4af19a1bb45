"""A status mark never hides a value a player needs (issue 27): every layer image a bundled
module draws on its counters (Attacked [7.44], Detected [DTP 10.1], damage levels [DTP 8.54],
[27.31]) is transparent over every printed text box of every counter layout (id,
nationality, values), except its thin frame along the counter's edge."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from referee.source.loader import load_module
from referee.vassal.module.artwork import attacked_overlay_png, level_badge_png, tag_overlay_png
from referee.vassal.module.module_writer import plan_build

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "name", ["sixth_fleet", "sixth_fleet_dtp", "naval_module", "carrier_battlegroup"]
)
def test_no_status_mark_covers_a_printed_value(name: str) -> None:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    plan = plan_build(module)
    side, band = plan.counter_px, plan.status_band
    every = tuple(module.counter.category_layouts)
    images = {"attacked": (attacked_overlay_png(side, band), every)} if plan.attacked else {}
    for layer in plan.marker_layers:
        on = layer.categories or every
        if layer.levels:
            png = level_badge_png(side, layer.levels[-1], layer.fill, band)
            images[layer.spec.name] = (png, on)
        elif not layer.face_down:
            images[layer.spec.name] = (tag_overlay_png(side, layer.spec.name, layer.fill, band), on)
    assert images
    fronts = set(module.counter.category_layouts.values())
    frame = 2 * max(2, side // 32) + 1  # the Attacked frame and a marker's frame inside it
    for what, (png, categories) in images.items():
        # the faces of the counters the mark goes on: their categories' fronts and every back
        # face; a value is a text box that fills in a unit's data ("{AA}-{AS}-{ASW}"), a
        # literal label (a returning air unit's "RTB" back) is not one
        names = {module.counter.category_layouts[c] for c in categories}
        names |= set(module.counter.layouts) - fronts
        texts = [
            b
            for n in names
            for b in module.counter.layouts[n].boxes
            if b.kind == "text" and "{" in b.text
        ]
        assert texts
        alpha = Image.open(io.BytesIO(png)).getchannel("A")
        for box in texts:
            x0, y0 = max(frame, round(box.x * side)), max(frame, round(box.y * side))
            x1 = min(side - frame, round((box.x + box.w) * side))
            y1 = min(side - frame, round((box.y + box.h) * side))
            if x1 <= x0 or y1 <= y0:
                continue
            covered = alpha.crop((x0, y0, x1, y1)).getbbox()
            assert covered is None, (what, box.text, covered)
