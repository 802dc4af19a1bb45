"""`.vsav`/`.vlog` containers (vassal-format.md §6): real files, writing, hostile input."""

from __future__ import annotations

import io
import os
import pickle
import struct
import warnings
import zipfile
from pathlib import Path

import pytest

from referee.safeio import UnsafeInput
from referee.vassal.codec.commands import (
    AddPiece,
    BeginSave,
    BoardPlacement,
    Chat,
    Compound,
    EndSave,
    SetBoards,
    SetupStack,
    compound,
    encode_command,
    iter_leaves,
)
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.inspect import describe_commands, describe_save
from referee.vassal.codec.obfuscation import deobfuscate, obfuscate, obfuscation_key
from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, Stack
from referee.vassal.codec.safezip import ZipLimits, build_zip, check_entry_name, read_zip_bytes
from referee.vassal.codec.savefile import (
    build_savedata,
    parse_metadata,
    read_save,
    read_save_bytes,
    save_to_bytes,
    write_save,
)
from referee.vassal.codec.xmlsafe import parse_xml_bytes

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
FIXTURES = SHARED / "fixtures" / "vassal"
INFERNO = "inferno/Scen1-DolentiNote1259.vsav"
ZXVT = "zxvt-capture-the-territory/5x5_startup.vlog"
TOUR = "vassal-tour/tour.log"
MIB = 1024 * 1024

SAVEDATA = build_savedata(
    module_version="1.0", vassal_version="3.7.0", date_saved=1700000000000, description="T1"
)
MODULEDATA = b"""<?xml version="1.0" encoding="UTF-8"?>
<data version="1">
  <version>1.0</version>
  <VassalVersion>3.7.0</VassalVersion>
  <dateSaved>1700000000000</dateSaved>
  <description/>
  <name>Sixth Fleet</name>
</data>
"""

DOCTYPE_XML = b'<?xml version="1.0"?>\n<!DOCTYPE data>\n<data version="1"/>'
XXE_XML = (
    b'<?xml version="1.0"?>\n<!DOCTYPE data [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
    b"<data><name>&xxe;</name></data>"
)


def _billion_laughs() -> bytes:
    entities = ['<!ENTITY lol0 "lol">']
    entities += [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10)]
    body = "\n".join(entities)
    return f'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n{body}\n]>\n<data>&lol9;</data>'.encode()


BILLION_LAUGHS = _billion_laughs()


def fixture(relative: str) -> Path:
    path = FIXTURES / relative
    if not path.is_file():
        pytest.skip(f"shared fixtures not available ({path})")
    return path


def synthetic_game() -> Compound:
    unit = Piece(
        (
            Marker.build({"UnitId": "n-cv67", "Side": "NATO", "Type": "CV"}),
            BasicPiece.build("CV-67", "cv67.png", map_id="Main Map", x=107, y=173, gpid="17"),
        )
    )
    return compound(
        BeginSave(),
        AddPiece("1700000000001", unit.type, unit.state),
        AddPiece(
            "1700000000002", "stack", Stack.build("Main Map", 107, 173, ["1700000000001"]).state
        ),
        SetBoards("Main Map", (BoardPlacement("Mediterranean"),)),
        SetupStack(),
        EndSave(),
    )


def zip_of(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for name, data in entries.items():
                archive.writestr(name, data)
    return buffer.getvalue()


def assert_refused(data: bytes, match: str, **kwargs: object) -> VassalFormatError:
    with pytest.raises(VassalFormatError, match=match) as info:
        read_save_bytes(data, "hostile.vsav", **kwargs)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message and message.startswith("hostile.vsav: ")
    return info.value


# ------------------------------------------------------------------ obfuscation §6.2


def test_obfuscation_reference_example() -> None:
    plain = b"begin_save\x1bend_save"
    expected = b"!VCSK2a484f4d434475594b5c4f314f444e75594b5c4f"
    assert obfuscate(plain, 0x2A) == expected
    assert deobfuscate(expected) == plain
    assert deobfuscate(expected.upper()) == plain  # upper-case hex, as in 2007 files
    assert deobfuscate(plain) == plain  # plain text passes through, as in VASSAL
    assert obfuscation_key(expected) == 0x2A and obfuscation_key(plain) is None


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"!VCSK2a484f4", "half a byte"),
        (b"!VCSK2a48zz", "non-hex byte"),
        (b"!VCSK2a48 4f", "non-hex byte"),
        (b"!VCSKzz", "no valid key"),
        (b"!VCSK", "no valid key"),
    ],
)
def test_broken_obfuscation_is_refused(data: bytes, match: str) -> None:
    with pytest.raises(VassalFormatError, match=match):
        deobfuscate(data)
    assert_refused(zip_of({"savedGame": data}), match)


def test_obfuscate_rejects_bad_key() -> None:
    with pytest.raises(ValueError):
        obfuscate(b"x", 256)


# ------------------------------------------------------------------ real files


@pytest.mark.parametrize(
    ("relative", "key", "has_savedata"),
    [(INFERNO, 0x98, False), (ZXVT, 0xB1, True), (TOUR, None, False)],
)
def test_real_files_read_and_rewrite_identically(
    relative: str, key: int | None, has_savedata: bool
) -> None:
    path = fixture(relative)
    game = read_save(path)
    assert game.key == key
    assert (game.savedata is not None) == has_savedata
    with zipfile.ZipFile(path) as archive:
        original = archive.read("savedGame")
    assert game.stream.encode("utf-8") == deobfuscate(original)
    # Same key, same lower-case hex: the savedGame entry comes back byte for byte.
    with zipfile.ZipFile(io.BytesIO(game.to_bytes())) as archive:
        assert archive.read("savedGame") == original


def test_real_metadata() -> None:
    game = read_save(fixture(ZXVT))
    save = game.save_metadata
    module = game.module_metadata
    assert save is not None and module is not None
    assert save.description == "5x5 2 Player Startup"
    assert (save.vassal_version, save.date_saved) == ("3.2.17", 1571600976722)
    assert module.name == "Capture of the territory"  # the lang="…" translation is skipped
    assert module.version == "0.2.0"
    inferno_module = parse_metadata(fixture("inferno/moduledata").read_bytes(), "moduledata")
    assert (inferno_module.name, inferno_module.vassal_version) == ("Inferno", "3.6.9")


def test_describe_real_saves() -> None:
    inferno = describe_save(fixture(INFERNO))
    assert len(inferno) == 634 - 262 - 36  # pieces: not the stacks, not the decks
    marker = next(info for info in inferno if info.name == "Guelph Victory Marker")
    assert (marker.map, marker.x, marker.y, marker.gpid) == ("Main Map", 2907, 263, "694")
    assert marker.properties["Side"] == "Guelph"
    assert marker.stack_id is not None
    assert marker.layers and marker.layers[0].image == "Victory-Guelph.png"
    zxvt_start = describe_save(fixture(ZXVT))
    zxvt_end = describe_save(fixture(ZXVT), replay_log=True)
    assert zxvt_start == []  # everything in this log was placed after logging began
    assert len(zxvt_end) == 6
    captured = next(info for info in zxvt_end if info.name == "Captured by Red")
    assert (captured.map, captured.x, captured.y, captured.gpid) == ("Main Map", 36, 236, "15")
    assert sum(1 for info in zxvt_end if info.stack_id) == 2


def test_describe_replays_moves_and_removals_of_the_tour() -> None:
    start = {info.id: info for info in describe_save(fixture(TOUR))}
    end = {info.id: info for info in describe_save(fixture(TOUR), replay_log=True)}
    assert len(start) == 11 and all(info.map is None for info in start.values())  # in decks
    assert len(end) == 18
    assert "1116883538765" not in end  # created, moved with its stack, then deleted
    goblin = end["1116885485425"]  # added at (593,160), then dragged around
    assert (goblin.name, goblin.map, goblin.x, goblin.y) == ("Goblin", "Main Map", 161, 157)


# ------------------------------------------------------------------ writing


def test_synthetic_save_round_trips(tmp_path: Path) -> None:
    commands = synthetic_game()
    target = tmp_path / "turn1.vsav"
    write_save(target, commands, savedata=SAVEDATA, moduledata=MODULEDATA)
    game = read_save(target)
    assert game.commands == commands
    assert game.key == 0x2A
    assert game.savedata == SAVEDATA and game.moduledata == MODULEDATA
    assert game.save_metadata is not None and game.save_metadata.description == "T1"
    [info] = describe_save(target)
    assert info.properties == {"UnitId": "n-cv67", "Side": "NATO", "Type": "CV"}
    assert (info.map, info.x, info.y, info.stack_id) == ("Main Map", 107, 173, "1700000000002")
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)


def test_writing_is_deterministic(tmp_path: Path) -> None:
    commands = synthetic_game()
    first, second = tmp_path / "a.vsav", tmp_path / "b.vsav"
    write_save(first, commands, savedata=SAVEDATA, moduledata=MODULEDATA)
    write_save(second, encode_command(commands), savedata=SAVEDATA, moduledata=MODULEDATA)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        infos = archive.infolist()
    assert [info.filename for info in infos] == ["moduledata", "savedGame", "savedata"]
    assert {info.date_time for info in infos} == {(1980, 1, 1, 0, 0, 0)}


def test_plain_text_writing(tmp_path: Path) -> None:
    target = tmp_path / "plain.vlog"
    write_save(target, compound(BeginSave(), Chat("hi"), EndSave()), key=None)
    with zipfile.ZipFile(target) as archive:
        assert archive.read("savedGame") == b"begin_save\x1bCHAThi\x1bend_save"
    assert read_save(target).key is None


def test_invalid_utf8_survives_a_round_trip() -> None:
    raw = b"begin_save\x1bCHAT\xff\xfe\x1bend_save"
    game = read_save_bytes(zip_of({"savedGame": raw}))
    with zipfile.ZipFile(io.BytesIO(save_to_bytes(game.commands, key=None))) as archive:
        assert archive.read("savedGame") == raw


def test_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "out.vsav"
    with pytest.raises(VassalFormatError, match="DOCTYPE"):
        write_save(target, synthetic_game(), savedata=DOCTYPE_XML)
    assert list(tmp_path.iterdir()) == []


def test_failed_replace_keeps_old_file_and_removes_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.vsav"
    target.write_bytes(b"old")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(VassalFormatError, match="cannot write file: No space left"):
        write_save(target, synthetic_game())
    assert [p.name for p in tmp_path.iterdir()] == ["out.vsav"]
    assert target.read_bytes() == b"old"


def test_unwritable_directory_is_a_clean_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    with pytest.raises(VassalFormatError, match="cannot write file"):
        write_save(blocker / "x.vsav", synthetic_game())


# ------------------------------------------------------------------ hostile input


def test_not_a_zip() -> None:
    assert_refused(b"begin_save\x1bend_save", "not a readable zip")
    assert_refused(b"", "not a readable zip")


def test_truncated_zip() -> None:
    data = fixture(ZXVT).read_bytes()
    assert_refused(data[: len(data) // 2], "not a readable zip")
    assert_refused(data[:-10], "not a readable zip")


def test_corrupt_entry_data() -> None:
    data = bytearray(zip_of({"savedGame": b"begin_save\x1bend_save" * 50}))
    data[40] ^= 0xFF  # inside the deflated data of the first entry
    assert_refused(bytes(data), "corrupt")


def test_missing_file_and_missing_saved_game(tmp_path: Path) -> None:
    with pytest.raises(VassalFormatError, match="cannot read file"):
        read_save(tmp_path / "nope.vsav")
    assert_refused(zip_of({"buildFile.xml": b"<x/>"}), "no savedGame entry")


def test_zip_bomb_by_ratio() -> None:
    bomb = zip_of({"savedGame": bytes(16 * MIB)})  # 16 MiB of zeros in ~16 KB
    assert len(bomb) < 100_000
    assert_refused(bomb, "inflates .* times")


def test_zip_bomb_by_size_and_total() -> None:
    entries = {"savedGame": os.urandom(1024), "savedata": bytes(3 * MIB)}
    assert_refused(
        zip_of(entries), "over the 2097152 byte limit", limits=ZipLimits(max_entry_bytes=2 * MIB)
    )
    entries = {"savedGame": bytes(MIB), "savedata": bytes(MIB), "moduledata": bytes(MIB)}
    assert_refused(zip_of(entries), "in total", limits=ZipLimits(max_total_bytes=2 * MIB))


def test_entry_lying_about_its_size_is_caught() -> None:
    data = bytearray(zip_of({"savedGame": bytes(2 * MIB)}))
    # Patch the declared uncompressed size (local header and central directory) to 100.
    struct.pack_into("<I", data, 22, 100)
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 100)
    assert_refused(bytes(data), "corrupt|shorter")


def test_too_many_entries() -> None:
    entries = {f"e{i}": b"" for i in range(20)}
    assert_refused(zip_of(entries), "more than 10 entries", limits=ZipLimits(max_entries=10))


@pytest.mark.parametrize(
    "name", ["../evil", "a/../../evil", "/etc/passwd", "C:evil.txt", "dir\\evil", ".."]
)
def test_path_traversal_names_are_refused(name: str) -> None:
    data = zip_of({"savedGame": b"begin_save", name: b"x"})
    assert_refused(data, "entry name|climbs")


def test_nul_in_entry_name_is_refused() -> None:
    data = zip_of({"savedGame": b"begin_save", "evilXname": b"x"}).replace(
        b"evilXname", b"evil\0name"
    )
    assert_refused(data, "NUL")


def test_duplicate_encrypted_and_unsupported_entries() -> None:
    dup = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(dup, "w") as archive:
            archive.writestr("savedGame", b"begin_save")
            archive.writestr("savedGame", b"end_save")
    assert_refused(dup.getvalue(), "appears twice")
    encrypted = bytearray(zip_of({"savedGame": b"begin_save"}))
    encrypted[6] |= 0x1  # general purpose flag, local header
    encrypted[encrypted.rfind(b"PK\x01\x02") + 8] |= 0x1  # and central directory
    assert_refused(bytes(encrypted), "encrypted")
    assert_refused(zip_of({"savedGame": b"begin_save"}, zipfile.ZIP_BZIP2), "compression method")


def test_check_entry_name_accepts_normal_names() -> None:
    for name in ("savedGame", "images/unit 1.png", "sounds/a..b.wav"):
        assert check_entry_name(name) is None
    with pytest.raises(ValueError):
        build_zip({"../x": b""})


@pytest.mark.parametrize(
    ("xml", "match"),
    [
        (DOCTYPE_XML, "DOCTYPE"),
        (XXE_XML, "DOCTYPE"),
        (BILLION_LAUGHS, "DOCTYPE"),
        (DOCTYPE_XML.decode().encode("utf-16"), "DOCTYPE"),
        (b"<data><name>&xxe;</name></data>", "not well-formed"),
        (b"<data><name>unclosed</data>", "not well-formed"),
        (b"<other/>", "not <data>"),
    ],
)
def test_hostile_xml_entries_are_refused(xml: bytes, match: str) -> None:
    error = assert_refused(zip_of({"savedGame": b"begin_save", "savedata": xml}), match)
    assert "savedata" in error.message


def test_xml_helper_directly() -> None:
    root = parse_xml_bytes(b"<?xml version='1.0'?><a x='1'>&amp;&#65;</a>", "doc.xml")
    assert root.tag == "a" and root.text == "&A"
    for hostile in (DOCTYPE_XML, XXE_XML, BILLION_LAUGHS):
        with pytest.raises(VassalFormatError) as info:
            parse_xml_bytes(hostile, "doc.xml")
        assert str(info.value).startswith("doc.xml: ")
    # UTF-16 without a BOM slips past the byte scan; the parsed docinfo still catches it.
    utf16 = '<?xml version="1.0" encoding="UTF-16LE"?><!DOCTYPE a><a/>'.encode("utf-16-le")
    with pytest.raises(VassalFormatError, match="DOCTYPE"):
        parse_xml_bytes(utf16, "doc.xml")


def test_error_is_one_line_and_caught_by_the_cli_handler() -> None:
    error = VassalFormatError("x.vsav", "bad\nthing\x1b[31m", "try\tagain")
    assert str(error) == "x.vsav: bad thing [31m (hint: try again)"
    assert isinstance(error, UnsafeInput)
    clone = pickle.loads(pickle.dumps(error))
    assert (clone.path, clone.message, clone.hint) == ("x.vsav", error.message, "try\tagain")


def test_read_zip_bytes_returns_only_wanted_entries() -> None:
    data = zip_of({"savedGame": b"a", "other": b"b"})
    assert read_zip_bytes(data, "x.zip", {"savedGame", "missing"}) == {"savedGame": b"a"}
    assert read_zip_bytes(data, "x.zip") == {"savedGame": b"a", "other": b"b"}


def test_describe_commands_handles_moves_into_stacks() -> None:
    unit = Piece((BasicPiece.build("A", map_id="M", x=1, y=1),))
    commands = compound(
        BeginSave(),
        AddPiece("1", unit.type, unit.state),
        AddPiece("2", unit.type, unit.state),
        AddPiece("s", "stack", Stack.build("M", 1, 1, ["1", "2"]).state),
        EndSave(),
    )
    assert [info.stack_id for info in describe_commands(commands)] == ["s", "s"]
    assert [leaf.logged for leaf in iter_leaves(commands)] == [False] * 5
