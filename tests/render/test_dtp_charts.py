"""The DTP play aids (issue 13 §5): the sequence of play card [DTP 4.1], the combat card with
the Strike Contact and Hit tables [DTP 8.2, 8.15, 8.52] and the readiness card with the
readiness ratings [DTP 8.51, 9.22-9.28], in ``referee charts`` and the module's chart window,
for the Med under DTP and Denmark Strait alike (texts keyed by the ruleset), every cell
fitting its box."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.render.charts import build_charts, chart_names
from referee.source.loader import load_module
from referee.vassal.module import module_writer as mw

ROOT = Path(__file__).resolve().parents[2] / "module_src"
CARDS = ("sequence", "combat_phase", "readiness_card")
TABLES = ("detection", "strike_contact", "hit", "readiness")


def _module(name: str):  # type: ignore[no-untyped-def]
    m, diags = load_module(ROOT / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def _texts(chart) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(c.text for c in chart.cells)


@pytest.mark.parametrize("name", ["dtp_denmark_strait", "dtp_westpac", "sixth_fleet_dtp"])
def test_the_cards_and_tables_are_charts_and_module_tabs(name: str) -> None:
    m = _module(name)
    names = chart_names(m)
    assert set(CARDS) | set(TABLES) <= set(names)
    assert names.index("sequence") < names.index("combat_phase") < names.index("readiness_card")
    tabs = {c.source for c in mw.chart_defs(m)}
    assert set(CARDS) <= tabs


def test_the_cards_say_the_rules_and_fit() -> None:
    charts = {c.name: c for c in build_charts(_module("dtp_denmark_strait"))}
    seq = _texts(charts["sequence"])
    phases = ["A ship and sub movement", "B ship and sub movement", "B air movement",
              "A air movement", "Combat", "Rebasing and readiness",
              "remove surface Detected"]  # fmt: skip
    assert [seq.index(p) for p in phases] == sorted(seq.index(p) for p in phases)  # [DTP 4.1]
    assert "DTP 4.1" in seq  # a DTP case is cited whole, not split into "DTP, 4.1"
    combat = _texts(charts["combat_phase"])
    for words in ("First strike", "Strike Contact", "Bounce", "CAP first", "DTP 8.232",
                  "Strike Contact Table", "Hit Table", "D-3"):  # fmt: skip
        assert words in combat, words
    ready = _texts(charts["readiness_card"])
    assert "Readiness Ratings" in ready and "back on turn 10" in ready  # the 8.51 example
    for c in charts.values():
        if c.name in CARDS:
            bad = [f for f in c.cells if not f.fits]
            assert bad == [], (c.name, bad[:2])
