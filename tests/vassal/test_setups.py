"""Scenario set-ups: fixed units placed, free units in the labelled set-up area, in the .vmod."""

from __future__ import annotations

import zipfile
from functools import cache
from pathlib import Path

import pytest
from lxml import etree

from referee.errors import UserError
from referee.source.loader import load_module
from referee.vassal.codec.commands import AddPiece, parse_command
from referee.vassal.codec.pieces import Piece, decode_piece, expand_prototypes
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.codec.tabletop import replay
from referee.vassal.module.setup_area import SETUP_MAP, carrier_pools
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.setups import build_module_with_setups, scenario_setup_vsav
from referee.vassal.position.survey import CounterAt, survey

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "modules" / "mini"
SIXTH_FLEET = ROOT / "module_src" / "sixth_fleet"


@cache
def mini_table() -> Table:
    module, diags = load_module(MINI)
    assert module is not None, [str(d) for d in diags.items]
    return table_for(module)


def counters(table: Table, scenario: str) -> list[CounterAt]:
    data = scenario_setup_vsav(table, scenario)
    return survey(table, replay(read_save_bytes(data).commands).end)


def check_scenario(table: Table, scenario_id: str) -> None:
    """Every fixed unit in its hex (or box), every other unit of the scenario in its group
    of the set-up area or its carrier's holding box, and nothing else."""
    module = table.module
    sc = module.scenarios[scenario_id]
    got = {c.unit: c.location for c in counters(table, scenario_id)}
    assert all(u is not None for u in got)
    for f in sc.fixed:
        loc = got[f.unit]
        if f.status and f.status.startswith("holding:"):
            assert (loc.kind, loc.name) == ("holding", f.status.split(":", 1)[1]), f.unit
        else:
            assert (loc.kind, loc.name) == ("hex", f.hex), f.unit
    fixed = {f.unit for f in sc.fixed}
    carriers = carrier_pools(sc)
    area = table.setup_area
    assert area is not None
    for unit in sorted(sc.all_pieces() - fixed):
        loc = got[unit]
        group = area.group_of(scenario_id, unit)
        if group is not None:
            assert (loc.kind, loc.name) == ("setup", group.key), unit
            assert loc.map == SETUP_MAP
        else:
            assert unit in carriers, f"{unit} is neither fixed, in a group, nor carrier air"
            assert (loc.kind, loc.name) == ("holding", carriers[unit]), unit
    assert set(got) == sc.all_pieces()


@pytest.mark.parametrize("scenario", ["skirmish", "long"])
def test_mini_setups_place_exactly_the_scenario(scenario: str) -> None:
    check_scenario(mini_table(), scenario)


def test_groups_are_labelled_with_their_rule() -> None:
    area = mini_table().setup_area
    assert area is not None
    titles = {g.key: g.title for g in area.groups_of("skirmish")}
    assert titles["skirmish/choice-1"] == "Skirmish: Soviet choice [11.2A]"
    pool = next(g for g in area.groups_of("skirmish") if g.units == ("SO-DD-1",))
    assert "coded So" in " ".join(pool.lines) and pool.rule == "11.2"
    long = {g.key for g in area.groups_of("long")}
    assert "long/reinforcement-1" in long
    # boxes never overlap and stay on the board
    boxes = [g.rect for g in area.groups]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] < a[2] <= area.width and 0 <= a[1] < a[3] <= area.height
        for b in boxes[i + 1 :]:
            assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1]


def test_unknown_scenario_is_refused() -> None:
    with pytest.raises(UserError, match="no scenario 'nope'"):
        scenario_setup_vsav(mini_table(), "nope")


def test_built_module_has_one_setup_per_scenario(tmp_path: Path) -> None:
    module = mini_table().module
    result = build_module_with_setups(module, tmp_path, workers=1)
    with zipfile.ZipFile(result.path) as z:
        names = set(z.namelist())
        root = etree.fromstring(z.read("buildFile.xml"))
        saves = {n: z.read(n) for n in names if n.endswith(".vsav")}
    assert {"images/setup_area.png", "setup_skirmish.vsav", "setup_long.vsav"} <= names
    setups = {
        e.get("name"): e.get("file") for e in root.iter("VASSAL.build.module.PredefinedSetup")
    }
    assert setups == {"Skirmish": "setup_skirmish.vsav", "Long Skirmish": "setup_long.vsav"}
    maps = [e.get("mapName") for e in root.iter("VASSAL.build.module.Map")]
    assert SETUP_MAP in maps
    zones = {
        z.get("name") for z in root.iter("VASSAL.build.module.map.boardPicker.board.mapgrid.Zone")
    }
    assert "Skirmish: Soviet choice [11.2A]" in zones

    # every piece in the saves is a PieceSlot definition of the module (same type text) with
    # its prototypes expanded from the buildFile's own PrototypeDefinitions, as VASSAL puts a
    # palette counter on the table
    def definition(el: etree._Element) -> Piece:
        command = parse_command(el.text or "")
        assert isinstance(command, AddPiece)
        return decode_piece(command.type, command.state)

    protos = {
        el.get("name"): definition(el)
        for el in root.iter("VASSAL.build.module.PrototypeDefinition")
    }
    slot_types = {
        expand_prototypes(definition(slot), protos).type
        for slot in root.iter("VASSAL.build.widget.PieceSlot")
    }
    for data in saves.values():
        for c in replay(read_save_bytes(data).commands).end.pieces.values():
            assert c.type in slot_types
            assert "prototype;" not in c.type
    # reproducible
    again = build_module_with_setups(module, tmp_path / "again", workers=1)
    assert again.path.read_bytes() == result.path.read_bytes()


def test_sixth_fleet_setups_when_the_source_loads() -> None:
    if not (SIXTH_FLEET / "module.toml").is_file():
        pytest.skip("module_src/sixth_fleet is not there")
    module, _ = load_module(SIXTH_FLEET)
    if module is None:
        pytest.skip("module_src/sixth_fleet does not load yet")
    table = table_for(module)
    for scenario in module.scenarios:
        check_scenario(table, scenario)


def test_decode_piece_of_setup_counter_keeps_unit_id() -> None:
    data = scenario_setup_vsav(mini_table(), "skirmish")
    found = {c.unit for c in survey(mini_table(), replay(read_save_bytes(data).commands).end)}
    assert "US-CV-1" in found
    piece = mini_table().plan.unit_slots["US-CV-1"].piece
    assert decode_piece(piece.type, piece.state).type == piece.type


def test_setup_map_has_one_of_each_map_component() -> None:
    """VASSAL allows one SelectionHighlighters and one HighlightLastMoved per map and warns
    on a second ("No more than one [Last Move Highlighter] allowed in Set-up")."""
    from collections import Counter

    from referee.vassal.module.setup_area import setup_map_element

    area = mini_table().setup_area
    assert area is not None
    counts = Counter(child.tag.rsplit(".", 1)[-1] for child in setup_map_element(area))
    assert {tag: n for tag, n in counts.items() if n > 1} == {}
