"""Carrier Battlegroup's play-aid cards (issue 14 §5): the sequence of play [5.0], the
Tactical Routine [20.0]-[22.8] and Soviet fire with its target priorities [21.3], in
``referee charts`` and in the module's chart window, every cell fitting its box."""

from __future__ import annotations

from pathlib import Path

from referee.render.charts import build_charts, chart_names, chart_png
from referee.source.loader import load_module
from referee.vassal.module import module_writer as mw

SRC = Path(__file__).resolve().parents[2] / "module_src" / "carrier_battlegroup"
CARDS = ("sequence", "tactical_routine", "soviet_fire", "target_priority")


def _module():  # type: ignore[no-untyped-def]
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def _texts(chart) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(c.text for c in chart.cells)


def test_the_cards_are_charts_and_module_tabs() -> None:
    m = _module()
    names = chart_names(m)
    assert set(CARDS) <= set(names)
    assert names.index("sequence") < names.index("tactical_routine") < names.index("soviet_fire")
    tabs = {c.source: c for c in mw.chart_defs(m)}
    assert set(CARDS) <= set(tabs)
    assert tabs["tactical_routine"].image == "chart_tactical_routine.png"
    assert chart_png(m, "tactical_routine", dpi=60)[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_cards_say_the_rules_and_fit() -> None:
    charts = {c.name: c for c in build_charts(_module())}
    seq = _texts(charts["sequence"])
    phases = ["Intelligence", "Logistics", "Movement", "Incident", "USN Launch", "Combat",
              "Objective", "Recovery", "Victory", "End of turn"]  # fmt: skip
    assert [p for p in phases if p in seq] == phases
    routine = _texts(charts["tactical_routine"])
    for words in ("Outer Zone", "Inner Zone", "a Anti-air", "b Anti-surface", "c Anti-submarine",
                  "Deployment", "Fruits", "Ammunition", "22.8"):  # fmt: skip
        assert words in routine, words
    fire = _texts(charts["soviet_fire"])
    order = ["Missiles", "Air units", "Submarines", "Surface ships", "Coastal defense"]
    assert [fire.index(w) for w in order] == sorted(fire.index(w) for w in order)  # [21.3]
    assert "SSGN" in fire and "CGN CG" in fire  # the priority list, from tables/target_priority
    for c in charts.values():
        if c.name in CARDS:
            bad = [f for f in c.cells if not f.fits]
            assert bad == [], (c.name, bad[:2])
