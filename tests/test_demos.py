"""`make demo`: every bundled game's demo, then a table (referee/demos/)."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from referee import demos

if TYPE_CHECKING:
    from tests.conftest import DemoRun

ROOT = Path(__file__).resolve().parent.parent


def test_every_bundled_game_has_its_demo() -> None:
    """Each demo names a bundled module source, has a main, and its own make target."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z0-9-]+):", makefile, re.M))
    for d in demos.DEMOS:
        assert (ROOT / "module_src" / d.name / "module.toml").is_file(), d.name
        mod = importlib.import_module(d.module)
        assert callable(mod.main) and hasattr(mod, "DEFAULT_OUT"), d.module
        assert d.target in targets, d.target
        recipe = re.search(rf"^{d.target}:.*\n\t(.*)$", makefile, re.M)
        assert recipe and recipe.group(1).endswith(f"-m {d.module}"), d.target
    assert re.search(r"^demo:.*\n\t.*-m referee\.demos$", makefile, re.M)


def test_one_demo_and_its_table(finished_demo: Callable[[str], DemoRun]) -> None:
    """The session's shared run is ``python -m referee.demos --only sixth_fleet`` with
    ``$REFEREE_DEMO_DIR`` naming its folder (``tests/conftest.py``): the runner ran the demo
    there and printed its row."""
    run = finished_demo("sixth_fleet")
    out = run.printed
    assert "replay matches" in out
    table = out.split("== Every bundled game")[1]
    row = next(line for line in table.splitlines() if line.strip().startswith("SPI Sixth Fleet"))
    assert "ok, verified" in row and "make demo-sf" in row
    assert (run.out / "game" / "turns").is_dir()


def test_a_failing_demo_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import referee.demos.sixth_fleet_2019 as d19

    calls: list[list[str]] = []
    monkeypatch.setattr(d19, "main", lambda argv: calls.append(list(argv)) or 1)
    assert demos.main(["--only", "sixth_fleet_2019", "--no-play-aids"]) == 1
    assert calls and calls[0][-1] == "--no-play-aids"
    captured = capsys.readouterr()
    assert "FAILED" in captured.out
    assert "demos failed: sixth_fleet_2019" in captured.err


def test_only_takes_known_names() -> None:
    with pytest.raises(SystemExit):
        demos.main(["--only", "chess"])
