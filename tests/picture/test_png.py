"""position.png is a picture a player reads on a phone: the region of play at a size where hex
numbers and unit keys are legible, every stack listed in a key, the step's moves and attacks
as arrows."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image

from referee.engine.core import Event
from referee.picture.png import DEFAULT_DPI, play_region, position_png, stack_keys
from referee.render.board import board_layout
from referee.render.colors import parse_color
from referee.source.loader import load_module
from tests.conformance.rulesets.sixth_fleet_1975 import build_state

SF = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"


@cache
def _state():
    m, _ = load_module(SF)
    assert m is not None
    s = build_state(
        m,
        {
            "turn": 2,
            "phase": "combat",
            "side": "Soviet",
            "units": [["SO-SG-1", "1422"], ["SO-SG-2", "1422"], ["US-SN-1", "1424"]],
        },
    )
    return m, s


def test_default_size_makes_hex_numbers_legible() -> None:
    m, _ = _state()
    lay = board_layout(m, DEFAULT_DPI)
    # the board prints hex numbers at 0.13 hex width: at least 9 px is readable on a phone
    assert lay.hex_width * 0.13 >= 9


def test_stack_keys_run_a_to_z_then_aa() -> None:
    hexes = [f"{n:04d}" for n in range(101, 131)]
    keys = stack_keys(hexes)
    assert keys["0101"] == "A" and keys["0126"] == "Z" and keys["0127"] == "AA"
    assert len(set(keys.values())) == 30


def test_the_picture_is_the_region_of_play_with_discs_and_a_key() -> None:
    m, s = _state()
    move = Event("move", "5.0", "", {"unit": "US-SN-1", "from": "1426", "path": ["1425", "1424"]})
    todo = [("move", ["1426", "1425", "1424"])]
    assert play_region(m, s, todo) == ["1422", "1424", "1425", "1426"]
    img = Image.open(io.BytesIO(position_png(m, s, s, [move])))
    lay = board_layout(m, DEFAULT_DPI)
    # cropped to a few hexes round the play, plus the key below: far smaller than the board
    assert img.width < lay.map_size[0] / 3
    assert img.height < lay.map_size[1] / 2
    # both stacks drawn as discs in their side's colours: scan for the two side colours
    colors = {c for _, c in img.getcolors(1 << 20)}
    for side in m.sides:
        assert parse_color(side.color) in colors, side.id
    # deterministic
    assert position_png(m, s, s, [move]) == position_png(m, s, s, [move])


def test_stack_letters_on_a_map_of_spaces_are_legible_at_the_default_size() -> None:
    """Carrier Battlegroup's map of spaces has no hex width: the disc (and the key letter in it,
    drawn at about the radius) must still be big enough to read, at least 12 px at 100 dpi."""
    from referee.picture.png import disc_radius

    m, _ = load_module(SF.parent / "carrier_battlegroup")
    assert m is not None and m.map.grid is None
    assert disc_radius(m, board_layout(m, DEFAULT_DPI)) >= 12
