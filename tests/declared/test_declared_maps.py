"""Declared games on a point-to-point and an area map (issue 30): the test fixture sources
``tests/declared/fixtures/convoy_run`` (spaces, two lines, a cross link, a one-way link) and
``med_raid`` (zones with adjacency and boundaries) are checked and built like any source,
and the generic referee moves pieces along the map's declared connections [G5], refusing a
step between locations that are not connected at the location's word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.declared.conftest import orders_lines, reports_of
from tests.pbem.cliflow import Table, cli

FIXTURE = Path(__file__).parent / "fixtures" / "convoy_run"
AREA = Path(__file__).parent / "fixtures" / "med_raid"


@pytest.fixture(scope="module")
def convoy(tmp_path_factory: pytest.TempPathFactory) -> Table:
    t = Table(tmp_path_factory.mktemp("convoy"), FIXTURE, ("Escort", "Raider"))
    t.new("run")
    return t


@pytest.mark.parametrize(
    ("source", "summary"),
    [
        (FIXTURE, "point map: 0 zones, 11 spaces, 13 links"),
        (AREA, "area map: 11 zones, 0 spaces, 0 links"),
    ],
)
def test_the_source_checks_clean_and_builds(source: Path, summary: str, tmp_path: Path) -> None:
    code, out = cli("check", source)
    assert code == 0 and summary in out, out
    code, out = cli("build", source, "-o", tmp_path / "build", "-q")
    assert code == 0, out
    assert (tmp_path / "build" / f"{source.name}-0.1.vmod").is_file()


def test_moves_follow_the_zones_adjacency(tmp_path: Path) -> None:
    t = Table(tmp_path, AREA, ("Escort", "Raider"))
    t.new("raid")
    t.send("Escort", *orders_lines("Escort", 1, 'move E-DD-1 "Aegean Sea" "Eastern Med"'))
    texts = [e["text"] for e in reports_of(t)[-1]["events"]]
    assert "E-DD-1 moves to Eastern Med by Aegean Sea" in texts  # a boundary is the game's rule
    out = t.send("Raider", *orders_lines("Raider", 1, 'move R-SS-1 Crete "Western Med"'),
                 expect=1)  # fmt: skip
    assert ":8:19: [G5] Western Med is not connected to Crete on the map" in out, out
    code, verdict = t.verify()
    assert code == 0, json.dumps(verdict)[:2000]


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


def test_options_offer_the_declared_connections_and_are_published(convoy: Table) -> None:
    """``referee options`` [G1], [G2], [G5]: the moves the map connects, flip and eliminate;
    every choice is an order line validate accepts; the awaited side's file holds them."""
    from referee.engine.core import GameState
    from referee.engine.orders import parse_orders
    from referee.pbem.draft_options import options_file
    from referee.rules.declared.ruleset import RULESET
    from referee.source.loader import load_module

    state = GameState.from_json(json.loads((convoy.game / "state.json").read_text()))
    side = state.active_side
    assert side is not None
    module, _ = load_module(FIXTURE)
    assert module is not None
    mine = sorted(u for u, s in state.units.items() if s.side == side and s.location)
    for uid in mine:
        code, out = cli("options", "--state", convoy.game / "state.json", uid, "--module", FIXTURE)
        assert code == 0 and "(one connection at a time)" in out, out
        report = RULESET.options(module, state, uid)
        for choice in report.data["orders"]:
            text = "\n".join(
                ["game: g", f"turn: {state.turn}", f"side: {side}", "", "[orders]", choice["order"]]
            )
            doc = parse_orders(text, "o.txt", RULESET.vocabulary)
            assert RULESET.validate(module, state, doc) == [], choice
    last = sorted((convoy.game / "turns").glob("*/report.json"))[-1].parent
    published = json.loads((last / options_file(side)).read_text())
    assert published["section"] == "orders" and sorted(published["units"]) == mine
    older = state.evolve(data={})  # a game begun before options were published
    assert RULESET.options(module, older, mine[0]).data["orders"] == []
    # the start before the ruling: no flags (only the VASSAL piece version every start records)
    assert _rulings(RULESET.earlier_starts(state)[-1].data) == {}


@pytest.mark.vassal
@pytest.mark.parametrize(
    ("source", "scenario", "expected"),
    [
        (FIXTURE, "run", {"E-CV-1": "NATO Base", "E-DD-1": "North Sea 1",
                          "R-SS-1": "Barents Sea 2"}),
        (AREA, "raid", {"E-CV-1": "Western Med", "E-DD-1": "Ionian Sea",
                        "R-SS-1": "Eastern Med"}),
    ],
)  # fmt: skip
def test_real_vassal_loads_the_module_and_its_setup(
    source: Path, scenario: str, expected: dict[str, str], tmp_path: Path
) -> None:
    """Real VASSAL 3.7.26 (``vcheck``) loads each fixture's module with no problem, and its
    New Game set-up with every piece in the zone or space the scenario names."""
    import shutil

    from referee.source.loader import load_module
    from referee.vassal.position.setups import build_module_with_setups
    from tests.vassal.test_real_vassal_play import VCHECK
    from tests.vassal.vassal_jvm import vcheck

    if not VCHECK.is_file() or (
        shutil.which("java") is None and not list(Path("/usr/lib/jvm").glob("java-17-*/bin/java"))
    ):
        pytest.skip("real VASSAL (../shared/tools/vassal-check) or Java is missing")
    module, _ = load_module(source)
    assert module is not None
    vmod = build_module_with_setups(module, tmp_path / "vassal", workers=1).path
    out = tmp_path / "vcheck.txt"
    run = vcheck([vmod], out)
    assert run.returncode == 0, run.stderr
    setup = f"setup:{module.scenarios[scenario].name}"
    pieces = {
        f[6].split(" ")[0]: f[5]
        for f in (ln.split("\t") for ln in out.read_text(encoding="utf-8").splitlines())
        if f[0] == "PIECE" and f[1] == setup
    }
    assert pieces == expected


def test_a_game_begun_before_options_verifies_as_it_was_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An archive begun before the ``options`` ruling (its start has no flags, its steps
    publish no choices) replays as it was played: ``verify`` accepts its start among the
    ruleset's ``earlier_starts`` and makes its options files again without choices."""
    import referee.rules.declared.ruleset as declared

    t = Table(tmp_path, FIXTURE, ("Escort", "Raider"))
    with monkeypatch.context() as m:
        m.setattr(declared, "NEW_GAME_FLAGS", {})  # the ruleset as it was before the ruling
        t.new("run")
        t.send("Escort", *orders_lines("Escort", 1, 'move E-DD-1 "Norwegian Sea 1"'))
    start = json.loads((t.game / "turns" / "000-setup-request" / "state.json").read_text())
    assert _rulings(start["data"]) == {}
    last = sorted((t.game / "turns").glob("*/report.json"))[-1].parent
    assert json.loads((last / "options-Raider.json").read_text())["units"] == {}
    code, verdict = t.verify()
    assert code == 0, json.dumps(verdict)[:2000]


def _rulings(data: dict) -> dict:
    """A start's data but the VASSAL piece version every new game records (issue 27)."""
    from referee.vassal.module.piece_versions import PIECES_KEY

    return {k: v for k, v in data.items() if k != PIECES_KEY}
