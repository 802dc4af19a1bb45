"""The Sixth Fleet (SPI 1975) demonstration data set: every fact the rules state holds.

The rules folder lacks the counter sheet, the mapsheet and the CRT, so most of the data set is
estimated. These tests pin down what is *not* an estimate: the quoted unit values, the CRT data
points the worked examples reveal (C1-C13 of the rules digest), the Level of Victory table,
the hexes the rules name, the orders of battle of 11.1/11.2/12.2x/14.3, and that the map still
reads as the Mediterranean.
"""

from __future__ import annotations

from collections import Counter, deque
from pathlib import Path

import pytest

from referee.source.loader import load_module
from referee.source.model import CrtCell, Module

ROOT = Path(__file__).resolve().parents[1] / "module_src" / "sixth_fleet"
NAVAL = ("surface", "submarine")


@pytest.fixture(scope="module")
def loaded():
    return load_module(ROOT)


@pytest.fixture(scope="module")
def m(loaded) -> Module:
    module, _ = loaded
    assert module is not None
    return module


def values(m: Module, uid: str) -> str:
    v = m.unit(uid).values
    return "-".join(str(v[k]) for k in ("AA", "AS", "ASW", "MA", "DEF", "ECM"))


def cell(m: Module, differential: int, ecm: int) -> CrtCell:
    got = m.tables.crt.lookup(differential, ecm)
    assert got is not None, f"differential {differential} has no column"
    return got[2]


def naval_ok(m: Module, hid: str) -> bool:
    t = m.map.terrain[m.map.hex(hid).terrain]
    return all(t.costs[c] is not None for c in NAVAL)


def dmult(m: Module, hid: str, category: str) -> int:
    return m.map.terrain[m.map.hex(hid).terrain].defense_multiplier.get(category, 1)


def nationality_of_country(m: Module, hid: str) -> str | None:
    code = m.map.hex(hid).country
    return m.map.countries[code].nationality if code else None


# ---- loading -------------------------------------------------------------------------------
def test_loads_with_no_diagnostics(loaded):
    module, diags = loaded
    assert [str(d) for d in diags.items] == []
    assert module is not None
    assert set(module.scenarios) == {"short", "campaign"}
    assert module.ruleset == "sixth_fleet_1975"


def test_every_roster_row_names_its_source(m):
    for u in m.units:
        assert u.source.startswith(("rules:", "estimate")), u.id


# ---- unit values quoted in the rules [0 of the digest] ----------------------------------------
@pytest.mark.parametrize(
    "uid,quoted",
    [
        ("SO-SG-1", "0-30-12-3-8-5"),  # 7.45 example, 8.0 example, Examples 3 and 4
        ("GR-DD-1", "8-8-12-4-4-2"),  # 8.0 example
        ("TU-DE-1", "6-6-12-2-6-1"),  # 8.0 example (OCR "]" = 1)
        ("US-CV-1", "7-1-36-4-12-6"),  # Example 3 (8.23)
        ("US-CV-2", "7-1-36-4-12-6"),  # the same CV values for the second US CV
        ("US-SN-1", "0-30-15-5-10-6"),  # Example 4 (8.24)
    ],
)
def test_quoted_unit_values(m, uid, quoted):
    assert values(m, uid) == quoted
    assert m.unit(uid).source.startswith("rules:")


def test_quoted_unit_types(m):
    assert (m.unit("SO-SG-1").type, m.unit("SO-SG-1").category) == ("SG", "submarine")
    assert (m.unit("GR-DD-1").type, m.unit("GR-DD-1").nationality) == ("DD", "Gr")
    assert (m.unit("TU-DE-1").type, m.unit("TU-DE-1").nationality) == ("DE", "Tu")
    assert (m.unit("US-CV-1").name, m.unit("US-CV-2").name) == ("Saratoga", "America")
    assert (m.unit("SO-CV-1").name, m.unit("SO-CV-2").name) == ("Minsk", "Kiev")
    assert m.unit("SO-CV-2").fleet == "B"


# ---- CRT data points (tables.md A1) ------------------------------------------------------------
def test_crt_shape(m):
    crt = m.tables.crt
    assert crt.columns == (0, 5, 10, 15, 20, 25, 30, 35, 40)
    top = max(u.values["ECM"] for u in m.units)
    top = max([top] + [d.ecm for d in m.map.defended_hexes()])
    assert sorted(crt.rows) == list(range(0, top + 1))
    assert crt.column_for(6) == 5 and crt.column_for(-1) is None and crt.column_for(99) == 40


def test_c1_8_0_example(m):
    # SG (AS 30) in 1422 attacks the Greek DD and Turkish DE stacked in Restricted Water 1423
    attack = m.unit("SO-SG-1").values["AS"]
    x = dmult(m, "1423", "surface")
    defense = (m.unit("GR-DD-1").values["DEF"] + m.unit("TU-DE-1").values["DEF"]) * x
    ecm = max(m.unit("GR-DD-1").values["ECM"], m.unit("TU-DE-1").values["ECM"])
    assert (attack - defense, ecm) == (10, 2)
    assert str(cell(m, attack - defense, ecm)) == "1-2"


def test_c2_example_3(m):
    # SG vs the US CV in 1423: 30 - 12 x 2 = 6 -> column 5, ECM 6: no retreat possible
    d = m.unit("SO-SG-1").values["AS"] - m.unit("US-CV-1").values["DEF"] * dmult(
        m, "1423", "surface"
    )
    assert d == 6 and m.tables.crt.column_for(d) == 5
    assert cell(m, d, m.unit("US-CV-1").values["ECM"]).no_effect


def test_example_4_submarine_defense(m):
    # SG ASW 12 vs the US SN 10 x 2 = 20 in 1423: a negative differential, no attack [8.23]
    d = m.unit("SO-SG-1").values["ASW"] - m.unit("US-SN-1").values["DEF"] * dmult(
        m, "1423", "submarine"
    )
    assert d == -8 and m.tables.crt.lookup(d, 6) is None


def test_c3_8_9_example(m):
    assert str(cell(m, 5, 4)) == "1"


def test_c4(m):
    assert cell(m, 31, 4).hi >= 2


def test_c5_mig21_vs_two_f4(m):
    d = m.unit("SO-M21-SY").values["AA"] - 2 * m.unit("US-F4").values["DEF"]
    assert d == 7
    assert str(cell(m, d, m.unit("US-F4").values["ECM"])) == "1"


def test_c6_s3_vs_sg(m):
    d = m.unit("US-S3").values["ASW"] - m.unit("SO-SG-1").values["DEF"]
    assert m.tables.crt.column_for(d) == 10
    assert str(cell(m, 10, 5)) == "1"
    assert str(cell(m, d, m.unit("SO-SG-1").values["ECM"])) == "1"


def test_c7_f4_vs_tu16(m):
    d = m.unit("US-F4C").values["AA"] - m.unit("SO-T16").values["DEF"]
    assert m.tables.crt.column_for(d) == 10
    assert str(cell(m, 10, 1)) == "1-3"
    assert m.unit("SO-T16").values["ECM"] == 1 and m.unit("SO-T16").values["AA"] == 0


def test_c8_tu22_vs_cv(m):
    assert str(cell(m, 30, 6)) == "1" and str(cell(m, 35, 6)) == "1"
    for d in (37, m.unit("SO-T22").values["AS"] - m.unit("US-CV-1").values["DEF"]):
        assert str(cell(m, d, 6)) == "1"


def test_c9_nimrod_p3_vs_victor(m):
    d = (
        m.unit("BR-NIM").values["ASW"]
        + m.unit("US-P3").values["ASW"]
        - m.unit("SO-SN-1").values["DEF"]
    )
    assert d == 30
    assert cell(m, 30, 5).hi >= 1
    assert cell(m, d, m.unit("SO-SN-1").values["ECM"]).hi >= 1


def test_c10_two_tu16_vs_cv(m):
    d = 2 * m.unit("SO-T16").values["AS"] - m.unit("US-CV-1").values["DEF"]
    assert d >= 40
    assert str(cell(m, 68, 6)) == "1-2" and str(cell(m, d, 6)) == "1-2"


def test_c11_c12_c13_forgers(m):
    f, a7, a6 = m.unit("SO-F"), m.unit("US-A7"), m.unit("US-A6")
    # C11: two A7s (AA 3 each) vs two Forgers on the "plus zero column", 1 in 6
    assert a7.values["AA"] == 3 and a6.values["AA"] == 3
    d = 2 * a7.values["AA"] - 2 * f.values["DEF"]
    assert m.tables.crt.column_for(d) == 0
    assert str(cell(m, d, f.values["ECM"])) == "1"
    # C12: the Forgers bounce the A6 (ECM 4): 1 in 6
    assert a6.values["ECM"] == 4
    d = 2 * f.values["AA"] - a6.values["DEF"]
    assert str(cell(m, d, 4)) == "1"
    # C13: the same bounce on an A7 (ECM 2): 1 in 3
    assert a7.values["ECM"] == 2
    d = 2 * f.values["AA"] - a7.values["DEF"]
    assert str(cell(m, d, 2)) == "1-2"


def test_crt_monotone(m):
    crt = m.tables.crt

    def level(c: CrtCell) -> int:
        return 0 if c.hi is None else c.hi

    for ecm, row in crt.rows.items():
        got = [level(c) for c in row]
        assert got == sorted(got), f"ECM {ecm} falls as the differential rises"
        for c in row:
            assert c.hi is None or c.lo == 1
    for i in range(len(crt.columns)):
        col = [level(crt.rows[e][i]) for e in sorted(crt.rows)]
        assert col == sorted(col, reverse=True), f"column {crt.columns[i]} rises with ECM"


# ---- Level of Victory [13.2] -----------------------------------------------------------------
@pytest.mark.parametrize(
    "net,result",
    [
        (51, "Soviet Decisive"),
        (200, "Soviet Decisive"),
        (50, "Soviet Substantive"),
        (36, "Soviet Substantive"),
        (35, "Soviet Marginal"),
        (21, "Soviet Marginal"),
        (20, "Draw"),
        (0, "Draw"),
        (-1, "NATO Marginal"),
        (-15, "NATO Marginal"),
        (-16, "NATO Substantive"),
        (-30, "NATO Substantive"),
        (-31, "NATO Decisive"),
        (-200, "NATO Decisive"),
    ],
)
def test_level_of_victory(m, net, result):
    assert m.tables.level_of_victory(net).startswith(result)


# ---- hexes the rules name ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "hid,nat",
    [
        ("1311", "US"),
        ("1022", "US"),
        ("1010", "Br"),
        ("1232", "Br"),
        ("1812", "It"),
    ],
)
def test_named_airbases(m, hid, nat):
    base = m.map.hex(hid).airbase
    assert base is not None and base.nationality == nat


def test_airbases_stand_in_their_own_country(m):
    home = {
        "US": {"It", "Gr"},
        "Br": {"Br"},
        "It": {"It"},
        "Gr": {"Gr"},
        "Tu": {"Tu"},
        "So": {"So"},
        "Is": {"Is"},
    }
    for a in m.map.airbases():
        h = m.map.hex(a.hex)
        assert h.terrain in ("land", "coastal"), a.hex
        assert nationality_of_country(m, a.hex) in home[a.nationality], a.hex
    soviet = {m.map.hex(a.hex).country for a in m.map.airbases() if a.nationality == "So"}
    assert soviet == {"B", "R", "S", "E"}


def test_bosporus(m):
    h = m.map.hex("2025")
    assert h.defended is not None and h.defended.side == "NATO"
    assert "aegean" in h.areas and "black_sea" not in h.areas
    assert naval_ok(m, "2025")
    # every hex north of 2025 is the Black Sea [12.24, 12.3]
    _col, row = m.map.grid.parse_id("2025")
    north = [n for n in m.map.grid.neighbours("2025") if m.map.grid.parse_id(n)[1] > row]
    assert north and all("black_sea" in m.map.hex(n).areas for n in north)
    assert all(naval_ok(m, n) for n in north)


def test_defended_hexes_sides(m):
    by_country = Counter((m.map.hex(d.hex).country, d.side) for d in m.map.defended_hexes())
    assert by_country[("E", "Soviet")] >= 1 and by_country[("S", "Soviet")] >= 1
    assert by_country[("J", "NATO")] >= 1
    assert {c for c, _ in by_country} <= {"E", "S", "J", "T"}
    assert all(d.ecm <= 6 for d in m.map.defended_hexes())


def test_combat_example_hexes(m):
    assert m.map.hex("1423").terrain == "restricted"
    assert dmult(m, "1423", "surface") == 2 and dmult(m, "1423", "submarine") == 2
    assert m.map.grid.adjacent("1422", "1423")
    assert naval_ok(m, "1422") and naval_ok(m, "1423")


@pytest.mark.parametrize("hid", ["1602", "0812", "1902", "1404", "1212", "0615", "2025"])
def test_setup_hexes_take_naval_units(m, hid):
    assert naval_ok(m, hid)


def test_terrain_effects(m):
    t = m.map.terrain
    assert t["restricted"].costs == {"surface": 2, "submarine": 2, "air": 1}
    assert t["high_seas"].costs == {"surface": 1, "submarine": 1, "air": 1}
    assert t["land"].costs == {"surface": None, "submarine": None, "air": 1}
    for p in ("prohibited_land", "prohibited_coastal"):
        assert set(t[p].costs.values()) == {None} and t[p].blocks_zoc
    assert t["coastal"].costs["air"] == 1


# ---- orders of battle ------------------------------------------------------------------------
def types_of(m: Module, pieces) -> Counter:
    all_pieces = m.pieces()
    return Counter(all_pieces[p].unit.type for p in pieces)


def test_roster_air_counts(m):
    """Every air counter the rules call for, no more: start + 12.2x reinforcements (+14.3)."""
    got = Counter()
    for u in m.units:
        if u.category == "air" and not u.id.endswith(("-SY", "-EG")):
            got[(u.nationality, u.type, u.has("carrier"))] += u.count
    assert got[("US", "F4", False)] == 1 + 1 + 5  # 11.1 (1311, 1022) + 12.21
    assert got[("US", "P3", False)] == 1
    assert got[("US", "F4", True)] == 2 and got[("US", "F14", True)] == 2
    assert got[("US", "A7", True)] == 4 and got[("US", "S3", True)] == 2
    assert got[("US", "A5", True)] == 1 and got[("US", "A6", True)] == 1
    assert got[("Br", "NIM", False)] == 2 and got[("Br", "LTG", False)] == 1
    assert got[("So", "T16", False)] == 4 and got[("So", "T22", False)] == 1
    assert got[("So", "B12", False)] == 2
    assert got[("So", "M25", False)] == 4 + 1 and got[("So", "M23", False)] == 6 + 3
    assert got[("So", "F", True)] == 2 + 2
    assert {k for k in got if k[0] == "So"} == {
        ("So", t, t == "F") for t in ("T16", "T22", "B12", "M25", "M23", "F")
    }
    assert {k for k in got if k[0] in ("US", "Br")} == {
        ("US", "F4", False),
        ("US", "P3", False),
        ("US", "F4", True),
        ("US", "F14", True),
        ("US", "A7", True),
        ("US", "S3", True),
        ("US", "A5", True),
        ("US", "A6", True),
        ("Br", "NIM", False),
        ("Br", "LTG", False),
    }
    assert all(u.back == "air_returning" for u in m.units if u.category == "air")


def test_nato_air_setup_11_1(m):
    s = m.scenarios["short"]
    fixed = {}
    for f in s.fixed:
        fixed.setdefault(f.hex, []).append(f.unit)
    assert types_of(m, fixed["1311"]) == Counter(F4=1)
    assert types_of(m, fixed["1022"]) == Counter(F4=1, P3=1)
    assert types_of(m, fixed["1010"]) == Counter(NIM=1)
    assert types_of(m, fixed["1232"]) == Counter(LTG=1, NIM=1)
    assert {f.unit: f.hex for f in s.fixed if f.rule.startswith("11.1")}["US-CV-1"] == "1602"
    assert {f.unit: f.hex for f in s.fixed}["US-CV-2"] == "0812"
    ss = [f for f in s.fixed if f.rule == "11.1C"]
    assert len(ss) == 1 and ss[0].hex == "2025"
    sub = m.pieces()[ss[0].unit].unit
    assert (sub.type, sub.nationality) == ("SS", "Tu")
    carriers = {p.carrier: p for p in s.pools if p.where == "carrier"}
    assert types_of(m, carriers["US-CV-1"].units) == Counter(A7=2, F4=2, A5=1, S3=1)
    assert types_of(m, carriers["US-CV-2"].units) == Counter(A7=2, F14=2, A6=1, S3=1)
    assert types_of(m, carriers["SO-CV-1"].units) == Counter(F=2)
    for p in carriers.values():
        assert all(m.pieces()[u].unit.has("carrier") for u in p.units)


def test_soviet_setup_11_2(m):
    s = m.scenarios["short"]
    choices = {c.rule: set(c.hexes) for c in s.choices}
    assert choices == {"11.2A": {"1902", "1404"}, "11.2B": {"1212", "0615"}}
    assert all(m.pieces()[c.unit].unit.type == "SN" for c in s.choices)
    land = [p for p in s.pools if p.side == "Soviet" and p.where == "airbase"]
    assert len(land) == 1 and set(land[0].countries) == {"B", "R"}
    assert (land[0].per_hex_min, land[0].per_hex_max) == (0, 6)
    assert types_of(m, land[0].units) == Counter(T16=4, T22=1, B12=2, M25=4, M23=6)
    soviet_air = [p for p in s.forces["Soviet"] if m.pieces()[p].unit.category == "air"]
    assert types_of(m, soviet_air) == Counter(T16=4, T22=1, B12=2, M25=4, M23=6, F=2)
    # no Black Sea Fleet, French, British naval or 14.3 unit at the start
    for ids in s.forces.values():
        for p in ids:
            u = m.pieces()[p].unit
            assert u.fleet != "B", p
            assert not (u.nationality in ("Fr", "Br") and u.category in NAVAL), p
            assert u.nationality != "Is" and not u.id.endswith(("-SY", "-EG")), p


def test_naval_setup_pools(m):
    s = m.scenarios["short"]
    code_pools = {p.code: p for p in s.pools if p.where == "setup_code"}
    assert set(code_pools) == {"US", "It", "Gr", "Tu", "So"}
    for code, p in code_pools.items():
        assert (p.per_hex_min, p.per_hex_max, p.fill_all) == (1, 3, True), code
        nat = m.map.setup_codes[code]
        assert all(m.pieces()[u].unit.nationality == nat for u in p.units)
        assert len(p.hexes) <= len(p.units) <= 3 * len(p.hexes), code
        assert all(naval_ok(m, h) for h in p.hexes)
    # every naval unit in play is placed on a coded hex or by a special placement
    special = {f.unit for f in s.fixed} | {c.unit for c in s.choices}
    pooled = {u for p in code_pools.values() for u in p.units}
    for ids in s.forces.values():
        for p in ids:
            if m.pieces()[p].unit.category in NAVAL:
                assert p in special or p in pooled, p
    for nat in ("It", "Gr", "Tu"):
        pools = [p for p in s.pools if p.where == "airbase" and p.nationality == nat]
        assert len(pools) == 1 and pools[0].fill_all and pools[0].per_hex_min == 1
        assert len(pools[0].hexes) <= len(pools[0].units) <= 6 * len(pools[0].hexes)


def test_campaign_reinforcements_12_2(m):
    c = m.scenarios["campaign"]
    assert c.turns == 21 and m.scenarios["short"].turns == 10
    by_rule: dict[str, list] = {}
    for r in c.reinforcements:
        assert r.after_turn == 10
        by_rule.setdefault(r.rule, []).append(r)
    (r21,) = by_rule["12.21"]
    assert types_of(m, r21.units) == Counter(F4=5)
    assert all(
        not m.pieces()[u].unit.has("carrier") and m.pieces()[u].unit.nationality == "US"
        for u in r21.units
    )
    assert (r21.entry, set(r21.hexes), r21.loc_edge) == ("airbases", {"1311", "1022"}, "west")
    r22 = [u for r in by_rule["12.22"] for u in r.units]
    want = {
        p
        for u in m.units
        if u.nationality in ("Fr", "Br") and u.category in NAVAL
        for p in u.piece_ids
    }
    want |= {p for u in m.units if u.nationality == "Fr" and u.has("carrier") for p in u.piece_ids}
    assert set(r22) == want
    assert {r.entry for r in by_rule["12.22"]} == {"edge_adjacent"}
    assert {r.edge for r in by_rule["12.22"]} == {"west"}
    (r23,) = by_rule["12.23"]
    assert types_of(m, r23.units) == Counter(M25=1, M23=3)
    bases = {
        a.hex
        for a in m.map.airbases()
        if a.nationality == "So" and m.map.hex(a.hex).country in ("B", "R")
    }
    assert set(r23.hexes) == bases and r23.loc_edge == "north"
    (r24,) = by_rule["12.24"]
    fleet_b = {p for u in m.units if u.fleet == "B" for p in u.piece_ids}
    assert fleet_b and fleet_b <= set(r24.units)
    assert types_of(m, set(r24.units) - fleet_b) == Counter(F=2)
    assert (r24.entry, r24.area) == ("area", "black_sea")
    assert any(u.type == "CV" and u.name == "Kiev" for u in m.units if u.fleet == "B")
    (pr,) = c.prohibitions
    assert (pr.area, set(pr.categories), pr.until_turn) == (
        "black_sea",
        {"surface", "submarine"},
        11,
    )


def test_optional_14_3_units(m):
    roster = Counter()
    for u in m.units:
        roster[(u.nationality, u.type, u.id[-3:] if u.id.endswith(("-SY", "-EG")) else "")] += (
            u.count
        )
    assert roster[("Is", "F4", "")] == 6 and roster[("Is", "A4", "")] == 6
    # the worst rows of the 14.3 table: Syria 4 M23 4 M21 4 Y28; Egypt 2 M23 4 M21 4 Y28 2 I28
    for key, n in {
        ("M23", "-SY"): 4,
        ("M21", "-SY"): 4,
        ("Y28", "-SY"): 4,
        ("M23", "-EG"): 2,
        ("M21", "-EG"): 4,
        ("Y28", "-EG"): 4,
        ("I28", "-EG"): 2,
    }.items():
        assert roster[("So", key[0], key[1])] == n, key
    used = set()
    for s in m.scenarios.values():
        used |= s.all_pieces()
    for u in m.units:
        if u.nationality == "Is" or u.id.endswith(("-SY", "-EG")):
            assert not set(u.piece_ids) & used, u.id
    # 1-6 per airbase must be able to hold every roll of the table
    for country, least, most in (("S", 6, 12), ("E", 6, 12), ("J", 12, 12)):
        n = sum(1 for a in m.map.airbases() if m.map.hex(a.hex).country == country)
        assert n <= least and 6 * n >= most, country


def test_victory_bonuses(m):
    for s in m.scenarios.values():
        b = {v.rule: v for v in s.victory_bonuses}
        assert (b["13.11"].vp, b["13.11"].condition, b["13.11"].params["area"]) == (
            10,
            "no_enemy_in_area",
            "aegean",
        )
        assert (b["13.12"].vp, b["13.12"].condition, b["13.12"].params["edge"]) == (
            15,
            "israel_cut_off",
            "west",
        )
        assert (b["13.13"].vp, b["13.13"].params["area"]) == (15, "east_med")
        assert b["13.13"].params["requires"] == b["13.12"].id
        assert all(v.side == "Soviet" for v in b.values())
        assert (s.unit_vp, s.unit_vp_minimum, s.first_player) == ("ECM", 1, "NATO")
        assert s.setup_order == ("NATO", "Soviet")


# ---- the map reads as the Mediterranean ---------------------------------------------------------
def naval_reach(m: Module, start: str, blocked: set[str] = frozenset()) -> set[str]:
    grid = m.map.grid
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in grid.neighbours(h):
            if n in seen or n in blocked or not naval_ok(m, n):
                continue
            if m.map.is_all_land_hexside(h, n):
                continue
            seen.add(n)
            todo.append(n)
    return seen


def test_spot_geography(m):
    h = m.map.hex
    assert h("1311").terrain in ("land", "coastal") and nationality_of_country(m, "1311") == "It"
    assert h("1022").terrain in ("land", "coastal") and nationality_of_country(m, "1022") == "Gr"
    assert h("1010").country == "M" and h("1010").terrain == "coastal"
    assert h("1232").country == "C" and h("1812").country == "I"
    assert h("1602").terrain == "high_seas" and h("0812").terrain == "high_seas"
    black = [x for x in m.map.hexes.values() if "black_sea" in x.areas]
    assert len(black) > 30
    assert all(x.terrain in ("high_seas", "restricted", "coastal") for x in black)
    assert min(m.map.grid.parse_id(x.id)[1] for x in black) >= 20
    # Yugoslavia and Albania, and only they, are Prohibited [10.11]
    for x in m.map.hexes.values():
        assert (x.terrain.startswith("prohibited")) == (x.country in ("Y", "A")), x.id
    # Israel on the east coast, Egypt on the south coast, Italy's boot in the middle
    israel = [x for x in m.map.hexes.values() if x.country == "J" and x.terrain == "coastal"]
    assert israel and all(m.map.grid.parse_id(x.id)[0] >= 33 for x in israel)
    assert all(7 <= m.map.grid.parse_id(x.id)[1] <= 10 for x in israel)
    assert h("0530").country == "E" and h("0633").country == "E"
    assert {h(x).country for x in ("1711", "1714", "1809", "2311")} == {"I"}
    assert h("1420").country == "G" and h("1524").country == "T" and h("2223").country == "B"


def test_sea_connections(m):
    med = naval_reach(m, "1602", blocked={"2025"})
    # every set-up hex of the short scenario lies on the one Mediterranean
    for hid in ["0812", "1902", "1404", "1212", "0615", "1422", "1423"] + [
        x.id for x in m.map.hexes.values() if x.setup_code
    ]:
        assert hid in med, hid
    # the Black Sea is reachable only through the Bosporus [12.3]
    assert not any("black_sea" in m.map.hex(x).areas for x in med)
    assert "2125" in naval_reach(m, "1602")
    # the Aegean is entered from the south and, via Marmara, from 2025
    assert "1925" in med and "1423" in med
    # Israel can trace a sea path to the western edge at the start [13.12]
    west = set(m.map.edges["west"].hexes)
    soviet_def = {d.hex for d in m.map.defended_hexes() if d.side == "Soviet"}
    israel = [x.id for x in m.map.hexes.values() if x.country == "J" and x.terrain == "coastal"]
    assert west & naval_reach(m, israel[0], blocked=soviet_def | {"2025"})


def test_all_land_hexsides_separate_two_seas(m):
    for a, b in m.map.all_land_hexsides:
        assert m.map.grid.adjacent(a, b)
        assert naval_ok(m, a) and naval_ok(m, b)
