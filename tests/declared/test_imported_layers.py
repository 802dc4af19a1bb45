"""Flips and markers of an imported module's game on the module's own Layers (issue 30,
part 3: everything a VASSAL log can do, carried into orders, and ``position.vsav`` showing
it): a Layer changed in a player's log becomes ``flip``, ``mark`` or ``unmark``
(:mod:`referee.vassal.foreign.imported_layers`), and the next ``position.vsav`` shows the
piece with those Layers as the log left it. The module is the zxvt fixture of
``../shared/fixtures/vassal/`` with a "Skirmish" set-up whose Town has two Layers (a
two-level front/back and a one-level "Captured"), made in a temporary folder; the logs are
written by our codec as VASSAL logs a key press on a piece (``D/`` with the new state)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.vassal.codec.commands import AddPiece, ChangePiece, RemovePiece, iter_leaves
from referee.vassal.codec.pieces import BasicPiece, Embellishment, Piece, decode_piece
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.codec.sequence import decode_sequence, encode_sequence, encode_string_array
from referee.vassal.foreign.game import load_imported_game
from referee.vassal.foreign.imported_layers import apply_status, layer_orders, word_of
from referee.vassal.module.palette import LayerSpec, layer_trait
from tests.declared.conftest import orders_lines, reports_of
from tests.declared.imported import skirmish_vmod
from tests.declared.test_imported_game import _Drags, _vassal_missing, _vcheck
from tests.pbem.cliflow import Table, cli
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


def _flip_layer() -> Embellishment:
    """A two-level Layer "Face" (front, back), always on at level 1 (the front)."""
    one = layer_trait(LayerSpec("Face", "Flip", "F", "", "front and back"), "Captured by Red")
    fields = decode_sequence(one.type[len("emb2;") :], ";")
    fields[15] = encode_string_array(["Captured by Red", "Captured by Gray"])
    fields[16] = encode_string_array(["", ""])  # the piece keeps its name
    fields[25] = "true"  # always active: the keys change the level
    return Embellishment("emb2;" + (encode_sequence(fields, ";") or ""), "1")


def _captured_layer() -> Embellishment:
    """A one-level Layer "Captured", off at first (on, it names the piece "Town
    (captured)")."""
    spec = LayerSpec("Captured", "Captured", "C", "+ (captured)", "captured")
    one = layer_trait(spec, "Red Pawn")
    return Embellishment(one.type, "-1")


def _layered(name: str, piece: Piece) -> Piece:
    if name != "Town":
        return piece
    return Piece((_flip_layer(), _captured_layer(), *piece.traits))


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("imported-layers")
    code, out = cli("import-vmod", skirmish_vmod(tmp / "vmods", _layered), "-o", tmp / "src", "-q")
    assert code == 0, out
    return tmp / "src"


def _town(save: bytes) -> Piece:
    for c, _ in iter_leaves(read_save_bytes(save).commands):
        if isinstance(c, AddPiece) and c.type.startswith("emb2;") and "Town" in c.type:
            return decode_piece(c.type, c.state)
    raise AssertionError("no Town in the save")


def _layers(piece: Piece) -> list[tuple[str, bool, int]]:
    return [(t.layer_name, t.active, t.level) for t in piece.find(Embellishment)]


class _Keys(_Drags):
    def press(self, piece: str, change: Callable[[Piece], Piece]) -> None:
        """A key press on ``piece`` that changes its Layers: ``D/`` of its new state."""
        vid = self.ids[piece]
        old = self.top.pieces[vid]
        new = change(old)
        command = ChangePiece(vid, new.state, old.state)
        self.log(command)
        self.top.change(command)


def _flip(p: Piece) -> Piece:
    face = p.traits[0]
    assert isinstance(face, Embellishment)
    return p.with_trait(0, face.with_value(3 - face.level))


def _capture(on: bool) -> Callable[[Piece], Piece]:
    def change(p: Piece) -> Piece:
        layer = p.traits[1]
        assert isinstance(layer, Embellishment)
        return p.with_trait(1, layer.with_value(1 if on else -1))

    return change


def _keys(t: Table, source: Path) -> _Keys:
    module, _ = load_imported_game(source)
    assert module is not None
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    last = sorted((t.game / "turns").glob("*/position.vsav"))[-1].read_bytes()
    return _Keys(
        last,
        {q.id: q.vassal_id for q in sc.pieces},
        {k: (pt.map, pt.x, pt.y) for k, pt in sc.locations},
    )


def _import(t: Table, source: Path, p: _Keys, out: Path) -> list[str]:
    log = out.with_suffix(".vlog")
    log.write_bytes(p.log_bytes())
    code, text = cli("import-vlog", log, "--game-dir", t.game, "--module", source, "-o", out)
    assert code == 0, text
    return out.read_text().splitlines()


def _body(lines: list[str]) -> list[str]:
    return [ln for ln in lines[lines.index("[orders]") + 1 :] if ln and not ln.startswith("#")]


def test_layer_changes_in_a_log_become_orders_and_the_save_shows_them(
    source: Path, tmp_path: Path
) -> None:
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    start = _town((t.game / "turns" / "000-setup-request" / "position.vsav").read_bytes())
    assert _layers(start) == [("Face", True, 1), ("Captured", False, 1)]
    p = _keys(t, source)
    p.press("Town", _flip)
    p.press("Town", _capture(True))
    lines = _import(t, source, p, tmp_path / "red-1.txt")
    assert _body(lines) == ["flip Town", "mark Town captured"]
    t.send("Red", *lines)
    texts = [e["text"] for e in reports_of(t)[-1]["events"]]
    assert "Town flipped to its back" in texts and "Town marked captured" in texts
    after = (t.game / "turns" / "001-Red-first" / "position.vsav").read_bytes()
    assert _layers(_town(after)) == [("Face", True, 2), ("Captured", True, 1)]
    # Gray takes the marker off and turns the town back to its front, by a log
    p = _keys(t, source)
    p.press("Town", _capture(False))
    p.press("Town", _flip)
    lines = _import(t, source, p, tmp_path / "gray-1.txt")
    assert _body(lines) == ["flip Town", "unmark Town captured"]
    t.send("Gray", *lines)
    last = (t.game / "turns" / "002-Gray-second" / "position.vsav").read_bytes()
    assert _layers(_town(last)) == [("Face", True, 1), ("Captured", False, 1)]
    code, verdict = t.verify()
    assert code == 0, json.dumps(verdict)[:2000]


def test_orders_typed_show_on_the_layers_too(source: Path, tmp_path: Path) -> None:
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    t.send("Red", *orders_lines("Red", 1, "flip Town", "mark Town captured", "mark Town held"))
    after = (t.game / "turns" / "001-Red-first" / "position.vsav").read_bytes()
    assert _layers(_town(after)) == [("Face", True, 2), ("Captured", True, 1)]


def test_a_layer_the_set_up_has_on_cannot_be_switched_off() -> None:
    base = Piece((_flip_layer(), _captured_layer().with_value(1), BasicPiece.build("Town")))
    off = base.with_trait(1, _captured_layer())
    orders, problems = layer_orders("Town", base, off, frozenset())
    assert orders == [] and problems == [
        "Town's Captured was switched off; the set-up has it on and no order switches it off"
    ]
    assert word_of("Out of supply") == "out-of-supply" and word_of("+ (back)") == "back"
    assert _layers(apply_status(base, {"flipped"})) == [("Face", True, 2), ("Captured", True, 1)]


@pytest.mark.vassal
@pytest.mark.skipif(_vassal_missing() is not None, reason=str(_vassal_missing()))
def test_real_vassal_loads_the_save_with_the_logs_layers_and_deletion(
    source: Path, tmp_path: Path
) -> None:
    """A log that flips Town, switches its Captured Layer on, deletes a piece and drags Red
    (then undoes a second drag) becomes Red's orders; real VASSAL 3.7.26 loads the step's
    position.vsav with every piece where the log left it: Town on its back (its Face Layer's
    level index 1) and named "Town (captured)", one "Captured by Red" left, Red on C02."""
    code, out = cli("build", source, "-o", tmp_path / "build", "-q")
    assert code == 0, out
    vmod = next((tmp_path / "build").glob("*.vmod"))
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    p = _keys(t, source)
    p.press("Town", _flip)
    p.press("Town", _capture(True))
    p.log(RemovePiece(p.ids["Captured-by-Red.2"]))
    p.drag("Red", "C02")
    p.drag("Red", "D02")
    p.undo_drag("Red", "C02")
    lines = _import(t, source, p, tmp_path / "red-1.txt")
    assert _body(lines) == [
        "eliminate Captured-by-Red.2",
        "move Red C02",
        "flip Town",
        "mark Town captured",
    ]
    t.send("Red", *lines)
    after = t.game / "turns" / "001-Red-first" / "position.vsav"
    code, err = _vcheck(vmod, after, out=tmp_path / "load.txt", args="--no-slots --no-setups")
    assert code == 0, err
    rows = [
        f for f in (ln.split("\t") for ln in (tmp_path / "load.txt").read_text().splitlines())
        if f[0] == "PIECE" and f[1] == str(after)
    ]  # fmt: skip
    assert sorted((f[6], f[5]) for f in rows) == [
        ("Captured by Gray", "D03"),
        ("Captured by Red", "B03"),
        ("Gray", "D04"),
        ("Red", "C02"),
        ("Town (captured)", "C03"),
    ]
    town = next(f for f in rows if f[6].startswith("Town"))
    assert "Layer[Layer - front and back - Face]value=1;" in town[-1]
