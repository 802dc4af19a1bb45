"""Named tables: the lookup rules (with hypothesis for their invariants), the Sixth Fleet
tables read through the one API, and `referee check`'s messages for broken tables."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cli import app
from referee.source.loader import load_module
from referee.source.tablemodel import Axis, Key, NamedTable, TableDecl, TableMiss, resolve
from tests.clirun import Runner
from tests.source.tables_toy import TABLES_TOY, install

Edit = Callable[[Path, str, str], None]
SF = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"


def ints(values: list[int]) -> list[Key]:
    return [Key(str(v), v, v) for v in values]


def dice(bounds: list[tuple[int, int]]) -> list[Key]:
    return [Key(f"{a}-{b}" if a != b else str(a), a, b) for a, b in bounds]


AT_OR_BELOW = Axis(kind="int", lookup="at_or_below", below="fail", above="clamp", word="d")
sorted_keys = st.lists(st.integers(-50, 50), min_size=1, max_size=12, unique=True).map(sorted)


# ---- the lookup rules ---------------------------------------------------------------------------
@given(sorted_keys, st.integers(-80, 80), st.integers(-80, 80))
def test_at_or_below_is_monotonic_and_never_above_the_value(
    keys: list[int], a: int, b: int
) -> None:
    ks = ints(keys)
    lo, hi = min(a, b), max(a, b)
    if lo < keys[0]:
        with pytest.raises(TableMiss, match="below the lowest"):
            resolve(ks, AT_OR_BELOW, lo, "column")
        return
    i, _ = resolve(ks, AT_OR_BELOW, lo, "column")
    j, how = resolve(ks, AT_OR_BELOW, hi, "column")
    assert i <= j  # a higher value never reads a lower column
    assert keys[i] <= lo and keys[j] <= hi
    # the key used is the highest not above the value
    assert all(not keys[i] < k <= lo for k in keys)
    if hi > keys[-1]:
        assert j == len(keys) - 1 and "(the highest)" in how


@given(sorted_keys, st.integers(1, 30))
def test_clamp_and_fail_at_either_edge(keys: list[int], beyond: int) -> None:
    ks = ints(keys)
    clamp = Axis(kind="int", lookup="exact", below="clamp", above="clamp")
    fail = Axis(kind="int", lookup="exact", below="fail", above="fail")
    assert resolve(ks, clamp, keys[0] - beyond)[0] == 0
    assert resolve(ks, clamp, keys[-1] + beyond)[0] == len(keys) - 1
    with pytest.raises(TableMiss):
        resolve(ks, fail, keys[0] - beyond)
    with pytest.raises(TableMiss):
        resolve(ks, fail, keys[-1] + beyond)
    for n, k in enumerate(keys):  # inside the table an exact key always reads itself
        assert resolve(ks, fail, k)[0] == n


@st.composite
def partitions(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A die of ``faces`` sides cut into consecutive ranges."""
    faces = draw(st.integers(2, 20))
    cuts = sorted(draw(st.sets(st.integers(1, faces - 1), max_size=faces - 1)))
    edges = [0, *cuts, faces]
    return faces, [(a + 1, b) for a, b in itertools.pairwise(edges)]


@given(partitions())
def test_die_ranges_partition_the_die(p: tuple[int, list[tuple[int, int]]]) -> None:
    faces, bounds = p
    ks = dice(bounds)
    axis = Axis(kind="die", lookup="exact")
    for roll in range(1, faces + 1):
        i, how = resolve(ks, axis, roll)
        assert [k.contains(roll) for k in ks].count(True) == 1
        assert bounds[i][0] <= roll <= bounds[i][1]
        assert str(roll) in how
    for roll in (0, faces + 1):
        with pytest.raises(TableMiss):
            resolve(ks, axis, roll)


def test_exact_lookup_in_a_gap_fails_and_names_do_not_convert() -> None:
    axis = Axis(kind="int", lookup="exact", word="ECM")
    with pytest.raises(TableMiss, match="no row for ECM 3"):
        resolve(ints([1, 2, 4]), axis, 3)
    with pytest.raises(TableMiss, match="whole number"):
        resolve(ints([1, 2]), axis, "2")
    names = Axis(kind="name")
    with pytest.raises(TableMiss):
        resolve([Key("CV", name="CV")], names, "cv")


def test_a_lookup_says_how_it_found_the_cell() -> None:
    decl = TableDecl(
        name="crt",
        file="crt.csv",
        rows=Axis(kind="int", columns=("ECM",), below="clamp", above="clamp", word="ECM"),
        columns=Axis(kind="int", lookup="at_or_below", above="clamp", word="differential"),
        rule="8.9",
    )
    t = NamedTable(
        decl,
        ("ECM", "0", "6", "12"),
        tuple(ints([0, 1])),
        tuple(ints([0, 6, 12])),
        (("a", "b", "c"), ("d", "e", "f")),
        (("a", "b", "c"), ("d", "e", "f")),
        lines=(2, 3),
    )
    f = t.lookup(row=1, col=7)
    assert (f.value, f.line) == ("e", 3)
    assert f.how == "differential 7 uses column 6 (at or below); ECM 1 is row 1 [8.9]"
    assert t.lookup(row=9, col=30).how == (
        "differential 30 uses column 12 (the highest); ECM 9 uses row 1 (the highest) [8.9]"
    )
    assert t.find(row=0, col=-1) is None


# ---- the Sixth Fleet tables through the one API ------------------------------------------------
@pytest.fixture(scope="module")
def sf():
    module, diags = load_module(SF)
    assert module is not None, [str(d) for d in diags.errors]
    return module


def test_sixth_fleet_declares_its_four_tables(sf) -> None:
    assert list(sf.tables.named) == ["terrain", "crt", "victory", "middle_east_air"]
    assert "crt" in sf.tables and sf.tables.get("nope") is None


def test_the_crt_view_and_the_named_crt_agree_everywhere(sf) -> None:
    crt, named = sf.tables.crt, sf.tables["crt"]
    for ecm in range(-1, 9):
        for d in range(-5, 60):
            old = crt.lookup(d, ecm)
            new = named.find(row=ecm, col=d)
            if old is None:
                assert new is None
                continue
            assert new is not None
            col, row, cell = old
            assert (new.column.lo, new.row.lo) == (col, row)
            assert (new.value or (None, None)) == (cell.lo, cell.hi)
            assert new.text == str(cell) or (new.text == "*" and cell.no_effect)


def test_victory_and_terrain_through_the_named_tables(sf) -> None:
    v = sf.tables["victory"]
    for net in range(-60, 70):
        assert v.lookup(row=net, col="result").value == sf.tables.level_of_victory(net)
    assert v.lookup(row=36).how == "net VP 36 falls in row 36 to 50 [13.2]"
    tec = sf.tables["terrain"]
    for tid, t in sf.map.terrain.items():
        assert tec.lookup(row=tid, col="cost_surface").value == t.costs["surface"]


def test_the_14_3_table_is_a_named_table(sf) -> None:
    me = sf.tables["middle_east_air"]
    (israel,) = me.rows_where(d6=None)
    assert me.row_keys[israel].parts[1].text == "Israel"
    assert len(me.rows_where(d6=4)) == 2
    got = me.lookup(row=(4, "Egypt"), col="units")
    assert got.value == (("SO-M21-EG", 4), ("SO-Y28-EG", 4), ("SO-I28-EG", 2))


# ---- check: broken tables -----------------------------------------------------------------------
@pytest.fixture
def toy(tmp_path: Path) -> Path:
    install()
    dst = tmp_path / "toy"
    shutil.copytree(TABLES_TOY, dst)
    return dst


def errors(path: Path) -> list[str]:
    module, diags = load_module(path)
    assert module is None, "expected the broken source to be refused"
    return [str(d) for d in diags.errors]


def one(path: Path, needle: str) -> str:
    errs = errors(path)
    hits = [e for e in errs if needle in e]
    assert hits, f"no error containing {needle!r} in {errs}"
    return hits[0]


def test_the_toy_module_is_clean(toy: Path) -> None:
    module, diags = load_module(toy)
    assert module is not None, [str(d) for d in diags.errors]
    assert list(module.tables.named) == ["terrain", "detection", "hits", "strike", "outcome"]
    assert module.map.terrain["shoal"].costs == {"ship": 2}
    det = module.tables["detection"]
    assert det.lookup(row="DD", col=5).value == 2  # clamped to +2
    assert det.lookup(row="DD", col=-9).how.startswith("ECM difference -9 uses column -2")
    assert module.tables["hits"].lookup(row=4, col="effect").value == "one hit"
    assert module.tables["strike"].lookup(row=7, col=5).value == 1  # strength 4 row
    with pytest.raises(TableMiss, match="below the lowest"):
        module.tables["strike"].lookup(row=0, col=1)
    assert module.tables["outcome"].lookup(row=-40).value == "Red wins"


def test_a_malformed_cell_says_which_cell(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "detection.csv", "DD,5,4,3,3,2", "DD,5,4,x,3,2")
    e = one(toy, "unparsable detection cell 'x'")
    assert e.startswith("tables/detection.csv:4:4:")
    assert "(ECM difference 0, target DD)" in e


def test_a_malformed_named_cell(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "hits.csv", "5,2,two hits", "5,two,two hits")
    e = one(toy, "hits must be a whole number, got 'two'")
    assert e.startswith("tables/hits.csv:4:2:")


def test_overlapping_and_gapped_die_ranges(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "hits.csv", "3-4,1,one hit", "2-4,1,one hit")
    e = one(toy, "1-2 and 2-4 overlap or leave a gap")
    assert e.startswith("tables/hits.csv:3:")
    edit(toy / "tables" / "hits.csv", "2-4,1,one hit", "4,1,one hit")
    one(toy, "1-2 and 4 overlap or leave a gap")


def test_die_ranges_must_cover_the_die(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "hits.csv", "6,3,sunk if a destroyer\n", "")
    one(toy, "the die roll rows cover 1..5; the table must cover 1..6")
    edit(toy / "tables" / "strike.csv", "strength,1-2,3-4,5-6", "strength,1-2,3-4,5-7")
    one(toy, "the die roll columns cover 1..7; the table must cover 1..6")


def test_keys_out_of_order_twice_or_unparsable(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "strike.csv", "4,0,1,1\n8,1,1,2", "8,1,1,2\n4,0,1,1")
    one(toy, "strike rows must be in order of strength")
    edit(toy / "tables" / "detection.csv", "-2,-1,0,1,2", "-2,0,-1,1,2")
    one(toy, "ECM difference columns must increase left to right")
    edit(toy / "tables" / "hits.csv", "3-4,1", "4-3,1")
    e = one(toy, "'d6' must be a range from low to high")
    assert e.startswith("tables/hits.csv:3:1:")


def test_duplicate_row_key(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "detection.csv", "SS,6,6,5,4,3", "DD,6,6,5,4,3")
    e = one(toy, "target DD appears twice (first on line 4)")
    assert e.startswith("tables/detection.csv:5:")


def test_a_column_heading_that_is_not_a_key(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "detection.csv", "target,-2,", "target,minus2,")
    e = one(toy, "column heading 'minus2' is not a whole number (ECM difference)")
    assert e.startswith("tables/detection.csv:2:2:")


def test_the_row_key_column_comes_first(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "hits.csv", "d6,hits,effect", "hits,d6,effect")
    one(toy, "the row key column d6 must come first")


def test_range_rows_in_two_columns(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "outcome.csv", "-9,9,Draw", "-9,nine,Draw")
    e = one(toy, "'max' must be a whole number or empty, got 'nine'")
    assert e.startswith("tables/outcome.csv:3:2:")
    edit(toy / "tables" / "outcome.csv", "-9,nine,Draw", "-9,12,Draw")
    one(toy, "-9 to 12 and 10 or more overlap or leave a gap")


def test_declaration_mistakes_point_at_module_toml(toy: Path, edit: Edit) -> None:
    edit(toy / "module.toml", 'cells = "int"\nnotes', 'cells = "integer"\nnotes')
    e = one(toy, "unknown cell grammar 'integer'")
    assert e.startswith("module.toml:") and "did you mean 'int'" in e
    edit(toy / "module.toml", 'row_lookup = "at_or_below"', 'row_lookup = "at_or_bellow"')
    e = one(toy, "row_lookup must be one of exact, at_or_below, at_or_above")
    assert "did you mean 'at_or_below'" in e
    edit(toy / "module.toml", 'row_key = "d6"', 'row_keys = "d6"')
    one(toy, "unknown key 'row_keys' in [[table]]")


def test_a_table_declared_twice(toy: Path, edit: Edit) -> None:
    edit(
        toy / "module.toml", 'map = "map.toml"', 'map = "map.toml"\nterrain = "tables/terrain.csv"'
    )
    one(toy, "table 'terrain' is declared twice: in [files] and as a [[table]]")


def test_a_declared_file_that_is_missing(toy: Path) -> None:
    (toy / "tables" / "outcome.csv").unlink()
    e = one(toy, "outcome 'tables/outcome.csv' not found")
    assert e.startswith("module.toml:")


def test_a_standard_table_declared_in_the_wrong_shape(toy: Path, edit: Edit) -> None:
    edit(toy / "module.toml", 'name = "outcome"', 'name = "victory"')
    edit(toy / "tables" / "outcome.csv", "min,max,result", "min,max,winner")
    one(toy, "table 'victory' cannot serve as the Outcome: range rows (min, max) and a 'result'")


def test_the_documented_example_is_the_toy_module() -> None:
    """docs/module-source.md quotes the toy module's declarations and files verbatim."""
    doc = (SF.parents[1] / "docs" / "module-source.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Named tables") :]
    toml = section[section.index("```toml\n") + 8 :]
    toml = toml[: toml.index("```")]
    assert toml.strip() and toml in (TABLES_TOY / "module.toml").read_text(encoding="utf-8")
    for name in ("detection", "hits", "strike", "outcome"):
        start = section.index(f"```csv\n# tables/{name}.csv\n")
        body = section[start:].split("\n", 2)[2]
        body = body[: body.index("```")]
        rows = [
            ln
            for ln in (TABLES_TOY / "tables" / f"{name}.csv").read_text().splitlines()
            if not ln.startswith("#")
        ]
        assert body.splitlines() == rows, name


def test_referee_check_lists_every_broken_table_cell(toy: Path, edit: Edit) -> None:
    edit(toy / "tables" / "detection.csv", "CV,4,3,3,2,1", "CV,4,three,3,2,1")
    edit(toy / "tables" / "strike.csv", "8,1,1,2", "8,1,1,2.5")
    r = Runner().invoke(app, ["check", str(toy), "--json"])
    assert r.exit_code == 1, r.output
    got = json.loads(r.stdout)
    where = {(e["file"], e["line"], e["col"]): e["message"] for e in got["errors"]}
    assert "three" in where[("tables/detection.csv", 3, 3)]
    assert "(ECM difference -1, target CV)" in where[("tables/detection.csv", 3, 3)]
    assert "(die roll 5-6, strength 8)" in where[("tables/strike.csv", 5, 4)]


@pytest.fixture
def sf_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "sf"
    shutil.copytree(SF, dst, ignore=shutil.ignore_patterns("examples"))
    return dst


def test_check_reads_the_14_3_table(sf_copy: Path, edit: Edit) -> None:
    """The 14.3 table is checked by `referee check`: its grammar by the table loader, its
    roster and map facts by the ruleset's table check [14.3]."""
    table = sf_copy / "tables" / "middle_east_air.csv"
    edit(table, '-,Israel,"6 IS-F4, 6 IS-A4"', '-,Israel,"6 IS-F5, 6 IS-A4"')
    e = one(sf_copy, "unknown roster unit 'IS-F5'")
    assert e.startswith("tables/middle_east_air.csv:11:11:") and "did you mean 'IS-F4'" in e
    edit(table, '"6 IS-F5, 6 IS-A4"', '"six IS-F4, 6 IS-A4"')
    e = one(sf_copy, "units must be a list like '4 NAME, 2 NAME', got 'six IS-F4, 6 IS-A4'")
    assert e.startswith("tables/middle_east_air.csv:11:3:")
