"""A game started straight from a VASSAL module (issue 30, part 3: "a module given with
--vmod"): ``referee new --vmod FILE.vmod`` imports the module into the archive's ``module/``
folder and every later command of the game (``adjudicate``, ``import-vlog``, ``verify``,
``viewer``) uses it without ``--module``. The module is the zxvt fixture of
``../shared/fixtures/vassal/`` with a set-up of its own pieces (``tests/declared/imported.py``),
made in a temporary folder."""

from __future__ import annotations

import base64
import io
import json
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image

from referee.vassal.foreign.game import load_imported_game
from tests.declared.conftest import orders_lines
from tests.declared.imported import skirmish_vmod
from tests.declared.test_imported_game import _Drags
from tests.pbem.cliflow import cli
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The players' and referee's keys and the module, in one folder."""
    root = tmp_path_factory.mktemp("vmod-game")
    skirmish_vmod(root)
    for name in ("red", "gray", "referee"):
        code, out = cli("keygen", name, "--out", root / "keys", "-q")
        assert code == 0, out
    return root


def _new(root: Path, game: Path, *extra: object) -> tuple[int, str]:
    return cli(
        "new", game, "--scenario", "skirmish",
        "--player", f"Red={root}/keys/red.pub", "--player", f"Gray={root}/keys/gray.pub",
        "--referee-key", root / "keys" / "referee.key",
        "--referee-dir", root / "secret" / game.name,
        "--game-id", "g", "--picture-dpi", "20", *extra,
    )  # fmt: skip


def _send(root: Path, game: Path, side: str, path: Path) -> tuple[int, str]:
    key = root / "keys" / f"{side.lower()}.key"
    code, out = cli("sign", path, "--key", key, "--game-dir", game)
    assert code == 0, out
    return cli(
        "adjudicate", game, path, "--key", root / "keys" / "referee.key",
        "--referee-dir", root / "secret" / game.name,
    )  # fmt: skip


def test_a_game_from_a_vmod_plays_and_verifies_without_module(table: Path) -> None:
    game = table / "game"
    code, out = _new(table, game, "--vmod", table / "zxvt-skirmish.vmod")
    assert code == 0, out
    assert (game / "module" / "module.toml").is_file()
    module, _ = load_imported_game(game / "module")
    assert module is not None and [s.id for s in module.sides] == ["Red", "Gray"]
    red = table / "red-1.txt"
    red.write_text("\n".join(orders_lines("Red", 1, "move Red C02 C01", 'roll 2d6 for "C01"')))
    code, out = _send(table, game, "Red", red)
    assert code == 0, out
    # Gray plays on the module: a VASSAL log of the latest position becomes the orders
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    last = game / "turns" / "001-Red-first" / "position.vsav"
    p = _Drags(
        last.read_bytes(),
        {q.id: q.vassal_id for q in sc.pieces},
        {k: (pt.map, pt.x, pt.y) for k, pt in sc.locations},
    )
    p.drag("Gray", "D05")
    p.chat('roll 1d6 for "Gray holds D05"')
    log = table / "gray-1.vlog"
    log.write_bytes(p.log_bytes())
    gray = table / "gray-1.txt"
    code, out = cli("import-vlog", log, "--game-dir", game, "-o", gray)
    assert code == 0, out
    code, out = _send(table, game, "Gray", gray)
    assert code == 0, out
    report = json.loads((game / "turns" / "002-Gray-second" / "report.json").read_text())
    assert "Gray moves to D05" in [e["text"] for e in report["events"]]
    code, out = cli("verify", game, "--json")
    assert code == 0, out
    assert json.loads(out)["ok"] is True
    code, out = cli("viewer", game, "-o", table / "viewer")
    assert code == 0 and (table / "viewer").is_file(), out


def test_a_changed_module_folder_fails_verification(table: Path) -> None:
    game = table / "changed"
    code, out = _new(table, game, "--vmod", table / "zxvt-skirmish.vmod")
    assert code == 0, out
    units = game / "module" / "units.csv"
    units.write_text(units.read_text() + "\n")
    code, out = cli("verify", game)
    assert code != 0 and "not the one game g was created with" in out, out


@pytest.mark.parametrize(
    ("extra", "want"),
    [
        (("--module", "x"), "give either --vmod or --module/--example, not both"),
        ((), "no such module file"),
    ],
)
def test_new_vmod_refusals_leave_nothing(
    table: Path, tmp_path: Path, extra: tuple[str, ...], want: str
) -> None:
    game = tmp_path / "game"
    code, out = _new(table, game, "--vmod", tmp_path / "missing.vmod", *extra)
    assert code == 2 and want in out, out
    assert not game.exists()


def test_a_file_that_is_no_module_is_refused_and_leaves_nothing(
    table: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.vmod"
    bad.write_bytes(b"not a zip at all")
    game = tmp_path / "game"
    code, out = _new(table, game, "--vmod", bad)
    assert code == 2 and "nothing written" in out, out
    assert not game.exists()


def test_a_set_up_the_vmod_lacks_is_refused_and_leaves_nothing(table: Path, tmp_path: Path) -> None:
    """A set-up that cannot start (an unknown scenario): exit 2, no folder left behind."""
    game = tmp_path / "game"
    code, out = cli(
        "new", game, "--scenario", "nosuch", "--vmod", table / "zxvt-skirmish.vmod",
        "--player", f"Red={table}/keys/red.pub", "--player", f"Gray={table}/keys/gray.pub",
        "--referee-key", table / "keys" / "referee.key", "--referee-dir", tmp_path / "s",
    )  # fmt: skip
    assert code == 2 and "skirmish" in out, out
    assert not game.exists()


def _with_a_chart(vmod: Path, out: Path) -> Path:
    """``vmod`` with a chart window of its own: "Orders of Battle", one chart of that name
    and its picture (as a module's designer adds one in VASSAL's editor)."""
    with zipfile.ZipFile(vmod) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    name = "buildFile.xml" if "buildFile.xml" in entries else "buildFile"
    root = etree.fromstring(entries[name])
    window = etree.SubElement(
        root,
        "VASSAL.build.module.ChartWindow",
        {"hotkey": "", "icon": "", "name": "Orders of Battle", "text": "OOB", "tooltip": ""},
    )
    etree.SubElement(
        window,
        "VASSAL.build.widget.Chart",
        {"chartName": "Orders of Battle", "fileName": "oob.png"},
    )
    entries[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    buf = io.BytesIO()
    Image.new("RGB", (2400, 300), (200, 30, 30)).save(buf, format="PNG")
    entries["images/oob.png"] = buf.getvalue()
    path = out / "zxvt-chart.vmod"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n in sorted(entries):
            z.writestr(n, entries[n])
    return path


def test_the_viewer_shows_what_the_imported_game_has(table: Path) -> None:
    """A game begun from a VASSAL module: its viewer has no Score table (the game has no
    score [G1]) and its play aids are the module's own charts, by the module's own names,
    not charts drawn for a module of ours (no Terrain Effects Chart, no turn record)."""
    from referee.commands.common import load_game_source
    from referee.viewer.page import AID_PIXELS, imported_aids

    game = table / "charted"
    code, out = _new(table, game, "--vmod", _with_a_chart(table / "zxvt-skirmish.vmod", table))
    assert code == 0, out
    module = load_game_source(game / "module", quiet=True)
    aids = imported_aids(module)
    assert [a["title"] for a in aids] == ["Orders of Battle"]
    code, out = cli("viewer", game, "-o", table / "charted.html")
    assert code == 0, out
    html = (table / "charted.html").read_text(encoding="utf-8")
    assert ">Orders of Battle</button>" in html
    assert "Terrain Effects Chart" not in html and "Turn Record" not in html
    assert '"score":null' in html and '"score":{' not in html
    # the picture is the module's own, fitted to the viewer (2400 px wide in the module)
    png = base64.b64decode(aids[0]["image"].split(",", 1)[1])
    with Image.open(io.BytesIO(png)) as img:
        assert img.size == (AID_PIXELS, 200)


def test_an_edited_chart_picture_is_not_taken_from_the_cache(table: Path, tmp_path: Path) -> None:
    """An imported module's charts are files of its source (``tools.toml`` and the pictures
    it names), not fields of the module: a picture edited in place, the module otherwise the
    same, is drawn again with the cache on, not handed back from the entry of the old one."""
    import shutil

    from referee.cache import Cache, activated
    from referee.commands.common import load_game_source
    from referee.viewer import page

    game = table / "charted-cache"
    code, out = _new(table, game, "--vmod", _with_a_chart(table / "zxvt-skirmish.vmod", table))
    assert code == 0, out
    src = tmp_path / "module"
    shutil.copytree(game / "module", src)
    with activated(Cache(tmp_path / "cache")) as cache:
        page._CACHE.clear()
        red = page.play_aids(load_game_source(src, quiet=True), "skirmish")
        assert cache.stats.stored
        picture = next(p for p in src.rglob("oob.png"))
        Image.new("RGB", (2400, 300), (30, 30, 200)).save(picture, format="PNG")
        page._CACHE.clear()  # as a new process would start
        edited = load_game_source(src, quiet=True)
        blue = page.play_aids(edited, "skirmish")
    page._CACHE.clear()
    assert [a["title"] for a in blue] == ["Orders of Battle"]
    assert blue != red
    assert blue == json.loads(json.dumps(page.imported_aids(edited)))


def test_the_score_panel_shows_what_a_game_scores() -> None:
    """No panel for a game that scores nothing (a declared or imported game [G1]); the one
    VP track of a game that has one [CBG 24.1]; a row a side otherwise."""
    from referee.commands.common import load_checked
    from referee.demos.base import ROOT
    from referee.viewer.data import score_table

    declared = load_checked(ROOT / "module_src" / "strait_patrol", quiet=True)
    not_scored = {"result": "not scored (a declared game)", "rule": "G1"}
    assert score_table(declared, {"score": not_scored, "scenario": "patrol"}) is None
    cbg = load_checked(ROOT / "module_src" / "carrier_battlegroup", quiet=True)
    panel = score_table(cbg, {"score": {"vp": -3, "rule": "24.1"}, "scenario": "mission"})
    assert panel is not None and panel["sides"] == [["the game", -3]]
    sf = load_checked(ROOT / "module_src" / "sixth_fleet", quiet=True)
    panel = score_table(sf, {"score": {"vp": {"NATO": 4, "Soviet": 7}}, "scenario": "short"})
    assert panel is not None and [row[1] for row in panel["sides"]] == [4, 7]
