"""Every chart of the VASSAL module has a cache key that covers exactly what it reads
(issue 12 §8): a rebuild after editing one counter value draws no chart again, and a chart
drawn from the module narrowed to its reads is the chart drawn from the whole module."""

from __future__ import annotations

import dataclasses

import pytest

from referee.render.artcache import chart_key, chart_reads, narrowed
from referee.render.charts import build_charts, chart, chart_png
from referee.source.model import Module


def _names(module: Module) -> list[str]:
    return [c.name for c in build_charts(module)]


def test_each_chart_is_laid_out_alone_and_the_same(sixth_fleet: Module) -> None:
    names = _names(sixth_fleet)
    assert {"sequence", "crt", "tec", "victory", "turns-short", "setup-short-nato"} <= set(names)
    for c in build_charts(sixth_fleet):
        assert chart(sixth_fleet, c.name).drawing == c.drawing, c.name


@pytest.mark.parametrize("name", ["sequence", "victory", "turns-campaign", "setup-short-nato"])
def test_a_chart_drawn_from_its_reads_is_the_whole_modules(sixth_fleet: Module, name: str) -> None:
    small = narrowed(sixth_fleet, chart_reads(name))  # raises NotDeclared if it reads more
    assert chart_png(small, name, dpi=60) == chart_png(sixth_fleet, name, dpi=60)


def test_editing_a_counter_value_changes_no_chart_key(sixth_fleet: Module) -> None:
    u = sixth_fleet.units[0]
    values = dict(u.values)
    values["DEF"] = values["DEF"] + 7
    edited_unit = dataclasses.replace(u, values=values, source="printed counter")
    edited = dataclasses.replace(sixth_fleet, units=(edited_unit, *sixth_fleet.units[1:]))
    for name in _names(sixth_fleet):
        assert chart_key(edited, name, 100) == chart_key(sixth_fleet, name, 100), name
    # a change the scenario charts show (a unit's name) changes theirs, and only theirs
    renamed = dataclasses.replace(
        sixth_fleet, units=(dataclasses.replace(u, name="Renamed"), *sixth_fleet.units[1:])
    )
    changed = {
        n
        for n in _names(sixth_fleet)
        if chart_key(renamed, n, 100) != chart_key(sixth_fleet, n, 100)
    }
    assert changed and all(n.startswith(("setup-", "turns-")) for n in changed), changed
