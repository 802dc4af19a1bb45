"""A game begun before the score tables keeps the score it was started with (issue 31).

``fixtures/before-score-tables`` is a Denmark Strait game (DTP rules, a game with
commitments) whose two set-ups were adjudicated by the referee at commit 89f01e7, the parent
of the commit that gave every ruleset's score the entries the report's score tables read
(``README.md`` there says how it was made). Today's ``verify`` replays it under the reading
its report 000 was made with (``referee/pbem/rulings.py``), and ``adjudicate`` goes on
recording the score that way.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.pbem import rulings
from referee.pbem.adjudicate import adjudicate
from referee.pbem.keys import load_private
from referee.pbem.signing import sign_orders
from referee.pbem.verify import VerifyFailure, verify_archive
from referee.source.loader import load_module

OLD = Path(__file__).parent / "fixtures" / "before-score-tables"


@pytest.fixture(scope="module")
def module():
    m, diags = load_module(OLD / "module")
    assert m is not None, [str(d) for d in diags.items]
    return m


def _copy(tmp_path: Path) -> Path:
    game = tmp_path / "game"
    shutil.copytree(OLD / "game", game)
    return game


def test_an_archive_begun_before_the_score_tables_verifies(tmp_path: Path, module) -> None:
    v = verify_archive(_copy(tmp_path), module)
    assert v.reports == 3 and v.last_report == "turns/002-Soviet-setup"
    # its Markdown and HTML were rendered by that version's templates: listed, not failed
    assert v.unchecked and all(f.endswith((".md", ".html")) for f, _ in v.unchecked)


def test_it_fails_when_read_with_todays_score(tmp_path: Path, module, monkeypatch) -> None:
    """The reading is what makes it pass: today's score has the table entries it lacks."""
    monkeypatch.setattr(rulings, "BEFORE_SCORE_TABLES", frozenset())
    with pytest.raises(VerifyFailure) as info:
        verify_archive(_copy(tmp_path), module)
    assert info.value.file == "turns/000-setup-request/report.json"
    assert "score differs" in info.value.message


def test_a_changed_score_still_fails(tmp_path: Path, module) -> None:
    """The older reading leaves out the table entries only: the VP are still checked."""
    import json

    from tests.pbem.test_forged_renderings import forge

    game = _copy(tmp_path)
    folder = game / "turns" / "002-Soviet-setup"
    rep = json.loads((folder / "report.json").read_text())
    assert "net" in rep["score"]
    rep["score"]["net"] = "7"
    forge(folder, load_private(OLD / "keys" / "referee.key"), {}, rep)
    with pytest.raises(VerifyFailure) as info:
        verify_archive(game, module)
    assert "score differs" in info.value.message


def test_adjudicating_it_goes_on_with_the_score_it_was_started_with(tmp_path: Path, module) -> None:
    game = _copy(tmp_path)
    seeds = tmp_path / "referee-dir"
    shutil.copytree(OLD / "referee-dir", seeds)
    soviet = load_private(OLD / "keys" / "soviet.key")
    signed = sign_orders("turn: 1\nside: Soviet\n\n[movement]\n", "move.txt", soviet, game)
    orders = tmp_path / "move.txt"
    orders.write_text(signed.text)
    [step] = adjudicate(
        game,
        [orders],
        referee_key=load_private(OLD / "keys" / "referee.key"),
        module=module,
        referee_dir=seeds,
    )
    assert step.status == "adjudicated" and step.sequence == 3
    assert "vp" in step.report["score"]
    assert not rulings.SCORE_TABLE_ENTRIES & set(step.report["score"])
    v = verify_archive(game, module)
    assert v.reports == 4


def test_only_the_templates_before_the_score_tables_read_the_older_score() -> None:
    """The template sets of later versions (the result line of issue 26, the mixed numbers of
    issue 25) are listed for their reports' rendering, yet their games record today's score."""
    from referee.pbem.rendercheck import KNOWN_TEMPLATES
    from referee.pbem.reports import templates_sha256

    assert rulings.BEFORE_SCORE_TABLES.issubset(KNOWN_TEMPLATES)
    for sha in KNOWN_TEMPLATES:
        before = sha in rulings.BEFORE_SCORE_TABLES
        expected = rulings.WITHOUT_SCORE_TABLES if before else rulings.TODAY
        assert rulings.score_reading({"templates_sha256": sha}) is expected, sha
    assert rulings.score_reading({"templates_sha256": templates_sha256()}) is rulings.TODAY
