"""The Westpac data set [DTP 11.5]: what the text states holds.

The kit prints neither the map, the counters, the set-up charts nor the reinforcement track, so
most of module_src/dtp_westpac is estimated. These tests pin what is *not*: every hex the text
names at its place and on terrain its role needs (a port coastal, a set-up hex at sea), the
three victory areas and the light line, the retreat edges and removal ports, the units the
text names by number with the values it fixes, the set-up choices it gives, the victory awards
table as printed, that every estimate says so, and that `referee check` accepts it (real
VASSAL loads the build: tests/vassal/test_dtp_westpac_vassal.py).
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from referee.cli import app
from referee.rules.sixth_fleet_dtp.denmark_strait import above_light_line_11_3_8
from referee.rules.sixth_fleet_dtp.movement import retreat_edge_11_0
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO / "module_src" / "dtp_westpac"
MED = REPO / "module_src" / "sixth_fleet_dtp"

# every hex the text names with its place [DTP 11.503, 11.5082, 11.5124]
PORTS = {
    "3033": "Vladivostok",
    "1850": "Shanghai",
    "1855": "Wenzhou",
    "1460": "Zhangzhou",
    "3945": "Yokosuka",
    "3546": "Nagoya",
    "3147": "Kure",
    "0573": "Cam Ranh Bay",
    "5916": "Petropavlovsk",
    "4227": "Korsakov",
    "4730": "Burevestnik",
    "2746": "Tsushima",
    "2744": "Pohang",
    "2646": "Pusan",
    "2346": "Mokpo",
    "2342": "Incheon",
    "1858": "Keelung",
    "1862": "Makung",
    "1671": "Subic Bay",
    "1772": "Atienza (Manila Bay)",
    "2558": "Naha",
    "4036": "Ominato",
    "2748": "Sasebo",
    "2850": "Kagoshima",
    "3346": "Osaka",
    "4473": "Guam",
    "1672": "Cubi Point",
}
US_BASES = ("4473", "1771", "1672", "2557", "3047", "4137", "3845", "2543", "2644", "2444")
AT_SEA = ("3136", "5823", "3354", "4338", "3251", "4146")  # set-up hexes [11.5052, 11.5053]


@pytest.fixture(scope="module")
def m() -> Module:
    module, diags = load_module(ROOT)
    assert module is not None, [str(d) for d in diags.items]
    return module


def values(m: Module, uid: str) -> str:
    v = m.unit(uid).values
    return "-".join(str(v[k]) for k in ("AA", "AS", "ASW", "MA", "DEF", "ECM"))


def test_the_grid_holds_every_named_hex_column_then_row_growing_south(m: Module) -> None:
    g = m.map.grid
    assert g is not None
    assert (g.columns, g.rows, g.id_format, g.rows_grow) == (60, 73, "CCRR", "south")
    # the east edge is column 60 (6037 and 6019 are on it [11.5032, 11.511]); row 73 holds
    # Cam Ranh Bay and Guam [11.5082]
    assert {"6037", "6019", "0573", "4473", "6073"} <= set(m.map.hexes)
    # Petropavlovsk 5916 lies north of Guam 4473: rows grow south
    assert g.centre("5916")[1] < g.centre("4473")[1]


@pytest.mark.parametrize(("hex_id", "name"), sorted(PORTS.items()))
def test_every_named_port_is_a_coastal_hex_with_its_name(m: Module, hex_id: str, name: str) -> None:
    assert m.map.hexes[hex_id].terrain == "coastal", hex_id
    assert any(p.hex == hex_id and p.name.startswith(name) for p in m.map.places), hex_id


def test_the_us_marked_bases_are_us_airbases_shared_as_11_5082_says(m: Module) -> None:
    for h in US_BASES:
        base = m.map.hexes[h].airbase
        assert base is not None and base.nationality == "US", h
        assert m.map.hexes[h].terrain in ("coastal", "land"), h
    with (ROOT / "tables" / "base_rules.csv").open() as f:
        rows = {r["hex"]: set(r["nationalities"].split()) for r in csv.DictReader(_data(f))}
    # Australia: Kadena, Clark, Cubi Point and Guam only [11.5082]
    assert {h for h, n in rows.items() if "Au" in n} == {"2557", "1771", "1672", "4473"}
    assert {h for h, n in rows.items() if "Ko" in n} == {"2543", "2644", "2444"}
    assert {h for h, n in rows.items() if "Ja" in n} == {"2557", "3047", "4137", "3845"}
    assert {h for h, n in rows.items() if "Ph" in n} == {"1771", "1672"}
    assert rows["0573"] == {"So", "Vi"}  # Cam Ranh Bay/Nha Trang: Soviet and Vietnamese


def test_the_set_up_hexes_are_at_sea(m: Module) -> None:
    for h in AT_SEA:
        assert m.map.hexes[h].terrain == "high_seas", h


def test_the_three_victory_areas_are_declared_sea_regions(m: Module) -> None:
    areas = {a.id for a in m.map.areas.values()}
    assert {"sea_of_okhotsk", "sea_of_japan", "formosa_strait"} <= areas
    for area in ("sea_of_okhotsk", "sea_of_japan", "formosa_strait"):
        hexes = [h for h, x in m.map.hexes.items() if area in x.areas]
        assert hexes, area
        # "all sea and coastal hexes within the boundaries" [11.5123]
        assert {m.map.hexes[h].terrain for h in hexes} <= {"high_seas", "coastal"}, area
    assert "sea_of_okhotsk" in m.map.hexes["4524"].areas  # mid-Okhotsk
    assert "sea_of_japan" in m.map.hexes["3136"].areas  # a Soviet TF's set-up hex [11.5052]
    assert "sea_of_japan" not in m.map.hexes["4338"].areas  # the Pacific off Honshu
    assert "formosa_strait" in m.map.hexes["1660"].areas


def test_the_arctic_light_line_is_row_19_from_3119_to_6019(m: Module) -> None:
    # "on or above the line of hexes along the 0019 hex row from 3119 to 6019" [11.511]
    for h in ("3119", "6019", "4519", "3101", "6001", "5916"):
        assert above_light_line_11_3_8(m.map, h), h
    for h in ("3120", "6020", "3019", "3033", "4473"):
        assert not above_light_line_11_3_8(m.map, h), h
    # the bastion north of the line lies in both areas (the [area_overlap] layer)
    assert {"sea_of_okhotsk", "above_light_line"} <= m.map.hexes["4515"].areas


def test_the_retreat_edges_and_players(m: Module) -> None:
    assert retreat_edge_11_0(m, "EastBlock") == ()  # no retreat edge [11.5031]
    seato = retreat_edge_11_0(m, "SEATO")
    assert seato[0] == "2073" and "6073" in seato and "6037" in seato  # [11.5032]
    assert all(h in m.map.hexes for h in seato)
    s = m.scenarios["westpac"]
    assert s.turns == 48 and s.first_player == "EastBlock"  # [11.504, 11.502]
    assert s.optional_rules == ("11.5131", "11.5132", "11.5133", "11.5134")


@pytest.mark.parametrize(
    ("uid", "text"),
    [
        ("US-LCC-26", "Blue Ridge"),
        ("SO-CCL-13", "Admiral Senyavin"),
        ("SO-LSD-33", "Ivan Rogov"),
        ("SO-SG-36", "Charlie"),
        ("SO-SG-51", "Whiskey Long Bin"),
        ("CH-LSM-122", "LSM"),
        ("CH-LSM-123", "LSM"),
        ("CH-Z5-160", "Hound"),
        ("US-LHA-27", "Tarawa"),
        ("US-LPH-28", "Okinawa"),
        ("US-LPH-29", "Tripoli"),
        ("US-CG-13", "Chicago"),
        ("US-CG-14", "Chicago+"),
        ("SO-CL-14", "Alexandr Suvorov"),
        ("SO-CL-15", "Dimitriy Pozharskiy"),
        ("SO-CL-16", "Alexandr Suvorov bis"),
        ("SO-CL-17", "Dimitriy Pozharskiy bis"),
        ("JA-DD-119", "Shirane"),
        ("JA-DE-121", "Isuzu"),
        ("JA-SS-125", "Uzushio"),
    ],
)
def test_the_units_the_text_numbers(m: Module, uid: str, text: str) -> None:
    u = m.unit(uid)
    assert text in u.name
    assert str(u.number) == uid.rsplit("-", 1)[1]


def test_the_convoys_and_the_command_ships(m: Module) -> None:
    ak = sorted(u.id for u in m.units if u.type == "AK")
    assert set(ak) == {
        *(f"US-AK-{n}" for n in range(50, 54)),
        *(f"SO-AK-{n}" for n in range(78, 83)),
    }
    tk = sorted(u.id for u in m.units if u.type == "TK")
    assert tk == ["JA-TK-129", "JA-TK-130", "JA-TK-131"]  # in Japanese colours [11.5092]
    assert {m.unit(u).nationality for u in tk} == {"Ja"}
    for uid in ak + tk:  # ECM '*', sunk at D12 [11.50921]
        assert "convoy" in m.unit(uid).flags and m.unit(uid).values["ECM"] == 0
    # LCC #26 is worth 10 VP, CCL #13 6: double their ECM [11.5091; DTP-EX-11.5091]
    assert 2 * m.unit("US-LCC-26").values["ECM"] == 10
    assert 2 * m.unit("SO-CCL-13").values["ECM"] == 6
    # the amphibious groups [11.5094]
    assert [m.unit(f"US-{t}-{n}").type for t, n in
            (("LHA", 27), ("LPH", 28), ("LPH", 29), ("LPD", 30), ("LST", 31))] == \
        ["LHA", "LPH", "LPH", "LPD", "LST"]  # fmt: skip


def test_the_set_up_follows_the_text(m: Module) -> None:
    s = m.scenarios["westpac"]
    choice = {c.unit: c.hexes for c in s.choices}
    assert set(choice["US-CV-4"]) == {"3354", "4338"}  # the CV4 Midway TF [11.5053]
    assert set(choice["JA-DD-119"]) == set(choice["JA-DE-121"]) == {"3251", "4146"}
    assert set(choice["JA-SS-125"]) == {"3251", "4146"}
    # two Soviet TFs of three, one each in 3136 and 5823, one escort of each in Vladivostok:
    # every escort may take either hex or the port, each flagship either hex [11.5052]
    for flagship, escorts in (("SO-CG-2", ("SO-CG-3", "SO-DD-4", "SO-DD-5")),
                              ("SO-CG-6", ("SO-CG-7", "SO-DD-8", "SO-DD-9"))):  # fmt: skip
        assert set(choice[flagship]) == {"3136", "5823"}
        assert all(set(choice[u]) == {"3136", "5823", "3033"} for u in escorts)
    # the subs "1 each in [hexes]" [11.5052] and the 3 SSNs [11.5053] choose among their hexes
    assert set(choice["US-SN-1"]) == set(choice["US-SN-2"]) == set(choice["US-SN-3"])
    assert "SO-SG-36" in choice  # set up last [11.505]
    fixed = {f.unit: f.hex for f in s.fixed}
    assert fixed["US-LCC-26"] == "3945"  # must move to sea on turn 1 [11.5091]
    # the CCL enters on turn 31 [11.5091]; reinforcements arrive on AM turns 4-43 [11.5041]
    entry = {u: r for r in s.reinforcements for u in r.units}
    assert entry["SO-CCL-13"].after_turn + 1 == 31
    for r in s.reinforcements:
        turn = r.after_turn + 1
        assert 4 <= turn <= 43 and turn % 3 == 1, (r.units, turn)  # AM turns [11.5041]
        assert turn not in (1, 46)  # nothing on the track on turns 1 or 46 [11.506]
        assert r.entry in ("hex", "airbases") and r.hexes


def test_the_victory_awards_table_is_the_printed_one() -> None:
    with (ROOT / "tables" / "victory_awards.csv").open() as f:
        rows = {r["id"]: r for r in csv.DictReader(_data(f))}
    got = {(r["side"], r["vp"], r["hexes"]) for r in rows.values() if r["vp"].isdigit()}
    # a sample of the table's fixed awards [11.5124]
    assert ("EastBlock", "15", "2746") in got and ("EastBlock", "10", "4129") in got
    assert ("EastBlock", "30", "0573") in got and ("EastBlock", "20", "5916") in got
    assert ("SEATO", "2", "4034") in got and ("SEATO", "20", "1858 1862") in got
    assert ("SEATO", "5", "2748 2850 3147 3346 3546 3945") in got
    assert sum(r["vp"] == "50" for r in rows.values()) == 6  # sea control, both sides x 3
    assert {r["per"] for r in rows.values() if r["id"].startswith("se_okhotsk_")} == {"turn"}


def test_every_estimate_says_so() -> None:
    for name in ("units.csv", "tables/detection.csv", "tables/readiness.csv",
                 "tables/variable_air.csv"):  # fmt: skip
        with (ROOT / name).open() as f:
            for r in csv.DictReader(_data(f)):
                assert r["source"].startswith(("rules:", "estimate")), (name, r)
    with (ROOT / "tables" / "variable_air.csv").open() as f:
        assert all(r["source"].startswith("estimate") for r in csv.DictReader(_data(f)))
    text = (ROOT / "scenarios" / "westpac.toml").read_text()
    assert text.count("estimate") > 100
    for name in ("crt.csv", "hit.csv", "strike_contact.csv"):  # the DTP tables, unchanged
        assert (ROOT / "tables" / name).read_bytes() == (MED / "tables" / name).read_bytes()


def test_a_bad_award_is_reported_with_its_row(tmp_path: Path) -> None:
    src = tmp_path / "dtp_westpac"
    shutil.copytree(ROOT, src)
    p = src / "tables" / "victory_awards.csv"
    p.write_text(p.read_text().replace(",15,once,2746,SO-LSD-33,", ",15,twice,9999,SO-LSD-99,"))
    r = Runner().invoke(app, ["check", str(src)])
    assert r.exit_code == 1
    assert "eb_rogov_tsushima: 'per' 'twice' is not one of once, unit, turn, end" in r.output
    assert "'9999' is no hex or area of the map" in r.output
    assert "'SO-LSD-99' is no unit [DTP 11.5124]" in r.output


def test_a_bad_retreat_rule_is_reported_with_its_row(tmp_path: Path) -> None:
    src = tmp_path / "dtp_westpac"
    shutil.copytree(ROOT, src)
    p = src / "tables" / "retreat_rules.csv"
    text = p.read_text().replace("Ja,yes,3945 3546 3147,", "Ja,maybe,3945 9999 3147,")
    p.write_text(text.replace("\nVi,no,", "\nXx,no,"))
    r = Runner().invoke(app, ["check", str(src)])
    assert r.exit_code == 1
    assert "retreat_rules.csv" in r.output
    assert "Ja: retreat_edge 'maybe' is not yes or no [DTP 11.503]" in r.output
    assert "Ja: port '9999' is no coastal hex of the map [DTP 11.503]" in r.output
    assert "Xx: unknown nationality 'Xx' [DTP 11.503]" in r.output


def test_check_is_clean() -> None:
    r = Runner().invoke(app, ["check", str(ROOT)])
    assert r.exit_code == 0, r.output
    assert "139 units (176 counters), 4380 hexes" in r.output


def _data(f) -> list[str]:  # type: ignore[no-untyped-def]
    return [ln for ln in f if not ln.startswith("#")]
