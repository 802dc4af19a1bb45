"""The "How to read a counter" legend of the counter sheets: every callout stays in its own
column, so no word runs under the next sample counter."""

from __future__ import annotations

import pytest

from referee.render.counter_legend import TEXT_PT, _width, _wrap, legend_items, sample_units
from referee.render.drawing import Text
from referee.resources import example_path
from referee.source.loader import load_module

EXAMPLES = ["sixth_fleet", "sixth_fleet_2019", "naval_module", "carrier_battlegroup"]


@pytest.mark.parametrize("example", EXAMPLES)
@pytest.mark.parametrize(("width", "scale"), [(540.0, 2.0), (523.0, 2.0), (540.0, 3.0)])
def test_callouts_stay_in_their_column(example: str, width: float, scale: float) -> None:
    # Sixth Fleet 2019's "AG-EW-AA-ASW-ASU:" and "Anti-Submarine", and the Naval Module's
    # "ART-PROT-TC-NMP:", were one word each wider than the room beside the sample counter:
    # they ran under the next sample and were cut off on the printed sheet
    root = example_path(example)
    assert root is not None
    module, _ = load_module(root)
    assert module is not None
    x0 = 36.0
    cell = width / max(1, len(sample_units(module)))
    items = [t for t in legend_items(module, x0, 100.0, width, scale) if isinstance(t, Text)]
    nations = min((t.y for t in items if t.text == "Nationalities:"), default=1e9)
    notes = [t for t in items if t.font == "condensed" and t.size == TEXT_PT and t.y < nations]
    assert notes
    for t in notes:
        column = int((t.x - x0) // cell)
        right = t.x + _width(t.text, TEXT_PT)
        assert right <= x0 + (column + 1) * cell, (t.text, right, x0 + (column + 1) * cell)


def test_a_long_word_is_cut_after_its_hyphens_and_keeps_its_comma() -> None:
    lines = _wrap("AG-EW-AA-ASW-ASU: Anti-Submarine, Anti-Surface Ship", 45.0)
    assert all(_width(line, TEXT_PT) <= 45.0 + _width(",", TEXT_PT) for line in lines), lines
    assert "".join(lines).replace(" ", "") == "AG-EW-AA-ASW-ASU:Anti-Submarine,Anti-SurfaceShip"
    assert not any(line.startswith(",") for line in lines), lines
    assert _wrap("nationality", 45.0) == ["nationality"]  # a word that fits is never cut
