"""The DTP tables as data (``module_src/sixth_fleet_dtp``): the module checks clean, the shared
SPI files are the SPI files, every attested cell holds the book's number, the estimates are
monotone, and a malformed cell is reported at file:line:col with its case [DTP 4.01, 6.3,
8.15, 8.52, 9.23]."""

from __future__ import annotations

import re
import shutil
from functools import cache
from pathlib import Path

import pytest

from referee.rules.sixth_fleet_dtp.tables import HitEntry, parse_detection, parse_hit
from referee.source.loader import load_module
from referee.source.model import Module
from referee.source.tablemodel import TableMiss

ROOT = Path(__file__).resolve().parents[2]
DTP = ROOT / "module_src" / "sixth_fleet_dtp"
SPI = ROOT / "module_src" / "sixth_fleet"
SHARED = (
    "units.csv",
    "map.toml",
    "map.txt",
    "tables/terrain.csv",
    "tables/crt.csv",
    "tables/victory.csv",
    "tables/middle_east_air.csv",  # optional rule 14.3, kept in the Med [DTP 11.0]
    "scenarios/short.toml",
    "scenarios/campaign.toml",
)


@cache
def module() -> Module:
    m, diags = load_module(DTP)
    assert m is not None and not diags.errors, [str(d) for d in diags.items]
    return m


def test_the_module_checks_clean_with_the_four_dtp_tables() -> None:
    m = module()
    assert m.ruleset == "sixth_fleet_dtp"
    for name in ("detection", "strike_contact", "hit", "readiness", "players", "crt"):
        assert name in m.tables, name


@pytest.mark.parametrize("name", SHARED)
def test_shared_files_are_the_spi_files(name: str) -> None:
    """DTP keeps SPI's counters and map [DTP 100.3]: the copies must not drift."""
    assert (DTP / name).read_bytes() == (SPI / name).read_bytes(), (
        f"module_src/sixth_fleet_dtp/{name} differs from the SPI file it copies; after "
        f"editing the SPI data set run: cp module_src/sixth_fleet/{name} "
        f"module_src/sixth_fleet_dtp/{name}"
    )


def _air_back(text: str) -> tuple[str, str]:
    """``text`` without the air unit's back layout, and that layout's state word."""
    start = text.index("# The back of an air unit:")
    after = text.index('name = "air_returning"')
    # the block ends where the next table other than one of its own boxes begins (or the file)
    nxt = re.compile(r"\n\n(?:#[^\n]*\n)*\[(?!\[counter\.layout\.box\]\])").search(text, after)
    block = text[start : nxt.start() + 1] if nxt else text[start:]
    word = block.split('text = "{type}"')[1].split('text = "')[1].split('"')[0]
    return text[:start] + text[start + len(block) :], word


def test_module_toml_differs_from_spi_only_in_its_header() -> None:
    """The same counters and layouts as SPI's, but for the air unit's back: SPI's "returning to
    base" [9.22] is no DTP state; DTP's face-down air is inactive [DTP 9.23]."""
    dtp, dtp_back = _air_back((DTP / "module.toml").read_text(encoding="utf-8"))
    spi, spi_back = _air_back((SPI / "module.toml").read_text(encoding="utf-8"))
    assert dtp[dtp.index("[files]") :] == spi[spi.index("[files]") :]
    assert (spi_back, dtp_back) == ("RTB", "INACTIVE")


def hit(attack: int, def_: int) -> HitEntry:
    entry = parse_hit(module().tables["hit"].lookup(row=def_, col=attack).text)
    assert entry is not None
    return entry


def test_hit_table_attested_cells() -> None:
    """tables.md B3 and the combat example [DTP 8.52]."""
    assert str(hit(20, 10)) == "1-4"  # DTP-EX-CE-5: S3 20 vs SG DEF 10, 4 in 6
    assert str(hit(50, 12)) == "1-4"  # DTP-EX-CE-6: Tu22 50 vs CV DEF 12 reads column 40
    assert str(hit(80, 12)) == "1-4"  # DTP-EX-CE-8: 80 still 2 in 3 (40 is the top column)
    assert hit(40, 10).levels(4) == 1  # DTP-EX-CE-7: a roll of 4 gave D-1
    assert hit(19, 3).levels(6) == 1 and hit(19, 4).levels(5) == 1  # DTP-EX-CE-2
    assert module().tables["hit"].lookup(row=10, col=19).column.text == "10"
    assert module().tables["hit"].lookup(row=10, col=50).column.text == "40"


def test_hit_table_below_the_lowest_column_fails() -> None:
    """[DTP 4.01d]: below the lowest column the action fails."""
    with pytest.raises(TableMiss):
        module().tables["hit"].lookup(row=10, col=4)


def _severity(e: HitEntry) -> float:
    return 10 * e.auto if e.auto else (e.hi - e.lo + 1) / 6 if e.lo else 0.0


def test_hit_table_estimates_are_monotone() -> None:
    t = module().tables["hit"]
    grid = [[_severity(parse_hit(x) or HitEntry()) for x in row] for row in t.texts]
    for row in grid:
        assert row == sorted(row), row
    for c in range(len(grid[0])):
        col = [row[c] for row in grid]
        assert col == sorted(col, reverse=True), col


def test_strike_contact_attested_cells() -> None:
    t = module().tables["strike_contact"]
    assert t.lookup(row=1, col=1).value == 1  # DTP-EX-CE-5
    assert t.lookup(row=5, col=2).value <= 3  # DTP-EX-CE-7
    assert t.lookup(row=40, col=9).row.text == "20"  # farther uses the top row


def test_detection_columns_and_entries() -> None:
    t = module().tables["detection"]
    assert t.lookup(row="US CV", col=9).column.text == "+6"  # above the top: the top
    with pytest.raises(TableMiss):
        t.lookup(row="US CV", col=-7)  # below the lowest fails [DTP 4.01d]
    # the 6.2 hint: a NATO CV + escort (7) may auto-detect a Soviet CV (ECM 4 or less)
    assert parse_detection(t.lookup(row="So CV", col=3).text) == parse_detection("D")
    for row in t.texts:
        needs = [0 if x == "D" else int(x) for x in row]  # never harder to the right
        assert needs == sorted(needs, reverse=True), row
        assert all(parse_detection(x) is not None for x in row)


def test_readiness_mig23_is_four() -> None:
    t = module().tables["readiness"]
    assert t.lookup(row="So M23", col="rating").value == 4  # DTP-EX-CE-3


def test_malformed_cells_are_reported_with_their_case(tmp_path: Path) -> None:
    bad = tmp_path / "dtp"
    shutil.copytree(DTP, bad)
    hit_csv = bad / "tables" / "hit.csv"
    hit_csv.write_text(
        hit_csv.read_text(encoding="utf-8").replace("\n12,.,1,1-3", "\n12,.,x,1-3"),
        encoding="utf-8",
    )
    ready = bad / "tables" / "readiness.csv"
    ready.write_text(
        ready.read_text(encoding="utf-8").replace("\nSo M23,4,", "\nSo M23,9,"), encoding="utf-8"
    )
    m, diags = load_module(bad)
    assert m is None
    text = [str(d) for d in diags.errors]
    assert any("tables/hit.csv:26:6" in s and "'x'" in s and "[DTP 8.52]" in s for s in text)
    assert any("tables/readiness.csv" in s and "[DTP 9.23]" in s for s in text), text


def test_a_bad_players_table_is_reported(tmp_path: Path) -> None:
    """[DTP 11.0]: one Player A and one Player B, each with a retreat edge of hex ids."""
    bad = tmp_path / "dtp"
    shutil.copytree(DTP, bad)
    players = bad / "tables" / "players.csv"
    players.write_text(
        players.read_text(encoding="utf-8")
        .replace("Soviet,A,2525-2536", "Soviet,C,2525-2536")
        .replace("NATO,B,1301-2101", "NATO,B,west edge"),
        encoding="utf-8",
    )
    m, diags = load_module(bad)
    assert m is None
    text = [str(d) for d in diags.errors]
    assert any("tables/players.csv:5:8" in s and "'C'" in s and "[DTP 4.1]" in s for s in text), (
        text
    )
    assert any("'west edge'" in s and "[DTP 5.24]" in s for s in text), text
    assert any("one Player A and one Player B" in s for s in text), text
