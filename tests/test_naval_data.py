"""The naval module's data set holds the book's data points and its map keeps the examples'
geometry (module_src/naval_module/README.md lists what is estimated)."""

from __future__ import annotations

import csv
from pathlib import Path

from referee.engine.graphboard import board_for
from referee.source.loader import load_module

SRC = Path(__file__).resolve().parents[1] / "module_src" / "naval_module"


def _module():
    module, diags = load_module(SRC)
    assert module is not None and not diags.items, [str(d) for d in diags.items]
    return module


def test_check_is_clean_and_the_tables_hold_the_books_numbers() -> None:
    m = _module()
    assert m.tables["nmlt"].lookup(row=10, col="Air Interdiction").text == "AD1"  # 27.2 ex.
    assert m.tables["port_chart"].lookup(row="major_port", col="capacity").value == 30  # 26.27d
    assert m.tables["port_chart"].lookup(row="major_port", col="interdiction").value == 6
    units = {u.id: u for u in m.units}
    assert units["SU-CL-KK"].values["NMP"] == 3 and units["SU-CL-KK"].values["PROT"] == 3
    assert units["SU-CL-KO"].values["PROT"] == 3 and units["SU-T-GPA"].values["PROT"] == 2


def test_every_row_says_where_it_comes_from() -> None:
    for path in [*sorted((SRC / "tables").glob("*.csv")), SRC / "units.csv"]:
        lines = [ln for ln in path.read_text("utf-8").splitlines() if not ln.startswith("#")]
        for row in csv.DictReader(lines):
            assert row["source"].strip(), f"{path.name}: {row}"


def test_the_map_keeps_the_examples_geometry() -> None:
    m = _module()
    ports = m.map.spaces.spaces  # type: ignore[union-attr]
    assert ports["Sevastopol"].hex == "1527" and ports["Sevastopol"].type == "major_port"
    board = board_for(m.map)
    # 27.2 example: Sevastopol -> its zone -> a second zone -> Kerch Sea Zone -> Map-T: 3 NMP
    assert ports["Sevastopol"].zone == "Sevastopol Sea Zone"
    assert ports["Map-T Holding Box"].zone == "Kerch Sea Zone"
    assert board.distance("Sevastopol Sea Zone", "Kerch Sea Zone") == 2
    # 27.11 example: Kerch Sea Zone -> Crimea Sea Zone -> Feodosia
    assert ports["Feodosia"].zone == "Crimea Sea Zone"
    assert "Kerch Sea Zone" in m.map.zones.zones["Crimea Sea Zone"].adjacent  # type: ignore[union-attr]
    assert ports["Rostov"].properties.get("river") is True  # 26.23c
    # every port opens on one zone [26.21] that touches its hex
    zones = m.map.zones.zones  # type: ignore[union-attr]
    grid = m.map.grid
    assert grid is not None
    for name, sp in ports.items():
        if sp.properties.get("holding_box") or sp.properties.get("river"):
            continue
        near = {sp.hex, *grid.neighbours(str(sp.hex))}
        assert near & set(zones[str(sp.zone)].hexes), name
