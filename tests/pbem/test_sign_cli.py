"""``referee sign`` from the command line: a detached signature leaves the orders alone;
``-`` reads standard input and writes standard output; the old ``--game`` still works."""

from __future__ import annotations

from pathlib import Path

from referee.cli import app
from referee.pbem.envelope import open_envelope
from referee.pbem.keys import write_key_pair
from referee.pbem.signing import sign_orders
from tests.clirun import Runner
from tests.pbem.conftest import Game

RUN = Runner()
SETUP = ["place US-DD-1 0202", "place US-F4.2 0203"]


def _key_file(g: Game, tmp: Path) -> Path:
    write_key_pair(g.keys["nato"], tmp / "k", force=True)
    return tmp / "k" / "nato.key"


def _complete_orders(g: Game) -> str:
    """NATO set-up orders with every envelope header already in place."""
    return sign_orders("\n".join(SETUP) + "\n", "o", g.keys["nato"], g.dir).body


def test_detached_leaves_the_orders_untouched_and_adjudicates(make_game, tmp_path) -> None:
    g: Game = make_game()
    key = _key_file(g, tmp_path)
    orders = tmp_path / "nato.txt"
    orders.write_text(_complete_orders(g))
    before, inode = orders.read_bytes(), orders.stat().st_ino
    r = RUN.invoke(app, ["sign", str(orders), "--key", str(key), "--detached"])
    assert r.exit_code == 0, r.output
    assert orders.read_bytes() == before and orders.stat().st_ino == inode  # not rewritten
    sig = tmp_path / "nato.txt.sig"
    assert sig.read_text().startswith("-----BEGIN")
    env = open_envelope(orders.read_text(), orders.name, sig.read_text())
    assert env.signed_by(g.keys["nato"].public)
    (result,) = g.run(orders)
    assert result.status == "adjudicated"


def test_detached_to_a_named_file_and_to_standard_output(make_game, tmp_path) -> None:
    g: Game = make_game()
    key = _key_file(g, tmp_path)
    orders = tmp_path / "nato.txt"
    orders.write_text(_complete_orders(g))
    elsewhere = tmp_path / "mail" / "attachment.sig"
    r = RUN.invoke(
        app, ["sign", str(orders), "--key", str(key), "--detached", "-o", str(elsewhere)]
    )
    assert r.exit_code == 0, r.output
    assert elsewhere.is_file() and not (tmp_path / "nato.txt.sig").exists()
    r = RUN.invoke(app, ["sign", "-", "--key", str(key), "--detached"], input=orders.read_text())
    assert r.exit_code == 0, r.output
    assert r.stdout == elsewhere.read_text()  # Ed25519 signatures are deterministic
    r = RUN.invoke(app, ["sign", "-", "--key", str(key)], input=orders.read_text())
    assert r.exit_code == 0 and r.stdout.startswith(orders.read_text())
    assert "-----BEGIN" in r.stdout and "signed:" not in r.stdout


def test_detached_rewrites_only_when_the_headers_must_change(make_game, tmp_path) -> None:
    g: Game = make_game()
    key = _key_file(g, tmp_path)
    orders = tmp_path / "nato.txt"
    orders.write_text("\n".join(SETUP) + "\n")
    r = RUN.invoke(
        app, ["sign", str(orders), "--key", str(key), "--detached", "--game-dir", str(g.dir)]
    )
    assert r.exit_code == 0, r.output
    assert "rewrote" in r.output and "added 'game: g1'" in r.output
    assert "game: g1" in orders.read_text() and "BEGIN" not in orders.read_text()
    (result,) = g.run(orders)
    assert result.status == "adjudicated"


def test_the_old_game_option_still_works(make_game, tmp_path) -> None:
    g: Game = make_game()
    key = _key_file(g, tmp_path)
    orders = tmp_path / "nato.txt"
    orders.write_text("\n".join(SETUP) + "\n")
    r = RUN.invoke(app, ["sign", str(orders), "--key", str(key), "--game", str(g.dir), "--json"])
    assert r.exit_code == 0, r.output
    assert '"orders":' in r.stdout and "-----BEGIN" in orders.read_text()


def test_signing_a_file_to_standard_output_names_the_file(make_game, tmp_path) -> None:
    """``sign orders.txt -o -`` read a file: the note must name it, not ``<stdin>``."""
    g: Game = make_game()
    key = _key_file(g, tmp_path)
    orders = tmp_path / "nato.txt"
    orders.write_text(_complete_orders(g))
    r = RUN.invoke(app, ["sign", str(orders), "--key", str(key), "-o", "-"])
    assert r.exit_code == 0, r.output
    assert "-----BEGIN" in r.stdout and "signed:" not in r.stdout
    assert f"signed: {orders} (to standard output)" in r.stderr
    assert "<stdin>" not in r.stderr


def test_refusals_name_the_orders_as_typed_and_the_report_keeps_the_base_name(
    make_game, tmp_path
) -> None:
    """A refusal names ``orders/nato.txt``, not ``nato.txt`` (a CI annotation must land on the
    file the user gave); the report still records only the base name (no local folder)."""
    import json

    import pytest

    from referee.pbem.problems import Refusal

    g: Game = make_game()
    folder = g.dir.parent / "orders"
    folder.mkdir()
    unsigned = folder / "01-nato-setup.txt"
    unsigned.write_text("\n".join(SETUP) + "\n")
    with pytest.raises(Refusal) as info:
        g.run(unsigned)
    assert str(info.value).startswith(f"{unsigned}: the orders are not signed"), info.value
    good = g.signed("NATO", SETUP, name="orders/02-nato-setup.txt")
    (result,) = g.run(good)
    assert result.status == "adjudicated"
    report = json.loads((g.dir / result.folder / "report.json").read_text())
    assert report["orders"]["name"] == "02-nato-setup.txt"
