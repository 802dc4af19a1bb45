"""An archive made by the referee before sealed orders, hidden information and `reveal`
(commit 9f4d89d; ``fixtures/before-commitments/README.md``) still verifies, unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.pbem.verify import verify_archive
from referee.source.loader import load_module
from tests.pbem import toy

toy.install()
OLD = Path(__file__).parent / "fixtures" / "before-commitments"


def _module():
    module, diags = load_module(OLD / "module")
    assert module is not None, [str(d) for d in diags.items]
    return module


def test_an_archive_made_before_commitments_verifies(tmp_path: Path) -> None:
    game = tmp_path / "game"
    shutil.copytree(OLD / "game", game)
    v = verify_archive(game, _module())
    assert v.reports == 6 and v.rolls == 1
    assert v.last_report == "turns/005-Soviet-move"
    # the report templates changed since, so the Markdown is checked by hash and signature
    # only (the note says so); everything else is checked and replayed as before
    # and it was made before player nonces: a note says the referee could have previewed
    # its rolls (docs/dice.md)
    from referee.pbem.verify import NO_NONCES_NOTE

    assert NO_NONCES_NOTE in v.notes
    assert all("other report templates" in n for n in v.notes if n != NO_NONCES_NOTE)
    # what cannot be proved is listed as unchecked (verify exits 3, issue 24), and nothing
    # else: its VASSAL saves (that version's VASSAL writer) and, in its Markdown and HTML, the
    # Score section today's templates render differently (the rest of each is compared)
    texts = ["report.html", "report.md", "view-NATO.md", "view-Soviet.md"]
    assert [f for f, _ in v.unchecked] == [
        f"turns/{t}/{name}"
        for t, names in (
            ("000-setup-request", ["position.vsav", *texts]),
            ("001-NATO-setup", ["position.vsav", *texts]),
            ("002-Soviet-setup", ["position.vsav", *texts]),
            ("003-NATO-move", ["position.vsav", *texts]),
            ("004-Soviet-answer", ["position.vsav", *texts]),
            ("005-Soviet-move", ["position-NATO.vsav", "position-Soviet.vsav", *texts]),
        )
        for name in names
    ]
    for f, why in v.unchecked:
        if f.endswith(".vsav"):
            assert "earlier referee version's VASSAL writer" in why
        else:
            assert "all of it is proved but the Score section" in why
    # its keys and signatures are of the project's own old format, still read
    assert "referee-ed25519 " in (game / "game.toml").read_text()
    assert "BEGIN REFEREE SIGNATURE" in (game / "turns/001-NATO-setup/report.json.sig").read_text()
    assert not (game / "secret").exists() and "[secrets]" not in (game / "game.toml").read_text()


def test_the_old_archive_still_fails_when_changed(tmp_path: Path) -> None:
    from referee.pbem.verify import VerifyFailure

    game = tmp_path / "game"
    shutil.copytree(OLD / "game", game)
    p = game / "turns/003-NATO-move/state.json"
    p.write_text(p.read_text().replace('"0302"', '"0303"', 1))
    try:
        verify_archive(game, _module())
    except VerifyFailure as exc:
        assert exc.file == "turns/003-NATO-move/state.json"
    else:
        raise AssertionError("a changed state.json passed verify")


def _without_score(text: bytes) -> bytes:
    """The report with its "## Score" section cut out (up to the next "## " heading)."""
    import re

    return re.sub(rb"\n## Score[^\n]*\n.*?(?=\n## )", b"\n", text, flags=re.S)


def test_todays_templates_render_the_old_reports_byte_for_byte() -> None:
    """The report templates gained sections for sealed and committed orders; a report of a
    game without them renders exactly as before, except for the score section, which issue 12
    §3 deliberately turned from raw JSON into tables (``referee/pbem/scoreboard.py``). That is
    why ``verify`` checks an old archive's Markdown by hash and signature, with a note."""
    import json

    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.archive import sha256_hex
    from referee.pbem.record import views
    from referee.pbem.reports import render_markdown

    module, rs = _module(), get_ruleset("toy")
    for t in sorted((OLD / "game/turns").iterdir()):
        raw = (t / "report.json").read_bytes()
        rep, sha = json.loads(raw), sha256_hex(raw)
        state = GameState.from_json(json.loads((t / "state.json").read_text()))
        assert _without_score(
            render_markdown(module, rep, sha, state.to_json()).encode()
        ) == _without_score((t / "report.md").read_bytes())
        for name, data in views(module, rs, rep, sha, state).items():
            assert _without_score(data) == _without_score((t / name).read_bytes()), (
                f"{t.name}/{name}"
            )
