"""``position.svg`` (issue 24): the position picture as text our own code draws, so ``verify``
proves it on any machine by comparing text. What it must show (the region of play, a disc and
key letter per stack, the marks, the key) and what it must not depend on (fonts, encoders)."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from referee.engine.core import Event
from referee.picture.png import DEFAULT_DPI
from referee.picture.svg import map_label, num, position_svg
from referee.source.loader import load_module
from tests.picture.test_png import SF, _state

MOVE = Event("move", "5.0", "", {"unit": "US-SN-1", "from": "1426", "path": ["1425", "1424"]})
ATTACK = Event("attack", "8.1", "", {"unit": "SO-SG-1", "target": "US-SN-1"})


def _svg(events=(MOVE, ATTACK)) -> str:
    m, s = _state()
    return position_svg(m, s, s, events, DEFAULT_DPI, "Combat Phase").decode()


def test_it_is_well_formed_self_contained_text() -> None:
    text = _svg()
    root = ElementTree.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # no script, no raster image, no reference outside the file
    assert "<script" not in text and "<image" not in text and "data:" not in text
    hrefs = re.findall(r'href="([^"]*)"', text)
    assert hrefs and all(h.startswith("#") for h in hrefs)


def test_it_shows_each_stack_its_key_and_the_marks() -> None:
    text = _svg()
    # two stacks: 1422 (two Soviet units) and 1424, keys A and B, listed in the key
    assert ">A</text>" in text and ">B</text>" in text
    assert "SO-SG-1, SO-SG-2" in text and "US-SN-1" in text
    assert "Game-Turn 2, Combat Phase: stacks by key" in text
    # the move (black) and the attack (red) are drawn: polylines with their heads
    assert text.count("<polyline") >= 2 + 3  # the two marks and the legend's three
    assert 'stroke="#C81E1E"' in text and 'stroke="#141414"' in text


def test_it_is_deterministic_and_depends_on_the_position() -> None:
    m, s = _state()
    a = position_svg(m, s, s, (MOVE,), DEFAULT_DPI, "x")
    assert a == position_svg(m, s, s, (MOVE,), DEFAULT_DPI, "x")
    assert a != position_svg(m, s, s, (), DEFAULT_DPI, "x")  # the mark is part of it


def test_numbers_are_tenths_without_noise() -> None:
    assert [num(v) for v in (0.04, -0.04, 1.0, 2.25, -3.14159, 1234.56)] == [
        "0", "0", "1", "2.2", "-3.1", "1234.6",
    ]  # fmt: skip


def test_the_map_names_no_place_as_one_word_but_those_of_the_key() -> None:
    """As the viewer spells hex ids in its script: a search of a side's files for a hidden
    unit's hex finds only what the side was shown."""
    text = _svg(())
    assert map_label("0306") == "03<tspan>06</tspan>"
    shown = "\n".join(ElementTree.fromstring(text).itertext())  # what it reads, node by node
    words = set(re.findall(r"(?<![0-9])\d{4}(?![0-9])", shown))
    assert words == {"1422", "1424"}, sorted(words)[:5]  # the two stacks' hexes, in the key


def test_a_map_of_spaces_is_drawn_too() -> None:
    from referee.engine.ruleset import get_ruleset

    m, _ = load_module(SF.parent / "carrier_battlegroup")
    assert m is not None and m.map.grid is None
    rs = get_ruleset(m.ruleset)
    scenario = sorted(m.scenarios)[0]
    state = rs.new_game(m, scenario, "g", ())
    text = position_svg(m, None, state, (), DEFAULT_DPI).decode()
    ElementTree.fromstring(text)
    assert "<circle" in text and "<line" in text  # the spaces and their links
