"""Whose a piece of an imported VASSAL module is (issue 30, bad input: "a move of another
side's piece"): decided from the source's ``[[side]]`` (``pieces``, ``prototypes``,
``palette``) and the module's own Restricted Access traits
(:mod:`referee.vassal.foreign.ownership`), and a side's order for another side's piece
refused at its word with a hint (exit 1). The module is the zxvt fixture of
``../shared/fixtures/vassal/`` with a set-up of its own pieces (``tests/declared/imported.py``)
and vive-lempereur's buildFile, made in temporary folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.source.diagnostics import Diagnostics
from referee.source.gamedecl import ImportedPiece
from referee.vassal.foreign.game import load_imported_game
from referee.vassal.foreign.ownership import Owners, SideClaims, restricted_sides
from referee.vassal.foreign.vmod import read_vmod
from referee.vassal.foreign.vmod_import import import_module
from tests.declared.conftest import orders_lines
from tests.declared.imported import skirmish_vmod
from tests.declared.test_imported_game import _Drags
from tests.pbem.cliflow import Table, cli
from tests.vassal.import_fixtures import fixture_vmod
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")

SIDES = """
[[side]]
id = "Red"
name = "Red"
pieces = ["Red", "Captured by Red*"]

[[side]]
id = "Gray"
name = "Gray"
prototypes = ["Pawn"]
palette = ["Territory"]
"""


def _with_sides(src: Path, copy: Path, sides: str) -> Path:
    shutil.copytree(src, copy)
    text = (copy / "module.toml").read_text()
    (copy / "module.toml").write_text(text[: text.index("# The sides")] + sides)
    return copy


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zxvt source with sides that say which pieces are theirs, three ways."""
    tmp = tmp_path_factory.mktemp("owned")
    code, out = cli("import-vmod", skirmish_vmod(tmp / "vmods"), "-o", tmp / "plain", "-q")
    assert code == 0, out
    return _with_sides(tmp / "plain", tmp / "src", SIDES)


def test_each_piece_belongs_to_the_side_that_says_so_most_specifically(source: Path) -> None:
    module, diags = load_imported_game(source)
    assert module is not None, [str(d) for d in diags.items]
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    got = {p.id: (p.side, p.side_by) for p in sc.pieces}
    assert got == {
        "Red": ("Red", "[[side]] pieces"),  # before Gray's prototype Pawn, which Red uses too
        "Gray": ("Gray", "[[side]] prototypes"),
        "Town": ("", ""),  # nothing claims it: either side may order it
        "Captured-by-Red": ("Red", "[[side]] pieces"),  # before Gray's palette Territory
        "Captured-by-Red.2": ("Red", "[[side]] pieces"),
        "Captured-by-Gray": ("Gray", "[[side]] palette"),
    }
    units = {u.id: u.side for u in module.units}
    assert units["Gray"] == "Gray" and units["Town"] == ""


def test_a_move_of_the_other_sides_piece_is_refused_at_its_word(
    source: Path, tmp_path: Path
) -> None:
    t = Table(tmp_path, source, ("Red", "Gray"))
    t.new("skirmish")
    out = t.send("Red", *orders_lines("Red", 1, "move Gray D05"), expect=1)
    assert "orders-000-Red.txt:8:6: [G1] Gray is a piece of Gray, not of Red" in out, out
    assert "hint: only Gray's orders may place, move, flip, mark or eliminate it" in out
    out = t.send("Red", *orders_lines("Red", 1, "eliminate Captured-by-Gray"), expect=1)
    assert "orders-001-Red.txt:8:11: [G1] Captured-by-Gray is a piece of Gray, not of Red" in out
    t.send("Red", *orders_lines("Red", 1, "move Red C02", "mark Town held"))
    code, verdict = t.verify()
    assert code == 0, verdict


def test_two_sides_claiming_a_piece_is_an_error_at_the_second_side(
    source: Path, tmp_path: Path
) -> None:
    copy = _with_sides(source.parent / "plain", tmp_path / "src", SIDES + 'pieces = ["Town"]\n')
    text = (
        (copy / "module.toml").read_text().replace('pieces = ["Red",', 'pieces = ["Town", "Red",')
    )
    (copy / "module.toml").write_text(text)
    module, diags = load_imported_game(copy)
    assert module is None
    line = text.splitlines().index('pieces = ["Town"]') + 1  # the second side's pieces key
    assert any(
        str(d).startswith(f"module.toml:{line}:1: error: ")
        and "piece 'Town' is claimed by sides Red and Gray (pieces)" in str(d)
        for d in diags.errors
    ), [str(d) for d in diags.items]


def test_a_side_key_that_is_no_list_of_names_is_refused(source: Path, tmp_path: Path) -> None:
    sides = SIDES.replace('palette = ["Territory"]', 'palette = "Territory"')
    copy = _with_sides(source.parent / "plain", tmp_path / "src", sides)
    module, diags = load_imported_game(copy)
    assert module is None
    line = (copy / "module.toml").read_text().splitlines().index('palette = "Territory"') + 1
    assert any(
        str(d).startswith(f"module.toml:{line}:1: error: side Gray: palette must be a list")
        for d in diags.errors
    ), [str(d) for d in diags.items]


def _piece(name: str) -> ImportedPiece:
    return ImportedPiece(name, "1", name, "Main", 0, 0)


def test_the_restricted_access_trait_names_the_side() -> None:
    """VASSAL's ``restrict;SIDES;byPlayer;movement`` (Restricted.java), in the piece or in a
    prototype it uses; several sides of the game, or none of them, say nothing."""
    protos = {"French Unit": "restrict;France;false;true\tpiece;;;;"}
    direct = "restrict;Coalition,Observer;false;true\tpiece;;;img.png;Blucher"
    by_proto = "prototype;French Unit\tpiece;;;img.png;Ney"
    both = "restrict;France,Coalition;false;true\tpiece;;;img.png;Anyone"
    assert restricted_sides(direct, protos) == ("Coalition", "Observer")
    assert restricted_sides(by_proto, protos) == ("France",)
    claims = (SideClaims("France", "France"), SideClaims("Coalition", "Coalition"))
    owners = Owners(claims, protos, {})
    diags = Diagnostics()
    assert owners.side_of(_piece("Blucher"), direct, diags) == (
        "Coalition",
        "its Restricted Access trait",
    )
    assert owners.side_of(_piece("Ney"), by_proto, diags)[0] == "France"
    assert owners.side_of(_piece("Anyone"), both, diags) == ("", "")
    # a side's own declaration comes first
    first = Owners((SideClaims("France", "France", pieces=("Blucher",)), claims[1]), protos, {})
    assert first.side_of(_piece("Blucher"), direct, diags)[0] == "France"
    assert not diags.errors


def test_import_vmod_gives_a_side_the_palette_tab_of_its_name(tmp_path: Path) -> None:
    """vive-lempereur's roster has France and Coalition; its palette has a France tab (and
    Anglo-Allies and Prussia tabs, which no roster side is named: the designer adds them)."""
    vmod = fixture_vmod("vive-lempereur", tmp_path)
    text = import_module(read_vmod(vmod), vmod.name).files["module.toml"].decode()
    blocks = text.split("[[side]]")
    france = next(b for b in blocks if 'name = "France"' in b)
    coalition = next(b for b in blocks if 'name = "Coalition"' in b)
    assert 'palette = ["France"]' in france
    assert "palette" not in coalition


def test_a_log_that_drags_the_other_sides_piece_leaves_it_out(source: Path, tmp_path: Path) -> None:
    module, _ = load_imported_game(source)
    assert module is not None
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    t = Table(tmp_path, source, ("Red", "Gray"))
    t.new("skirmish")
    start = t.game / "turns" / "000-setup-request" / "position.vsav"
    p = _Drags(
        start.read_bytes(),
        {q.id: q.vassal_id for q in sc.pieces},
        {k: (pt.map, pt.x, pt.y) for k, pt in sc.locations},
    )
    p.drag("Gray", "D05")
    p.drag("Red", "C02")
    log = tmp_path / "red-1.vlog"
    log.write_bytes(p.log_bytes())
    out = tmp_path / "red-1.txt"
    code, text = cli("import-vlog", log, "--game-dir", t.game, "--module", source, "-o", out)
    assert code == 1 and "Gray is a piece of Gray, not of Red: no order" in text, text
    lines = out.read_text().splitlines()
    assert [ln for ln in lines[lines.index("[orders]") + 1 :] if ln and ln[0] != "#"] == [
        "move Red C02"
    ]


def test_check_says_which_piece_two_sides_claim(source: Path, tmp_path: Path) -> None:
    sides = SIDES.replace('pieces = ["Red", "Captured by Red*"]', 'pieces = ["Red", "Town"]')
    sides = sides.replace('prototypes = ["Pawn"]', 'pieces = ["Town"]\nprototypes = ["Pawn"]')
    copy = _with_sides(source.parent / "plain", tmp_path / "src", sides)
    code, out = cli("check", copy)
    assert code == 1, out
    assert "piece 'Town' is claimed by sides Red and Gray (pieces)" in out, out
    assert "(hint: name it in one side's pieces only)" in out
    code, out = cli("check", source)
    assert code == 0, out
