"""AreaBoard and PointBoard: the Board protocol over zones and spaces, with blocking by kind."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from referee.engine.board import HexBoard
from referee.engine.core import Board
from referee.engine.graphboard import UNREACHABLE, AreaBoard, PointBoard, board_for
from referee.source.loader import load_module
from referee.source.model import MapDef

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"


def _map(name: str) -> MapDef:
    module, diags = load_module(FIXTURES / name)
    assert module is not None, [str(d) for d in diags.errors]
    return module.map


@pytest.fixture(scope="module")
def area() -> AreaBoard:
    board = board_for(_map("area_med"))
    assert isinstance(board, AreaBoard)
    return board


@pytest.fixture(scope="module")
def points() -> PointBoard:
    board = board_for(_map("point_north"))
    assert isinstance(board, PointBoard)
    return board


def test_every_board_satisfies_the_protocol(area: AreaBoard, points: PointBoard) -> None:
    hexes = board_for(_map("mini"))
    assert isinstance(hexes, HexBoard)
    for board in (area, points, hexes, board_for(_map("naval_mix"))):
        assert isinstance(board, Board)


def test_area_neighbours_by_kind(area: AreaBoard) -> None:
    assert area.neighbours("Aegean Sea") == [
        "Balkans", "Crete", "Eastern Med", "Ionian Sea", "Italy", "Turkey", "Turkish Straits"
    ]  # fmt: skip
    # ships: no land zones, and the Dodecanese boundary is closed to surface ships
    assert area.neighbours("Aegean Sea", "surface") == ["Crete", "Ionian Sea", "Turkish Straits"]
    assert area.neighbours("Aegean Sea", "submarine") == [
        "Eastern Med",
        "Ionian Sea",
        "Turkish Straits",
    ]  # fmt: skip  (a submarine may not enter the small island, but may pass the chain)
    assert area.neighbours("Western Med", "air") == ["Ionian Sea", "Italy"]  # no entry: Iberia
    assert area.adjacent("Italy", "Iberia") and not area.may_enter("Iberia", "air")


def test_area_paths_avoid_blocked_boundaries(area: AreaBoard) -> None:
    assert area.path("Western Med", "Black Sea", "surface") == [
        "Western Med", "Ionian Sea", "Aegean Sea", "Turkish Straits", "Black Sea"
    ]  # fmt: skip
    assert area.path("Aegean Sea", "Eastern Med", "surface") == [
        "Aegean Sea", "Crete", "Eastern Med"
    ]  # fmt: skip
    assert area.path("Aegean Sea", "Eastern Med") == ["Aegean Sea", "Eastern Med"]
    assert area.path("Italy", "Turkey", "ground") is None  # the Adriatic is closed to ground
    assert area.hexside_blocked("Italy", "Balkans", "ground")
    assert not area.hexside_blocked("Italy", "Balkans", "air")
    assert area.distance("Western Med", "Black Sea") == 3  # via Italy and the Balkans
    assert area.distance("Crete", "Crete") == 0
    assert area.distance("Western Med", "Black Sea", "surface") == 4  # ships go round by sea
    assert area.distance("Italy", "Turkey", "ground") == UNREACHABLE


def test_area_facts(area: AreaBoard) -> None:
    assert area.terrain("Crete") == "island"
    assert area.properties("Crete") == {"base": "NATO", "capacity": 2, "control": "NATO"}
    assert area.properties("Ionian Sea") == {}
    assert area.locations_in_area("land") == ("Balkans", "Italy", "Turkey")
    assert area.entry_cost("Italy", "surface") is None and area.entry_cost("Italy", "air") == 1
    assert area.zone_at((6.5, 5.0)) == "Crete" and area.zone_at((7.0, 0.5)) == "Balkans"
    assert area.zones()[0] == "Iberia" and area.hexes_of("Crete") == ()
    assert area.contains("Crete") and not area.contains("0101")


def test_point_paths_follow_lines_and_one_way_links(points: PointBoard) -> None:
    assert points.path("NATO Base", "Murmansk") == [
        "NATO Base", "North Sea 2", "Iceland Gap", "Bear Gap", "Barents Sea 2", "Murmansk"
    ]  # fmt: skip
    assert points.path("Barents Sea 2", "Barents Sea 1") == ["Barents Sea 2", "Barents Sea 1"]
    assert points.path("Barents Sea 1", "Barents Sea 2") == [
        "Barents Sea 1",
        "Murmansk",
        "Barents Sea 2",
    ]  # fmt: skip  (the link runs one way only)
    assert not points.adjacent("Barents Sea 1", "Barents Sea 2")
    assert points.hexside_blocked("Barents Sea 1", "Barents Sea 2", "surface")
    # the cross link is closed to submarines
    assert "Bear Gap" in points.neighbours("Norwegian Sea 2")
    assert "Bear Gap" not in points.neighbours("Norwegian Sea 2", "submarine")
    # Murmansk is closed to surface ships
    assert points.path("NATO Base", "Murmansk", "surface") is None
    assert points.reachable("NATO Base", 1) == {"NATO Base": 0, "North Sea 1": 1, "North Sea 2": 1}


def test_point_facts(points: PointBoard) -> None:
    assert points.lines_of("NATO Base") == ("Norwegian Line", "Atlantic Line")
    assert points.line("Atlantic Line").spaces[0] == "NATO Base"
    assert points.position("Murmansk") == (8.0, 1.2)
    assert points.locations_in_area("Atlantic Line") == (
        "Barents Sea 2", "Bear Gap", "Iceland Gap", "Murmansk", "NATO Base", "North Sea 2"
    )  # fmt: skip
    assert points.properties("Bear Gap") == {"stop": True}
    assert points.distance("NATO Base", "Murmansk") == 5


def test_unreachable_distance_fails_every_range_check() -> None:
    board = board_for(_map("naval_mix"))
    assert isinstance(board, AreaBoard)
    assert board.path("Southport", "Northfield") == [
        "Southport",
        "West Basin",
        "Inner Basin",
        "East Basin",
        "Northfield",
    ]  # fmt: skip  (a port is linked to its sea zone)
    assert board.zone_of_hex("0203") == "West Basin" and "0203" in board.hexes_of("West Basin")
    assert board.distance("Southport", "Nowhere") == UNREACHABLE


def test_hex_board_path_respects_terrain_and_hexsides() -> None:
    board = board_for(_map("mini"))
    assert isinstance(board, HexBoard)
    path = board.path("0201", "0206")
    assert path is not None and path[0] == "0201" and path[-1] == "0206" and len(path) == 6
    # 0304/0305 is an all-land hexside: no ship crosses it
    assert "0305" not in board.neighbours("0304", "naval")
    assert "0305" in board.neighbours("0304")
    for a, b in itertools.pairwise(path):
        assert board.adjacent(a, b)
    assert board.properties("0101")["name"] == "Southport"
