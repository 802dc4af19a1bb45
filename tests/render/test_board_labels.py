"""Board names never cover a hex number or a marker, and nothing is labelled twice."""

from __future__ import annotations

from itertools import combinations

import pytest

from referee.render.board import SUPERSAMPLE, board_layout
from referee.render.board_labels import (
    hex_id_boxes,
    hits,
    marker_boxes,
    plan_labels,
    text_box,
)
from referee.source.model import Module


@pytest.mark.parametrize("dpi", [40, 100, 150])
def test_no_label_box_intersects_a_hex_id_a_marker_or_another_label(
    sixth_fleet: Module, dpi: int
) -> None:
    lay = board_layout(sixth_fleet, dpi).scaled(SUPERSAMPLE)  # what render_board draws on
    plan = plan_labels(sixth_fleet, lay)
    ids = hex_id_boxes(sixth_fleet, lay)
    markers = marker_boxes(sixth_fleet, lay)
    assert len(ids) == 900 and len(markers) > 40
    for lab in plan.labels:
        # the recorded box is the text's real ink (halo included) where it is drawn
        assert lab.box == text_box(lab.text, lab.font, lab.size, lab.x, lab.y, lab.halo)
        covered = [h for h, b in ids.items() if hits(lab.box, b)]
        assert covered == [], f"{lab.text!r} covers hex number(s) {covered}"
        assert not any(hits(lab.box, b) for b in markers), f"{lab.text!r} covers a marker"
    for a, b in combinations(plan.labels, 2):
        assert not hits(a.box, b.box), (a.text, b.text)
    assert plan.unplaced == []


def test_every_name_once_and_corsica_labelled(sixth_fleet: Module) -> None:
    plan = plan_labels(sixth_fleet, board_layout(sixth_fleet, 100).scaled(SUPERSAMPLE))
    names = [lab.text.casefold() for lab in plan.labels]
    assert len(names) == len(set(names))  # not "SICILY" and "Sicily", "MALTA" and "Malta"
    for name in ("sicily", "malta", "cyprus", "corsica", "syria", "sea of marmara", "rhodes",
                 "lesbos", "chios", "samos", "euboea", "kos", "cyclades"):  # fmt: skip
        assert name in names, name
    countries = {c.name.upper() for c in sixth_fleet.map.countries.values()}
    assert {lab.text for lab in plan.labels if lab.kind == "country"} == countries


def test_the_checker_sees_an_overlap() -> None:
    a = text_box("1824", "regular", 12, 100, 100, 0)
    assert hits(a, text_box("Sea of Marmara", "bold", 12, 110, 102, 2))
    assert not hits(a, text_box("Sea of Marmara", "bold", 12, 100, 160, 2))


def test_island_hexes_without_declared_islands_are_drawn_as_land(sixth_fleet: Module) -> None:
    """The fallback for maps that declare no [[island]]: a blob in each island hex."""
    from dataclasses import replace

    from referee.render.board import render_board
    from referee.render.board_islands import island_hexes
    from referee.render.colors import parse_color

    islands = island_hexes(sixth_fleet)
    assert {"1226", "1323", "1022"} <= set(islands)  # Rhodes, the Cyclades, Crete
    assert all(sixth_fleet.map.hexes[h].terrain == "coastal" for h in islands)
    bare = replace(sixth_fleet, map=replace(sixth_fleet.map, islands=()))
    lay = board_layout(bare, 100)
    img = render_board(bare, 100)
    land = parse_color(sixth_fleet.map.terrain["land"].color)
    for h in ("1226", "1323"):
        x, y = lay.pixel_centre(h)
        px = img.getpixel((round(x - lay.hex_width * 0.12), round(y + lay.hex_width * 0.08)))
        assert max(abs(a - b) for a, b in zip(px, land, strict=True)) <= 6, (h, px)


def test_declared_islands_are_drawn_as_land_where_the_map_puts_them(sixth_fleet: Module) -> None:
    """Every [[island]] of the Sixth Fleet map shows land at its centre, in the hex the map
    gives, and no island hex is left with a second generic blob beside its declared island."""
    from referee.render.board import render_board
    from referee.render.board_islands import island_centre, island_shapes
    from referee.render.colors import parse_color

    lay = board_layout(sixth_fleet, 100)
    img = render_board(sixth_fleet, 100)
    land = parse_color(sixth_fleet.map.terrain["land"].color)
    islands = sixth_fleet.map.islands
    assert len(islands) >= 25
    for isl in islands:
        x, y = island_centre(isl, lay)
        assert lay.hex_at(x, y) == isl.hex or abs(max(isl.at, key=abs)) == 0.5, isl.name
        px = img.getpixel((round(x), round(y)))
        # land, or a hex number / marker / label drawn over it
        if isl.name not in ("Crete", "Corsica"):
            assert max(abs(a - b) for a, b in zip(px, land, strict=True)) <= 8, (isl.name, px)
    # declared islands reach every island hex: one shape each, no extra blob
    assert len(island_shapes(sixth_fleet, lay)) == len(islands)
