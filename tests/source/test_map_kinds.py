"""Area and point-to-point maps in the module source: the model and every check's message."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.source.model import Module

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "modules"


def _load(name: str) -> Module:
    module, diags = load_module(FIXTURES / name)
    assert module is not None, [str(d) for d in diags.errors]
    return module


def _broken(tmp_path: Path, name: str, old: str, new: str, file: str = "map.toml") -> list[str]:
    """Copy fixture ``name``, replace ``old`` by ``new`` in ``file``, and return the errors."""
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    module, diags = load_module(root)
    assert module is None
    return [str(d) for d in diags.errors]


# ---- the model --------------------------------------------------------------------------------
def test_area_map_model() -> None:
    m = _load("area_med").map
    assert m.kind == "area" and m.grid is None and m.hexes == {}
    assert m.canvas is not None and (m.canvas.width, m.canvas.height) == (10.0, 6.0)
    zones = m.zones
    assert zones is not None
    assert list(zones.types) == ["sea", "land", "strait", "island", "no_entry"]
    assert zones.types["no_entry"].closed("surface") and zones.types["no_entry"].closed("air")
    assert zones.types["land"].closed("surface") and not zones.types["land"].closed("air")
    assert len(zones.zones) == 11
    crete = zones.zones["Crete"]
    assert crete.type == "island"
    assert crete.properties == {"base": "NATO", "capacity": 2, "control": "NATO"}
    assert crete.outline == ((6.0, 4.5), (8.0, 4.5), (8.0, 6.0), (6.0, 6.0))  # px / 100 dpi
    assert crete.origin.file == "map.toml" and crete.origin.line is not None
    for z in zones.zones.values():  # adjacency is symmetric
        for other in z.adjacent:
            assert z.name in zones.zones[other].adjacent
    assert [(b.zones, sorted(b.blocks)) for b in zones.boundaries] == [
        (("Italy", "Balkans"), ["ground"]),
        (("Aegean Sea", "Eastern Med"), ["surface"]),
    ]
    assert zones.zones["Balkans"].label_at == (6.9, 1.0)
    assert m.location_names()[:3] == ("Iberia", "Western Med", "Italy")
    assert m.is_location("Crete") and not m.is_location("Creta")


def test_point_map_model() -> None:
    m = _load("point_north").map
    assert m.kind == "point"
    spaces = m.spaces
    assert spaces is not None and len(spaces.spaces) == 11
    assert spaces.spaces["NATO Base"].at == (1.0, 6.0)
    assert spaces.spaces["NATO Base"].lines == ("Norwegian Line", "Atlantic Line")
    assert spaces.spaces["Bear Gap"].lines == ("Atlantic Line",)
    assert spaces.spaces["Murmansk"].properties == {"objective": True, "side": "Soviet"}
    assert list(spaces.lines) == ["Norwegian Line", "Atlantic Line"]
    links = {(link.a, link.b): link for link in spaces.links}
    assert len(links) == 6 + 5 + 2
    assert links[("NATO Base", "North Sea 1")].line == "Norwegian Line"
    assert links[("Norwegian Sea 2", "Bear Gap")].blocks == frozenset({"submarine"})
    assert links[("Barents Sea 2", "Barents Sea 1")].directed


def test_combined_map_model() -> None:
    module = _load("naval_mix")
    m = module.map
    assert m.kind == "hex+area+point" and m.grid is not None and len(m.hexes) == 48
    zones = m.zones
    assert zones is not None
    assert sorted(len(z.hexes) for z in zones.zones.values()) == [12, 18, 18]
    west = zones.zones["West Basin"]
    assert len(west.outline) >= 6  # traced along the hexsides of 18 hexes
    assert m.spaces is not None
    port = m.spaces.spaces["Southport"]
    assert (port.hex, port.zone, port.at) == ("0101", "West Basin", m.grid.centre("0101"))
    fixed = {f.unit: f.hex for f in module.scenarios["convoy"].fixed}
    assert fixed["US-CV-1"] == "West Basin" and fixed["US-DD-1"] == "0203"


def test_hex_module_is_unchanged() -> None:
    m = _load("mini").map
    assert m.kind == "hex" and m.zones is None and m.spaces is None and m.canvas is None


# ---- checks, each with file:line:col ----------------------------------------------------------
def test_unknown_zone_in_adjacency_suggests_the_nearest(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path,
        "area_med",
        'adjacent = ["Aegean Sea", "Turkey", "Crete"]',
        'adjacent = ["Aegean Sea", "Turkey", "Crete", "Cyprs"]',
    )
    hit = [e for e in errs if "Cyprs" in e]
    assert len(hit) == 1
    assert re.match(r"map\.toml:\d+:\d+: error: zone 'Eastern Med': unknown zone 'Cyprs'", hit[0])
    errs = _broken(tmp_path / "b", "area_med", '"Turkey", "Crete"]', '"Turkey", "Creet"]')
    assert any("unknown zone 'Creet'" in e and "did you mean 'Crete'?" in e for e in errs)


def test_asymmetric_adjacency(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path,
        "area_med",
        'adjacent = ["Iberia", "Western Med", "Ionian Sea", "Balkans", "Aegean Sea"]',
        'adjacent = ["Iberia", "Western Med", "Ionian Sea", "Balkans", "Aegean Sea", "Crete"]',
    )
    assert len(errs) == 1
    assert re.match(
        r"map\.toml:\d+:\d+: error: zone 'Italy' lists 'Crete' as adjacent, but 'Crete' "
        r"\(line \d+\) does not list 'Italy' \(hint: .*add \"Italy\" to the adjacent list",
        errs[0],
    )


def test_overlapping_zones(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path,
        "area_med",
        "outline = [[600, 450], [800, 450], [800, 600], [600, 600]]",
        "outline = [[600, 420], [800, 450], [800, 600], [600, 600]]",
    )
    assert errs == [e for e in errs if "zone 'Crete' overlaps zone 'Aegean Sea'" in e] and re.match(
        r"map\.toml:\d+: error:", errs[0]
    )


def test_degenerate_and_crossed_outlines(tmp_path: Path) -> None:
    crete = "outline = [[600, 450], [800, 450], [800, 600], [600, 600]]"
    errs = _broken(tmp_path, "area_med", crete, "outline = [[600, 450], [700, 450], [800, 450]]")
    assert any("zone 'Crete': the outline encloses no area" in e for e in errs)
    errs = _broken(
        tmp_path / "b",
        "area_med",
        crete,
        "outline = [[600, 450], [800, 450], [600, 600], [800, 600]]",
    )
    assert any("zone 'Crete': outline edges 2-3 and 4-1 cross" in e for e in errs)
    errs = _broken(tmp_path / "c", "area_med", crete, "outline = [[600, 450], [800, 450]]")
    assert any("needs at least three corners" in e for e in errs)


def test_corner_and_space_off_the_board(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path,
        "area_med",
        "[[850, 0], [1000, 0], [1000, 200], [850, 200]]",
        "[[850, 0], [1100, 0], [1000, 200], [850, 200]]",
    )
    assert any(
        "zone 'Black Sea': outline corner 2 [1100, 0] is off the board" in e
        and "the board is 1000 x 600 px" in e
        for e in errs
    )
    errs = _broken(tmp_path / "p", "point_north", "at = [8.0, 1.2]", "at = [9.5, 1.2]")
    assert any(
        re.match(r"map\.toml:\d+: error: space 'Murmansk': at \[9\.5, 1\.2\] is off the board", e)
        for e in errs
    )


def test_duplicate_names(tmp_path: Path) -> None:
    errs = _broken(tmp_path, "area_med", 'name = "Turkey"', 'name = "Crete"')
    assert any(
        re.match(r"map\.toml:\d+:\d+: error: zone 'Crete' is declared twice", e) for e in errs
    )
    errs = _broken(tmp_path / "p", "point_north", 'name = "Iceland Gap"', 'name = "Bear Gap"')
    assert any("space 'Bear Gap' is declared twice" in e for e in errs)


def test_unknown_type_suggests(tmp_path: Path) -> None:
    errs = _broken(tmp_path, "area_med", 'type = "island"', 'type = "isle"')
    assert any(
        re.match(r"map\.toml:\d+:\d+: error: zone 'Crete': unknown type 'isle' .*'island'", e)
        for e in errs
    )


def test_boundary_between_zones_that_do_not_touch(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path, "area_med", 'zones = ["Italy", "Balkans"]', 'zones = ["Italy", "Crete"]'
    )
    assert any("[[boundary]]: zones 'Italy' and 'Crete' are not adjacent" in e for e in errs)


def test_line_and_link_checks(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path, "point_north", '"North Sea 2", "Iceland Gap"', '"North Sea 2", "Icland Gap"'
    )
    assert any(
        re.match(r"map\.toml:\d+:\d+: error: line 'Atlantic Line': unknown space 'Icland Gap'", e)
        and "did you mean 'Iceland Gap'?" in e
        for e in errs
    )
    errs = _broken(
        tmp_path / "b",
        "point_north",
        'from = "Norwegian Sea 2"\nto = "Bear Gap"',
        'from = "Norwegian Sea 2"\nto = "Norwegian Sea 3"',
    )
    assert any(
        "the link 'Norwegian Sea 2' -> 'Norwegian Sea 3' is declared twice" in e for e in errs
    )


def test_zone_of_hexes_checks(tmp_path: Path) -> None:
    errs = _broken(tmp_path, "naval_mix", 'hexes = ["0107"', 'hexes = ["0103", "0107"')
    assert any(
        re.match(
            r"map\.toml:\d+:\d+: error: zone 'East Basin': hex 0103 is already in zone "
            r"'West Basin'",
            e,
        )
        for e in errs
    )
    errs = _broken(tmp_path / "b", "naval_mix", '"0302", ', "")  # a hole in West Basin
    assert any("zone 'West Basin': the hexes are not one piece without holes" in e for e in errs)


def test_scenario_location_must_be_a_zone_or_space(tmp_path: Path) -> None:
    errs = _broken(
        tmp_path, "area_med", 'at = "Black Sea"', 'at = "Blak Sea"', "scenarios/opening.toml"
    )
    assert len(errs) == 1
    assert re.match(
        r"scenarios/opening\.toml:\d+:\d+: error: \[\[fixed\]\]: 'Blak Sea' is not a zone or "
        r"space of this map \(hint: did you mean 'Black Sea'\?\)",
        errs[0],
    )


def test_a_map_needs_a_board_or_a_grid(tmp_path: Path) -> None:
    errs = _broken(tmp_path, "area_med", "[board]\nwidth = 1000", "[boad]\nwidth = 1000")
    assert any("unknown top-level key or table 'boad'" in e for e in errs)
    assert any("needs a [board] table" in e for e in errs)


@pytest.mark.parametrize("name", ["area_med", "point_north", "naval_mix"])
def test_ruleset_that_plays_hex_maps_only_warns(name: str) -> None:
    module, diags = load_module(FIXTURES / name)
    assert module is not None
    assert any("cannot be refereed" in str(w) for w in diags.warnings)
