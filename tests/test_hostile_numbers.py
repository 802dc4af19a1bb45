"""Issue 31, "hostile input": numbers in every file are ASCII digits, read in one place.

``str.isdigit`` accepts "²" (which ``int`` then refuses: an internal error) and ``int`` reads
the Arabic-Indic "٣" as 3. Each reproducer of the issue is a test here: the input is refused
with a message naming the place and the character, and a documented exit code (1 or 2),
never the internal error (70) and never a silent reading.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from referee.engine.orders import OrdersSyntaxError, parse_orders
from referee.numerals import MAX_DIGITS, NumberError, is_digits, read_whole, whole
from referee.pbem.envelope import read_header
from tests.clirun import run_main

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "module_src"


def run_cli(args: list[str]) -> tuple[int, str]:
    """``referee ARGS`` in-process as the console script runs it (:func:`run_main`): (exit
    code, standard output then standard error)."""
    ran = run_main(args)
    return ran.code, ran.out + ran.err


# -- the one reader -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["²", "٣", "３", " 3", "3 ", "+3", "1_000", "3.0", "", "9" * (MAX_DIGITS + 1), "0x3"]
)
def test_only_ascii_digits_are_numbers(text):
    assert read_whole(text) is None
    with pytest.raises(NumberError):
        whole(text)


def test_numbers_and_ranges():
    assert read_whole("0042") == 42
    assert read_whole("-3") is None and read_whole("-3", signed=True) == -3
    assert read_whole("7", lo=1, hi=6) is None and read_whole(7) == 7
    assert read_whole(True) is None and read_whole([3]) is None
    assert is_digits("0303") and not is_digits("٠٣٠٣") and not is_digits(303)


def test_the_message_names_the_look_alike():
    with pytest.raises(NumberError) as info:
        whole("²", what="a Game-Turn number")
    assert "SUPERSCRIPT TWO" in info.value.message and "0-9" in info.value.hint
    with pytest.raises(NumberError) as info:
        whole("٣")
    assert "ARABIC-INDIC DIGIT THREE" in info.value.message


# -- orders: `turn: ²` and `turn: ٣` ------------------------------------------------------


@pytest.fixture(scope="module")
def sf_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("sf") / "state.json"
    code, out = run_cli(
        ["state", "new", "--example", "sixth_fleet", "--scenario", "short", "-o", str(p)]
    )
    assert code == 0, out
    return p


@pytest.mark.parametrize("turn", ["²", "٣"])
def test_orders_turn_in_other_digits_is_refused(sf_state, tmp_path, turn):
    orders = tmp_path / "orders.txt"
    orders.write_text(f"game: sixth_fleet-short\nturn: {turn}\nside: NATO\n", encoding="utf-8")
    code, out = run_cli(["validate", "--state", str(sf_state), str(orders)])
    assert code == 1, out
    assert "orders.txt:2:1: [syntax] expected a Game-Turn number after 'turn:'" in out
    assert "not one of the digits 0-9" in out and "internal error" not in out
    assert "missing header 'turn" not in out  # the line is there; it says the wrong thing


def test_orders_turn_is_never_read_from_other_digits():
    from referee.engine.ruleset import get_ruleset

    vocab = get_ruleset("sixth_fleet_1975").vocabulary
    with pytest.raises(OrdersSyntaxError) as info:
        parse_orders("turn: ٣\n", "o.txt", vocab)
    assert info.value.partial is not None and info.value.partial.turn is None
    assert "ARABIC-INDIC DIGIT THREE" in str(info.value)
    assert read_header("turn: ٣\n").turn is None
    assert read_header("turn: ٣\n").turn_written == "٣"
    assert read_header("turn: 3\n").turn == 3


def test_adjudicate_names_a_malformed_turn(tmp_path):
    """`adjudicate` said "orders of NATO for Game-Turn None"; now it says what is wrong."""
    from referee.pbem.problems import Refusal
    from tests.pbem import toy

    toy.install()
    from referee.pbem.adjudicate import adjudicate
    from referee.pbem.game import create_game
    from referee.pbem.keys import generate
    from referee.pbem.signing import sign_orders
    from referee.source.loader import load_module

    module, _ = load_module(Path(toy.TOY_FIXTURE))
    assert module is not None
    keys = {n: generate(n) for n in ("nato", "soviet", "ref")}
    game = tmp_path / "game"
    create_game(
        game,
        module,
        scenario="skirmish",
        players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
        referee_key=keys["ref"],
        game_id="g",
        dice_length=8,
        referee_dir=tmp_path / "secret",
        seed_root=bytes(32),
        picture_dpi=0,
    )
    body = "game: g\nturn: ²\nside: NATO\n\nplace US-DD-1 0202\n"
    with pytest.raises(Exception) as info:  # `sign` refuses it before anything is signed
        sign_orders(body, "o.txt", keys["nato"], game)
    assert "SUPERSCRIPT TWO" in str(info.value)
    signed = sign_orders(body, "o.txt", keys["nato"], None)  # signed without the game
    p = tmp_path / "o.txt"
    p.write_text(signed.text, encoding="utf-8")
    with pytest.raises(Refusal) as refused:
        adjudicate(
            game, [p], referee_key=keys["ref"], module=module, referee_dir=tmp_path / "secret"
        )
    assert refused.value.code == "syntax"
    assert "o.txt:2: expected a Game-Turn number after 'turn:'" in refused.value.message
    assert "None" not in refused.value.message


# -- module sources ----------------------------------------------------------------------


def _copy(tmp_path: Path, name: str) -> Path:
    dst = tmp_path / name
    shutil.copytree(SRC / name, dst)
    return dst


def test_cbg_carrier_start_in_other_digits_fails_check(tmp_path):
    """`CIC,²` passed `check`, then `state new` crashed in setup.py."""
    src = _copy(tmp_path, "carrier_battlegroup")
    csv = src / "tables" / "carrier.csv"
    text = csv.read_text(encoding="utf-8")
    csv.write_text(text.replace("CIC,d6,", "CIC,²,").replace("Hull,12,", "Hull,١٢,"), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "tables/carrier.csv:3:5: error: CIC start: expected d6 or a whole number" in out
    assert "SUPERSCRIPT TWO" in out and "ARABIC-INDIC DIGIT ONE" in out
    code, out = run_cli(["state", "new", str(src), "--scenario", "mission"])
    assert code == 1 and "internal error" not in out, out


def test_cbg_carrier_start_over_its_track_fails_check(tmp_path):
    src = _copy(tmp_path, "carrier_battlegroup")
    csv = src / "tables" / "carrier.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Hangar,8,", "Hangar,9,"), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1 and "Hangar start: expected a whole number from 0 to 8, got '9'" in out


@pytest.mark.parametrize("start", ['"²"', '"٣"', '"x"', "[]"])
def test_calendar_start_must_be_a_number(tmp_path, start):
    src = _copy(tmp_path, "carrier_battlegroup")
    sc = src / "scenarios" / "mission.toml"
    text = sc.read_text(encoding="utf-8")
    sc.write_text(text.replace("[calendar]\n", f"[calendar]\nstart = {start}\n"), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "scenarios/mission.toml:12: error: calendar start must be a whole number" in out


def test_calendar_start_as_digits_still_works(tmp_path):
    src = _copy(tmp_path, "carrier_battlegroup")
    sc = src / "scenarios" / "mission.toml"
    text = sc.read_text(encoding="utf-8")
    sc.write_text(text.replace("[calendar]\n", '[calendar]\nstart = "1"\n'), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 0, out


def test_unit_values_in_other_digits_fail_check(tmp_path):
    src = _copy(tmp_path, "sixth_fleet")
    units = src / "units.csv"
    text = units.read_text(encoding="utf-8")
    row = next(ln for ln in text.splitlines() if ln.startswith("US-CV-1,"))
    bad = row.replace("Saratoga,7,", "Saratoga,٧,").replace(",,1,,rules", ",,²,,rules")
    units.write_text(text.replace(row, bad), encoding="utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "value AA must be a whole number, got '٧' ('٧' is ARABIC-INDIC DIGIT SEVEN" in out
    assert "count must be a whole number from 1 to 500, got '²'" in out


def test_dtp_detection_cell_in_other_digits():
    from referee.rules.sixth_fleet_dtp.tables import DetectionEntry, parse_detection

    assert parse_detection("4") == DetectionEntry(False, 4)
    assert parse_detection("٤") is None and parse_detection("⁴") is None


def test_middle_east_table_d6_in_other_digits(tmp_path):
    src = _copy(tmp_path, "sixth_fleet")
    found = [p for p in src.rglob("*.csv") if "middle" in p.name.lower()]
    assert found, "the 14.3 table of the SPI module source"
    table = found[0]
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    i = next(i for i, ln in enumerate(lines) if ln[:1] == "1")
    lines[i] = "²" + lines[i][1:]
    table.write_text("".join(lines), encoding="utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1 and "internal error" not in out, out
    assert f"middle_east_air.csv:{i + 1}:1: error: 'd6' must be a die roll" in out


# -- VASSAL ------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["3.²", "٣.٧", "3.7"])
def test_vassal_version_in_other_digits(tmp_path, version):
    """`<VassalVersion>3.²` crashed `read_vmod`; any other digit reads as VASSAL's 0 does."""
    from referee.vassal.foreign.vmod import read_vmod

    p = tmp_path / "m.vmod"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr(
            "moduledata",
            f"<?xml version='1.0'?><data version='1'><VassalVersion>{version}</VassalVersion>"
            "</data>",
        )
        z.writestr("buildFile", "<?xml version='1.0'?><VASSAL.build.GameModule name='x'/>")
    if version == "3.7":
        with pytest.raises(Exception, match=r"no buildFile\.xml entry"):
            read_vmod(p)
    else:
        assert read_vmod(p).buildfile.tag == "VASSAL.build.GameModule"


def test_2019_extra_action_param_must_be_a_number(tmp_path):
    """`int(param)` at play time would have crashed on a module that `check` accepted."""
    src = _copy(tmp_path, "sixth_fleet_2019")
    t = src / "tables" / "events_nato.csv"
    t.write_text(t.read_text("utf-8").replace("1,extra_action,1,", "1,extra_action,²,"), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "tables/events_nato.csv:5:16: error: extra_action: expected the number of extra" in out
    assert "SUPERSCRIPT TWO" in out


def test_cbg_hit_and_terrain_cells_the_rules_read_as_numbers(tmp_path):
    """`int(...)` on the Hit Table's 'N damage' and the TEC's extra_chits at play time."""
    src = _copy(tmp_path, "carrier_battlegroup")
    hit = src / "tables" / "hit.csv"
    hit.write_text(hit.read_text("utf-8").replace("4,EW,2 damage,", "4,EW,² damage,"), "utf-8")
    tec = src / "tables" / "terrain.csv"
    text = tec.read_text("utf-8")
    row = next(ln for ln in text.splitlines() if ln.startswith("chokepoint,"))
    cells = row.split(",")
    cells[11] = "٢"  # extra_chits
    tec.write_text(text.replace(row, ",".join(cells)), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "4, ship: expected 'N damage' (N from 1 to 9)" in out and "SUPERSCRIPT TWO" in out
    assert "chokepoint: expected extra_chits 'none' or a whole number from 0 to 3" in out
    assert "ARABIC-INDIC DIGIT TWO" in out


@pytest.mark.parametrize("minimum", ['""', '"²"', "[]", "1.5", "-1"])
def test_victory_minimum_must_be_a_whole_number(tmp_path, minimum):
    """Found by the long fuzz run (issue 31, docs/reliability.md): ``[victory] minimum = ""``
    in a scenario was an internal error (``int('')``) in ``check``."""
    src = _copy(tmp_path, "dtp_denmark_strait")
    sc = src / "scenarios" / "denmark_strait.toml"
    text = sc.read_text(encoding="utf-8")
    assert "\nminimum = 1\n" in text
    sc.write_text(text.replace("\nminimum = 1\n", f"\nminimum = {minimum}\n"), "utf-8")
    code, out = run_cli(["check", str(src)])
    assert code == 1, out
    assert "scenarios/denmark_strait.toml:44: error: [victory] minimum: expected a whole" in out
    assert "internal error" not in out
