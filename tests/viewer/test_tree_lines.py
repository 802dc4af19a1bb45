"""The order line of each end of a move tree (``draft_options.tree_lines``), which the force
search and the tests read: each path spelled once for all the ends that share it, the same
lines as walking each end back alone."""

from __future__ import annotations

from referee.pbem.draft_options import tree_lines


def test_each_end_is_its_path_from_the_first_place() -> None:
    # format 4: successors under their place ("" the first), ends under their label
    tree = {
        "kids": {"": ["0101"], "0101": ["0102", "0201"], "0102": ["0103"], "0201": ["0301"]},
        "labels": {"1 MP": ["0102", "0201"], "2 MP": ["0103", "0301"]},
    }
    assert tree_lines(tree, "move SU-1") == {
        "0102": "move SU-1 0101 0102",
        "0103": "move SU-1 0101 0102 0103",
        "0201": "move SU-1 0101 0201",
        "0301": "move SU-1 0101 0201 0301",
    }


def test_names_with_spaces_are_quoted_and_format_3_trees_read_alike() -> None:
    tree = {
        "prev": {"Gulf of Sidra": "", "Ionian Sea 2": "Gulf of Sidra", "Malta": "Ionian Sea 2"},
        "ends": {"Ionian Sea 2": "", "Malta": ""},
    }
    assert tree_lines(tree, "move NA-2") == {
        "Ionian Sea 2": 'move NA-2 "Gulf of Sidra" "Ionian Sea 2"',
        "Malta": 'move NA-2 "Gulf of Sidra" "Ionian Sea 2" Malta',
    }


def test_a_looping_chain_stops_where_a_place_repeats() -> None:
    # never drafted, but a tree read back from a file is walked the way the viewer walks it
    tree = {"prev": {"a": "c", "b": "a", "c": "b", "d": "c"}, "ends": {"a": "", "d": ""}}
    assert tree_lines(tree, "move X") == {"a": "move X b c a", "d": "move X a b c d"}
