"""``verify`` remembers the steps whose files it proved (``referee/pbem/proofs.py``): a later
run on the same machine renders only what it has not proved, with the same verdict; a step
whose files changed (a referee who rewrites one and signs again) is rendered again and fails,
as without the cache; every record check still runs for every step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cache import Cache, activated
from referee.pbem import record
from referee.pbem.verify import VerifyFailure, verify_archive
from tests.pbem.conftest import setup_both
from tests.pbem.test_forged_renderings import STEP, forge, played


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The report ``sequence`` of each step whose files are rendered (``player_files``)."""
    seen: list[str] = []
    real = record.player_files

    def counted(module: Any, ruleset: Any, rep: dict[str, Any], *a: Any, **k: Any) -> Any:
        seen.append(rep["sequence"])
        return real(module, ruleset, rep, *a, **k)

    monkeypatch.setattr(record, "player_files", counted)
    return seen


def test_a_second_run_renders_nothing_it_proved_and_says_the_same(
    make_game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = make_game()
    setup_both(g)  # the set-up request and both set-ups: 3 steps
    rendered = _counting(monkeypatch)
    cache = Cache(tmp_path / "cache")
    without = verify_archive(g.dir, g.module).to_json()
    assert rendered == [0, 1, 2]
    with activated(cache):
        first = verify_archive(g.dir, g.module).to_json()
    assert rendered[3:] == [0, 1, 2] and first == without
    with activated(cache):
        second = verify_archive(g.dir, g.module).to_json()
    assert rendered[6:] == [] and second == without  # proved before: not rendered again
    assert cache.stats.hits >= 3
    # a new step: only it is rendered
    g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    del rendered[:]  # adjudicate rendered it once
    with activated(cache):
        third = verify_archive(g.dir, g.module)
    assert rendered == [3] and third.reports == 4


def test_a_file_rewritten_and_signed_again_is_rendered_and_fails(
    make_game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = played(make_game)
    cache = Cache(tmp_path / "cache")
    with activated(cache):
        verify_archive(g.dir, g.module)  # every step proved and remembered
    folder = g.dir / STEP
    md = (folder / "report.md").read_bytes().replace(b"US-CV-1", b"US-CV-2", 1)
    forge(folder, g.keys["ref"], {"report.md": md})
    rendered = _counting(monkeypatch)
    with activated(cache), pytest.raises(VerifyFailure) as exc:
        verify_archive(g.dir, g.module)
    assert exc.value.check == "rendering" and STEP in exc.value.file
    assert rendered == [3]  # the forged step's file list changed: its proof does not apply


def test_no_cache_no_memory(make_game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without an active cache (library callers, ``--no-cache``) every step is rendered."""
    g = make_game()
    setup_both(g)
    rendered = _counting(monkeypatch)
    verify_archive(g.dir, g.module)
    verify_archive(g.dir, g.module)
    assert rendered == [0, 1, 2, 0, 1, 2]


def test_a_revealed_game_with_commitments_is_remembered_too(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``referee verify`` (the command, which uses the cache) of a revealed game that hid
    information: the second run proves every step from memory, with the same JSON; a copy
    whose last step was rewritten and signed again is rendered again and fails."""
    from referee.pbem import proofs
    from referee.pbem.keys import load_private
    from tests.pbem import toy_solitaire, toys_common
    from tests.pbem.cliflow import Table, cli
    from tests.pbem.test_solitaire import MOVES

    root = tmp_path_factory.mktemp("proofs-hidden")
    monkeypatch.setenv("REFEREE_CACHE", str(root / "cache"))
    t = Table(root, toys_common.module_dir(root, toy_solitaire.ID), ("NATO",))
    t.new()
    for lines in MOVES:
        t.send("NATO", *lines)
    assert cli("reveal", t.game, "--module", t.module)[0] == 0
    hits: list[bool] = []
    real = proofs.proved
    monkeypatch.setattr(proofs, "proved", lambda key: hits.append(real(key)) or hits[-1])
    code, first = t.verify()
    assert code == 0 and hits and not any(hits)
    n = len(hits)
    code, second = t.verify()
    assert code == 0 and second == first and hits[n:] == [True] * n
    code, out = cli("verify", t.game, "--module", t.module, "--json", "--no-cache")
    assert code == 0 and json.loads(out) == first and not any(hits[2 * n :])  # renders all
    last = sorted(p for p in (t.game / "turns").iterdir() if p.is_dir())[-1]
    md = (last / "report.md").read_bytes() + b"\nforged\n"
    forge(last, load_private(t.key("referee")), {"report.md": md})
    code, out = t.verify()
    assert code == 1 and out["check"] == "rendering" and last.name in out["file"]
