"""``import-vmod`` carries dice buttons, chart windows and turn trackers into ``tools.toml``
and ``build`` writes them back as VASSAL had them (issue 19 §3); what the format cannot
express is listed in the report. Also records why vive-lempereur's original could not be
loaded by vcheck with its set-ups (docs/vassal.md).

The fixture modules are zipped in a temporary folder (:mod:`tests.vassal.import_fixtures`);
no fixture has a turn tracker, so one is added to a copy of zxvt (``TRACKER``).
"""

from __future__ import annotations

import json
import shutil
import tomllib
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from referee.cli import app
from referee.vassal.foreign.vmod import read_vmod
from referee.vassal.foreign.vmod_tools import TOOL_TAGS
from tests.clirun import Runner
from tests.vassal.import_fixtures import FOLDERS, edited_vmod, fixture_vmod
from tests.vassal.vcheck_locations import FIXTURES

RUN = Runner()
pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")
HOTKEY = "VASSAL.build.module.turn.TurnGlobalHotkey"
CASES = (*FOLDERS, "zxvt+tracker")


def _run(*args: str) -> tuple[int, str]:
    r = RUN.invoke(app, list(args))
    exc = r.exception
    if exc is not None and hasattr(exc, "exit_code") and not isinstance(exc, SystemExit):
        return int(exc.exit_code), r.output + str(exc)
    return r.exit_code, r.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, Path]]:
    """Each case: (original .vmod, imported source, rebuilt .vmod)."""
    work = tmp_path_factory.mktemp("tools")
    result = {}
    for case in CASES:
        folder = "zxvt-capture-the-territory" if case == "zxvt+tracker" else case
        vmod = fixture_vmod(folder, work / case, setup=False)
        if case == "zxvt+tracker":
            vmod = edited_vmod(vmod, work / "zxvt-tracker.vmod", tracker=True)
        src = work / f"src-{case}"
        code, out = _run("import-vmod", str(vmod), "-o", str(src), "-q")
        assert code == 0, out
        code, out = _run("build", str(src), "-o", str(work / f"out-{case}"), "-q")
        assert code == 0, out
        result[case] = (vmod, src, Path(out.strip()))
    return result


def _canon(el: etree._Element) -> tuple:
    """An element as (tag, sorted attributes, text, children), global hotkeys left out (a
    roster entry's side and a global option's value are the element's text)."""
    kids = tuple(_canon(c) for c in el if isinstance(c.tag, str) and c.tag != HOTKEY)
    return (el.tag, tuple(sorted(el.attrib.items())), (el.text or "").strip(), kids)


PIECE_IMAGES = "VASSAL.build.module.gamepieceimage.GamePieceImageDefinitions"


def _tools(vmod: Path) -> list[tuple]:
    """The dice, chart and tracker components, and Game Piece Image definitions that hold
    anything (zxvt draws its pieces from them)."""
    return [
        _canon(el)
        for el in read_vmod(vmod).buildfile
        if el.tag in TOOL_TAGS or (el.tag == PIECE_IMAGES and len(el))
    ]


@pytest.mark.parametrize("case", CASES)
def test_rebuilt_module_has_the_same_dice_charts_and_trackers(built, case: str) -> None:
    vmod, _, rebuilt = built[case]
    before = _tools(vmod)
    assert before, "every case has dice buttons"
    assert sorted(_tools(rebuilt), key=repr) == sorted(before, key=repr)


def test_game_piece_image_definitions_are_carried(built) -> None:
    _, src, rebuilt = built["zxvt-capture-the-territory"]
    text = (src / "piece_images.toml").read_text(encoding="utf-8")
    assert 'name = "Captured by Red"' in text or '"Captured by Red"' in text
    report = (src / "import-report.txt").read_text(encoding="utf-8")
    assert "GamePieceImageDefinitions" not in report
    assert sum(1 for _ in read_vmod(rebuilt).buildfile.iter(PIECE_IMAGES)) == 1


def test_tools_toml_says_what_a_designer_edits(built) -> None:
    _, src, _ = built["zxvt-capture-the-territory"]
    tools = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))
    assert [(d["name"], d["dice"], d["sides"]) for d in tools["dice"]] == [
        ("1d6", 1, 6),
        ("2d6", 2, 6),
        ("3d6", 3, 6),
    ]
    wall = next(s for s in tools["special_dice"] if s["name"] == "Wall")
    faces = wall["die"][0]["faces"]
    assert [f["value"] for f in faces] == [1, 2, 3, 4, 5, 6]
    assert faces[5] == {"text": "Capture", "value": 6, "icon": "images/conquer.png", "attrs": {}}
    _, src, _ = built["vive-lempereur"]
    tools = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))
    assert len(tools["dice"]) == 13
    close = next(d for d in tools["dice"] if d["name"] == "Close Combat Roll (Attacker)")
    assert (close["dice"], close["sides"], close["total"]) == (5, 6, False)

    def charts(widgets: list[dict]) -> list[tuple[str, str]]:
        found = []
        for w in widgets:
            if w["kind"] == "chart":
                found.append((w["chart"], w["image"]))
            found += charts(w.get("widgets", []))
        return found

    windows = {w["name"]: charts(w["widgets"]) for w in tools["chart_window"]}
    assert windows["Player Aid"] == [("Player Aid", "images/player aid.jpg")]
    assert len(windows["Activation Tables"]) == 3
    for _, image in windows["Activation Tables"]:
        assert (src / image).is_file()  # the chart's image is in the source
    report = json.loads((src / "import-report.json").read_text())
    assert report["tools"] == {
        "dice": 13,
        "special_dice": 0,
        "chart_window": 2,
        "turn_tracker": 0,
        # the module's own settings and its phase buttons (issue 27)
        "roster": 1,
        "global_options": 1,
        "documentation": 1,
        "action_button": 4,
        "toolbar_menu": 2,
        "notes": 0,
        "global_properties": 1,
        "language": 1,
    }
    carried = ("DiceButton", "DoActionButton", "ToolbarMenu", "PlayerRoster", "Documentation",
               "GlobalProperties")  # fmt: skip
    assert not [r for r in report["not_carried_over"] if any(c in r["where"] for c in carried)]


def test_turn_tracker_levels_are_carried_and_its_hotkey_is_reported(built) -> None:
    _, src, rebuilt = built["zxvt+tracker"]
    tools = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))
    (tracker,) = tools["turn_tracker"]
    (turn,) = tracker["levels"]
    assert (turn["kind"], turn["start"], turn["step"], turn["loop"], turn["limit"]) == (
        "counter",
        1,
        1,
        True,
        12,
    )
    assert turn["levels"][0]["items"] == ["Red move", "Blue move", "Capture, then score"]
    report = (src / "import-report.txt").read_text(encoding="utf-8")
    assert "TurnTracker 'Game Turn' > TurnGlobalHotkey 'Clear': a turn tracker's global" in report
    assert "1 turn tracker" in report.splitlines()[0]
    with zipfile.ZipFile(rebuilt) as z:
        assert b"Capture\\, then score" in z.read("buildFile.xml")


def test_edits_of_tools_toml_reach_the_module(built, tmp_path: Path) -> None:
    _, src, _ = built["zxvt-capture-the-territory"]
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    text = (copy / "tools.toml").read_text(encoding="utf-8")
    (copy / "tools.toml").write_text(text.replace("sides = 6", "sides = 10", 1))
    code, out = _run("build", str(copy), "-o", str(tmp_path / "b"), "-q")
    assert code == 0, out
    root = read_vmod(Path(out.strip())).buildfile
    first = next(root.iter("VASSAL.build.module.DiceButton"))
    assert (first.get("name"), first.get("nDice"), first.get("nSides")) == ("1d6", "1", "10")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("dice = 2", 'dice = "two"', "tools.toml: error: dice[1].dice: expected an integer"),
        ("sides = 6", "sidez = 6", "dice[0]: unknown key 'sidez'"),
        ('icon = "images/conquer.png"', 'icon = "../../x.png"', "expected an image file"),
        ("[[special_dice]]", "[[specail_dice]]", "unknown table 'specail_dice'"),
    ],
)
def test_check_names_a_broken_tools_toml(built, tmp_path, old, new, message) -> None:
    _, src, _ = built["zxvt-capture-the-territory"]
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    text = (copy / "tools.toml").read_text(encoding="utf-8")
    assert old in text
    (copy / "tools.toml").write_text(text.replace(old, new, 1))
    code, out = _run("check", str(copy))
    assert code == 1, out
    assert message in out


def test_missing_chart_image_is_a_report_item_and_a_check_warning(built, tmp_path) -> None:
    vmod, _, _ = built["vive-lempereur"]
    entries = {}
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist() if n != "images/player aid.jpg"}
    cut = tmp_path / "cut.vmod"
    with zipfile.ZipFile(cut, "w") as z:
        for n, data in sorted(entries.items()):
            z.writestr(n, data)
    src = tmp_path / "src"
    code, out = _run("import-vmod", str(cut), "-o", str(src))
    assert code == 0, out
    # the terminal has a summary, import-report.txt every item (issue 31)
    assert "thing(s) not carried over (import-report.txt)" in out
    assert (
        "module component ChartWindow 'Player Aid' > Chart 'Player Aid': image 'player aid.jpg'"
        " is not in the archive" in (src / "import-report.txt").read_text("utf-8")
    )
    assert len(out.splitlines()) <= 12
    code, out = _run("check", str(src))
    assert code == 0, out
    assert "chart_window[1].widgets[0].image: image 'images/player aid.jpg' is not in" in out


def test_vive_lempereur_file_less_set_up_is_carried_as_a_blank_game(built) -> None:
    """The set-up that stopped vcheck on vive-lempereur's original: "No Setup" is not a menu,
    says useFile="true" and names no file. VASSAL's Player starts a blank game for it
    (``PredefinedSetup.launch`` loads a file only with ``useFile`` and a file); the vcheck
    harness instead asks the archive for a file named null (an uncaught
    NullPointerException, then a JVM that does not exit). The import keeps it as a blank
    scenario, which ``build`` writes with ``useFile="false"`` (the same blank game, and a
    set-up vcheck skips); the live comparison loads the original without it
    (test_import_vmod_real_vassal.py)."""
    vmod, src, rebuilt = built["vive-lempereur"]
    fileless = [
        el.get("name")
        for el in read_vmod(vmod).buildfile.iter("VASSAL.build.module.PredefinedSetup")
        if el.get("isMenu") == "false" and el.get("useFile") == "true" and not el.get("file")
    ]
    assert fileless == ["No Setup"]
    scenario = tomllib.loads((src / "scenarios" / "no-setup.toml").read_text(encoding="utf-8"))
    assert scenario == {"scenario": {"name": "No Setup", "blank": True}}
    assert "No Setup" not in (src / "import-report.txt").read_text(encoding="utf-8")
    (blank,) = [
        el
        for el in read_vmod(rebuilt).buildfile.iter("VASSAL.build.module.PredefinedSetup")
        if el.get("name") == "No Setup"
    ]
    assert dict(blank.attrib) == {"isMenu": "false", "name": "No Setup", "useFile": "false"}


def test_a_blank_scenario_with_a_file_is_an_error(built, tmp_path) -> None:
    _, src, _ = built["vive-lempereur"]
    copy = tmp_path / "src"
    shutil.copytree(src, copy)
    (copy / "scenarios" / "no-setup.toml").write_text(
        '[scenario]\nname = "No Setup"\nblank = true\nfile = "x.vsav"\n', encoding="utf-8"
    )
    code, out = _run("check", str(copy))
    assert code == 1
    assert "scenarios/no-setup.toml: error: a blank [scenario] needs a name and no file" in out


def test_the_documented_tools_toml_example_is_valid(tmp_path: Path) -> None:
    """docs/module-source.md's ``tools.toml`` example passes the checks (its images are not
    here, so they are the only warnings) and builds the components it says."""
    from referee.source.diagnostics import Diagnostics
    from referee.source.vassal_tools import check_tools
    from referee.vassal.foreign.vmod_tools import add_tools

    text = (Path(__file__).parents[2] / "docs" / "module-source.md").read_text(encoding="utf-8")
    start = text.index("[[dice]]")
    data = tomllib.loads(text[start : text.index("```", start)])
    diags = Diagnostics(root=tmp_path)
    tools = check_tools(data, "tools.toml", tmp_path, diags)
    assert not diags.errors
    assert all("is not in the source" in d.message for d in diags.warnings)
    root = etree.Element("VASSAL.build.GameModule")
    add_tools(root, tools)
    level = next(root.iter("VASSAL.build.module.turn.CounterTurnLevel"))
    assert (level.get("start"), level.get("incr"), level.get("loopLimit")) == ("1", "1", "12")
    assert next(level.iter("VASSAL.build.module.turn.ListTurnLevel")).get("list") == (
        "Red move,Blue move"
    )
    die = next(root.iter("VASSAL.build.module.DiceButton"))
    assert (die.get("nDice"), die.get("nSides"), die.get("reportTotal")) == ("2", "6", "false")


@pytest.mark.parametrize(
    ("tag", "attr"),
    [("VASSAL.build.widget.Chart", "fileName"), ("VASSAL.build.module.SpecialDieFace", "icon")],
)
def test_a_chart_or_face_image_that_climbs_out_is_refused(built, tmp_path, tag, attr) -> None:
    vmod, _, _ = built["vive-lempereur" if "Chart" in tag else "zxvt-capture-the-territory"]
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    next(root.iter(tag)).set(attr, "../../etc/passwd")
    entries[name] = etree.tostring(root)
    bad = tmp_path / "bad.vmod"
    with zipfile.ZipFile(bad, "w") as z:
        for n, data in sorted(entries.items()):
            z.writestr(n, data)
    code, out = _run("import-vmod", str(bad), "-o", str(tmp_path / "src"))
    assert code == 2, out
    assert "image name refused" in out and "'../../etc/passwd'" in out and "nothing written" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.vmod"]


def test_a_setting_not_of_its_type_stays_as_vassal_text(built, tmp_path) -> None:
    vmod, _, _ = built["zxvt-capture-the-territory"]
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    root = etree.fromstring(entries["buildFile"])
    first = next(root.iter("VASSAL.build.module.DiceButton"))
    first.set("nDice", " 2")  # not an integer as written: kept, not re-spelled
    entries["buildFile"] = etree.tostring(root)
    odd = tmp_path / "odd.vmod"
    with zipfile.ZipFile(odd, "w") as z:
        for n, data in sorted(entries.items()):
            z.writestr(n, data)
    src = tmp_path / "src"
    assert _run("import-vmod", str(odd), "-o", str(src), "-q")[0] == 0
    dice = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))["dice"][0]
    assert "dice" not in dice and dice["attrs"]["nDice"] == " 2"
    code, out = _run("build", str(src), "-o", str(tmp_path / "b"), "-q")
    assert code == 0, out
    rebuilt = next(read_vmod(Path(out.strip())).buildfile.iter("VASSAL.build.module.DiceButton"))
    assert rebuilt.get("nDice") == " 2"


def test_sides_options_help_phase_buttons_notes_and_translations_are_carried(
    built, tmp_path: Path
) -> None:
    """Issue 27: the player roster (with its Solitaire seat), the global options, the help
    files and About screen, the phase buttons and the menus grouping them, the notes window
    and the translations are in tools.toml as a designer edits them, and the files the help
    and translations read are carried under files/ and written back byte for byte."""
    _, src, rebuilt = built["vive-lempereur"]
    tools = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))
    assert [e["name"] for e in tools["roster"][0]["sides"]] == ["Solitaire", "France", "Coalition"]
    assert tools["roster"][0]["button"] == "Retire"
    options = {o["name"]: o["value"] for o in tools["global_options"][0]["options"]}
    assert options["stepHotKey"] == "34,0" and tools["global_options"][0]["auto_report"] == "Always"
    parts = tools["documentation"][0]["parts"]
    assert parts[0] == {"kind": "about", "title": "About Module", "file": "Splash.png", "attrs": {}}
    menus = {m["button"]: m["items"] for m in tools["toolbar_menu"]}
    phases = [b["button"] for b in tools["action_button"]]
    assert menus["Phase Declaration"][:2] == [
        "1) Advance Game Turn Marker Phase", "2) Draw Activation Marker Phase"]  # fmt: skip
    assert phases[0] == "1) Advance Game Turn Marker Phase" and len(phases) == 4
    assert len(menus["Dice Rolls"]) == 13
    root = read_vmod(rebuilt).buildfile
    assert [e.text for e in root.iter("entry")] == ["Solitaire", "France", "Coalition"]
    _, src, _ = built["zxvt-capture-the-territory"]
    tools = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))
    assert [t["locale"] for t in tools["language"][0]["translations"]] == ["pl,PL", "ru,RU"]
    assert tools["notes"][0]["button"] == "Notes"
    # the files they read: a translation, a help page, the archive help file
    vmod = fixture_vmod("zxvt-capture-the-territory", tmp_path / "in", setup=False)
    extra = {
        "Module_pl_PL.properties": b"Notes=Notatki\n",
        "help/index.html": b"<html><body>Game rules</body></html>",
        "TODO": b"to do",
    }
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    # a global property the players change by a button (VP), which no fixture has
    entries["buildFile"] = entries["buildFile"].replace(
        b"\n    <VASSAL.build.module.properties.GlobalProperties/>\n",
        b"\n    <VASSAL.build.module.properties.GlobalProperties>"
        b'<VASSAL.build.module.properties.GlobalProperty description="Victory points" '
        b'initialValue="0" isNumeric="true" max="50" min="0" name="VP" wrap="false">'
        b'<VASSAL.build.module.properties.ChangePropertyButton hotkey="" report="VP up" '
        b'text="VP +1"/></VASSAL.build.module.properties.GlobalProperty>'
        b"</VASSAL.build.module.properties.GlobalProperties>\n",
        1,
    )
    with zipfile.ZipFile(vmod, "w") as z:
        for name, data in {**entries, **extra}.items():
            z.writestr(name, data)
    src = tmp_path / "src"
    code, out = _run("import-vmod", str(vmod), "-o", str(src), "-q")
    assert code == 0, out
    for name, data in extra.items():
        assert (src / "files" / name).read_bytes() == data
    prop = tomllib.loads((src / "tools.toml").read_text(encoding="utf-8"))["global_properties"]
    vp = prop[0]["properties"][0]
    assert (vp["name"], vp["initial"], vp["description"]) == ("VP", "0", "Victory points")
    assert vp["buttons"][0]["button"] == "VP +1"
    code, out = _run("build", str(src), "-o", str(tmp_path / "out"), "-q")
    assert code == 0, out
    with zipfile.ZipFile(Path(out.strip())) as z:
        assert {n: z.read(n) for n in extra} == extra
    assert sorted(_tools(Path(out.strip())), key=repr) == sorted(_tools(vmod), key=repr)
    # a file the module writes itself is refused under files/
    (src / "files" / "moduledata").write_bytes(b"x")
    code, out = _run("check", str(src))
    assert code != 0 and "files/moduledata" in out, out
