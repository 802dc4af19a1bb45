"""Grid reading and the readable log: formulas, refusals and the CLI (issue 19)."""

from __future__ import annotations

import io
import json
import random
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from referee.cli import app
from referee.vassal.codec.obfuscation import HEADER
from referee.vassal.foreign.grids_read import (
    HexGridSpec,
    Numbering,
    RegionGridSpec,
    _name,
    _point_hash,
    expand_format,
    polygon_contains,
    read_grid,
)
from referee.vassal.module.grid import NUMBERING, vassal_label
from tests.clirun import Runner
from tests.vassal import vcheck_locations as probes

RUN = Runner()


def _code(r) -> int:
    """The exit code ``referee`` gives: a UserError's or refusal's code, else Click's."""
    exc = r.exception
    if exc is not None and hasattr(exc, "exit_code") and not isinstance(exc, SystemExit):
        return int(exc.exit_code)
    if exc is not None and not isinstance(exc, SystemExit):
        from referee.safeio import UnsafeInput

        assert isinstance(exc, UnsafeInput), repr(exc)
        return 2
    return r.exit_code


PKG = "VASSAL.build.module.map.boardPicker.board."


def test_hex_names_agree_with_the_transcription_used_for_our_own_grids() -> None:
    """Two independent transcriptions of HexGridNumbering (grid.py for the module writer,
    grids_read.py for any module) agree on every setting: sideways, descending, stagger,
    offsets, alphabetic and zero-padded names, separators."""
    rnd = random.Random(19)
    for _ in range(300):
        grid = {
            "dx": repr(rnd.uniform(20, 120)),
            "dy": repr(rnd.uniform(20, 120)),
            "x0": str(rnd.randint(-40, 40)),
            "y0": str(rnd.randint(-40, 40)),
            "sideways": rnd.choice(["true", "false"]),
        }
        numbering = {
            "first": rnd.choice("HV"),
            "sep": rnd.choice(["", "-", "."]),
            "hType": rnd.choice("NA"),
            "vType": rnd.choice("NA"),
            "hLeading": str(rnd.randint(0, 2)),
            "vLeading": str(rnd.randint(0, 2)),
            "hOff": str(rnd.randint(-3, 3)),
            "vOff": str(rnd.randint(-3, 3)),
            "hDescend": rnd.choice(["true", "false"]),
            "vDescend": rnd.choice(["true", "false"]),
            "stagger": rnd.choice(["true", "false"]),
        }
        xml = etree.Element(PKG + "HexGrid", grid)
        etree.SubElement(xml, PKG + "mapgrid.HexGridNumbering", numbering)
        spec = read_grid(xml, "test")
        w, h = rnd.randint(300, 1500), rnd.randint(300, 1500)
        for _ in range(20):
            x, y = rnd.randint(0, w), rnd.randint(0, h)
            want = vassal_label({"HexGrid": grid, NUMBERING: numbering}, w, h, x, y)
            assert spec.location_name(x, y, (w, h), {}) == want


def test_oblique_numbering_slants_rows_by_half_the_column() -> None:
    """ObliqueHexGridNumbering.slantRow: stagger ? column/2 + row : row - column/2 + 1,
    with Java's truncating division."""
    plain = HexGridSpec(60.0, 70.0, 0, 0, False, Numbering(h_off=0, v_off=0, stagger=False))
    oblique = HexGridSpec(
        60.0, 70.0, 0, 0, False, Numbering(h_off=0, v_off=0, stagger=False, oblique=True)
    )
    # raw column 5 (x = 300), raw row 2 (an odd column: y = 2 * 70 + 35)
    assert plain.location_name(300, 175, (1000, 1000), {}) == "0502"
    assert oblique.location_name(300, 175, (1000, 1000), {}) == "0501"  # 2 - 5/2 + 1
    staggered = HexGridSpec(
        60.0, 70.0, 0, 0, False, Numbering(h_off=0, v_off=0, stagger=True, oblique=True)
    )
    assert staggered.location_name(300, 175, (1000, 1000), {}) == "0505"  # 5/2 + (2 + 1)


def test_names_follow_regular_grid_numbering() -> None:
    assert _name(0, "A", 1) == "A"
    assert _name(26, "A", 1) == "AA"
    assert _name(27, "A", 1) == "BB"
    assert _name(-2, "A", 0) == "-C"
    assert _name(5, "N", 1) == "05"
    assert _name(5, "N", 2) == "005"
    assert _name(-5, "N", 1) == "-05"
    assert _name(123, "N", 1) == "123"


def test_location_formats_expand_like_vassal() -> None:
    props = {"name": "Box", "gridLocation": "0101"}
    assert expand_format("$name$ ($gridLocation$)", props, localized=False) == "Box (0101)"
    # an unknown property: a zone (getText) prints its name, a numbering (localized) nothing
    assert expand_format("$name$-$other$", props, localized=False) == "Box-other"
    assert expand_format("$name$-$other$", props, localized=True) == "Box-"
    assert expand_format("dungeon", props, localized=True) == "dungeon"
    assert expand_format("  ", props, localized=True) == ""
    assert expand_format("007", props, localized=True) == "7"  # an IntExpression


def test_polygon_contains_is_java_awt_polygon() -> None:
    square = ((0, 0), (10, 0), (10, 10), (0, 10))
    assert polygon_contains(square, 0, 0)  # top-left corner is inside
    assert polygon_contains(square, 9, 9)
    assert not polygon_contains(square, 10, 5)  # right edge is outside
    assert not polygon_contains(square, 5, 10)  # bottom edge is outside
    assert not polygon_contains(((0, 0), (5, 5)), 1, 1)  # two points make no area
    triangle = ((0, 0), (10, 0), (0, 10))
    assert polygon_contains(triangle, 2, 2) and not polygon_contains(triangle, 8, 8)


def test_region_ties_follow_java_hashmap_order() -> None:
    assert _point_hash(0, 0) == 0
    assert _point_hash(1, 0) == 1072693248  # new Point(1, 0).hashCode() in Java
    grid = RegionGridSpec.build([("West", 0, 0), ("East", 10, 0), ("West again", 0, 0)])
    assert grid.location_name(1, 0, (0, 0), {}) == "West again"  # HashMap.put replaces
    tie = grid.location_name(5, 0, (0, 0), {})
    first = grid.origins[0]
    assert tie == grid.names[first]


def _vmod(tmp: Path, buildfile: bytes, name: str = "buildFile.xml") -> Path:
    path = tmp / "m.vmod"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(name, buildfile)
    return path


def _zxvt(tmp: Path) -> tuple[Path, Path]:
    if not (probes.FIXTURES / "zxvt-capture-the-territory").is_dir():
        pytest.skip("shared VASSAL fixtures not available")
    return (
        probes.save_module("zxvt-capture-the-territory", tmp),
        probes.FIXTURES / "zxvt-capture-the-territory" / "5x5_startup.vlog",
    )


def test_log_prints_moves_chat_and_positions(tmp_path: Path) -> None:
    vmod, vlog = _zxvt(tmp_path)
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(vmod)])
    assert r.exit_code == 0, r.output
    assert "   1. Captured by Red created in B05" in r.stdout
    assert "chat: * Gray created in F01" in r.stdout
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(vmod), "--json"])
    data = json.loads(r.stdout)
    creates = [e for e in data["events"] if e["kind"] == "create"]
    assert [e["to"]["location"] for e in creates] == ["B05", "F01", "B05", "F01", "B05", "F01"]
    # every create is followed by VASSAL's own auto-report naming the same square
    chats = [e["text"] for e in data["events"] if e["kind"] == "chat"]
    assert chats == [f"* {e['piece']} created in {e['to']['location']}" for e in creates]
    assert RUN.invoke(app, ["log", str(vlog), "--vmod", str(vmod), "-q"]).stdout.startswith("   1.")


def test_log_reads_upper_case_obfuscation(tmp_path: Path) -> None:
    vmod, vlog = _zxvt(tmp_path)
    entries = {}
    with zipfile.ZipFile(vlog) as z:
        for n in z.namelist():
            entries[n] = z.read(n)
    body = entries["savedGame"]
    assert body.startswith(HEADER)
    entries["savedGame"] = body.upper()
    upper = tmp_path / "upper.vlog"
    with zipfile.ZipFile(upper, "w") as z:
        for n, data in entries.items():
            z.writestr(n, data)
    a = RUN.invoke(app, ["log", str(vlog), "--vmod", str(vmod), "--json"])
    b = RUN.invoke(app, ["log", str(upper), "--vmod", str(vmod), "--json"])
    assert a.exit_code == b.exit_code == 0
    assert json.loads(a.stdout)["events"] == json.loads(b.stdout)["events"]


def test_a_log_of_another_module_is_refused(tmp_path: Path) -> None:
    _, vlog = _zxvt(tmp_path)
    other = _vmod(
        tmp_path,
        b'<VASSAL.build.GameModule name="Other Game" version="2"><VASSAL.build.module.Map '
        b'mapName="Main Map"/></VASSAL.build.GameModule>',
    )
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(other)])
    assert _code(r) == 2
    assert "written by module 'Capture of the territory'" in str(r.exception)
    same_name = _vmod(
        tmp_path,
        b'<VASSAL.build.GameModule name="Capture of the territory" version="0.3.0">'
        b'<VASSAL.build.module.Map mapName="Elsewhere"/></VASSAL.build.GameModule>',
    )
    r = RUN.invoke(app, ["show-vsav", str(vlog), "--vmod", str(same_name)])
    assert _code(r) == 2 and "'Main Map'" in str(r.exception)


def test_a_file_without_moduledata_whose_images_the_module_lacks_is_said(
    tmp_path: Path,
) -> None:
    """No ``moduledata`` (VASSAL before 3.0, some later saves) and only maps the module has
    too: the pieces' images tell, as a warning (a module may take its piece images from an
    extension). zxvt draws its pieces from Game Piece Image definitions, so its own module
    reads the file without the warning."""
    zxvt, vlog = _zxvt(tmp_path)
    with zipfile.ZipFile(vlog) as z:
        entries = {n: z.read(n) for n in z.namelist() if n != "moduledata"}
    bare = tmp_path / "bare.vlog"
    with zipfile.ZipFile(bare, "w") as z:
        for n, data in entries.items():
            z.writestr(n, data)
    r = RUN.invoke(app, ["log", str(bare), "--vmod", str(zxvt), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["warnings"] == []
    other = tmp_path / "other.vmod"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr(
            "buildFile.xml",
            b'<VASSAL.build.GameModule name="Other Game" version="2"><VASSAL.build.module.Map '
            b'mapName="Main Map"/></VASSAL.build.GameModule>',
        )
        z.writestr("images/counter.png", b"\x89PNG")
    for command in ("log", "show-vsav"):
        r = RUN.invoke(app, [command, str(bare), "--vmod", str(other), "--json"])
        assert r.exit_code == 0, r.output
        (warning,) = json.loads(r.stdout)["warnings"]
        assert warning.startswith("none of the 5 image(s) its pieces show ('Captured by Gray'")
        assert "was it made with another module?" in warning


def test_a_grid_kind_referee_cannot_read_is_named(tmp_path: Path) -> None:
    _, vlog = _zxvt(tmp_path)
    vmod = _vmod(
        tmp_path,
        b'<VASSAL.build.GameModule name="Capture of the territory" version="0.3.0">'
        b'<VASSAL.build.module.Map mapName="Main Map"><VASSAL.build.module.map.BoardPicker>'
        b'<VASSAL.build.module.map.boardPicker.Board name="5x5" width="275" height="275">'
        b"<terrain.TerrainHexGrid dx='50'/></VASSAL.build.module.map.boardPicker.Board>"
        b"</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
        b"</VASSAL.build.GameModule>",
    )
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(vmod)])
    assert _code(r) == 2
    assert "grid kind terrain.TerrainHexGrid is not supported" in str(r.exception)


def test_truncated_and_hostile_archives_are_refused(tmp_path: Path) -> None:
    vmod, vlog = _zxvt(tmp_path)
    cut = tmp_path / "cut.vlog"
    cut.write_bytes(vlog.read_bytes()[:300])
    r = RUN.invoke(app, ["log", str(cut), "--vmod", str(vmod)])
    assert _code(r) == 2 and "Traceback" not in r.output
    cut_vmod = tmp_path / "cut.vmod"
    cut_vmod.write_bytes(vmod.read_bytes()[:100])
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(cut_vmod)])
    assert _code(r) == 2
    evil = _vmod(
        tmp_path,
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
        b"<VASSAL.build.GameModule>&e;</VASSAL.build.GameModule>",
    )
    r = RUN.invoke(app, ["show-vsav", str(vlog), "--vmod", str(evil)])
    assert _code(r) == 2
    traversal = tmp_path / "trav.vmod"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../buildFile.xml", b"<VASSAL.build.GameModule/>")
    traversal.write_bytes(buf.getvalue())
    r = RUN.invoke(app, ["log", str(vlog), "--vmod", str(traversal)])
    assert _code(r) == 2


def test_maps_are_found_by_name_or_by_vassal_id_and_boards_lay_out_in_a_grid(
    tmp_path: Path,
) -> None:
    """``Map0``/``Map1`` are VASSAL's own ids for maps (``UniqueIdManager``); boards sit side
    by side (``Map.setBoardBoundaries``) after the edge padding; a reversed board is turned
    round (``Board.localCoordinates``)."""
    from referee.vassal.codec.commands import BoardPlacement, SetBoards
    from referee.vassal.foreign.locations import read_module_locations

    board = (
        '<VASSAL.build.module.map.boardPicker.Board name="{n}" width="200" height="100">'
        '<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="50" dy="50" x0="25" y0="25">'
        '<VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering hType="A" '
        'hOff="0" vOff="1" locationFormat="{n}-$gridLocation$"/>'
        "</VASSAL.build.module.map.boardPicker.board.SquareGrid>"
        "</VASSAL.build.module.map.boardPicker.Board>"
    )
    xml = (
        '<VASSAL.build.GameModule name="T" version="1">'
        '<VASSAL.build.module.Map mapName="Other"/>'
        '<VASSAL.build.module.Map mapName="Main" edgeWidth="10" edgeHeight="5">'
        "<VASSAL.build.module.map.BoardPicker>"
        + board.format(n="a")
        + board.format(n="b")
        + "</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>"
        "</VASSAL.build.GameModule>"
    )
    module = read_module_locations(_vmod(tmp_path, xml.encode()))
    layout = module.layout()
    layout.set_boards(
        SetBoards("Map1", (BoardPlacement("a", False, 0, 0), BoardPlacement("b", True, 1, 0)))
    )
    assert layout.name("Main", 10 + 30, 5 + 30) == "a-A01"
    assert layout.name("Map1", 10 + 30, 5 + 30) == "a-A01"
    # board b starts at x = 10 + 200; reversed, (30, 30) on it is (170, 70): column D, row 2
    assert layout.name("Main", 210 + 30, 5 + 30) == "b-D02"
    assert layout.name("Main", 5, 5) == "offboard"  # the edge padding
    assert layout.name("Main", 420, 50) == "offboard"  # beyond the last board
    assert layout.name("Nowhere", 30, 30) == "offboard"


def test_die_rolls_of_the_modules_dice_buttons_are_recognised(tmp_path: Path) -> None:
    """A chat line as ``DiceButton.formatResult`` writes it ("*" + the report format) is a
    roll of that button; other chat stays chat."""
    from referee.vassal.codec.commands import Chat, Compound, LogEntry
    from referee.vassal.codec.savefile import read_save, save_to_bytes

    _, vlog = _zxvt(tmp_path)
    build = (probes.FIXTURES / "zxvt-capture-the-territory" / "buildFile").read_bytes()
    build = build.replace(
        b"</VASSAL.launch.BasicModule>",
        b'<VASSAL.build.module.DiceButton name="2d6" nDice="2" nSides="6"/>'
        b'<VASSAL.build.module.DiceButton name="Fire" '
        b'reportFormat="** $name$: $result1$ and $result2$ ($playerName$)"/>'
        b"</VASSAL.launch.BasicModule>",
    )
    vmod = _vmod(tmp_path, build, "buildFile")
    save = read_save(vlog)
    lines = ("*** 2d6 = 3,5 *** &lt;alex&gt;", "*** Fire: 6 and 1 (bob)", "<alex> - good luck")
    logged = Compound((save.commands, *(LogEntry(Chat(t)) for t in lines)))
    out = tmp_path / "rolls.vlog"
    out.write_bytes(save_to_bytes(logged))
    r = RUN.invoke(app, ["log", str(out), "--vmod", str(vmod), "--json"])
    assert r.exit_code == 0, r.output
    tail = json.loads(r.stdout)["events"][-3:]
    assert [(e["kind"], e.get("changes")) for e in tail] == [
        ("roll", ["2d6: 3,5"]),
        ("roll", ["Fire: 6 and 1"]),
        ("chat", None),
    ]
    text = RUN.invoke(app, ["log", str(out), "--vmod", str(vmod)]).stdout
    assert "roll 2d6: 3,5" in text


def test_special_dice_rolls_are_recognised(tmp_path: Path) -> None:
    """zxvt's own Special Dice Buttons ("Wall": faces with texts) write their ``format``
    with each die's face text as ``$result1$`` (``SpecialDiceButton.setFormat``)."""
    from referee.vassal.codec.commands import Chat, Compound, LogEntry
    from referee.vassal.codec.savefile import read_save, save_to_bytes

    vmod, vlog = _zxvt(tmp_path)
    save = read_save(vlog)
    lines = ("*** Wall = [Capture] *** <alex>", "*** Walls = [Capture] *** <alex>")
    out = tmp_path / "special.vlog"
    out.write_bytes(save_to_bytes(Compound((save.commands, *(LogEntry(Chat(t)) for t in lines)))))
    r = RUN.invoke(app, ["log", str(out), "--vmod", str(vmod), "--json"])
    assert r.exit_code == 0, r.output
    tail = json.loads(r.stdout)["events"][-2:]
    assert [(e["kind"], e.get("changes")) for e in tail] == [
        ("roll", ["Wall: Capture"]),
        ("chat", None),
    ]


def test_show_vsav_start_is_where_the_log_begins(tmp_path: Path) -> None:
    vmod, vlog = _zxvt(tmp_path)
    start = RUN.invoke(app, ["show-vsav", str(vlog), "--vmod", str(vmod), "--start", "--json"])
    end = RUN.invoke(app, ["show-vsav", str(vlog), "--vmod", str(vmod), "--json"])
    assert start.exit_code == end.exit_code == 0
    assert json.loads(start.stdout)["pieces"] == []  # every piece is created in the log
    assert len(json.loads(end.stdout)["pieces"]) == 6
    both = RUN.invoke(app, ["show-vsav", str(vlog), "--vmod", str(vmod), "--example", "x"])
    assert _code(both) == 2


def test_dice_reports_match_in_linear_time_whatever_the_module_says() -> None:
    """A module is untrusted: its report formats are matched with str.find, never turned
    into a backtracking regular expression."""
    import time

    from referee.vassal.foreign.movelist import dice_patterns

    (report,) = dice_patterns([("d", "** $a$" + "x$a$" * 40 + " = $result$ $b$")])
    message = "*** " + "x" * 200_000
    t = time.perf_counter()
    assert report.roll(message) is None
    assert time.perf_counter() - t < 1.0
    (plain,) = dice_patterns([("2d6", "** $name$ = $result$ *** &lt;$playerName$&gt;")])
    assert plain.roll("*** 2d6 = 3,5 *** &lt;alex&gt;") == "3,5"
    assert plain.roll("* someone said ** 2d6 = 3") is None
    assert dice_patterns([("b", '{"** " + result}')]) == []  # BeanShell: not matched
