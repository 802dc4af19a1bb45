"""The Sixth Fleet (2019) charts cite the 2019 rule cases, not the SPI game's: the Level of
Victory [4.4] (SPI: 13.2) and a Zone Effects Chart [2.1.2] (SPI's Terrain Effects Chart is
10.0, which in 2019 is Reinforcements), without the ZOC column an area game has no use for;
the SPI charts keep theirs."""

from __future__ import annotations

from pathlib import Path

from referee.render.charts import Chart, setup_chart, tec_chart, victory_chart
from referee.render.drawing import Text
from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[2]


def _words(chart: Chart) -> str:
    """Every text drawn on the chart (title band, headers, cells, notes), one line each."""
    return "\n".join(i.text for i in chart.drawing.items if isinstance(i, Text))


def test_2019_charts_cite_the_2019_cases() -> None:
    module, diags = load_module(ROOT / "module_src" / "sixth_fleet_2019")
    assert module is not None, [str(d) for d in diags.items]
    v, t = victory_chart(module), tec_chart(module)
    assert v.title == "Level of Victory" and t.title == "Zone Effects Chart"
    svg_v, svg_t = _words(v), _words(t)
    assert "[4.4]" in svg_v and "[13.2]" not in svg_v
    assert "[2.1.2]" in svg_t and "[10.0]" not in svg_t
    assert "ZOC" not in svg_t and "Marker" not in svg_t
    # the set-up card: zones, no SPI case 11.0 (Refit in 2019), the reinforcements listed
    card = _words(setup_chart(module, module.scenarios["s1980"], "NATO"))
    assert "Zone" in card.splitlines() and "Hex" not in card.splitlines()
    assert "[11.0]" not in card and "22.0 Scenarios is not in the seed" in card
    assert "US-CGN-1" not in card.splitlines()  # a reinforcement, not a fixed placement
    assert "After Game-Turn 2:" in card


def test_spi_charts_keep_their_cases() -> None:
    module, _ = load_module(ROOT / "module_src" / "sixth_fleet")
    assert module is not None
    assert "[13.2]" in _words(victory_chart(module))
    svg = _words(tec_chart(module))
    assert "Terrain Effects Chart [10.0]" in svg and "ZOC" in svg
    card = _words(setup_chart(module, module.scenarios[sorted(module.scenarios)[0]], "NATO"))
    assert "[11.0]" in card and "Hex" in card.splitlines()
