"""What a player does in VASSAL on an imported module's game, carried into the step's orders
(``referee import-vlog``, :mod:`referee.vassal.foreign.imported_log`): a piece deleted
becomes ``eliminate``, an Undo is followed (the undone drag and delete dropped), and the
orders end where the log ends. The logs are written by our codec as VASSAL logs drags,
deletes and undos (vassal-format.md §6.4: ``M/``, ``-/``, ``UNDO`` blocks of the reversing
commands) on the zxvt fixture of ``../shared/fixtures/vassal/`` with a set-up of its own
pieces (``tests/declared/imported.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.vassal.codec.commands import LogEntry, RemovePiece, Undo
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.foreign.game import imported_locations, load_imported_game
from referee.vassal.foreign.movelist import read_log
from tests.declared.conftest import reports_of
from tests.declared.test_imported_game import _Drags
from tests.pbem.cliflow import Table, cli
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.declared.imported import skirmish_vmod

    tmp = tmp_path_factory.mktemp("imported-vlog")
    code, out = cli("import-vmod", skirmish_vmod(tmp / "vmods"), "-o", tmp / "src", "-q")
    assert code == 0, out
    return tmp / "src"


class _Player(_Drags):
    def delete(self, piece: str) -> None:
        self.log(RemovePiece(self.ids[piece]))

    def undo_delete(self, piece: str, save: bytes) -> None:
        """VASSAL's Undo of a Delete: the piece added back as it was (``+/``)."""
        from referee.vassal.codec.commands import AddPiece, iter_leaves

        vid = self.ids[piece]
        add = next(
            c for c, _ in iter_leaves(read_save_bytes(save).commands)
            if isinstance(c, AddPiece) and c.id == vid
        )  # fmt: skip
        self.steps.append(LogEntry(Undo(True)))
        self.log(add)
        self.steps.append(LogEntry(Undo(False)))


def _player(t: Table, source: Path) -> tuple[_Player, bytes]:
    module, _ = load_imported_game(source)
    assert module is not None
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    last = sorted((t.game / "turns").glob("*/position.vsav"))[-1].read_bytes()
    p = _Player(
        last,
        {q.id: q.vassal_id for q in sc.pieces},
        {k: (pt.map, pt.x, pt.y) for k, pt in sc.locations},
    )
    return p, last


def _orders(t: Table, source: Path, p: _Player, tmp: Path, want_code: int) -> list[str]:
    log = tmp / "turn.vlog"
    log.write_bytes(p.log_bytes())
    out = tmp / "orders.txt"
    code, text = cli("import-vlog", log, "--game-dir", t.game, "--module", source, "-o", out)
    assert code == want_code, text
    return out.read_text().splitlines()


def _body(lines: list[str]) -> list[str]:
    return [ln for ln in lines[lines.index("[orders]") + 1 :] if ln and not ln.startswith("#")]


def test_a_delete_is_an_elimination_and_undone_steps_are_dropped(
    source: Path, tmp_path: Path
) -> None:
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    p, _ = _player(t, source)
    p.drag("Red", "C02")
    p.drag("Red", "D02")
    p.undo_drag("Red", "C02")  # the second drag undone
    p.drag("Town", "C04")
    p.undo_drag("Town", "C03")  # Town's only drag undone: no move
    p.delete("Captured-by-Red.2")
    p.chat('roll 2d6 for "Red holds C02"')
    lines = _orders(t, source, p, tmp_path, 0)
    assert _body(lines) == [
        "move Red C02",
        "eliminate Captured-by-Red.2",
        'roll 2d6 for "Red holds C02"',
    ]
    t.send("Red", *lines)
    texts = [e["text"] for e in reports_of(t)[-1]["events"]]
    assert "Red moves to C02" in texts and "Captured-by-Red.2 eliminated" in texts
    module, _ = load_imported_game(source)
    assert module is not None
    save = read_save_bytes((t.game / "turns" / "001-Red-first" / "position.vsav").read_bytes())
    end = {(q.name, q.location) for q in read_log(save.commands, imported_locations(module)).end}
    assert ("Red", "C02") in end and ("Town", "C03") in end
    assert sum(1 for name, _ in end if name == "Captured by Red") == 1
    code, verdict = t.verify()
    assert code == 0, json.dumps(verdict)[:2000]


def test_an_undone_delete_eliminates_nothing(source: Path, tmp_path: Path) -> None:
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    p, save = _player(t, source)
    p.delete("Town")
    p.undo_delete("Town", save)
    p.drag("Red", "C02")
    assert _body(_orders(t, source, p, tmp_path, 0)) == ["move Red C02"]


def test_an_undo_of_nothing_the_log_did_is_listed(source: Path, tmp_path: Path) -> None:
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    p, _ = _player(t, source)
    p.undo_drag("Gray", "D05")  # reverses no drag of this log
    lines = _orders(t, source, p, tmp_path, 1)
    text = "\n".join(lines)
    assert "an undo that reverses nothing of the log" in text, text
    assert _body(lines) == []


def test_a_piece_taken_from_the_palette_is_listed_not_guessed(source: Path, tmp_path: Path) -> None:
    from referee.vassal.codec.commands import AddPiece, iter_leaves

    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    p, save = _player(t, source)
    town = next(
        c for c, _ in iter_leaves(read_save_bytes(save).commands)
        if isinstance(c, AddPiece) and c.id == p.ids["Town"]
    )  # fmt: skip
    p.log(AddPiece("1800000000001", town.type, town.state))  # a second Town, new from the palette
    p.drag("Red", "C02")
    lines = _orders(t, source, p, tmp_path, 1)
    assert "'Town' was taken from the palette: no piece of the game" in "\n".join(lines)
    assert _body(lines) == ["move Red C02"]
