"""`make demo` end to end, into a temporary folder: every step works, the archive verifies,
a second run starts clean and gives a byte-identical archive, a foreign folder is refused.
The first run, with its play aids, is the session's shared one (``finished_demo`` in
``tests/conftest.py``); the second run skips them."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee.demos.base import MARKER
from referee.demos.sixth_fleet_1975 import GAME, SRC, main
from referee.pbem.verify import verify_archive
from referee.source.loader import load_module

if TYPE_CHECKING:
    from tests.conftest import DemoRun


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def demo_run(finished_demo: Callable[[str], DemoRun]) -> tuple[Path, str]:
    """The session's Sixth Fleet demo, with its play aids: its folder and what it printed."""
    run = finished_demo("sixth_fleet")
    return run.out, run.printed


def test_the_demo_plays_every_example_and_the_archive_verifies(demo_run: tuple[Path, str]) -> None:
    out, printed = demo_run
    game = out / "game"
    module, _ = load_module(SRC)
    assert module is not None
    result = verify_archive(game, module)
    assert result.game_id == GAME.game_id
    assert result.reports == 9  # report 000 + the eight example files
    turns = sorted(p.name for p in (game / "turns").iterdir())
    assert turns[-1] == "008-Soviet-movement"
    pending = json.loads((game / "turns/006-Soviet-combat/report.json").read_text())["pending"]
    assert [p["id"] for p in pending] == ["D2-1"]
    assert "PENDING D2-1, owed by NATO" in printed
    assert "replay matches" in printed
    assert "Where everything is" in printed
    for secret in (out / "keys" / "referee.key", out / "referee" / "seeds.json"):
        assert secret.is_file() and not secret.resolve().is_relative_to(game.resolve())
    latest = game / "turns" / turns[-1]
    assert (latest / "report.md").is_file() and (latest / "report.html").is_file()


def test_the_demo_writes_and_lists_the_viewer_of_each_side(demo_run: tuple[Path, str]) -> None:
    out, printed = demo_run
    assert "== The game viewer of each side" in printed
    line = next(x for x in printed.splitlines() if "game viewer, per side:" in x)
    for side in ("NATO", "Soviet"):
        path = out / "viewer" / f"viewer-{side}.html"
        assert path.name in line and path.stat().st_size < 5_000_000
        text = path.read_text()
        assert text.startswith("<!DOCTYPE html>") and f"viewer for {side}" in text
        # one viewer made on demand, none in the steps (issue 24: linear size)
        assert not (out / "game/turns/008-Soviet-movement" / f"viewer-{side}.html").exists()


def test_the_play_aids_are_listed_when_their_commands_work(demo_run: tuple[Path, str]) -> None:
    out, printed = demo_run
    made = {p.suffix for p in out.rglob("*") if p.is_file()}
    for name, suffix in (("build", ".vmod"), ("sheets", ".pdf"), ("charts", ".png")):
        skipped = f"no `{name}` command" in printed or f"without `referee {name}`" in printed
        assert suffix in made or skipped, name


@pytest.mark.slow
def test_a_second_run_starts_clean_and_is_byte_identical(
    demo_run: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"  # a copy of the shared folder the demo made: this run empties it
    shutil.copytree(demo_run[0], out, symlinks=True)
    first = _digest(out / "game")
    (out / "game" / "stray.txt").write_text("left over from an earlier run\n")
    assert main([str(out), "--no-play-aids"]) == 0
    capsys.readouterr()
    assert _digest(out / "game") == first
    assert not (out / "vassal").exists()  # emptied: this run built no play aids


def test_a_folder_the_demo_did_not_make_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "precious.txt").write_text("keep me\n")
    assert main([str(tmp_path), "--no-play-aids"]) == 1
    assert "not made by the demo" in capsys.readouterr().err
    assert (tmp_path / "precious.txt").read_text() == "keep me\n"
    assert not (tmp_path / MARKER).exists()


def test_no_folder_of_the_referees_machine_enters_the_archive(demo_run: tuple[Path, str]) -> None:
    """The demo adjudicates orders given as paths in a folder: what the archive keeps (the
    position, with its standing orders' places, and every report) names the orders file by
    its base name only, so the replay of `verify` makes the same position and no local folder
    is published (a regression: the typed path once entered the standing orders' places)."""
    out, _ = demo_run
    orders_dir = str(out / "orders")
    for p in sorted((out / "game").rglob("*")):
        if p.is_file() and p.suffix in {".json", ".md", ".html", ".txt"}:
            assert orders_dir not in p.read_text(encoding="utf-8", errors="replace"), p
