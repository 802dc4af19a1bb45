"""`make demo-westpac`: a signed Westpac game [DTP 11.5]. Read from the signed record (the
reports and orders of the archive), never from known dice: it shows PRC entry [DTP 11.51021],
a convoy docking [DTP 11.50922], an amphibious landing [DTP 11.50942] and the reinforcement
phase of AM Game-Turn 4 [DTP 11.506], each event with its case in its report and in what the
demo printed; the reinforcement phase comes before any movement of its turn [DTP 11.5041];
`verify` replayed it. The game is the session's shared run (``finished_demo`` in
``tests/conftest.py``, no play aids); its CPU is in ``docs/performance.md``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.demos import dtp_westpac as demo_wp

if TYPE_CHECKING:
    from tests.conftest import DemoRun


@pytest.fixture(scope="module")
def demo_run(finished_demo: Callable[[str], DemoRun]) -> DemoRun:
    return finished_demo("dtp_westpac")


def _reports(game: Path) -> list[tuple[str, dict[str, Any]]]:
    return [
        (folder.name, json.loads((folder / "report.json").read_text("utf-8")))
        for folder in sorted((game / "turns").iterdir())
    ]


def _events(game: Path, kind: str, rule: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        (name, e)
        for name, r in _reports(game)
        for e in r.get("events") or []
        if e["kind"] == kind and e["rule"] == rule
    ]


def test_prc_entry_is_announced_with_its_case(demo_run: DemoRun) -> None:
    found = _events(demo_run.game, "hostilities", "DTP 11.51021")
    assert found, "no PRC entry"
    name, event = found[0]
    assert name.endswith("-EastBlock-hostilities") and "PRC enters" in event["text"]
    # hostilities commence in the same announcement [DTP 11.5101]
    assert _events(demo_run.game, "hostilities", "DTP 11.5101")


def test_a_convoy_docks_with_its_case(demo_run: DemoRun) -> None:
    found = _events(demo_run.game, "unload", "DTP 11.50922")
    assert found, "no convoy docked"
    _, event = found[0]
    assert event["data"]["unit"] == "SO-AK-78" and event["data"]["hex"] == "4227"
    assert "docks" in event["text"] and event["data"]["vp"] == 10  # Korsakov [DTP 11.5124]


def test_an_amphibious_unit_lands_with_its_case(demo_run: DemoRun) -> None:
    found = _events(demo_run.game, "unload", "DTP 11.50942")
    assert found, "no amphibious landing"
    landed = {e["data"]["unit"]: e["data"]["hex"] for _, e in found}
    assert landed.get("US-LPH-28") == "2744", landed  # Pohang [DTP 11.5124]
    assert all("lands its troops" in e["text"] for _, e in found)


def test_the_reinforcement_phase_of_turn_4_places_the_track(demo_run: DemoRun) -> None:
    """AM Game-Turn 4: the East Block's then SEATO's placement file, before any movement of
    the turn [DTP 11.5041, 11.506], each arrival citing its case."""
    reports = _reports(demo_run.game)
    phases = [
        (r["orders"]["turn"], r["orders"]["phase"], r["orders"]["side"])
        for _, r in reports
        if r.get("orders")
    ]
    turn_4 = [(p, s) for t, p, s in phases if t == 4]
    assert turn_4[:2] == [("reinforcement_a", "EastBlock"), ("reinforcement_b", "SEATO")]
    assert not [p for t, p, _ in phases if t < 4 and p.startswith("reinforcement")]
    arrivals = [e for _, r in reports for e in r.get("events") or [] if e["kind"] == "reinforce"]
    assert {e["data"]["unit"] for e in arrivals} >= {"SO-AK-81", "US-AK-50", "JA-TK-129"}
    assert all(e["rule"] in demo_wp.WANTED["reinforcement"].cases for e in arrivals)
    assert any(e["rule"] == "DTP 11.507" for e in arrivals)  # the variable air roll's unit


def test_the_demo_prints_each_event_with_its_report_and_case(demo_run: DemoRun) -> None:
    printed = demo_run.printed
    listing = printed.split("== What the game showed, and where")[1].split("\n== ")[0]
    for key, wanted in demo_wp.WANTED.items():
        after = listing.split(f"\n   {wanted.what}:\n")[1].splitlines()
        block = [x.strip() for x in after if x.startswith("      ")][:1]
        assert block and block[0].startswith("turns/"), (key, after)
        assert any(f"[{case}]" in block[0] for case in wanted.cases), (key, block)
        folder = block[0].split(":")[0]
        assert (demo_run.game / folder / "report.json").is_file(), folder


def test_verify_replayed_the_archive_and_the_viewers_are_written(demo_run: DemoRun) -> None:
    reports = len(list((demo_run.game / "turns").iterdir()))
    assert f"ok: game {demo_wp.GAME.game_id}, {reports} report(s)" in demo_run.printed
    assert "replay matches" in demo_run.printed
    for side in demo_wp.GAME.sides:
        assert (demo_run.out / "viewer" / f"viewer-{side}.html").is_file()
    table = demo_run.printed.split("== Every bundled game")[1]
    row = next(x for x in table.splitlines() if "DTP Westpac" in x)
    assert "ok, verified" in row and "make demo-westpac" in row


def test_the_directed_player_seeks_no_battle(demo_run: DemoRun) -> None:
    """Every combat impulse is a pass [DTP 8.2], so the game is the 30 or so steps the four
    events need (a step costs seconds of CPU on this map); it stops once the reinforcement
    phase is over."""
    reports = [r for _, r in _reports(demo_run.game) if r.get("orders")]
    for folder in sorted((demo_run.game / "turns").iterdir()):
        if folder.name.endswith("-combat"):
            body = (folder / "orders.txt").read_text("utf-8").split("[combat]\n")[1]
            assert body.split("-----BEGIN")[0].split() == ["pass"], folder.name
    assert len(reports) < demo_wp.MAX_STEPS
    last = reports[-1]["orders"]
    assert (last["turn"], last["phase"]) == (4, "reinforcement_b")


@pytest.mark.slow
def test_the_director_brings_the_four_events_in_process() -> None:
    """The demo's directed player without the archive (``resolve`` with seeded dice, not the
    game's committed ones): every file it writes passes ``validate``, and by the end of the
    reinforcement phase of Game-Turn 4 the game has shown all four events of
    :data:`~referee.demos.dtp_westpac.WANTED`, in some 30 steps."""
    from referee.engine.core import SeededDice
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from referee.source.loader import load_module

    m, _ = load_module(demo_wp.GAME.src)
    assert m is not None
    director = demo_wp.WestpacDirector(m)
    state = RULESET.new_game(m, demo_wp.GAME.scenario, "wp-director")
    seen: set[str] = set()
    for k in range(1, demo_wp.MAX_STEPS + 1):
        if len(seen) == len(demo_wp.WANTED) and not state.phase.startswith("reinforcement"):
            break
        text = director.orders(state, seen)
        assert text is not None
        doc = RULESET.parse_orders(text, f"step-{k}.txt")
        assert not RULESET.validate(m, state, doc), (k, text)
        out = RULESET.resolve(m, state, doc, SeededDice(k))
        assert out.ok, (k, out.violations)
        seen |= {w for e in out.events if (w := demo_wp.shows(e.to_json())) is not None}
        state = out.state
    assert seen == set(demo_wp.WANTED) and k < 40, (seen, k)
