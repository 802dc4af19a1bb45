"""`make demo-dtp`: a signed game on the Denmark Strait map under the DTP rules. Read from the
signed record (the reports and orders of the archive), never from known dice: it contains a
detection attempt [DTP 6.3], a combat phase of two or more impulses [DTP 8.2] with a bounce
[DTP 8.232], a Hit Table result [DTP 8.52] and a readiness roll [DTP 9.23], Game-Turn 1 is
over, `verify` replays it, and the same run twice gives the same bytes (the second run over the
first ``FIRST_STEPS`` steps only, in-process: a whole game without the play aids costs about
40 s of CPU, verify included; the whole game is the session's shared one, ``finished_demo``
in ``tests/conftest.py``)."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from referee.demos import sixth_fleet_dtp as demo_dtp
from referee.demos.base import begin, prepare
from tests.pbem.cliflow import first_steps_differ

if TYPE_CHECKING:
    from tests.conftest import DemoRun

IMPULSE_VERBS = ("attack", "strike", "pass")
# the steps the second run plays (test_verify_replays_the_archive_and_a_second_run_is_identical)
FIRST_STEPS = 8


@pytest.fixture(scope="module")
def demo_run(finished_demo: Callable[[str], DemoRun]) -> tuple[Path, str]:
    """The session's DTP demo (no play aids): its game and what it printed."""
    run = finished_demo("dtp_denmark_strait")
    return run.game, run.printed


def _steps(game: Path) -> list[tuple[dict[str, Any], list[str]]]:
    """Each adjudicated step: its signed report and the order lines of its signed file."""
    out = []
    for folder in sorted((game / "turns").iterdir()):
        report = json.loads((folder / "report.json").read_text("utf-8"))
        if not report.get("orders"):
            continue  # report 000, the set-up request
        text = (folder / "orders.txt").read_text("utf-8")
        body = text.split("]\n", 1)[1].split("-----BEGIN SSH SIGNATURE-----")[0]
        out.append((report, [x.strip() for x in body.splitlines() if x.strip()]))
    return out


def test_the_record_shows_every_promised_event(demo_run: tuple[Path, str]) -> None:
    game, _ = demo_run
    steps = _steps(game)
    events = [e for r, _ in steps for e in r["events"]]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        by_kind.setdefault(e["kind"], []).append(e)
    assert by_kind["detect"] and all(e["rule"] == "DTP 6.3" for e in by_kind["detect"])
    assert by_kind["hit"] and all(e["rule"] == "DTP 8.52" for e in by_kind["hit"])
    assert all(" -> D" in e["text"] for e in by_kind["hit"])  # a damage level from the table
    assert by_kind["readiness"] and all(e["rule"] == "DTP 9.23" for e in by_kind["readiness"])
    assert all(1 <= e["data"]["roll"] <= 6 for e in by_kind["readiness"])
    # the bounce: a defender's file of `bounce` lines in a combat phase, its event citing
    # [DTP 8.232] and the fighter's air-to-air attack [8.8] right after it
    bounces = [
        (r, lines)
        for r, lines in steps
        if r["orders"]["phase"] == "combat" and any(x.startswith("bounce ") for x in lines)
    ]
    assert bounces
    report, lines = bounces[0]
    kinds = [(e["kind"], e["rule"]) for e in report["events"]]
    assert kinds[0] == ("bounce", "DTP 8.232") and kinds[1] == ("attack", "8.8")
    fighter = lines[0].split()[1]
    assert report["events"][0]["text"].startswith(fighter)
    # the bounce's combat phase had two or more impulses (attacks, strikes, passes) [DTP 8.2]
    impulses = Counter(
        r["orders"]["turn"]
        for r, lines in steps
        if r["orders"]["phase"] == "combat" and any(x.split()[0] in IMPULSE_VERBS for x in lines)
    )
    assert impulses[report["orders"]["turn"]] >= 2
    # Game-Turn 1 is over: some step went on to Game-Turn 2
    assert any(r["before"]["turn"] == 1 and r["after"]["turn"] == 2 for r, _ in steps)


@pytest.mark.slow
def test_verify_replays_the_archive_and_a_second_run_is_identical(
    demo_run: tuple[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's own `referee verify` replayed every report (its printed verdict, so the
    replay is not paid twice); a second run makes the same bytes, shown over its first
    ``FIRST_STEPS`` steps (the set-up, both sides' first movements, air and combat: every
    kind of step file and signature the game makes) instead of a whole second game."""
    game, printed = demo_run
    reports = len(list((game / "turns").iterdir()))
    assert f"ok: game {demo_dtp.GAME.game_id}, {reports} report(s)" in printed
    assert "replay matches" in printed
    assert (game.parent / "viewer" / "viewer-NATO.html").is_file()
    out = tmp_path / "b"
    monkeypatch.setattr(demo_dtp, "MAX_STEPS", FIRST_STEPS)
    with contextlib.redirect_stdout(io.StringIO()):
        prepare(out)
        again, keys, secret = begin(out, demo_dtp.GAME)
        demo_dtp.play(out, again, keys, secret)
    assert len(list((again / "turns").iterdir())) == FIRST_STEPS + 1  # and the set-up request
    assert first_steps_differ(game, again) == []
