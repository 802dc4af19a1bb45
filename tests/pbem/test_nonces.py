"""Dice nobody can preview (issue 11 §5, ``docs/dice.md``): every orders file of a game with
player nonces commits to a fresh nonce and reveals the one its side committed to before; the
nonce is in the signed body, so it keys the rolls. Refusals burn no seed; ``verify`` checks
the chain and that each record carries the nonces of its signed file; an old game without
nonces verifies with a note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.pbem import dice as dicemod
from referee.pbem import nonces
from referee.pbem.envelope import open_envelope, set_header, sign_body
from referee.pbem.problems import Refusal
from referee.pbem.signing import sign_orders
from referee.pbem.verify import NO_NONCES_NOTE, VerifyFailure, verify_archive
from tests.pbem.conftest import Game, setup_both

MOVE = ["move US-DD-1 0302"]


def _orders(g: Game, side: str) -> list[dict]:
    out = []
    for t in g.archive.turn_dirs():
        o = json.loads((t.path / "report.json").read_text()).get("orders")
        if o and o["side"] == side:
            out.append(o)
    return out


def _resigned(g: Game, side: str, lines: list[str], name: str, **headers: str) -> Path:
    """Orders with a complete envelope, some headers then changed, signed by the side."""
    key = g.keys["nato" if side == "NATO" else "soviet"]
    body = sign_orders("\n".join(lines) + "\n", "o", key, g.dir).body
    for k, v in headers.items():
        body = set_header(body, k, v)
    path = g.dir.parent / name
    path.write_text(body + sign_body(body, key).armour())
    return path


def test_each_file_reveals_the_nonce_its_side_committed_to(make_game) -> None:
    g: Game = make_game()
    setup_both(g)
    first = _orders(g, "NATO")[0]
    assert "nonce" not in first and nonces.HEX64.match(first["nonce_commit"])
    # the nonce NATO will reveal is nowhere in the archive before NATO sends it
    nonce = nonces.derive_nonce(g.keys["nato"], "g1", "NATO", 0)
    assert nonces.commit_of(nonce) == first["nonce_commit"]
    assert all(nonce.encode() not in p.read_bytes() for p in g.dir.rglob("*") if p.is_file())
    path = g.signed("NATO", MOVE)
    env = open_envelope(path.read_text(), path.name)
    assert env.header.nonce == nonce and env.header.nonce_commit != first["nonce_commit"]
    [r] = g.run(path)
    second = _orders(g, "NATO")[1]
    assert second["nonce"] == nonce and second["nonce_commit"] == env.header.nonce_commit
    # the nonce is in the signed body, so the orders hash that keys every roll depends on it
    assert r.report["orders"]["sha256"] == env.sha256 and nonce in env.body
    v = verify_archive(g.dir, g.module)
    assert v.reports == 4 and NO_NONCES_NOTE not in v.notes


def test_the_same_orders_with_another_nonce_roll_other_dice() -> None:
    """What the referee cannot do: without the nonce he cannot compute the key of the rolls."""
    seed = bytes(range(32))
    body = "game: g\nside: NATO\nturn: 3\nnonce: {}\nnonce-commit: {}\nattack X\n"
    rolls = set()
    for i in range(8):
        n = f"{i:064x}"
        text = body.format(n, nonces.commit_of(f"{i + 100:064x}"))
        key = dicemod.sha256(text.encode())
        rolls.add(tuple(dicemod.derive(seed, key, j, 6)[0] for j in range(6)))
    assert len(rolls) == 8


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({"nonce": "00" * 32}, "does not hash to the commitment"),
        ({"nonce": "zz"}, "no 'nonce:' header"),
        ({"nonce-commit": "nope"}, "no 'nonce-commit:' header"),
    ],
)
def test_a_wrong_reveal_or_commitment_is_refused_and_burns_no_seed(make_game, headers, why):
    g: Game = make_game()
    setup_both(g)
    before = len(g.archive.turn_dirs())
    path = _resigned(g, "NATO", MOVE, "bad.txt", **headers)
    with pytest.raises(Refusal) as info:
        g.run(path)
    assert info.value.code == "bad-nonce" and why in str(info.value)
    assert "bad.txt:" in str(info.value)
    assert len(g.archive.turn_dirs()) == before
    [r] = g.run(g.signed("NATO", MOVE))  # the right file takes the same seed
    assert r.sequence == before


def test_a_repeated_commitment_and_a_reveal_in_a_first_file_are_refused(make_game) -> None:
    g: Game = make_game()
    setup_both(g)
    old = _orders(g, "NATO")[0]["nonce_commit"]
    path = _resigned(g, "NATO", MOVE, "again.txt", **{"nonce-commit": old})
    with pytest.raises(Refusal, match="repeats an earlier commitment"):
        g.run(path)
    g2: Game = make_game("g2")
    first = _resigned(g2, "NATO", ["place US-DD-1 0202", "place US-F4.2 0203"], "f.txt",
                      nonce="11" * 32)  # fmt: skip
    with pytest.raises(Refusal, match="no commitment to reveal"):
        g2.run(first)


def test_verify_fails_on_a_file_that_breaks_the_nonce_chain(make_game, monkeypatch) -> None:
    """A referee who let a file with a wrong reveal through (the arrival check switched off
    here) is caught by every player's `verify`, naming the orders file."""
    g: Game = make_game()
    setup_both(g)
    from referee.pbem import adjudicate as adj

    monkeypatch.setattr(adj, "refuse_nonce", lambda *a: None)
    g.run(_resigned(g, "NATO", MOVE, "bad.txt", nonce="00" * 32))
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.file == "turns/003-NATO-move/orders.txt"
    assert "dice nonce" in str(info.value) and "does not hash" in str(info.value)


def test_a_record_with_other_nonces_than_its_orders_fails(make_game) -> None:
    """The referee cannot publish another nonce than the signed file's (re-signed record)."""
    from tests.pbem.test_forged_renderings import forge

    g: Game = make_game()
    setup_both(g)
    g.run(g.signed("NATO", MOVE))
    t = g.archive.turn_dirs()[-1]
    rep = json.loads((t.path / "report.json").read_text())
    rep["orders"]["nonce"] = "00" * 32
    forge(t.path, g.keys["ref"], {}, rep)
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.file == "turns/003-NATO-move/report.json"
    assert "orders.nonce is '000000" in str(info.value)


def test_a_game_without_player_nonces_takes_files_without_them(make_game) -> None:
    g: Game = make_game(player_nonces=False)
    assert "player_nonces" not in (g.dir / "game.toml").read_text()
    path = g.signed("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"])
    assert "nonce" not in path.read_text()
    g.run(path)
    v = verify_archive(g.dir, g.module)
    assert v.reports == 2


def test_own_nonces_are_kept_and_a_lost_one_is_a_clear_error(make_game) -> None:
    """A player who commits to a random nonce of his own (signing with ssh-keygen, say) must
    reveal it himself; `referee sign` keeps a valid reveal and says so when it is missing."""
    from referee.errors import UserError

    g: Game = make_game()
    mine = "42" * 32
    g.run(_resigned(g, "NATO", ["place US-DD-1 0202", "place US-F4.2 0203"], "s.txt",
                    **{"nonce-commit": nonces.commit_of(mine)}))  # fmt: skip
    g.run(g.signed("Soviet", ["place SO-DD-1 0403", "place SO-SG-1 0302", "place SO-T16.1 0506"]))
    with pytest.raises(UserError, match="does not derive"):
        sign_orders("\n".join(MOVE) + "\n", "o", g.keys["nato"], g.dir)
    signed = sign_orders(f"nonce: {mine}\n" + "\n".join(MOVE) + "\n", "o", g.keys["nato"], g.dir)
    assert signed.text.count(mine) == 1
    path = g.dir.parent / "m.txt"
    path.write_text(signed.text)
    [r] = g.run(path)
    assert r.report["orders"]["nonce"] == mine
    assert verify_archive(g.dir, g.module).reports == 4


def test_a_hidden_game_publishes_the_nonces_and_its_players_check_them(tmp_path) -> None:
    """A game that hides information: the public records carry the nonces (random, they say
    nothing of the orders), so a player's `verify` checks the chain before any reveal; a
    forged nonce in a re-signed public record fails it."""
    from referee.pbem.keys import load_private
    from tests.pbem import toy_solitaire, toys_common
    from tests.pbem.cliflow import Table
    from tests.pbem.test_forged_renderings import forge

    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_solitaire.ID), ("NATO",))
    t.new()
    t.send("NATO", "move US-DD-1 0304")
    t.send("NATO", "move US-CV-1 0404")
    copy = t.player_copy()
    code, out = t.verify(copy)
    assert code == 0, out
    step = sorted((copy / "turns").iterdir())[-1]
    rep = json.loads((step / "report.json").read_text())
    first = json.loads((sorted((copy / "turns").iterdir())[1] / "report.json").read_text())
    assert nonces.commit_of(rep["orders"]["nonce"]) == first["orders"]["nonce_commit"]
    rep["orders"]["nonce"] = "00" * 32
    forge(step, load_private(t.key("referee")), {}, rep)
    code, out = t.verify(copy)
    assert code == 1 and out["check"] == "dice nonce" and "does not hash" in out["message"]


def test_a_step_reads_the_latest_report_not_every_one(make_game, monkeypatch) -> None:
    """Issue 26: a step's cost does not grow with the game. With the cache active (as
    ``referee adjudicate`` and ``referee sign`` run) a step reads report 000 (how the score is
    recorded) and the chain head, never the reports between; the nonce commitments come from
    the ledger kept under the chain head, and a commitment repeated from an earlier report is
    still refused."""
    from referee.cache import activated, cache_from_env
    from referee.pbem import running

    g: Game = make_game()
    read: list[str] = []
    real = running._read_report

    def counting(archive: object, path: Path) -> object:
        read.append(path.parent.name)
        return real(archive, path)

    monkeypatch.setattr(running, "_read_report", counting)
    with activated(cache_from_env()):
        setup_both(g)
        old = _orders(g, "NATO")[0]["nonce_commit"]  # in report 001
        bad = _resigned(g, "NATO", MOVE, "again.txt", **{"nonce-commit": old})
        with pytest.raises(Refusal, match="repeats an earlier commitment"):
            g.run(bad)
        path = g.signed("NATO", MOVE)
        read.clear()
        [r] = g.run(path)
    assert r.sequence == 3
    assert {name[:3] for name in read} == {"000", "002"}, read
