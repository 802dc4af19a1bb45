"""A declared game on a point-to-point map (issue 30): the test fixture source
``tests/declared/fixtures/convoy_run`` (spaces, two lines, a cross link, a one-way link) is
checked and built like any source, and the generic referee moves pieces along the map's
declared connections [G5], refusing a step between spaces that are not connected at the
space's word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.declared.conftest import orders_lines, reports_of
from tests.pbem.cliflow import Table, cli

FIXTURE = Path(__file__).parent / "fixtures" / "convoy_run"


@pytest.fixture(scope="module")
def convoy(tmp_path_factory: pytest.TempPathFactory) -> Table:
    t = Table(tmp_path_factory.mktemp("convoy"), FIXTURE, ("Escort", "Raider"))
    t.new("run")
    return t


def test_the_source_checks_clean_and_builds(tmp_path: Path) -> None:
    code, out = cli("check", FIXTURE)
    assert code == 0 and "point map: 0 zones, 11 spaces, 13 links" in out, out
    code, out = cli("build", FIXTURE, "-o", tmp_path / "build", "-q")
    assert code == 0, out
    assert (tmp_path / "build" / "convoy_run-0.1.vmod").is_file()


def test_moves_follow_the_declared_connections(convoy: Table) -> None:
    convoy.send("Escort", *orders_lines("Escort", 1,
        'move E-DD-1 "Norwegian Sea 1" "Norwegian Sea 2" "Bear Gap"',  # a line, then a link
        'roll 1d6 on combat odds_2_1'))  # fmt: skip
    convoy.send("Raider", *orders_lines("Raider", 1, 'move R-SS-1 "Barents Sea 1"'))  # one-way
    texts = [e["text"] for r in reports_of(convoy)[1:] for e in r["events"]]
    assert "E-DD-1 moves to Bear Gap by Norwegian Sea 1 Norwegian Sea 2" in texts
    assert "R-SS-1 moves to Barents Sea 1" in texts
    out = convoy.send("Escort", *orders_lines("Escort", 2, 'move E-CV-1 "Norwegian Sea 1"'),
                      expect=1)  # fmt: skip
    assert (
        ":9:13: [G5] Norwegian Sea 1 is not connected to NATO Base on the map (no adjacency, "
        "line or link) (hint: a move goes one connection at a time; from NATO Base: "
        "North Sea 1, North Sea 2)"
    ) in out, out
    convoy.send("Escort", *orders_lines("Escort", 2, 'move E-CV-1 "North Sea 1"'))
    out = convoy.send("Raider", *orders_lines("Raider", 2, 'move R-SS-1 "Barents Sea 2"'),
                      expect=1)  # fmt: skip
    assert (
        ":9:13: [G5] Barents Sea 2 is not connected to Barents Sea 1 on the map (no adjacency, "
        "line or link, and a one-way link runs the other way)"
    ) in out, out
    out = convoy.send("Raider", *orders_lines("Raider", 2, 'move R-SS-1 "Kola Bay"'), expect=1)
    assert ":9:13: [G1] no location 'Kola Bay' on the map" in out, out
    code, verdict = convoy.verify()
    assert code == 0, json.dumps(verdict)[:2000]
