"""Issue 11, "internal error" on hostile input: every reproducer is a regression test.

Each case feeds a malformed file to a command in-process and checks the documented outcome:
a clear message naming the file (and a line:col or a JSON path) and exit 1 or 2, never the
internal error (70).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.engine.core import GameState
from referee.pbem.verify import VerifyFailure, verify_archive
from referee.shapes import ShapeError
from tests.clirun import Runner
from tests.pbem.conftest import setup_both
from tests.pbem.test_pbem_verify import _resign

runner = Runner()


def _cli(args: list[str]) -> tuple[int, str]:
    """Run the CLI as `referee` runs it (cli.main's error handling included)."""
    import sys

    from referee import cli

    old = sys.argv
    sys.argv = ["referee", *args]
    try:
        with pytest.raises(SystemExit) as info:
            cli.main()
    finally:
        sys.argv = old
    return int(info.value.code or 0), ""


# -- cause 1: a damaged game.toml under verify or adjudicate ----------------------------


def test_a_damaged_game_toml_fails_verify_with_its_line_and_column(make_game, capsys):
    g = make_game()
    toml = g.dir / "game.toml"
    toml.write_text(toml.read_text().replace("[dice]", "[dice", 1))
    code, _ = _cli(["verify", str(g.dir), "--module", str(g.module.root)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "verify FAILED" in err and "game.toml:" in err and "internal error" not in err
    line = next(i for i, t in enumerate(toml.read_text().splitlines(), 1) if t == "[dice")
    assert f"game.toml:{line}:" in err


def test_a_damaged_game_toml_refuses_adjudicate_with_exit_1(make_game, capsys, tmp_path):
    g = make_game()
    orders = g.signed("NATO", ["place US-DD-1 0202"])
    toml = g.dir / "game.toml"
    toml.write_text(toml.read_text().replace("[dice]", "[dice", 1))
    key = tmp_path / "ref.key"
    from referee.pbem.keys import write_key_pair

    write_key_pair(g.keys["ref"], tmp_path)
    code, _ = _cli(
        ["adjudicate", str(g.dir), str(orders), "--key", str(key), "--module", str(g.module.root)]
    )
    err = capsys.readouterr().err
    assert code == 1 and "refused (archive)" in err and "game.toml:" in err, err


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ("length = 64", 'length = "64"', "game.toml.dice.length"),
        ("[referee]\nkey = ", "[referee]\nkeys = ", "game.toml.referee.key"),
    ],
)
def test_a_game_toml_of_the_wrong_shape_names_the_entry(make_game, capsys, old, new, path):
    g = make_game()
    toml = g.dir / "game.toml"
    assert old in toml.read_text()
    toml.write_text(toml.read_text().replace(old, new, 1))
    code, _ = _cli(["verify", str(g.dir), "--module", str(g.module.root)])
    err = capsys.readouterr().err
    assert code == 1 and path in err, err


# -- cause 2: a malformed but validly signed report.json ---------------------------------


@pytest.mark.parametrize(
    ("folder", "change", "path"),
    [
        ("000-setup-request", lambda r: r.update(players={"NATO": "x"}), "$.players.NATO"),
        ("000-setup-request", lambda r: r.update(dice=[]), "$.dice"),
        ("003-NATO-move", lambda r: r.update(rolls="six"), "$.rolls"),
        ("003-NATO-move", lambda r: r["rolls"][0].update(value="6"), "$.rolls[0].value"),
        ("003-NATO-move", lambda r: r.update(orders={"side": 1}), "$.orders.side"),
        # issue 31, fuzz target `report`: the template printed a missing phase (crash)
        ("003-NATO-move", lambda r: r["orders"].pop("phase"), "$.orders.phase"),
        ("003-NATO-move", lambda r: r.update(awaiting=[]), "$.awaiting"),
        ("003-NATO-move", lambda r: r.update(sequence="3"), "$.sequence"),
        ("003-NATO-move", lambda r: r.update(referee="me"), "$.referee"),
    ],
)
def test_a_malformed_signed_report_fails_verify_with_its_json_path(make_game, folder, change, path):
    g = make_game()
    setup_both(g)
    g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    where = g.dir / "turns" / folder
    report = json.loads((where / "report.json").read_text())
    change(report)
    _resign(where, report, g.keys["ref"])
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.file == f"turns/{folder}/report.json"
    assert path in info.value.message


def test_a_malformed_signed_report_is_refused_by_adjudicate(make_game):
    from referee.pbem.problems import Refusal

    g = make_game()
    orders = g.signed("NATO", ["place US-DD-1 0202"])
    where = g.dir / "turns/000-setup-request"
    report = json.loads((where / "report.json").read_text())
    report["players"] = {"NATO": "x"}
    _resign(where, report, g.keys["ref"])
    with pytest.raises(Refusal) as info:
        g.run(orders)
    assert info.value.code == "archive" and "$.players.NATO" in info.value.message


# -- cause 3: a structurally broken state.json under validate / options ------------------


def _state(g) -> dict:
    return json.loads((g.dir / "state.json").read_text())


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda s: s["stacks"].update({"0202": ["NO-SUCH-UNIT"]}), "$.stacks['0202'][0]"),
        (lambda s: s.update(turn="1"), "$.turn"),
        (lambda s: s.update(units={}), "$.units"),
        (lambda s: s["units"][0].update(location=[]), "$.units[0].location"),
        (lambda s: s["units"][0].update(status="x"), "$.units[0].status"),
        (lambda s: s.update(pending=[{"id": 1}]), "$.pending[0].id"),
        (lambda s: s["units"].append(dict(s["units"][0])), "$.units["),
        (lambda s: s.update(data=[]), "$.data"),
    ],
)
def test_a_broken_state_is_refused_with_its_json_path(make_game, change, path):
    g = make_game()
    setup_both(g)
    s = _state(g)
    change(s)
    with pytest.raises(ShapeError) as info:
        GameState.from_json(s)
    assert path in str(info.value)


def test_a_state_whose_unit_stands_off_the_stack_is_refused(make_game):
    g = make_game()
    setup_both(g)
    s = _state(g)
    placed = next(u for u in s["units"] if u["location"])
    placed["location"] = "0909" if placed["location"] != "0909" else "0808"
    with pytest.raises(ShapeError, match=r"\$\.units\[\d+\]\.location"):
        GameState.from_json(s)


@pytest.mark.parametrize("command", ["validate", "options"])
def test_validate_and_options_on_a_broken_state_exit_2(tmp_path, capsys, command):
    from referee.resources import example_path

    src = example_path("sixth_fleet")
    assert src is not None
    st = tmp_path / "state.json"
    code, _ = _cli(
        [
            "state",
            "new",
            "--example",
            "sixth_fleet",
            "-o",
            str(st),
            "--scenario",
            sorted(p.stem for p in (src / "scenarios").glob("*.toml"))[0],
        ]
    )
    capsys.readouterr()
    if code != 0:
        pytest.skip("state new needs other arguments here")
    s = json.loads(st.read_text())
    s["stacks"]["0101"] = ["NOT-A-UNIT"]
    st.write_text(json.dumps(s))
    orders = tmp_path / "o.txt"
    orders.write_text("side: NATO\n")
    args = (
        ["validate", str(orders), "--state", str(st)]
        if command == "validate"
        else ["options", "--state", str(st), "NOT-A-UNIT"]
    )
    code, _ = _cli(args)
    err = capsys.readouterr().err
    assert code == 2 and "$.stacks" in err and "internal error" not in err, err


def test_a_state_with_a_unit_off_the_map_does_not_fit_the_module(make_game):
    from referee.engine.graphboard import board_for
    from referee.engine.state_shape import check_state_fits

    g = make_game()
    setup_both(g)
    s = _state(g)
    placed = next(u for u in s["units"] if u["location"])
    old = placed["location"]
    placed["location"] = "nowhere"
    s["stacks"]["nowhere"] = s["stacks"].pop(old)
    st = GameState.from_json(s)
    with pytest.raises(ShapeError, match=r"location on the map"):
        check_state_fits(st, g.module, board_for(g.module.map))


# -- cause 5: a dry-run batch ------------------------------------------------------------


def test_a_dry_run_batch_is_the_exact_preview_of_the_batch(make_game, tmp_path):
    g = make_game()
    nato = g.signed("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"])
    [first] = g.run(nato, dry_run=True)
    from referee.pbem.signing import sign_orders

    head = nato.read_text().split("-----BEGIN")[0]
    head = re.sub(r"(?m)^side: .*$", "side: Soviet", head)
    head = re.sub(r"(?m)^previous-report: .*$", f"previous-report: {first.report_sha256}", head)
    head = "\n".join(t for t in head.splitlines() if ":" in t and not t.startswith("place"))
    soviet = tmp_path / "soviet.txt"
    body = head + "\nplace SO-DD-1 0403\nplace SO-SG-1 0302\nplace SO-T16.1 0506\n"
    soviet.write_text(sign_orders(body, "soviet.txt", g.keys["soviet"], None).text)
    preview = g.run(nato, soviet, dry_run=True)
    assert [r.status for r in preview] == ["dry-run", "dry-run"]
    assert [r.sequence for r in preview] == [1, 2]
    twice = g.run(nato, nato, soviet, dry_run=True)  # used to be an IndexError in _one
    assert [r.sequence for r in twice] == [1, 1, 2]
    real = g.run(nato, soviet)
    assert [r.report_sha256 for r in real] == [r.report_sha256 for r in preview]
    assert [r.sequence for r in real] == [1, 2]
    verify_archive(g.dir, g.module)


def test_copying_an_archive_keeps_it_verifying(make_game, tmp_path):
    g = make_game()
    setup_both(g)
    copy = tmp_path / "copy"
    shutil.copytree(g.dir, copy)
    assert verify_archive(copy, g.module).reports == 3
    assert Path(copy / "game.toml").is_file()


# -- dice: a submission that does not advance the game ------------------------------------


def test_standing_orders_only_are_refused_and_use_no_seed(make_game, monkeypatch):
    """Both bundled rulesets already refuse such a file in validation ([T6], [4.0]); the
    referee's own guard holds for a ruleset that accepts it, as Sixth Fleet once did."""
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.problems import Refusal
    from tests.pbem.test_pbem_flow import files_of

    rs = type(get_ruleset("toy"))
    lenient = rs.validate

    def accept_standing_only(self, module, state, orders):
        if state.pending and not orders.answers:
            return []
        return lenient(self, module, state, orders)

    resolve = rs.resolve

    def resolve_standing_only(self, module, state, orders, dice):
        if state.pending and not orders.answers:  # record the standing orders, nothing else
            from referee.engine.core import Outcome

            standing = {**state.data.get("standing", {}), orders.side: "retreat-first"}
            return Outcome(state.with_data(standing=standing), (), ())
        return resolve(self, module, state, orders, dice)

    monkeypatch.setattr(rs, "validate", accept_standing_only)
    monkeypatch.setattr(rs, "resolve", resolve_standing_only)
    g = make_game()
    setup_both(g)
    p = g.orders_rolling("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"], {3, 4})
    [r] = g.run(p)
    assert r.report["pending"], "the test needs a decision owed"
    before = files_of(g.dir)
    for i in range(3):
        idle = g.signed("Soviet", ["standing retreat-first", f"# try {i}"], name=f"idle{i}.txt")
        with pytest.raises(Refusal) as info:
            g.run(idle)
        assert info.value.code == "no-progress" and "retreat-SO-SG-1" in str(info.value)
        with pytest.raises(Refusal):
            g.run(idle, dry_run=True)
    assert files_of(g.dir) == before  # no turn folder, no seed index used
    option = r.report["pending"][0]["options"][0]
    [a] = g.run(g.signed("Soviet", ["standing retreat-first", f"answer retreat-SO-SG-1 {option}"]))
    assert a.sequence == 4
    verify_archive(g.dir, g.module)


def test_the_documented_ci_prints_no_outcome_before_it_is_pushed():
    """docs/ci.md: the adjudication's output goes to a file, printed only after git push."""
    text = (Path(__file__).parents[2] / "docs" / "ci.md").read_text()
    flow = text.split("```yaml", 1)[1].split("```", 1)[0]
    adjudicate = flow.index("referee adjudicate game --key")
    push = flow.index("git push")
    shown = flow.index('cat "$RUNNER_TEMP/result.json"')
    step = flow[adjudicate : flow.index("- name:", adjudicate)]
    assert "tee" not in step and '> "$RUNNER_TEMP/result.json"' in step
    assert adjudicate < push < shown


@pytest.mark.parametrize(
    ("cut", "where"),
    [
        ("\n[notes", "game.toml:{n}:7: Expected ']'"),
        ("\nextra = [1,\n2", "game.toml:{n}:2: Unclosed"),
    ],
)
def test_a_game_toml_cut_short_still_gets_a_line_and_column(make_game, cut, where) -> None:
    """tomllib says only ``(at end of document)`` for an unclosed header or array: the
    refusal still points at the file's last line, not at the bare file name."""
    from referee.pbem.archive import GameConfig
    from referee.pbem.problems import Refusal

    g = make_game()
    text = (g.dir / "game.toml").read_text() + cut
    with pytest.raises(Refusal) as info:
        GameConfig.parse(text)
    n = len(text.split("\n"))
    assert str(info.value).startswith(where.format(n=n)), info.value
    assert "end of document" not in str(info.value)


def test_a_refused_new_leaves_no_referee_folder_behind(tmp_path, toy_module, keys) -> None:
    """`referee new afile/g --referee-dir ref9/deep` (afile a regular file) is refused, and
    neither ``ref9/deep`` nor ``ref9`` (made for the seeds) is left behind."""
    from referee.errors import UserError
    from referee.pbem.game import create_game
    from tests.pbem.conftest import SEED_ROOT

    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    with pytest.raises((OSError, UserError)):
        create_game(
            blocker / "g",
            toy_module,
            scenario="skirmish",
            players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
            referee_key=keys["ref"],
            game_id="g",
            dice_length=64,
            referee_dir=tmp_path / "ref9" / "deep",
            seed_root=SEED_ROOT,
            picture_dpi=0,
        )
    assert not (tmp_path / "ref9").exists()
    assert blocker.read_text() == "not a folder"
