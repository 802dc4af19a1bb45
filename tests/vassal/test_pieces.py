"""Piece decorator chains (vassal-format.md §5): decode into traits, encode back exactly."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from referee.vassal.codec.commands import (
    AddPiece,
    ChangePiece,
    encode_canonical,
    iter_leaves,
    parse_command,
)
from referee.vassal.codec.obfuscation import deobfuscate
from referee.vassal.codec.pieces import (
    BasicPiece,
    Deck,
    Embellishment,
    Labeler,
    LayerState,
    Marker,
    Piece,
    Stack,
    UnknownTrait,
    UsePrototype,
    decode_piece,
    layer_states,
    marker_properties,
    type_prefix,
)
from referee.vassal.codec.xmlsafe import parse_xml_bytes

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "vassal"
BUILDFILES = {
    "vive-lempereur/buildFile.xml": 129 + 29,
    "zxvt-capture-the-territory/buildFile": 7 + 4,
    "vassal-tour/buildFile": 10 + 11 + 2,
}
SAVES = [
    "inferno/Scen1-DolentiNote1259.vsav",
    "zxvt-capture-the-territory/5x5_startup.vlog",
    "vassal-tour/tour.log",
]
SLOT_TAGS = ("PieceSlot", "CardSlot", "PrototypeDefinition")

# §5.10 worked example, with <TAB> written out.
EMB_TYPE = (
    "emb2;;128;A;Flip;128;;;128;;;;1;false;0;0;inf_f.png,inf_b.png;, (reduced);true;Step;;;"
    "false;;1;1;true;;70,130;;;1.0;;true"
)
WORKED_EXAMPLE = (
    "+/1700000000001/prototype;Infantry\t"
    + EMB_TYPE
    + "\\\tmark;Side\\\\\tpiece;;;inf_f.png;1\\/7 Inf/\t1\\\tUS\\\\\tMain Map;512;384;17;0"
)


def _require(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"shared fixtures not available ({path})")
    return path


def _slot_texts(relative: str) -> list[str]:
    path = _require(FIXTURES / relative)
    root = parse_xml_bytes(path.read_bytes(), str(path))
    return [
        (element.text or "").strip()  # Builder.getText trims (§3.1)
        for element in root.iter()
        if isinstance(element.tag, str) and element.tag.rsplit(".", 1)[-1] in SLOT_TAGS
    ]


@pytest.fixture(scope="module")
def save_commands() -> list[tuple[str, AddPiece | ChangePiece, Piece | None]]:
    """Every ``+/`` (with its decoded piece) and ``D/`` of the fixture saves, decoded once."""
    commands: list[tuple[str, AddPiece | ChangePiece, Piece | None]] = []
    for relative in SAVES:
        path = _require(FIXTURES / relative)
        with zipfile.ZipFile(path) as archive:
            text = deobfuscate(archive.read("savedGame")).decode("utf-8")
        for leaf in iter_leaves(parse_command(text)):
            command = leaf.command
            if isinstance(command, AddPiece):
                commands.append((relative, command, decode_piece(command.type, command.state)))
            elif isinstance(command, ChangePiece):
                commands.append((relative, command, None))
    return commands


# ------------------------------------------------------------------ real files


@pytest.mark.parametrize("relative", sorted(BUILDFILES))
def test_every_buildfile_slot_and_prototype_round_trips(relative: str) -> None:
    texts = _slot_texts(relative)
    assert len(texts) == BUILDFILES[relative]
    for text in texts:
        command = parse_command(text)
        assert isinstance(command, AddPiece), text[:60]
        assert command.id is None
        piece = decode_piece(command.type, command.state)
        assert isinstance(piece.basic, BasicPiece), text[:60]
        assert all(trait.state is not None for trait in piece.traits)  # as many levels
        rebuilt = AddPiece(command.id, piece.type, piece.state)
        assert encode_canonical(rebuilt) == text


def test_every_piece_in_the_fixture_saves_round_trips(
    save_commands: list[tuple[str, AddPiece | ChangePiece, Piece | None]],
) -> None:
    types: dict[str, str] = {}
    checked = 0
    for _, command, piece in save_commands:
        if isinstance(command, AddPiece):
            assert piece is not None
            assert (piece.type, piece.state) == (command.type, command.state)
            if command.id is not None:
                types[command.id] = command.type
            checked += 1
        elif command.id in types:  # D/ states decode with the piece's type
            for state in (command.new_state, command.old_state):
                if state is not None:
                    assert decode_piece(types[command.id], state).state == state
    assert checked == 634 + 8 + 32


def test_fixture_trait_kinds(
    save_commands: list[tuple[str, AddPiece | ChangePiece, Piece | None]],
) -> None:
    def pieces(prefix: str) -> list[Piece]:
        return [p for relative, _, p in save_commands if relative.startswith(prefix) and p]

    stacks = [p.basic for p in pieces("inferno") if isinstance(p.basic, Stack)]
    assert len(stacks) == 262
    assert {stack.layer for stack in stacks} == {-1, 1, 3}
    assert sum(1 for s in stacks if s.map_id is None) == 36
    tour = pieces("vassal-tour")
    assert any(isinstance(p.basic, Deck) for p in tour)
    old_stacks = [p.basic for p in tour if isinstance(p.basic, Stack)]
    assert old_stacks and all(s.layer is None for s in old_stacks)  # pre-3.4.8: no @@


def test_vive_lempereur_name_with_slash() -> None:
    names = []
    for text in _slot_texts("vive-lempereur/buildFile.xml"):
        command = parse_command(text)
        assert isinstance(command, AddPiece)
        basic = decode_piece(command.type, command.state).basic_piece
        assert basic is not None
        names.append(basic.name)
        if "De Salles" in basic.name:
            assert "\\/" in text
    assert "De Salles / I Corps" in names


# ------------------------------------------------------------------ worked example §5.10


def test_worked_example_decodes() -> None:
    command = parse_command(WORKED_EXAMPLE)
    assert isinstance(command, AddPiece)
    piece = decode_piece(command.type, command.state)
    prototype, layer, marker, basic = piece.traits
    assert isinstance(prototype, UsePrototype) and prototype.name == "Infantry"
    assert prototype.state == ""
    assert isinstance(layer, Embellishment)
    assert layer.layer_name == "Step"
    assert layer.image_names == ("inf_f.png", "inf_b.png")
    assert layer.level_names == ("", " (reduced)")
    assert layer.version == 1
    assert (layer.value, layer.level, layer.active) == (1, 1, True)
    assert isinstance(marker, Marker) and marker.properties == {"Side": "US"}
    assert isinstance(basic, BasicPiece)
    assert (basic.name, basic.image) == ("1/7 Inf", "inf_f.png")
    assert (basic.map_id, basic.position, basic.gpid) == ("Main Map", (512, 384), "17")
    assert basic.persistent_properties == {}
    assert marker_properties(piece) == {"Side": "US"}
    # always active with two levels: a track of values (full / reduced), listed by its value
    assert layer_states(piece) == [LayerState("Step", 1, True, "", "inf_f.png", track=True)]


def test_worked_example_is_rebuilt_from_parts() -> None:
    piece = Piece(
        (
            UsePrototype("prototype;Infantry", ""),
            Embellishment(EMB_TYPE, "1"),
            Marker.build({"Side": "US"}),
            BasicPiece.build("1/7 Inf", "inf_f.png", map_id="Main Map", x=512, y=384, gpid="17"),
        )
    )
    assert encode_canonical(AddPiece("1700000000001", piece.type, piece.state)) == WORKED_EXAMPLE


def test_nesting_adds_one_backslash_per_level() -> None:
    piece = Piece(
        (
            UnknownTrait("a;", "1"),
            UnknownTrait("b;", "2"),
            UnknownTrait("c;", "3"),
            BasicPiece.build("x"),
        )
    )
    assert piece.type == "a;\tb;\\\tc;\\\\\tpiece;;;;x"
    assert piece.state == "1\t2\\\t3\\\\\tnull;0;0;;0"


# ------------------------------------------------------------------ individual traits


def test_marker_helpers_for_the_module_writer() -> None:
    marker = Marker.build({"UnitId": "n-cv67", "Side": "NATO", "Nationality": "US", "Type": "CV"})
    assert marker.type == "mark;UnitId,Side,Nationality,Type"
    assert marker.state == "n-cv67,NATO,US,CV"
    changed = marker.with_values({"Side": "Soviet"})
    assert changed.properties["Side"] == "Soviet" and changed.type == marker.type
    with pytest.raises(KeyError):
        marker.with_values({"Nope": "x"})
    with pytest.raises(ValueError):
        Marker.build({})
    tricky = Marker.build({"Name": "a,b"})
    assert tricky.state == "a\\,b" and tricky.properties == {"Name": "a,b"}


def test_marker_values_are_padded_and_outermost_marker_wins() -> None:
    assert Marker("mark;A,B", "1").values == ("1", "")
    assert Marker("mark;A", None).values == ("",)
    piece = Piece(
        (
            Marker.build({"Side": "outer"}),
            Marker.build({"Side": "inner", "Type": "CV"}),
            BasicPiece.build("p"),
        )
    )
    assert marker_properties(piece) == {"Side": "outer", "Type": "CV"}


def test_basic_piece_old_and_new_states() -> None:
    old = BasicPiece("piece;;;img.gif;Tank", "Main Map;10;20")  # VASSAL 2.x
    assert (old.map_id, old.position, old.gpid, old.persistent_properties) == (
        "Main Map",
        (10, 20),
        "",
        {},
    )
    modern = BasicPiece("piece;;;;x", "null;0;0;697;2;OldZone;A\\;1;ClickedX;5")
    assert modern.map_id is None
    assert modern.persistent_properties == {"OldZone": "A;1", "ClickedX": "5"}
    moved = modern.with_position("Main Map", 107, 173)
    assert moved.state == "Main Map;107;173;697;2;OldZone;A\\;1;ClickedX;5"
    assert moved.type == modern.type


def test_piece_placed_replaces_only_the_basic_state() -> None:
    command = parse_command(WORKED_EXAMPLE.replace("Main Map;512;384", "null;0;0"))
    assert isinstance(command, AddPiece)
    piece = decode_piece(command.type, command.state).placed("Main Map", 512, 384)
    assert encode_canonical(AddPiece("1700000000001", piece.type, piece.state)) == WORKED_EXAMPLE
    with pytest.raises(ValueError):
        decode_piece("stack", "null;0;0").placed("Main Map", 1, 2)


def test_stack_decoding_and_building() -> None:
    stack = Stack("stack", "Main Map;512;384;1;2;@@-1")
    assert (stack.map_id, stack.position, stack.piece_ids, stack.layer) == (
        "Main Map",
        (512, 384),
        ("1", "2"),
        -1,
    )
    assert Stack.build("Main Map", 512, 384, ["1", "2"]) == stack
    off_map = decode_piece("stack", "null;0;0")
    assert isinstance(off_map.basic, Stack)
    assert (off_map.basic.map_id, off_map.basic.piece_ids, off_map.basic.layer) == (None, (), None)


def test_labeler_prototype_and_layers() -> None:
    label_type = (
        "label;76,130;Change label;16;;255,51,51;t;0;c;0;b;c;$pieceName$;Dialog;1;0;Nick;;false"
    )
    label = Labeler(label_type, "  Old Guard \n")
    assert label.label == "Old Guard" and label.property_name == "Nick"
    assert label.with_label("Young Guard").state == "Young Guard"
    assert Labeler("label;", "x").property_name == "TextLabel"
    prototype = UsePrototype("prototype;Unit;side=NATO,steps=2", "")
    assert prototype.name == "Unit"
    assert prototype.parameters == {"side": "NATO", "steps": "2"}
    layer = Embellishment(EMB_TYPE, "-2")
    assert (layer.level, layer.active) == (2, False)
    assert layer.with_value(2).state == "2"
    assert Embellishment(EMB_TYPE, "9").value == 2  # clamped to the number of images
    legacy = Embellishment("emb;A;...", "3;A")
    assert legacy.with_value(-3).state == "-3;A"


def test_unknown_traits_and_prefixes() -> None:
    assert type_prefix("mark;Side") == "mark;"
    assert type_prefix("stack") == "stack"
    piece = decode_piece("immob;;V\tcustom.Trait;x\\\tpiece;;;;n", "\t\\\tnull;0;0")
    immob, custom, basic = piece.traits
    assert isinstance(immob, UnknownTrait) and immob.prefix == "immob;"
    assert isinstance(custom, UnknownTrait) and custom.type == "custom.Trait;x"
    assert isinstance(basic, BasicPiece)
    assert (piece.type, piece.state) == ("immob;;V\tcustom.Trait;x\\\tpiece;;;;n", "\t\\\tnull;0;0")
    assert piece.find(UnknownTrait) == [immob, custom]


def test_state_with_fewer_levels_than_type_still_round_trips() -> None:
    piece = decode_piece("mark;A\tmark;B\\\tpiece;;;;n", "1")
    assert [trait.state for trait in piece.traits] == ["1", None, None]
    assert piece.state == "1"
    assert decode_piece("mark;A", "").state == ""


def test_piece_needs_traits() -> None:
    with pytest.raises(ValueError):
        Piece(())
