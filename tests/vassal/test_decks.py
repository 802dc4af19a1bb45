"""The module's decks written into saves (no Java; the real-VASSAL load is in
``test_sixth_fleet_2019_vassal.py``): the ``deck;`` type is the one VASSAL 3.7.26 itself
wrote for our DrawPile, a set-up save holds every strike marker in its cup, face down, and a
side's position save names only the markers that side's view shows: the other side's cups
are anonymous face-down markers, as many as the cup holds (Sixth Fleet 2019 [2.0], [2.12],
provisional 17.0)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from lxml import etree

from referee.demos import sixth_fleet_2019 as demo_2019
from referee.engine.core import GameState, ScriptedDice
from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.rules.sixth_fleet_2019 import strike
from referee.rules.sixth_fleet_2019.game import Game
from referee.source.loader import load_module
from referee.source.model import Module
from referee.vassal.codec.commands import AddPiece, Command, Compound
from referee.vassal.codec.pieces import Deck, decode_piece, marker_properties
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.module.buildfile import buildfile_xml, deck_boxes
from referee.vassal.position.decks import DECK_FIELDS, deck_state, deck_type
from referee.vassal.position.placement import Table, table_for
from referee.vassal.position.save import position_vsav_bytes
from referee.vassal.position.setups import scenario_setup_vsav

# What real VASSAL 3.7.26 wrote for the NATO Strike Cup after setting up our module's cups
# itself (a set-up save without SETUP_STACK, then vcheck --write-vlog): the type we copy.
VASSAL_DECK_TYPE = (
    "deck;true;0,0,0;60;60;Always;Always;false;false;false;;;;NATO Strike Cup;;;;false;false;"
    ";;10;;false;;false;;$BasicName$;;false;;Shuffle;Reverse;;Draw multiple cards;"
    "Draw specific cards;Face up;Face down;;;;;Save Deck;;Deck Saved;Load Deck;;Deck Loaded;"
    "false;"
)


@cache
def _module() -> Module:
    module, _ = load_module(demo_2019.SRC)
    assert module is not None
    return module


@cache
def _table() -> Table:
    return table_for(_module())


def _leaves(c: Command) -> Iterator[Command]:
    if isinstance(c, Compound):
        for child in c.children:
            yield from _leaves(child)
    else:
        yield c


def _decks(save: bytes) -> dict[str, tuple[str, list[dict[str, str]]]]:
    """Each deck of a save by name: its state, and its pieces' BasicPiece name and Marker
    properties (``UnitId``), bottom first."""
    added = [c for c in _leaves(read_save_bytes(save).commands) if isinstance(c, AddPiece)]
    by_id = {c.id: c for c in added}
    out = {}
    for c in added:
        if not c.type.startswith("deck;"):
            continue
        deck = decode_piece(c.type, c.state).basic
        assert isinstance(deck, Deck)
        name = c.type.split(";")[13]
        pieces = []
        for pid in deck.piece_ids:
            p = decode_piece(by_id[pid].type, by_id[pid].state)
            props = marker_properties(p)
            assert p.basic_piece is not None
            pieces.append({"name": p.basic_piece.name, **props})
        out[name] = (c.state or "", pieces)
    return out


def _drawn() -> GameState:
    """The 1980 set-up after each side has drawn from its cups (first marker each time)."""
    module = _module()
    state = get_ruleset(module.ruleset).new_game(module, "s1980", "g", ())
    game = Game.of(module)
    for side in ("NATO", "Soviet"):
        state = strike.draw_markers(game, state, side, ScriptedDice([1] * 4), [])
    return state


def test_deck_type_is_the_one_real_vassal_writes_and_matches_the_drawpile() -> None:
    assert deck_type("NATO Strike Cup") == VASSAL_DECK_TYPE
    fields = dict(DECK_FIELDS)
    root = etree.fromstring(buildfile_xml(_table().plan))
    piles = list(root.iter("VASSAL.build.module.map.DrawPile"))
    assert piles
    for pile in piles:  # the DrawPile attributes the type repeats
        assert pile.get("faceDown") == fields["faceDownOption"]
        assert pile.get("shuffle") == fields["shuffleOption"]
        assert pile.get("width") == fields["width"] and pile.get("height") == fields["height"]
        assert pile.get("color") == fields["outlineColor"]
        assert pile.get("allowMultiple") == fields["allowMultipleDraw"]
        assert pile.get("allowSelect") == fields["allowSelectDraw"]
        assert pile.get("reversible") == fields["reversible"]
        assert pile.get("drawFaceUp") == fields["drawFaceUp"]
    assert deck_state("Main Map", 5, 6, []) == "Main Map;5;6;true"
    assert deck_state("Main Map", 5, 6, ["1", "2"]) == "Main Map;5;6;true;1,2"


@pytest.mark.parametrize("scenario", ["s1980", "s1970"])
def test_setup_save_holds_every_marker_in_its_cup(scenario: str) -> None:
    table = _table()
    decks = _decks(scenario_setup_vsav(table, scenario))
    game = Game.of(_module())
    cups = strike.set_up(game, scenario)["cups"]
    assert set(decks) == {name for name, _ in deck_boxes(table.plan)} == set(cups)
    for name, ids in cups.items():
        state, pieces = decks[name]
        bx, by = table.plan.layers.point(name)  # type: ignore[union-attr]
        assert state.startswith(f"{table.plan.map_name};{bx};{by};true;")
        assert [p["UnitId"] for p in pieces] == sorted(ids)


def test_side_save_names_only_what_the_side_sees() -> None:
    module, table = _module(), _table()
    ruleset = get_ruleset(module.ruleset)
    full = _drawn()
    data = full.data["strike"]
    game = Game.of(module)
    for side, enemy in (("NATO", "Soviet"), ("Soviet", "NATO")):
        save = position_vsav_bytes(table, ruleset.view(module, full, side))
        decks = _decks(save)
        for c in strike.cups(game):
            pieces = decks[c.name][1]
            if c.side == side:  # his own cup: the markers by id, face down
                assert [p["UnitId"] for p in pieces] == data["cups"][c.name]
            else:  # the other side's: only how many
                assert len(pieces) == len(data["cups"][c.name]) > 0
                n = f"{c.name}: face-down marker"
                assert all(p == {"name": n, "Marker": n} for p in pieces)
        # no id, name or picture of a marker the enemy holds or keeps in his cups, anywhere
        plain = str(read_save_bytes(save).commands)
        hidden = [m for c in strike.cups(game) if c.side == enemy for m in data["cups"][c.name]]
        hidden += data["held"][enemy]
        assert hidden and data["held"][enemy]
        for mid in hidden:
            assert mid not in plain, (side, mid)
            assert f"unit_{mid.split('.')[0]}.png" not in plain, (side, mid)


def test_referee_copy_and_bytes_are_stable() -> None:
    table = _table()
    full = _drawn()
    one = position_vsav_bytes(table, full)
    assert one == position_vsav_bytes(table, full)
    decks = _decks(one)
    for name, ids in full.data["strike"]["cups"].items():
        assert [p["UnitId"] for p in decks[name][1]] == ids


@pytest.mark.parametrize(
    ("cup", "content", "message"),
    [
        ("NATO EW Cup", ["XX-1"], "the module has no counter 'XX-1'"),
        ("No Cup", [], "no deck box named 'No Cup' on the map"),
        ("NATO EW Cup", -1, "deck 'NATO EW Cup': negative count -1"),
    ],
)
def test_a_position_whose_decks_do_not_fit_the_module_is_refused(
    cup: str, content: list[str] | int, message: str
) -> None:
    full = _drawn()
    data = full.data["strike"]
    bad = full.with_data(strike={**data, "cups": {**data["cups"], cup: content}})
    with pytest.raises(UserError) as err:
        position_vsav_bytes(_table(), bad)
    assert str(err.value).startswith(
        f"the position's decks do not fit module sixth_fleet_2019: {message}"
    )
