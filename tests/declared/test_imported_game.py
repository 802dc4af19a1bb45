"""A module imported from VASSAL played by email (issue 30, part 3): ``referee new`` on an
``import-vmod`` source, orders and VASSAL logs naming the module's own pieces and locations,
signed reports that say the game is refereed for its record and dice, not its rules, and
``verify``. The module is the zxvt fixture of ``../shared/fixtures/vassal/`` with a set-up
of its own pieces (``tests/declared/imported.py``), made in a temporary folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.source.gamedecl import NOT_RULES, not_rules
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.foreign.game import imported_locations, load_imported_game
from referee.vassal.foreign.movelist import read_log
from tests.declared.conftest import orders_lines, reports_of
from tests.declared.imported import PIECE_IDS, skirmish_vmod
from tests.pbem.cliflow import Table, cli
from tests.vassal.test_import_vlog import Player
from tests.vassal.test_real_vassal_play import VCHECK
from tests.vassal.vassal_jvm import vcheck
from tests.vassal.vcheck_locations import FIXTURES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="../shared fixtures missing")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The imported source of the zxvt module with its "Skirmish" set-up."""
    tmp = tmp_path_factory.mktemp("imported")
    src = tmp / "src"
    code, out = cli("import-vmod", skirmish_vmod(tmp / "vmods"), "-o", src, "-q")
    assert code == 0, out
    return src


@pytest.fixture(scope="module")
def played(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Table:
    """Game-Turn 1 of both sides: moves, a free roll, a marker, an elimination."""
    t = Table(tmp_path_factory.mktemp("imported-game"), source, ("Red", "Gray"))
    t.new("skirmish")
    t.send("Red", *orders_lines("Red", 1, "move Red C02 C01", 'roll 2d6 for "capture of C01"',
                                "mark Town held"))  # fmt: skip
    t.send("Gray", *orders_lines("Gray", 1, "move Gray D05", "eliminate Captured-by-Red.2"))
    return t


def _state(t: Table) -> GameState:
    return GameState.from_json(json.loads((t.game / "state.json").read_text()))


def test_the_source_reads_as_a_game_of_the_modules_own_names(source: Path) -> None:
    module, diags = load_imported_game(source)
    assert module is not None, [str(d) for d in diags.items]
    assert [s.id for s in module.sides] == ["Red", "Gray"]  # the module's player roster
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    assert [p.id for p in sc.pieces] == list(PIECE_IDS)
    assert [(p.name, p.location) for p in sc.pieces][:3] == [
        ("Red", "B02"),
        ("Gray", "D04"),
        ("Town", "C03"),
    ]
    keys = [k for k, _ in sc.locations]
    assert len(keys) == 42 and {"A01", "B02", "D05", "G06"} <= set(keys) and "offboard" not in keys
    locations = imported_locations(module)
    layout = locations.layout()
    for key, pt in sc.locations:  # every point is named by its key, as VASSAL names it
        assert layout.name(pt.map, pt.x, pt.y) == key


def test_a_source_without_sides_says_what_to_add(source: Path, tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(source, copy)
    text = (copy / "module.toml").read_text()
    (copy / "module.toml").write_text(text[: text.index("# The sides")])
    code, out = cli("new", tmp_path / "game", "--module", copy, "--scenario", "skirmish",
                    "--player", "Red=x.pub", "--referee-key", "x.key")  # fmt: skip
    assert code == 1, out
    assert "module.toml: error: an imported module is played by two or more sides" in out
    assert "[[side]]" in out and not (tmp_path / "game").exists()


def test_orders_are_recorded_in_the_modules_names_and_verify(played: Table) -> None:
    reports = reports_of(played)
    red, gray = reports[1], reports[2]
    for r in reports[1:]:
        assert r["events"][0]["text"] == f"A declared game, {not_rules(True)}."  # begun since [G6]
    texts = [e["text"] for e in red["events"]]
    assert "Red moves to C01 by C02" in texts and "Town marked held" in texts
    roll = next(e for e in red["events"] if e["kind"] == "roll")
    assert roll["rule"] == "G3" and [r["value"] for r in red["rolls"]] == roll["data"]["faces"]
    assert "Captured-by-Red.2 eliminated" in [e["text"] for e in gray["events"]]
    md = (played.game / "turns" / "001-Red-first" / "report.md").read_text()
    assert "| Red | Red | C01 |" in md  # the module's piece and location names
    units = _state(played).units
    assert units["Red"].location == "C01" and units["Gray"].location == "D05"
    assert units["Captured-by-Red.2"].location is None
    code, verdict = played.verify()
    assert code == 0, json.dumps(verdict)[:2000]


def test_position_vsav_is_the_setup_with_the_games_moves(played: Table, source: Path) -> None:
    module, _ = load_imported_game(source)
    assert module is not None
    last = played.game / "turns" / "002-Gray-second" / "position.vsav"
    save = read_save_bytes(last.read_bytes())
    assert save.moduledata is not None and b"Capture of the territory" in save.moduledata
    end = {(p.name, p.location) for p in read_log(save.commands, imported_locations(module)).end}
    assert end == {
        ("Red", "C01"),
        ("Gray", "D05"),
        ("Town", "C03"),
        ("Captured by Red", "B03"),
        ("Captured by Gray", "D03"),
    }
    again = played.game / "turns" / "002-Gray-second" / "position.vsav"
    assert again.read_bytes() == last.read_bytes()


@pytest.mark.parametrize(
    ("line", "col", "want"),
    [
        ("move Red Z99", 10, "[G1] no location 'Z99' on the map"),
        ("move Rde C02", 6, "[G1] no piece 'Rde' in this game (hint: did you mean 'Red'?)"),
        ('roll 2x6 for "the town"', 6, "[G3] '2x6' is not a dice expression"),
        ("roll 2d6 on crt", 13, "[G4] no table 'crt' in this module"),
    ],
)
def test_bad_orders_are_refused_at_their_word(
    played: Table, line: str, col: int, want: str
) -> None:
    out = played.send("Red", *orders_lines("Red", 2, line), expect=1)
    assert f":9:{col}: {want}" in out, out


class _Drags(Player):
    """Drags of an imported module's pieces as VASSAL logs them (our codec), to the point
    of each location of the game."""

    def __init__(self, save: bytes, ids: dict[str, str], points: dict[str, tuple[str, int, int]]):
        super().__init__(None, save)  # type: ignore[arg-type]
        self.ids = ids
        self.points = points

    def point_of(self, where: str | tuple[str, int, int]) -> tuple[str, int, int]:
        return where if isinstance(where, tuple) else self.points[where]


def test_a_vassal_log_becomes_orders_and_verifies(
    played: Table, source: Path, tmp_path: Path
) -> None:
    module, _ = load_imported_game(source)
    assert module is not None
    sc = module.game.imported.scenario("skirmish")  # type: ignore[union-attr]
    last = sorted((played.game / "turns").glob("*/position.vsav"))[-1]
    p = _Drags(
        last.read_bytes(),
        {q.id: q.vassal_id for q in sc.pieces},
        {k: (pt.map, pt.x, pt.y) for k, pt in sc.locations},
    )
    p.drag("Red", "C02")
    p.drag("Red", "D02")
    p.chat('roll 2d6 for "Red takes D02"')
    p.drag("Town", (sc.point("C03").map, -40, -40))  # off the boards: no location
    p.chat("good game")
    p.chat("flip Town")
    log = tmp_path / "red-2.vlog"
    log.write_bytes(p.log_bytes())
    out = tmp_path / "orders.txt"
    code, text = cli("import-vlog", log, "--game-dir", played.game, "--module", source, "-o", out)
    assert code == 1 and "2 thing(s) not translated" in text, text
    assert "Town was dragged to offboard, no location of the game" in text
    lines = out.read_text().splitlines()
    body = [ln for ln in lines[lines.index("[orders]") + 1 :] if not ln.startswith("#")]
    assert body == ["move Red C02 D02", 'roll 2d6 for "Red takes D02"', "flip Town"]
    played.send("Red", *lines)
    texts = [e["text"] for e in reports_of(played)[-1]["events"]]
    assert "Red moves to D02 by C02" in texts and "Town flipped to its back" in texts
    code, verdict = played.verify()
    assert code == 0, json.dumps(verdict)[:2000]


def _vassal_missing() -> str | None:
    if not VCHECK.is_file():
        return f"the real-VASSAL checker is not at {VCHECK}"
    if shutil.which("java") is None and not list(Path("/usr/lib/jvm").glob("java-17-*/bin/java")):
        return "Java is not installed (run ../shared/tools/vassal-check/setup)"
    return None


def _vcheck(vmod: Path, *saves: Path, out: Path, args: str = "") -> tuple[int, str]:
    """Real VASSAL 3.7.26 on ``vmod`` and ``saves``: exit code, stderr (the zxvt board has no
    image in the original module too: that one problem is allowed)."""
    run = vcheck([vmod, *saves], out, args=args, allow="board has no image")
    if run.returncode == 2 and "missing" in run.stderr:
        pytest.skip("vcheck's prerequisites are missing: " + run.stderr.strip())
    return run.returncode, run.stderr


@pytest.mark.vassal
@pytest.mark.skipif(_vassal_missing() is not None, reason=str(_vassal_missing()))
def test_real_vassal_moves_a_piece_and_loads_the_referees_save(
    source: Path, tmp_path: Path
) -> None:
    """Real VASSAL makes Red's log on the game's first position.vsav (vcheck's
    ``--write-vlog``: VASSAL's own drag commands, to the squares its grid names); the log
    becomes Red's orders, the referee signs the step, and real VASSAL loads the step's
    position.vsav with every piece where the log put it (VASSAL's own location names)."""
    code, out = cli("build", source, "-o", tmp_path / "build", "-q")
    assert code == 0, out
    vmod = next((tmp_path / "build").glob("*.vmod"))
    t = Table(tmp_path / "play", source, ("Red", "Gray"))
    t.new("skirmish")
    start = t.game / "turns" / "000-setup-request" / "position.vsav"
    vlog = tmp_path / "red-1.vlog"
    code, err = _vcheck(
        vmod, out=tmp_path / "write.txt",
        args=f"--no-slots --no-setups --write-vlog {start} Red C02,D02 {vlog}",
    )  # fmt: skip
    assert code == 0, err
    orders = tmp_path / "red-1.txt"
    code, text = cli("import-vlog", vlog, "--game-dir", t.game, "--module", source, "-o", orders)
    assert code == 0, text
    lines = orders.read_text().splitlines()
    assert [ln for ln in lines[lines.index("[orders]") + 1 :] if ln] == ["move Red C02 D02"]
    t.send("Red", *lines)
    after = t.game / "turns" / "001-Red-first" / "position.vsav"
    code, err = _vcheck(vmod, after, out=tmp_path / "load.txt", args="--no-slots --no-setups")
    assert code == 0, err
    pieces = sorted(
        (f[6], f[5])
        for f in (ln.split("\t") for ln in (tmp_path / "load.txt").read_text().splitlines())
        if f[0] == "PIECE" and f[1] == str(after)
    )
    assert pieces == [
        ("Captured by Gray", "D03"),
        ("Captured by Red", "B03"),
        ("Captured by Red", "B04"),
        ("Gray", "D04"),
        ("Red", "D02"),
        ("Town", "C03"),
    ]


def test_validate_says_what_the_referee_checks(played: Table, source: Path, tmp_path: Path) -> None:
    state = _state(played)
    side = state.active_side
    assert side is not None
    orders = tmp_path / "orders.txt"
    orders.write_text(
        "\n".join([*orders_lines(side, state.turn, "move Town D03", 'roll 2d6 for "D03"'), ""])
    )
    code, out = cli("validate", orders, "--state", played.game / "state.json", "--module", source)
    assert code == 0 and "ok: no violations" in out, out
    assert f"a declared game, {NOT_RULES}" in out


def test_the_viewer_shows_the_modules_map_the_steps_and_the_dice(
    played: Table, source: Path, tmp_path: Path
) -> None:
    from tests.declared.test_declared_play import viewer_data

    out = tmp_path / "viewer.html"
    code, text = cli("viewer", played.game, "--module", source, "-o", out)
    assert code == 0, text
    html = out.read_text()
    data = viewer_data(html)
    reports = reports_of(played)
    assert len(data["steps"]) == len(reports)
    assert [r["value"] for r in data["steps"][1]["rolls"]] == [
        r["value"] for r in reports[1]["rolls"]
    ]
    assert "Red moves to C01 by C02" in [e["text"] for e in data["steps"][1]["events"]]
    assert '<img id="board"' in html  # the module's board, its locations by VASSAL's names
    assert {"B02", "C01", "D05"} <= set(data["board"]["kinds"])


def test_the_viewers_orders_mode_offers_the_awaited_sides_pieces(
    played: Table, source: Path, tmp_path: Path
) -> None:
    """The awaited side's viewer drafts orders from the declared ruleset's options: its own
    pieces and the pieces of no side (all of this module's), each with its moves."""
    from tests.declared.test_declared_play import viewer_data

    side = _state(played).active_side
    assert side is not None
    out = tmp_path / "viewer.html"
    code, text = cli("viewer", played.game, "--module", source, "--side", side, "-o", out)
    assert code == 0, text
    draft = viewer_data(out.read_text())["draft"]
    assert draft is not None and draft["side"] == side
    units = draft["units"]
    assert {"Red", "Gray", "Town"} <= set(units), sorted(units)
    assert "Captured-by-Red.2" not in units  # eliminated: off the map, nothing to order
