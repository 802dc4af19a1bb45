"""A declared game's source (issue 30, part 1): a module source that names no ruleset and
declares its game in ``[game]`` is checked against its own declaration with the same
``file:line:col`` messages as a bundled game's, and every output builds from it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module
from tests.pbem.cliflow import cli

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "module_src" / "strait_patrol"


def test_the_example_is_clean_and_its_schema_is_its_declaration() -> None:
    module, diags = load_module(SRC)
    assert module is not None and not diags.errors, diags.errors
    assert module.ruleset == "declared" and module.game is not None
    schema = module.schema
    assert schema is not None and schema.id == "declared"
    assert schema.values == ("GUN", "DEF", "MOV")
    assert schema.unit_types == {"surface": ("CL", "DD"), "submarine": ("SS",)}
    assert [p.id for p in schema.sequence] == [
        "deploy_north",
        "deploy_south",
        "north",
        "south",
        "end",
    ]
    assert [(p.player, p.once) for p in schema.sequence][:3] == [
        ("first", True),
        ("second", True),
        ("first", False),
    ]
    assert [(d.name, d.dice, d.sides) for d in schema.dice] == [("2d6", 2, 6)]
    code, out = cli("check", SRC)
    assert code == 0 and "(declared)" in out, out


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "src"
    shutil.copytree(SRC, dst)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


@pytest.mark.parametrize(
    ("file", "old", "new", "needle", "message"),
    [
        ("units.csv", ",SS,1,Grayling", ",BB,1,Grayling", None, "unknown unit type 'BB'"),
        ("module.toml", 'submarine = ["SS"]', 'submarine = ["SS"]\nair = ["F"]', "air = ",
         "[game.unit_types] names category 'air', which [game] categories lacks"),
        ("module.toml", 'side = "second"\nrule = "3.2"', 'side = "third"\nrule = "3.2"',
         'side = "third"', "side 'third' is not first, second or empty"),
        ("module.toml", "flags = [", "flag = [", "flag = [", "unknown key 'flag' in [game]"),
        ("module.toml", '"GUN", "DEF", "MOV"]', '"GUN", "DEF", "MOV", "RNG"]', None,
         "needs a value column 'RNG'"),
        ("module.toml", '"open", "shallows", "land"]', '"open", "shallows", "land", "reef"]',
         None, "needs terrain 'reef'"),
        ("module.toml", '\n[game]\n', '\nruleset = "sixth_fleet_1975"\n\n[game]\n', None,
         "[game] declares a game without a ruleset, but [module] names ruleset"),
    ],
)  # fmt: skip
def test_the_source_is_held_to_its_own_declaration(
    tmp_path: Path, file: str, old: str, new: str, needle: str | None, message: str
) -> None:
    src = _copy(tmp_path)
    _edit(src / file, old, new)
    code, out = cli("check", src)
    assert code == 1 and message in out, out
    if needle is not None:
        assert f"{file}:{_line_of(src / file, needle)}" in out, out


def test_a_sequence_where_no_side_acts_is_refused(tmp_path: Path) -> None:
    """Without a step of a side nobody would ever be due: refused at the first step."""
    src = _copy(tmp_path)
    text = (src / "module.toml").read_text()
    (src / "module.toml").write_text(re.sub(r'(?m)^side = "(first|second)"\n', "", text))
    code, out = cli("check", src)
    first = _line_of(src / "module.toml", "[[game.phase]]")
    assert code == 1 and f"module.toml:{first}: error: [[game.phase]]: no step names a side" in out


def test_an_unknown_ruleset_points_at_the_declared_game(tmp_path: Path) -> None:
    src = _copy(tmp_path)
    text = (src / "module.toml").read_text()
    text = text[: text.index("\n[game]\n")] + text[text.index("\n[files]\n") :]
    (src / "module.toml").write_text(
        text.replace('version = "1.0"', 'version = "1.0"\nruleset = "my_game"')
    )
    code, out = cli("check", src)
    assert code == 1 and "unknown ruleset 'my_game'" in out and "declare the game in [game]" in out
    assert f"module.toml:{_line_of(src / 'module.toml', 'ruleset = ')}" in out


def test_every_output_builds(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for command in ("build", "sheets", "charts", "map"):
        code, text = cli(command, SRC, "-o", out)
        assert code == 0, text
    names = sorted(p.name for p in out.iterdir())
    for want in ("strait_patrol-1.0.vmod", "strait_patrol-counters.pdf",
                 "strait_patrol-charts.pdf", "strait_patrol-map.pdf",
                 "strait_patrol-chart-gunnery.png"):  # fmt: skip
        assert want in names, names


def test_new_source_starts_a_declared_game_that_checks(tmp_path: Path) -> None:
    code, out = cli("new-source", tmp_path / "my_game", "--name", 'My "Game"')
    assert code == 0, out
    module, diags = load_module(tmp_path / "my_game")
    assert module is not None and module.id == "my_game" and module.name == 'My "Game"', diags
    assert module.ruleset == "declared"
    code, out = cli("new-source", tmp_path / "my_game")
    assert code == 2 and "is not an empty folder" in out
    code, out = cli("new-source", tmp_path / "x", "--id", "no spaces")
    assert code == 2 and "must be letters" in out and not (tmp_path / "x").exists()


def test_the_charts_cite_no_bundled_games_cases() -> None:
    """A declared game's charts cite its own tables' rules only, never Sixth Fleet's
    [10.0], [13.2], [11.0] or its night cases [8.45], [9.52] (templates/charts/declared.toml)."""
    from referee.render import charts

    module, _ = load_module(SRC)
    assert module is not None
    scn = module.scenarios["patrol"]
    made = [charts.tec_chart(module), charts.victory_chart(module), charts.turns_chart(module, scn)]
    texts = [getattr(i, "text", "") for c in made for i in c.drawing.items]
    assert any("night Game-Turns (Night)." in t for t in texts), texts
    for case in ("[10.0]", "[13.2]", "[8.45]", "[9.52]"):
        assert not any(case in t for t in texts), case
