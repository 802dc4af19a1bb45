"""The Denmark Strait / Iceland data set [DTP 11.3, 11.31]: what the text states holds.

The kit prints neither the map nor the manifest, so most of module_src/dtp_denmark_strait is
estimated. These tests pin what is *not*: the grid (30 x 24, column-then-row ids, rows growing
south), every place the text names at its hex, the Arctic light line on row 10, pack ice, the
retreat edges, the units the text names with the values it quotes, the Iceland set-up rules the
text fixes, that every estimate says so, and that `referee check`/`build` accept the source.
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest

from referee.cli import app
from referee.rules.sixth_fleet_dtp.movement import retreat_edge_11_0
from referee.rules.sixth_fleet_dtp.tables import parse_edges
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO / "module_src" / "dtp_denmark_strait"
MED = REPO / "module_src" / "sixth_fleet_dtp"


@pytest.fixture(scope="module")
def m() -> Module:
    module, diags = load_module(ROOT)
    assert module is not None, [str(d) for d in diags.items]
    return module


def values(m: Module, uid: str) -> str:
    v = m.unit(uid).values
    return "-".join(str(v[k]) for k in ("AA", "AS", "ASW", "MA", "DEF", "ECM"))


def test_the_grid_is_30_by_24_column_then_row_growing_south(m: Module) -> None:
    g = m.map.grid
    assert g is not None
    assert (g.columns, g.rows, g.id_format, g.rows_grow) == (30, 24, "CCRR", "south")
    assert len(m.map.hexes) == 720
    # 3001 is the north-east corner [DTP 11.3; issue 13]
    x30, y30 = g.centre("3001")
    assert all(g.centre(h)[0] <= x30 for h in m.map.hexes)
    assert all(g.centre(h)[1] >= y30 - g.size for h in m.map.hexes)


@pytest.mark.parametrize(
    ("name", "hex_id"),
    [("Tromso", "2806"), ("Trondheim", "2814"), ("Keflavik", "0918"), ("Kinloss", "2224")],
)
def test_every_named_base_is_at_its_hex(m: Module, name: str, hex_id: str) -> None:
    assert any(p.hex == hex_id and p.name == name for p in m.map.places)
    base = m.map.hex(hex_id).airbase
    assert base is not None and name in base.name
    assert m.map.hex(hex_id).terrain in ("coastal", "high_seas")


def test_the_hexes_the_text_names(m: Module) -> None:
    named = {p.hex for p in m.map.places}
    assert {"3003", "2603", "1023", "0110", "2010", "3005", "0121"} <= named
    # the Murmansk note names the off-map base 2 hexes from 3003 [DTP 11.3 rule 2]
    assert any(p.hex == "3003" and "Murmansk" in p.name for p in m.map.places)
    # a US CV TF must be able to enter 2603; the Soviet retreat hexes are sea [DTP 11.3]
    for h in ("2603", "3001", "3002", "3003"):
        assert m.map.hex(h).terrain in ("high_seas", "coastal"), h


def test_kinloss_is_a_us_base_and_the_uk_use_is_stated(m: Module) -> None:
    base = m.map.hex("2224").airbase
    assert base is not None and base.nationality == "US" and "UK" in base.name
    assert "Kinloss is a US and a UK base" in m.scenarios["denmark_strait"].description


def test_tromso_and_keflavik_have_defences_to_destroy(m: Module) -> None:
    for h in ("2806", "0918"):
        d = m.map.hex(h).defended
        assert d is not None and d.side == "NATO"


def test_the_arctic_light_line_is_row_10_then_to_3005(m: Module) -> None:
    above = {h for h, d in m.map.hexes.items() if "above_light_line" in d.areas}
    g = m.map.grid
    assert g is not None
    for col in range(1, 21):  # 0110-2010: row 10 and everything north of it
        assert f"{col:02d}10" in above and f"{col:02d}11" not in above
    for h in g.line("2010", "3005"):
        assert h in above
    assert "3005" in above and "3006" not in above
    assert "2603" in above and "2224" not in above


def test_pack_ice_bars_surface_ships_and_lets_subs_in(m: Module) -> None:
    ice = m.map.terrain["pack_ice"]
    assert ice.char == "i"
    assert [h for h, d in m.map.hexes.items() if d.terrain == "pack_ice"]
    rows = {r["id"]: r for r in _csv(ROOT / "tables" / "terrain.csv")}
    assert rows["pack_ice"]["cost_surface"] == "-"
    assert rows["pack_ice"]["cost_submarine"] == "1"
    assert "DTP 11.3 rule 6" in rows["pack_ice"]["rule"]


def test_retreat_edges(m: Module) -> None:
    rows = {r["side"]: r for r in _csv(ROOT / "tables" / "players.csv")}
    assert rows["Soviet"]["player"] == "A" and rows["Soviet"]["retreat_edge"] == "3001-3002"
    assert rows["NATO"]["player"] == "B"
    west = m.map.edges["nato_retreat_west"].hexes
    south = m.map.edges["nato_retreat_south"].hexes
    assert all(m.map.hex(h).terrain == "high_seas" for h in west + south)
    assert "1024" not in south and "0924" in south
    # the players table holds both NATO segments, the same hexes as the map edges [DTP 11.3]
    assert retreat_edge_11_0(m, "NATO") == tuple(dict.fromkeys(west + south))
    assert parse_edges("0116-0124 0124-0924") == [("0116", "0124"), ("0124", "0924")]
    assert parse_edges("0116-0124 west") is None and parse_edges("") is None


def test_the_named_units_and_the_values_the_text_gives(m: Module) -> None:
    names = {u.name for u in m.units}
    for n in (
        "Nimitz",
        "Kiev",
        "Forger",
        "Los Angeles",
        "Churchill",
        "Saipan",
        "Harold E. Holt",
        "Convoy",
        "Mail",
        "Orion",
        "Phantom",
        "Charles F. Adams",
    ):
        assert n in names, n
    assert values(m, "US-CVY-1") == "0-0-0-3-7-0"  # 0-0-0/3-7-* [DTP 11.3 rule 7]
    assert values(m, "US-CV-1") == "7-1-36-4-12-6"  # SPI Example 3 (8.23)
    assert values(m, "SO-SG-1") == "0-30-12-3-8-5"  # SPI 7.45, 8.0


def test_nimitz_carries_seven_air_units(m: Module) -> None:
    air = [f.unit for f in m.scenarios["denmark_strait"].fixed if f.hex == "1322"]
    carrier_air = [u for u in air if "carrier" in m.piece(u).unit.flags]
    assert len(carrier_air) == 7  # [DTP 11.3 rule 1]


def test_every_unit_row_says_where_it_comes_from() -> None:
    rows = _csv(ROOT / "units.csv")
    assert rows
    for r in rows:
        src = r["source"]
        assert src.startswith(("rules:", "estimate")), r["id"]
        # a row whose values the text does not quote must say 'estimate' somewhere
        quoted = ("Example 3", "7.45", "0-0-0/3-7")
        assert "estimate" in src or any(q in src for q in quoted), r["id"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Estimates" in readme or "estimate" in readme


def test_iceland_setup_follows_11_31(m: Module) -> None:
    """The choices 11.31 gives the players are theirs: pools and choices whose hex lists are
    exactly what the rule allows (the dependent parts are checked in iceland_setup.py)."""
    s = m.scenarios["iceland"]
    g = m.map.grid
    assert g is not None
    fixed = {f.unit for f in s.fixed}
    pools = {p.rule: p for p in s.pools if p.rule.startswith("DTP 11.31")}
    sea = {h for h, d in m.map.hexes.items() if d.terrain in ("high_seas", "coastal")}
    kiev = next(p for p in s.pools if "SO-CH-1" in p.units)
    assert kiev.rule == "DTP 11.31 rule 3" and kiev.side == "Soviet"
    assert set(kiev.units) == {"SO-CH-1", "SO-CG-1", "SO-DD-1", "SO-F.1", "SO-F.2"}
    assert set(kiev.hexes) == {h for h in sea if g.distance(h, "0918") <= 3}  # rule 3
    saipan = next(p for p in s.pools if "US-LHA-1" in p.units)
    assert saipan.rule == "DTP 11.31 rule 4" and set(saipan.units) == {"US-LHA-1", "US-DE-1"}
    west = {h for h in sea if g.parse_id(h)[0] == 1 and g.parse_id(h)[1] > 21}
    assert set(saipan.hexes) == west == {"0122", "0123", "0124"}  # west edge south of 0121
    adams = next(p for p in s.pools if "US-DD-1" in p.units)
    assert set(adams.units) == {"US-DD-1", "US-DD-2"} and west <= set(adams.hexes)
    cvs = {c.unit: c for c in s.choices if c.rule == "DTP 11.31 rule 5"}
    assert set(cvs) == {"US-CV-1", "US-CV-2"}
    for c in cvs.values():  # own hex first, then every hex 2-4 from some west-edge hex
        near = {h for h in sea if any(2 <= g.distance(h, w) <= 4 for w in west)}
        assert set(c.hexes[1:]) == near and c.hexes[0] not in near
    assert not fixed & {*kiev.units, *saipan.units, *adams.units, *cvs}
    assert {"DTP 11.31 rule 3", "DTP 11.31 rule 4"} <= set(pools)
    nato = s.forces["NATO"]
    dead = {f.unit for f in s.fixed if f.status == "eliminated"}
    assert dead == {"US-F4.1", "US-P3.1"} and dead <= set(nato)  # rule 1: the dead pile
    assert "US-LHA-1" not in m.scenarios["denmark_strait"].forces["NATO"]


def test_victory_schedules_are_stated(m: Module) -> None:
    ds = m.scenarios["denmark_strait"].description
    for phrase in (
        "+20 if no US",
        "+10 for each of Tromso and Keflavik",
        "+20 convoy docks",
        "+10 at Trondheim",
        "NATO wins ties",
    ):
        assert phrase in " ".join(ds.split()), phrase
    assert "only if held at game end" in " ".join(m.scenarios["iceland"].description.split())


@pytest.mark.parametrize("name", ["crt.csv", "hit.csv", "strike_contact.csv", "readiness.csv"])
def test_dtp_tables_are_the_med_ones(name: str) -> None:
    assert (ROOT / "tables" / name).read_bytes() == (MED / "tables" / name).read_bytes()


def test_referee_check_and_build(tmp_path: Path) -> None:
    runner = Runner()
    r = runner.invoke(app, ["check", str(ROOT)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["build", str(ROOT), "-o", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    vmod = tmp_path / "dtp_denmark_strait-0.1.0.vmod"
    with zipfile.ZipFile(vmod) as z:
        assert "buildFile.xml" in z.namelist()


def _csv(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return list(csv.DictReader(lines))


def test_murmansk_is_an_off_map_box_of_the_vassal_module(m: Module) -> None:
    """The units at Murmansk [DTP 11.3 rule 2] stand in the VASSAL module's off-map box of that
    name, and a piece there reads back as that box (what `import-vlog` and `verify` use)."""
    from referee.engine.core import GameState, UnitState
    from referee.vassal.position.placement import table_for
    from referee.vassal.position.save import position_placements

    table = table_for(m)
    assert table.plan.off_map is not None
    assert [b.zone for b in table.plan.off_map.boxes] == ["Murmansk"]
    state = GameState("g", m.id, "sixth_fleet_dtp", "denmark_strait", 1, "combat", "NATO", {}, {})
    state = state.with_unit(UnitState("SO-T16.1", "Soviet", None, "Murmansk"))
    state = state.with_unit(UnitState("SO-T16.2", "Soviet", None, "Murmansk"))
    state = state.with_unit(UnitState("SO-M23.1", "Soviet", "2603", None))
    placed = {p.piece_id: p for stack in position_placements(table, state) for p in stack}
    assert set(placed) == {"SO-T16.1", "SO-T16.2", "SO-M23.1"}
    for u in ("SO-T16.1", "SO-T16.2"):
        p = placed[u]
        loc = table.locate(p.map, p.x, p.y)
        assert (loc.kind, loc.box) == ("off-map", "Murmansk"), (u, loc)
    assert (placed["SO-T16.1"].x, placed["SO-T16.1"].y) != (
        placed["SO-T16.2"].x,
        placed["SO-T16.2"].y,
    )
    p = placed["SO-M23.1"]
    assert table.locate(p.map, p.x, p.y).name == "2603"
