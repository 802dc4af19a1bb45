"""Issue 11, truncation and forks: a player who holds a report (or the signed orders that
answer it) detects an archive cut back before it (``verify --head``)."""

from __future__ import annotations

import shutil
import sys

import pytest

from referee.pbem.archive import sha256_hex
from referee.pbem.verify import VerifyFailure, check_head, head_of, verify_archive
from tests.pbem.conftest import setup_both


def _truncate(g, keep: int) -> None:
    """What a dishonest referee does: delete the last turns and roll state.json back."""
    turns = sorted((g.dir / "turns").iterdir())
    for t in turns[keep:]:
        shutil.rmtree(t)
    shutil.copy(turns[keep - 1] / "state.json", g.dir / "state.json")


def test_a_truncated_archive_verifies_alone_but_not_against_a_players_head(make_game):
    g = make_game()
    setup_both(g)
    g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    last = g.dir / "turns/003-NATO-move"
    held = {
        "hash": sha256_hex((last / "report.json").read_bytes()),
        "report.json": str(last / "report.json"),
        "report.md": str(g.dir.parent / "held.md"),
        "view": str(g.dir.parent / "held-view.json"),
    }
    shutil.copy(last / "report.md", held["report.md"])
    shutil.copy(last / "view-Soviet.json", held["view"])
    orders = g.signed("Soviet", ["end"], name="soviet-answer.txt")  # answers report 003
    heads = {k: head_of(v) for k, v in held.items()}
    heads["orders"] = head_of(str(orders))
    assert set(heads.values()) == {held["hash"]}
    ok = verify_archive(g.dir, g.module)
    check_head(ok, held["hash"])
    shutil.copy(last / "report.json", g.dir.parent / "report.json")
    _truncate(g, 3)
    cut = verify_archive(g.dir, g.module)  # still a consistent archive on its own
    assert cut.reports == 3
    with pytest.raises(VerifyFailure) as info:
        check_head(cut, held["hash"])
    assert info.value.check == "truncation" and "002-Soviet-setup" in info.value.file


def test_verify_head_on_the_command_line(make_game, capsys):
    from referee import cli

    g = make_game()
    setup_both(g)
    head = sha256_hex((g.dir / "turns/002-Soviet-setup/report.json").read_bytes())
    args = ["referee", "verify", str(g.dir), "--module", str(g.module.root), "--head"]
    old = sys.argv
    try:
        sys.argv = [*args, head]
        with pytest.raises(SystemExit) as ok:
            cli.main()
        assert ok.value.code in (0, None)
        _truncate(g, 2)
        with pytest.raises(SystemExit) as bad:
            cli.main()
        assert bad.value.code == 1
        assert "truncation" in capsys.readouterr().err
        sys.argv = [*args, "not-a-hash"]
        with pytest.raises(SystemExit) as usage:
            cli.main()
        assert usage.value.code == 2
    finally:
        sys.argv = old
