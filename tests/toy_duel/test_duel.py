"""A sixth ruleset from outside ``referee/`` (issue 25): the ``toy_duel`` package is found
through the ``referee.rulesets`` entry point of an installed distribution, checks its module,
and plays a signed game by email that ``verify`` accepts."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.engine.ruleset import get_ruleset, ruleset_ids
from referee.source import schema
from tests.pbem.cliflow import Table, cli

MODULE = Path(__file__).resolve().parent / "module"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package installed as a distribution would be: its metadata, with the entry point
    ``toy_duel = tests.toy_duel.schema:SCHEMA``, on ``sys.path``."""
    site = tmp_path / "site"
    info = site / "toy_duel-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-duel\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[referee.rulesets]\ntoy_duel = tests.toy_duel.schema:SCHEMA\n"
    )
    monkeypatch.syspath_prepend(str(site))
    yield site
    schema.unregister("toy_duel")


def test_the_entry_point_registers_the_ruleset_and_its_schema(installed: Path) -> None:
    rs = get_ruleset("toy_duel")
    assert "toy_duel" in ruleset_ids()
    assert rs.schema.id == "toy_duel" and rs.schema.rules is not None
    code, out = cli("check", MODULE)
    assert code == 0, out


def test_the_turn_tracker_is_the_declared_sequence(installed: Path) -> None:
    """[D2] The schema's tracker steps are read from the ruleset's own sequence of play: the
    Action Phase of Blue's player turn, then of Red's, each with its title and case."""
    from tests.toy_duel.sequence import PHASES

    steps = get_ruleset("toy_duel").schema.sequence
    assert [(s.id, s.name, s.rule, s.player, s.player_turn) for s in steps] == [
        (p.id, p.title, p.rule, player, True) for player in ("first", "second") for p in PHASES
    ]
    code, out = cli("build", MODULE, "-o", installed / "build")
    assert code == 0, out
    (vmod,) = (installed / "build").glob("*.vmod")
    build_file = zipfile.ZipFile(vmod).read("buildFile.xml").decode()
    assert 'list="Blue Player Turn: Action Phase,Red Player Turn: Action Phase"' in build_file


def test_without_it_the_ruleset_is_unknown() -> None:
    schema.unregister("toy_duel")
    code, out = cli("check", MODULE)
    assert code != 0 and "unknown ruleset 'toy_duel'" in out


def _orders(side: str, turn: int, *lines: str) -> tuple[str, ...]:
    return ("game: g", f"turn: {turn}", f"side: {side}", "phase: action", "", "[action]", *lines)


def test_a_signed_game_plays_through_verify(installed: Path, tmp_path: Path) -> None:
    t = Table(tmp_path, MODULE, ("Blue", "Red"))
    t.new("duel")
    t.send("Blue", *_orders("Blue", 1, "move B-DD-1 0102"))
    t.send("Red", *_orders("Red", 1, "move R-DD-1 0303"))
    out = t.send("Blue", *_orders("Blue", 2, "move B-DD-1 0104"), expect=1)
    assert "[D3] 0104 is not a hex next to 0102" in out
    t.sent.pop()
    t.send("Blue", *_orders("Blue", 2, "fire B-DD-1 R-DD-1"))
    last = json.loads(sorted((t.game / "turns").glob("*/report.json"))[-1].read_text())
    fired = [e for e in last["events"] if e["rule"] == "D4"]
    assert len(fired) == 1 and len(last["rolls"]) == 1 and last["rolls"][0]["rule"] == "D4"
    code, report = t.verify()
    assert code == 0, report


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("tests.toy_duel.no_such_module:SCHEMA", "does not load (ModuleNotFoundError"),
        ("tests.toy_duel.ruleset:RULESET", "registered with a DuelRules, not its schema"),
    ],
)
def test_a_broken_installation_is_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, message: str
) -> None:
    info = tmp_path / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[referee.rulesets]\ntoy_duel = {target}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    schema.unregister("toy_duel")
    try:
        code, out = cli("check", MODULE)
    finally:
        schema.unregister("toy_duel")
    assert code == 2 and message in out, out
