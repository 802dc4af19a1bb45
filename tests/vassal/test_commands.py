"""Command stream (vassal-format.md §6.3, §6.4): typed parse and byte-exact encode."""

from __future__ import annotations

import dataclasses
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from referee.vassal.codec.commands import (
    MAX_NESTING,
    AddPiece,
    AddPlayer,
    BeginSave,
    BoardPlacement,
    ChangeMutableProperty,
    ChangePiece,
    Chat,
    Command,
    Compound,
    EndSave,
    LogEntry,
    MovePiece,
    Notes,
    NullCommand,
    RemovePiece,
    RemovePlayer,
    SetBoards,
    SetGlobalProperty,
    SetTurn,
    SetupStack,
    StartupGlobalKeyCommand,
    Undo,
    Unknown,
    VersionCheck,
    compound,
    encode_canonical,
    encode_command,
    iter_leaves,
    parse_command,
)
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.obfuscation import deobfuscate
from referee.vassal.codec.sequence import ESC, decode_sequence, encode_sequence

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "vassal"
SAVES = {
    "inferno": "inferno/Scen1-DolentiNote1259.vsav",
    "zxvt": "zxvt-capture-the-territory/5x5_startup.vlog",
    "tour": "vassal-tour/tour.log",
}


def _fixture_stream(name: str) -> str:
    path = FIXTURES / SAVES[name]
    if not path.is_file():
        pytest.skip(f"shared fixtures not available ({path})")
    with zipfile.ZipFile(path) as archive:
        return deobfuscate(archive.read("savedGame")).decode("utf-8")


@pytest.fixture(scope="module")
def streams() -> dict[str, str]:
    return {name: _fixture_stream(name) for name in SAVES}


@pytest.fixture(scope="module")
def trees(streams: dict[str, str]) -> dict[str, Command]:
    return {name: parse_command(text) for name, text in streams.items()}


# ------------------------------------------------------------------ real files


@pytest.mark.parametrize("name", sorted(SAVES))
def test_fixture_streams_round_trip_byte_for_byte(
    name: str, streams: dict[str, str], trees: dict[str, Command]
) -> None:
    assert encode_command(trees[name]) == streams[name]
    # The real test: re-encoding purely from the typed fields reproduces the file.
    assert encode_canonical(trees[name]) == streams[name]


@pytest.mark.parametrize("name", sorted(SAVES))
def test_fixtures_have_no_unknown_leaves(name: str, trees: dict[str, Command]) -> None:
    unknown = [
        leaf.command for leaf in iter_leaves(trees[name]) if isinstance(leaf.command, Unknown)
    ]
    assert unknown == []


def _kinds(tree: Command) -> Counter[tuple[str, bool]]:
    return Counter((type(leaf.command).__name__, leaf.logged) for leaf in iter_leaves(tree))


def test_tour_log_matches_its_readme(trees: dict[str, Command]) -> None:
    tree = trees["tour"]
    assert isinstance(tree, Compound) and len(tree.children) == 122
    kinds = _kinds(tree)
    assert sum(kinds.values()) == 217
    assert kinds[("MovePiece", True)] == 32
    assert kinds[("ChangePiece", True)] == 43
    assert kinds[("AddPiece", True)] == 15
    assert kinds[("AddPiece", False)] == 17
    assert kinds[("RemovePiece", True)] == 4
    assert kinds[("Chat", True)] == 90
    assert kinds[("Chat", False)] == 1
    assert kinds[("SetBoards", True)] == 3
    assert kinds[("NullCommand", True)] == 4
    assert kinds[("VersionCheck", False)] == 2
    moves = [leaf.command for leaf in iter_leaves(tree) if isinstance(leaf.command, MovePiece)]
    assert all(move.player_id == "rkinney's password" for move in moves)


def test_inferno_matches_its_readme(trees: dict[str, Command]) -> None:
    tree = trees["inferno"]
    assert isinstance(tree, Compound) and len(tree.children) == 229
    kinds = _kinds(tree)
    assert sum(kinds.values()) == 865
    assert kinds[("AddPiece", False)] == 634
    assert kinds[("SetGlobalProperty", False)] == 203
    assert kinds[("SetBoards", False)] == 15
    assert kinds[("StartupGlobalKeyCommand", False)] == 2
    assert kinds[("SetupStack", False)] == 1
    leaves = [leaf.command for leaf in iter_leaves(tree)]
    assert leaves[0] == BeginSave() and leaves[-1] == EndSave()
    assert SetGlobalProperty("Turn", "1", "Module") in leaves
    assert StartupGlobalKeyCommand("SGKC0", True) in leaves
    assert SetBoards("Main Map", (BoardPlacement("Inferno"),)) in leaves


def test_zxvt_log_matches_its_readme(trees: dict[str, Command]) -> None:
    tree = trees["zxvt"]
    assert isinstance(tree, Compound) and len(tree.children) == 12
    kinds = _kinds(tree)
    assert sum(kinds.values()) == 21
    assert kinds[("AddPiece", True)] == 8
    assert kinds[("Chat", True)] == 6
    leaves = [leaf.command for leaf in iter_leaves(tree)]
    assert AddPlayer("alex123321", "hurufu", "<observer>") in leaves
    assert Notes(False, "") in leaves and Notes(True, "") in leaves


# ------------------------------------------------------------------ each command kind

EXAMPLES: list[tuple[str, Command]] = [
    ("", NullCommand()),
    ("begin_save", BeginSave()),
    ("end_save", EndSave()),
    (
        "+/17/piece;;;inf.png;1\\/7 Inf/Main Map;1;2;3;0",
        AddPiece("17", "piece;;;inf.png;1/7 Inf", "Main Map;1;2;3;0"),
    ),
    ("+/null/piece;;;;/null;0;0;5;0", AddPiece(None, "piece;;;;", "null;0;0;5;0")),
    ("-/1700000000001", RemovePiece("1700000000001")),
    ("D/5/new/old", ChangePiece("5", "new", "old")),
    ("D/5/new", ChangePiece("5", "new")),
    (
        "M/5/Main Map/100/-20/null/null/0/0/4/pw",
        MovePiece("5", "Main Map", 100, -20, None, None, 0, 0, "4", "pw"),
    ),
    (
        "M/5/Main Map/1/2/null/Main Map/3/4/null",
        MovePiece("5", "Main Map", 1, 2, None, "Main Map", 3, 4, None),
    ),
    ("CHAT<rk> - hello", Chat("<rk> - hello")),
    ("LOG\tCHATx", LogEntry(Chat("x"))),
    ("LOG\t", LogEntry(NullCommand())),
    ("UNDO\ttrue", Undo(True)),
    ("UNDO\tfalse", Undo(False)),
    ("Main MapBoardPicker\t5x5\t0\t0", SetBoards("Main Map", (BoardPlacement("5x5"),))),
    (
        "WestBoardPicker\tA/rev\t0\t0\tB\\/2\t1\t0",
        SetBoards("West", (BoardPlacement("A", True), BoardPlacement("B/2", False, 1, 0))),
    ),
    ("PLAYER\tsecret\tAlice\tNATO", AddPlayer("secret", "Alice", "NATO")),
    ("PYREMOVE\tsecret", RemovePlayer("secret")),
    ("SETUP_STACK\t", SetupStack()),
    ("TURNTurnTracker0\t1|2|Movement", SetTurn("TurnTracker0", "1|2|Movement")),
    ("GlobalProperty\t;Turn;1;Module", SetGlobalProperty("Turn", "1", "Module")),
    ("GlobalProperty\t;VP;a\\;b;", SetGlobalProperty("VP", "a;b", "")),
    ("MutableProperty\tTurn\t1\t2\tModule", ChangeMutableProperty("Turn", "1", "2", "Module")),
    ("SGKC\tSGKC0\ttrue", StartupGlobalKeyCommand("SGKC0", True)),
    ("NOTES\tRead the rules", Notes(False, "Read the rules")),
    ("PNOTES\tline one", Notes(True, "line one")),
    ("CHECK\tversion<1.3\tALERT", VersionCheck("version<1.3\tALERT")),
    ("AUDIO\tbang.wav", Unknown("AUDIO\tbang.wav")),
]


@pytest.mark.parametrize(("text", "command"), EXAMPLES, ids=[t[:20] for t, _ in EXAMPLES])
def test_each_leaf_kind_parses_and_encodes(text: str, command: Command) -> None:
    assert parse_command(text) == command
    assert encode_canonical(command) == text
    assert encode_command(parse_command(text)) == text


def test_turn_levels() -> None:
    assert SetTurn("T", "1|2|Movement").levels == ["1", "2", "Movement"]


@pytest.mark.parametrize(
    "text",
    [
        "M/5/Main Map/x/2/null/null/0/0/null",  # not an int: Java throws, we keep it
        "M/5/Main Map/1",  # too few fields
        "+/5/piece;;;;",  # no state
        "PLAYER\tonly-id",
        "somethingBoardPicker",  # no TAB: VASSAL does not decode it either
        "custom command from an extension",
    ],
)
def test_malformed_or_foreign_leaves_are_kept_verbatim(text: str) -> None:
    command = parse_command(text)
    assert command == Unknown(text)
    assert encode_canonical(command) == text


def test_non_canonical_text_round_trips_exactly() -> None:
    # Redundant quotes are legal for VASSAL's decoder; we must still give the bytes back.
    text = "'begin_save'" + ESC + "'CHATquoted'"
    tree = parse_command(text)
    assert tree == Compound((BeginSave(), Chat("quoted")))
    assert encode_command(tree) == text
    assert encode_canonical(tree) == "begin_save" + ESC + "CHATquoted"


def test_changed_nodes_are_encoded_from_their_fields() -> None:
    tree = parse_command("M/5/Main Map/1/2/null/null/0/0/null/pw")
    assert isinstance(tree, MovePiece)
    moved = dataclasses.replace(tree, new_x=300)
    assert encode_command(moved) == "M/5/Main Map/300/2/null/null/0/0/null/pw"


def test_escaped_nesting_is_undone_one_level_at_a_time() -> None:
    inner = encode_sequence(["+/1/stack/null;0;0", "CHAT a\\b"], ESC)
    text = encode_sequence(["begin_save", inner, "end_save"], ESC)
    assert text is not None and "\\" + ESC in text
    tree = parse_command(text)
    assert [leaf.command for leaf in iter_leaves(tree)] == [
        BeginSave(),
        AddPiece("1", "stack", "null;0;0"),
        Chat(" a\\b"),
        EndSave(),
    ]
    assert encode_canonical(tree) == text


def test_log_entries_mark_their_leaves_as_logged() -> None:
    # A logged command with a sub-command: LOG<TAB>head with LOG<TAB>sub one level deeper
    # (§6.6). A leaf never contains ESC, so a LOG payload is always a leaf.
    step = encode_sequence(["LOG\tCHATa", "LOG\t-/9"], ESC)
    text = encode_sequence(["begin_save", "end_save", step, "CHATlive"], ESC)
    assert text is not None
    tree = parse_command(text)
    visits = list(iter_leaves(tree))
    assert [(type(v.command).__name__, v.logged) for v in visits] == [
        ("BeginSave", False),
        ("EndSave", False),
        ("Chat", True),
        ("RemovePiece", True),
        ("Chat", False),
    ]
    assert isinstance(tree, Compound)
    assert tree.children[2] == Compound((LogEntry(Chat("a")), LogEntry(RemovePiece("9"))))
    assert encode_canonical(tree) == text


def test_writer_style_flat_stream() -> None:
    stream = compound(
        BeginSave(),
        AddPiece("1", "piece;;;a.png;A", "Main Map;10;20;7;0"),
        AddPiece("2", "stack", "Main Map;10;20;1;@@-1"),
        SetBoards("Main Map", (BoardPlacement("Board"),)),
        SetupStack(),
        EndSave(),
    )
    text = encode_command(stream)
    assert decode_sequence(text, ESC) == [
        "begin_save",
        "+/1/piece;;;a.png;A/Main Map;10;20;7;0",
        "+/2/stack/Main Map;10;20;1;@@-1",
        "Main MapBoardPicker\tBoard\t0\t0",
        "SETUP_STACK\t",
        "end_save",
    ]
    assert parse_command(text) == stream


def test_empty_compound_is_rejected() -> None:
    with pytest.raises(ValueError):
        Compound(())


def test_excessive_nesting_is_refused() -> None:
    text = "CHATdeep"
    for _ in range(MAX_NESTING + 2):
        text = encode_sequence([text, "CHATx"], ESC) or ""
    with pytest.raises(VassalFormatError, match="nested more than"):
        parse_command(text, source="evil.vsav")


def test_nesting_at_the_limit_is_fine() -> None:
    text = "CHATdeep"
    for _ in range(MAX_NESTING - 1):
        text = encode_sequence([text, "CHATx"], ESC) or ""
    assert encode_canonical(parse_command(text)) == text
